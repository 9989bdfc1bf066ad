// Our TURN client through a real coturn: two clients, each behind a symmetric NAT (where no direct path opens),
// allocate with time-limited credentials, permit each other's relayed address and exchange a bounded stream of pings
// both ways, over ChannelData and (for comparison) over Send / Data indications; prints the relay round-trip time
// and the bytes each datagram's framing costs. Needs root and coturn; skips with one line otherwise.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnRestCredentials } from '../../src-main/net/turn-client';
import type { Host, LabEvent, LabProcess, NatSite, TurnServer } from './lab';
import { Lab, canMakeNamespaces, onPath } from './lab';

const support = canMakeNamespaces();
const skip = !support.ok
  ? support.reason
  : !onPath('turnserver')
    ? 'turnserver (Debian package coturn) is missing'
    : undefined;
if (skip !== undefined) console.warn(`turn netns test skipped: ${skip}`);

const PEER_SCRIPT = fileURLToPath(new URL('./turn-peer.ts', import.meta.url));
const SECRET = 'turn-netns-secret';
const PINGS = 200;
const PING_EVERY_MS = 5;
/** Odd on purpose: a Send indication pads its DATA to 4 bytes, ChannelData over UDP is not padded. */
const PING_SIZE = 101;
/** The allocation lifetime of the short-lived coturn, in seconds. */
const SHORT_LIFETIME_S = 5;

const addressField = (e: LabEvent, key: string): string => {
  const v = e[key] as { address?: unknown; port?: unknown } | undefined;
  if (typeof v?.address !== 'string' || typeof v.port !== 'number')
    throw new Error(`event ${e.ev} has no address ${key}: ${JSON.stringify(e)}`);
  return `${v.address}:${String(v.port)}`;
};
const hostOf = (a: string): string => a.slice(0, a.lastIndexOf(':'));

