import { describe, expect, it } from 'vitest';
import { NO_IMPAIRMENT } from '../net/impairment';
import { BUSY_HIGH, BUSY_LOW, MIN_PEER_PACKETS } from './host-packet-rates';
import { bigBoard } from './testing/big-board';
import { makeSimSession } from './testing/sim-session';

// A host with many peers asks each for fewer packets, and sends each fewer (host-packet-rates.ts): here budgets of
// 240 packets/s over 8 peers, so 30 each, against the usual 66 up and 85 down. Every peer moves its pointer at 60
// Hz, and each still sees the others' pointers move with every packet. A late joiner fetching the board keeps the
// host's full cap until it has it. Virtual time; each seed is printed with its failure.

const SEEDS = [51, 52];
const PEERS = 8;
const LEAD_MS = 2000;
const WINDOW_MS = 2000;

function run(
  seed: number,
  budgets: { upstreamPackets?: number; downstreamPackets?: number } = {},
  delayMs = 5,
) {
  const s = makeSimSession({ seed, conditions: { ...NO_IMPAIRMENT, delayMs }, ...budgets });
  const seen = new Array<number>(PEERS).fill(0);
  let counting = false;
  for (let i = 0; i < PEERS; i++) {
    s.addPeer(`u${i}`);
    s.peers[i]?.on((e) => {
      if (counting && e.type === 'pointer' && e.moved) seen[i] = (seen[i] ?? 0) + 1;
    });
  }
  s.sim.runUntil(1500);
  const start = s.sim.now;
  s.sim.every(1000 / 60, (now) => {
    s.peers.forEach((p, i) => p.pointer(100 * i + Math.round((now - start) / 10), 50));
  });
  // Past the credit an idle peer saved (a second's worth): from then on it sends at its rate.
  s.sim.runUntil(start + LEAD_MS);
  const built = (): number[] =>
    s.peers.map((p) => p.connection?.events.scheduler.stats(s.sim.now).packetsBuilt ?? 0);
  const hostBuilt = (): number[] =>
    s.host.peerConnections().map((c) => c.stack.events.scheduler.stats(s.sim.now).packetsBuilt);
  const before = built();
  const hostBefore = hostBuilt();
  counting = true;
  s.sim.runUntil(start + LEAD_MS + WINDOW_MS);
  const perSecond = (after: number[], from: number[]): number[] =>
    after.map((n, i) => ((n - (from[i] ?? 0)) * 1000) / WINDOW_MS);
  const sent = perSecond(built(), before);
  const received = perSecond(hostBuilt(), hostBefore);
  const accepted = s.peers.map(
    (p) => p.connection?.events.scheduler.stats(s.sim.now).peerRate.packetsPerSecond,
  );
  // Updates of the other peers' pointers each one saw, per other peer per second.
  const othersHz = seen.map((n) => (n * 1000) / WINDOW_MS / (PEERS - 1));
  return { sent, received, accepted, othersHz };
}

