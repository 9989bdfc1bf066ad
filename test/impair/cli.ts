// Command line for the impairment proxy: parses flags, runs one proxy until SIGINT and prints a JSON stats line each second; knows nothing of what it carries.
import { parseArgs } from 'node:util';
import { parseAddress } from '../../src-main/net/address';
import type { Impairment } from '../../src-main/net/impairment';
import type { ProxyDirection } from './proxy';
import { ImpairmentProxy } from './proxy';

const USAGE = `usage: npx tsx test/impair/cli.ts --listen 127.0.0.1:7400 --target 127.0.0.1:7350 [options]
  --loss P         drop probability 0..1 (default 0)
  --delay MS       one-way delay (default 0)
  --jitter MS      extra uniform delay in [0, MS) (default 0)
  --reorder P      probability of an extra 1-3 x delay hold (default 0)
  --duplicate P    probability of a second copy (default 0)
  --kbps K         bottleneck in kbit/s, 28 B/datagram counted; 0 = unlimited (default 0)
  --queue-ms MS    tail drop past this bottleneck wait (default 200)
  --only up|down   impair one direction; the other is perfect (default: both)
  --seed N         RNG seed (default 1)
  --max-clients N  (default 1024)    --idle-ms MS  client expiry (default 30000)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function num(value: string | undefined, name: string, fallback: number, max = Infinity): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > max) fail(`--${name} must be a number in 0..${max}`);
  return n;
}

const { values } = parseArgs({
  options: {
    listen: { type: 'string' },
    target: { type: 'string' },
    loss: { type: 'string' },
    delay: { type: 'string' },
    jitter: { type: 'string' },
    reorder: { type: 'string' },
    duplicate: { type: 'string' },
    kbps: { type: 'string' },
    'queue-ms': { type: 'string' },
    only: { type: 'string' },
    seed: { type: 'string' },
    'max-clients': { type: 'string' },
    'idle-ms': { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help === true) fail('');
const listen = parseAddress(values.listen ?? '') ?? fail('--listen host:port is required');
const target = parseAddress(values.target ?? '') ?? fail('--target host:port is required');
const impaired: Impairment = {
  loss: num(values.loss, 'loss', 0, 1),
  delayMs: num(values.delay, 'delay', 0),
  jitterMs: num(values.jitter, 'jitter', 0),
  reorder: num(values.reorder, 'reorder', 0, 1),
  duplicate: num(values.duplicate, 'duplicate', 0, 1),
  bandwidthBps: num(values.kbps, 'kbps', 0) * 1000,
  maxQueueMs: num(values['queue-ms'], 'queue-ms', 200),
};
const perfect: Impairment = {
  ...impaired,
  loss: 0,
  delayMs: 0,
  jitterMs: 0,
  reorder: 0,
  duplicate: 0,
  bandwidthBps: 0,
};
const only = values.only;
if (only !== undefined && only !== 'up' && only !== 'down') fail('--only must be up or down');
const conditionsFor = (d: ProxyDirection): Impairment =>
  only === undefined || only === d ? impaired : perfect;

const proxy = await ImpairmentProxy.start({
  listen,
  target,
  upstream: conditionsFor('up'),
  downstream: conditionsFor('down'),
  seed: num(values.seed, 'seed', 1),
  maxClients: num(values['max-clients'], 'max-clients', 1024),
  idleTimeoutMs: num(values['idle-ms'], 'idle-ms', 30_000),
}).catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
process.stderr.write(
  `impairment proxy ${JSON.stringify(proxy.address)} -> ${JSON.stringify(target)}\n`,
);

const print = (): void => {
  const s = proxy.stats();
  process.stdout.write(
    `${JSON.stringify({ t: Date.now(), activeClients: s.clients.length, ...s })}\n`,
  );
};
const ticker = setInterval(print, 1000);
const stop = (): void => {
  clearInterval(ticker);
  print();
  void proxy.close(); // with its sockets and timers gone the process exits by itself
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