describe.skipIf(skip !== undefined)(
  'TURN client through coturn, between two symmetric NATs',
  () => {
    let lab: Lab | undefined;
    let relayHost: Host;
    let sites: NatSite[];
    let turn: TurnServer;
    const tempDirs: string[] = [];

    const theLab = (): Lab => {
      if (lab === undefined) throw new Error('lab not built');
      return lab;
    };

    beforeAll(async () => {
      lab = await Lab.create();
      relayHost = await lab.addPublicHost();
      sites = [
        await lab.addNatSite({ kind: 'symmetric', dropUnsolicited: true }),
        await lab.addNatSite({ kind: 'symmetric', dropUnsolicited: true }),
      ];
      turn = await lab.startTurn(relayHost, { secret: SECRET });
    });
    // destroy() kills every process it started by its process group id, then removes the namespaces, pass or fail.
    afterAll(async () => {
      await lab?.destroy();
      for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    /** Both peers allocate, try each other directly, permit each other, ping both ways, then close. */
    async function exchange(channels: boolean): Promise<LabEvent[]> {
      const server = `${relayHost.address}:${turn.port}`;
      const peers: LabProcess[] = sites.map((site, i) => {
        const c = site.clients[0];
        if (c === undefined) throw new Error('site without a client');
        const creds = turnRestCredentials(SECRET, `peer${i}`, 600, Math.floor(Date.now() / 1000));
        const args = ['--turn', server, '--username', creds.username, '--password', creds.password];
        if (!channels) args.push('--no-channels');
        return theLab().spawn(
          c.ns,
          process.execPath,
          ['--import', 'tsx', PEER_SCRIPT, ...args],
          `turn-peer-${i}`,
        );
      });
      const [a, b] = peers;
      if (a === undefined || b === undefined) throw new Error('unreachable');
      try {
        const allocated = await Promise.all(
          peers.map((p) => p.waitFor((e) => e.ev === 'allocated' || e.ev === 'failed')),
        );
        expect(allocated.map((e) => e.ev)).toEqual(['allocated', 'allocated']);
        const relayed = allocated.map((e) => addressField(e, 'relayed'));
        const mapped = allocated.map((e) => addressField(e, 'mapped'));
        expect(relayed.map(hostOf)).toEqual([relayHost.address, relayHost.address]);
        expect(mapped.map(hostOf)).toEqual(sites.map((s) => s.router.address));
        const [relayedA = '', relayedB = ''] = relayed;
        const [mappedA = '', mappedB = ''] = mapped;

        // No direct path: each NAT gives the other peer a new public port and drops what it did not ask for.
        a.write(`direct ${mappedB} 10`);
        b.write(`direct ${mappedA} 10`);

        const ready = channels ? 'channel-bound' : 'permitted';
        a.write(`permit ${relayedB}`);
        b.write(`permit ${relayedA}`);
        await Promise.all(peers.map((p) => p.waitFor((e) => e.ev === ready)));

        a.write(`ping ${relayedB} ${PINGS} ${PING_EVERY_MS} ${PING_SIZE}`);
        b.write(`ping ${relayedA} ${PINGS} ${PING_EVERY_MS} ${PING_SIZE}`);
        const done = await Promise.all(peers.map((p) => p.done()));

        a.write('close');
        b.write('close');
        const closed = await Promise.all(
          peers.map((p) => p.waitFor((e) => e.ev === 'closed' || e.ev === 'failed')),
        );
        expect(closed.map((e) => e.ev)).toEqual(['closed', 'closed']);
        return done;
      } finally {
        await Promise.all(peers.map((p) => p.kill()));
      }
    }

    function show(framing: string, i: number, d: LabEvent): void {
      const rtt = d.rttMs as Record<string, number | null>;
      console.info(
        `turn netns (${framing}): peer ${i} behind a symmetric NAT, ${String(d.pongs)}/${PINGS} pings of ` +
          `${PING_SIZE} B answered through coturn; relay RTT min ${String(rtt.min)} / median ` +
          `${String(rtt.median)} / p95 ${String(rtt.p95)} / max ${String(rtt.max)} ms; ` +
          `framing overhead ${String(d.overheads)} B per datagram; from the server: ` +
          `${String(d.fromServerChannelData)} ChannelData, ${String(d.fromServerStun)} STUN`,
      );
    }

    it('keeps an allocation working after its time-limited credentials expire (coturn checks them at creation)', async () => {
      const c = sites[0]?.clients[0];
      if (c === undefined) throw new Error('site without a client');
      const creds = turnRestCredentials(SECRET, 'brief', 3, Math.floor(Date.now() / 1000));
      const start = (label: string): LabProcess =>
        theLab().spawn(
          c.ns,
          process.execPath,
          ['--import', 'tsx', PEER_SCRIPT, '--turn', `${relayHost.address}:${turn.port}`].concat([
            '--username',
            creds.username,
            '--password',
            creds.password,
          ]),
          label,
        );
      const peer = start('turn-peer-brief');
      let late: LabProcess | undefined;
      try {
        const first = await peer.waitFor((e) => e.ev === 'allocated' || e.ev === 'failed');
        expect(first.ev).toBe('allocated');
        // Minted to expire 2–3 s from now, well after the allocation (the peer starts in well under a second), and
        // used again past the expiry: CreatePermission and ChannelBind for the allocation still succeed, while a new
        // allocation with the same credentials is refused.
        const expiry = Number(creds.username.split(':')[0]) * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, expiry - Date.now()) + 1_500));
        peer.write(`permit ${relayHost.address}:40000`);
        const next = await peer.waitFor(
          (e) => e.ev === 'channel-bound' || e.ev === 'permit-failed' || e.ev === 'failed',
        );
        expect(next.ev).toBe('channel-bound');
        late = start('turn-peer-late');
        const refused = await late.waitFor((e) => e.ev === 'allocated' || e.ev === 'failed');
        expect([refused.ev, refused.reason]).toEqual(['failed', 'unauthorized']);
      } finally {
        await Promise.all([peer.kill(), late?.kill()]);
      }
    });

    it('refreshes a short-lived allocation through coturn, answering its stale nonces (438)', async () => {
      // A coturn of our own on a second public host (the lab's startTurn takes no extra flags): 5 s allocations,
      // nonces stale after 2 s.
      const host = await theLab().addPublicHost();
      const dir = mkdtempSync(join(tmpdir(), 'gb-turn-short-'));
      tempDirs.push(dir);
      theLab().spawn(
        host.ns,
        'turnserver',
        [
          '-n',
          `--listening-ip=${host.address}`,
          `--relay-ip=${host.address}`,
          `--external-ip=${host.address}`,
          '--listening-port=3478',
          '--use-auth-secret',
          `--static-auth-secret=${SECRET}`,
          '--realm=ghostboard',
          '--no-tls',
          '--no-dtls',
          '--no-cli',
          '--min-port=49160',
          '--max-port=49200',
          `--max-allocate-lifetime=${SHORT_LIFETIME_S}`,
          '--stale-nonce=2',
          '--log-file=stdout',
          '--simple-log',
          `--db=${join(dir, 'turndb')}`,
          `--pidfile=${join(dir, 'turnserver.pid')}`,
        ],
        'turnserver-short',
      );
      const ready = await theLab()
        .probe(
          host.ns,
          'binding',
          ['--to', `${host.address}:3478`, '--tries', '100'],
          'short-ready',
        )
        .done();
      expect(ready.answered).toBe(1);
      const c = sites[0]?.clients[0];
      if (c === undefined) throw new Error('site without a client');
      const creds = turnRestCredentials(SECRET, 'short', 600, Math.floor(Date.now() / 1000));
      const peer = theLab().spawn(
        c.ns,
        process.execPath,
        ['--import', 'tsx', PEER_SCRIPT, '--turn', `${host.address}:3478`].concat([
          '--username',
          creds.username,
          '--password',
          creds.password,
        ]),
        'turn-peer-short',
      );
      try {
        const allocated = await peer.waitFor((e) => e.ev === 'allocated' || e.ev === 'failed');
        expect([allocated.ev, allocated.lifetimeMs]).toEqual([
          'allocated',
          SHORT_LIFETIME_S * 1000,
        ]);
        // The refresh goes out at 80 % of 5 s, after the nonce went stale; coturn grants a refresh without
        // LIFETIME its default 600 s, so one refresh is all this test waits for.
        const refreshed = await peer.waitFor((e) => e.ev === 'refreshed' || e.ev === 'failed');
        expect(refreshed.ev).toBe('refreshed');
        expect(peer.events.filter((e) => e.ev === 'failed')).toEqual([]);
        peer.write('stats');
        const stats = await peer.waitFor((e) => e.ev === 'stats');
        const counters = stats.counters as Record<string, number>;
        // The 401 of the first Allocate, then the 438 of the refresh.
        expect(counters.challenges).toBeGreaterThanOrEqual(2);
        console.info(
          `turn netns: a ${SHORT_LIFETIME_S} s allocation refreshed through coturn with nonces stale after 2 s ` +
            `(granted ${String(refreshed.lifetimeMs)} ms); challenges answered ${String(counters.challenges)}, ` +
            `retransmits ${String(counters.retransmits)}`,
        );
      } finally {
        await peer.kill();
      }
    });

    it('relays a stream of pings both ways over ChannelData (4 bytes of framing)', async () => {
      const done = await exchange(true);
      for (const [i, d] of done.entries()) {
        show('ChannelData', i, d);
        expect(d.overheads, `peer ${i}`).toEqual([4]);
        expect(d.pongs, `peer ${i}: pongs`).toBeGreaterThan(0);
        expect(d.directHeard, `peer ${i}: direct datagrams heard`).toBe(0);
        // The peer's pings and pongs came in as ChannelData too.
        expect(d.fromServerChannelData, `peer ${i}`).toBeGreaterThanOrEqual(Number(d.pongs));
      }
    });

    it('relays the same stream over Send and Data indications when channels are off (36 + padding)', async () => {
      const done = await exchange(false);
      for (const [i, d] of done.entries()) {
        show('Send indication', i, d);
        expect(d.overheads, `peer ${i}`).toEqual([36 + ((4 - (PING_SIZE % 4)) % 4)]);
        expect(d.pongs, `peer ${i}: pongs`).toBeGreaterThan(0);
        expect(d.fromServerChannelData, `peer ${i}`).toBe(0);
      }
    });
  },
);