describe('a host with many peers accepts fewer packets from each', () => {
  it('asks each peer for its share of the budget, and each sends no more', () => {
    for (const seed of SEEDS) {
      const msg = `seed ${seed}`;
      const shared = run(seed, { upstreamPackets: 240 });
      expect(shared.accepted, msg).toEqual(new Array<number | undefined>(PEERS).fill(30));
      for (const pps of shared.sent) {
        expect(pps, msg).toBeLessThanOrEqual(31);
        expect(pps, msg).toBeGreaterThanOrEqual(27);
      }
      // Each pointer still reaches the others with every packet its peer sends.
      for (const hz of shared.othersHz) expect(hz, msg).toBeGreaterThanOrEqual(27);
      // The usual rate with room in the budget: a pointer leaves with each 60 Hz frame.
      const usual = run(seed);
      expect(usual.accepted, msg).toEqual(new Array<number | undefined>(PEERS).fill(66));
      for (const pps of usual.sent) expect(pps, msg).toBeGreaterThanOrEqual(58);
    }
  });

  it('sends each peer its share of the budget, and each still sees every pointer move with every packet', () => {
    for (const seed of SEEDS) {
      const msg = `seed ${seed}`;
      // 40 ms away: a peer near its host accepts more than the usual rate (near-rate.ts), which the share leaves
      // alone as it does a download (near rates have their own session budget, under the host's).
      const shared = run(seed, { downstreamPackets: 240 }, 40);
      for (const pps of shared.received) {
        expect(pps, msg).toBeLessThanOrEqual(31);
        expect(pps, msg).toBeGreaterThanOrEqual(27);
      }
      for (const hz of shared.othersHz) expect(hz, msg).toBeGreaterThanOrEqual(27);
      // The usual rate with room in the budget: the pointers come faster than 30 packets/s would carry them.
      const usual = run(seed, {}, 40);
      for (const pps of usual.received) expect(pps, msg).toBeGreaterThan(40);
      for (const hz of usual.othersHz) expect(hz, msg).toBeGreaterThan(40);
    }
  });

  it('lets a late joiner fetch the board at the full rate, and holds it to its share once it has it', () => {
    const seed = 53;
    const msg = `seed ${seed}`;
    // A budget that holds every peer to the floor (MIN_PEER_PACKETS).
    const s = makeSimSession({
      seed,
      board: bigBoard(2000),
      conditions: { ...NO_IMPAIRMENT, delayMs: 20 },
      downstreamPackets: 10,
    });
    s.addPeer('Early');
    s.sim.runUntil(4000);
    const late = s.peers[s.addPeer('Late')];
    const capOf = (name: string): number | undefined =>
      s.host
        .peerConnections()
        .find((c) => c.name === name)
        ?.stack.events.scheduler.stats(s.sim.now).effectiveRate.packetsPerSecond;
    let fastest = 0;
    for (let t = s.sim.now; late?.joinProgress.received !== 2000 && t < 30_000; t += 100) {
      s.sim.runUntil(t);
      fastest = Math.max(fastest, capOf('Late') ?? 0);
    }
    expect(late?.board.hash(), msg).toBe(s.host.board.hash());
    expect(fastest, msg).toBeGreaterThan(60);
    expect(capOf('Early'), msg).toBe(MIN_PEER_PACKETS);
    s.sim.runUntil(s.sim.now + 1000);
    expect(capOf('Late'), msg).toBe(MIN_PEER_PACKETS);
  });

  it('sheds packets when the host is busy, and takes them back when it is not', () => {
    for (const seed of SEEDS) {
      const msg = `seed ${seed}`;
      // A budget of 480 each way: 60 packets/s for each of 8 peers, under the usual 66 up and 85 down.
      const s = makeSimSession({
        seed,
        conditions: { ...NO_IMPAIRMENT, delayMs: 40 },
        upstreamPackets: 480,
        downstreamPackets: 480,
      });
      for (let i = 0; i < PEERS; i++) s.addPeer(`u${i}`);
      s.sim.runUntil(2000);
      const rates = () => {
        const now = s.sim.now;
        return {
          asked: s.peers.map(
            (p) => p.connection?.events.scheduler.stats(now).peerRate.packetsPerSecond,
          ),
          sent: s.host
            .peerConnections()
            .map((c) => c.stack.events.scheduler.stats(now).effectiveRate.packetsPerSecond),
        };
      };
      const all = (n: number): number[] => new Array<number>(PEERS).fill(n);
      expect(rates(), msg).toEqual({ asked: all(60), sent: all(60) });
      // Past BUSY_HIGH the budget is cut in proportion at once (by at most 30 %), both ways: at 95 % busy to 79 %.
      s.host.setLoad({ cpu: 0.95, loop: 0.95 });
      s.sim.runUntil(s.sim.now + 500);
      expect(rates(), msg).toEqual({ asked: all(47), sent: all(47) });
      // Busy but under BUSY_HIGH: held.
      s.host.setLoad({ cpu: (BUSY_HIGH + BUSY_LOW) / 2, loop: 1 });
      s.sim.runUntil(s.sim.now + 500);
      expect(rates(), msg).toEqual({ asked: all(47), sent: all(47) });
      // Idle: a little more each second, until every peer has its usual rate; then no further.
      for (let i = 0; i < 10; i++) {
        s.host.setLoad({ cpu: 0.2, loop: 0.2 });
        s.sim.runUntil(s.sim.now + 1000);
      }
      expect(rates(), msg).toEqual({ asked: all(66), sent: all(85) });
      const grown = s.host.packetBudgetScale;
      s.host.setLoad({ cpu: 0.2, loop: 0.2 });
      expect(s.host.packetBudgetScale, msg).toBe(grown);
    }
  });
});
