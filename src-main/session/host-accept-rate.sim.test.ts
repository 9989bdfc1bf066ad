import { describe, expect, it } from 'vitest';
import { NO_IMPAIRMENT } from '../net/impairment';
import { makeSimSession } from './testing/sim-session';

// A host with many peers asks each for fewer packets (host-accept-rate.ts): here a budget of 240 packets/s over 8
// peers, so 30 each, against the usual 66. Every peer moves its pointer at 60 Hz, and each still sees the others'
// pointers move with every packet their peers send. Virtual time; each seed is printed with its failure.

const SEEDS = [51, 52];
const PEERS = 8;
const LEAD_MS = 2000;
const WINDOW_MS = 2000;

function run(seed: number, upstreamPackets?: number) {
  const s = makeSimSession({
    seed,
    conditions: { ...NO_IMPAIRMENT, delayMs: 5 },
    ...(upstreamPackets === undefined ? {} : { upstreamPackets }),
  });
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
  const before = built();
  counting = true;
  s.sim.runUntil(start + LEAD_MS + WINDOW_MS);
  const sent = built().map((n, i) => ((n - (before[i] ?? 0)) * 1000) / WINDOW_MS);
  const accepted = s.peers.map(
    (p) => p.connection?.events.scheduler.stats(s.sim.now).peerRate.packetsPerSecond,
  );
  // Updates of the other peers' pointers each one saw, per other peer per second.
  const othersHz = seen.map((n) => (n * 1000) / WINDOW_MS / (PEERS - 1));
  return { sent, accepted, othersHz };
}

describe('a host with many peers accepts fewer packets from each', () => {
  it('asks each peer for its share of the budget, and each sends no more', () => {
    for (const seed of SEEDS) {
      const msg = `seed ${seed}`;
      const shared = run(seed, 240);
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
});
