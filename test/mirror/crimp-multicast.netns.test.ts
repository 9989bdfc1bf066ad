// CRIMP over real IP multicast: three mirrors in their own network namespaces on one bridge (a LAN has
// multicast), each on a real UDP socket joined to a multicast group and dropping a fifth of what arrives
// (nftables); originals, NAKs and repairs go to the group in one datagram each, state blocks by unicast. Every
// payload reaches every mirror exactly once and is released.
// Needs root and namespaces; skips with one line otherwise.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabEvent, NatSite } from '../netlab/lab';
import { Lab, canMakeNamespaces } from '../netlab/lab';

const support = canMakeNamespaces();
if (!support.ok) console.warn(`CRIMP multicast test skipped: ${support.reason}`);

const MEMBER = fileURLToPath(new URL('./crimp-member.ts', import.meta.url));
const GROUP = '239.255.77.1';
const PORT = 7400;
const COUNT = 100;
const LOSS_PCT = 20;

describe.skipIf(!support.ok)('CRIMP over IP multicast between namespaces, 20 % loss', () => {
  let lab: Lab | undefined;
  let site: NatSite;

  beforeAll(async () => {
    lab = await Lab.create();
    // One LAN bridge with three hosts on it; the router and its NAT play no part (nothing leaves the LAN).
    site = await lab.addNatSite({ kind: 'cone', dropUnsolicited: true, clients: 3 });
    // Each host loses a fifth of the CRIMP datagrams it receives (multicast and unicast alike).
    for (const c of site.clients) {
      await lab.exec(
        c.ns,
        'nft',
        ['-f', '-'],
        [
          'table inet crimploss {',
          '  chain in {',
          '    type filter hook input priority 0;',
          `    udp dport ${PORT} numgen random mod 100 < ${LOSS_PCT} drop`,
          '  }',
          '}',
          '',
        ].join('\n'),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await lab?.destroy();
  });

  it('delivers every payload exactly once to every mirror, originals as one datagram for the group', async () => {
    if (lab === undefined) throw new Error('lab not built');
    const addresses = site.clients.map((c) => c.address).join(',');
    const procs = site.clients.map((c, i) =>
      lab?.spawn(
        c.ns,
        process.execPath,
        ['--import', 'tsx', MEMBER, String(i), addresses, GROUP, String(PORT), String(COUNT)],
        `mirror${i}`,
      ),
    );
    const done: LabEvent[] = [];
    for (const p of procs) {
      if (p === undefined) throw new Error('spawn');
      done.push(await p.done(40_000));
    }
    console.log(`crimp multicast: ${JSON.stringify(done)}`);
    for (const d of done) {
      expect(d.delivered).toBe(2 * COUNT);
      expect(d.expected).toBe(2 * COUNT);
      expect(d.twice).toBe(0);
      expect(d.buffered).toBe(0);
      // Each original went once to the group, not once per member.
      expect(d.originated).toBe(COUNT);
      expect(Number(d.groupSends)).toBeLessThanOrEqual(
        COUNT + Number(d.naksSent) + Number(d.repairsSent),
      );
    }
    // A fifth lost on the way in: mirrors asked, and someone repaired.
    expect(done.reduce((n, d) => n + Number(d.naksSent), 0)).toBeGreaterThan(0);
    expect(done.reduce((n, d) => n + Number(d.repairsSent), 0)).toBeGreaterThan(0);
  }, 90_000);
});
