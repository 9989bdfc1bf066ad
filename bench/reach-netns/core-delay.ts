// Adds a fixed one-way delay to everything a lab's core router forwards, by policy routing through a userspace
// delay line on a TUN device (delay.py); knows nothing of the sites on the core or of what crosses it.
//
// `tc netem` is missing on this machine (NETLAB.md), so the delay is userspace, like bench/router's. The lab is
// only wrapped from here: test/netlab/lab.ts stays as the tests use it.
import { fileURLToPath } from 'node:url';
import type { Lab, LabProcess } from '../../test/netlab/lab';

const DELAY_PY = fileURLToPath(new URL('./delay.py', import.meta.url));
const DEV = 'gbdelay';
/** A routing table of the core namespace's own, holding only the route into the delay line. */
const TABLE = '100';
const READY_MS = 10_000;

/**
 * Every packet the core forwards between its subnets goes into the TUN device (rule `lookup 100`), the delay line
 * holds it `delayMs` and writes it back, and, having come in on the TUN device, it is routed on by the main table.
 * One crossing of the core is one traversal of the line: a site-to-site path gets `delayMs` each way. The core
 * forwards each packet twice, so it counts as two hops to TTL; a TTL-2 priming datagram from behind a NAT still
 * dies at the core, as it does without the delay.
 */
export async function delayCore(
  lab: Lab,
  delayMs: number,
  maxSeconds: number,
): Promise<LabProcess> {
  const line = lab.spawn(
    lab.core,
    'python3',
    [DELAY_PY, DEV, String(delayMs), String(maxSeconds)],
    'delay-line',
  );
  await line.waitFor((e) => e.ev === 'ready', READY_MS);
  // Packets come back on the TUN device from addresses routed elsewhere: reverse-path filtering would drop them.
  for (const conf of ['all', 'default', DEV])
    await lab.exec(lab.core, 'sysctl', ['-qw', `net.ipv4.conf.${conf}.rp_filter=0`]);
  const ip = (...args: string[]): Promise<string> => lab.exec(lab.core, 'ip', args);
  await ip('link', 'set', DEV, 'up');
  await ip('route', 'add', 'default', 'dev', DEV, 'table', TABLE);
  await ip('rule', 'add', 'pref', '100', 'iif', DEV, 'lookup', 'main');
  await ip('rule', 'add', 'pref', '200', 'lookup', TABLE);
  return line;
}
