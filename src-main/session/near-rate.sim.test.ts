import { describe, expect, it } from 'vitest';
import { sessionRate, SESSION_RATES } from './connection-stack';
import { runRelayLatency } from './testing/relay-latency';

// Issue 22's same-site path in the simulator: users 5 ms from their host, pointers at 60 Hz on random phases. A
// peer that finds its host a short round trip away accepts packets at least every half round trip (near-rate.ts),
// so a relayed pointer leaves the host within one of those packet intervals; a far host, or a rate given by hand,
// keeps the usual rate. Virtual time; each seed is printed with its failure.

const SEEDS = [22_001, 22_002, 22_003];

function acceptedRates(r: ReturnType<typeof runRelayLatency>): number[] {
  return r.s.host
    .peerConnections()
    .map((c) => c.stack.events.scheduler.stats(r.s.sim.now).peerRate.packetsPerSecond);
}

describe('a near peer accepts its host faster', () => {
  it('relays every pointer within one near packet interval on 5 ms links', () => {
    const near = SESSION_RATES.broadband.nearToPeers;
    for (const seed of SEEDS) {
      const r = runRelayLatency({ seed, users: 8, warmupMs: 1000, windowMs: 2000 });
      const msg = `seed ${seed}`;
      // Every peer told the host its near rate: 10 ms round trips ask for 200 packets/s, the preset caps it.
      expect(acceptedRates(r), msg).toEqual(new Array<number>(8).fill(near));
      expect(r.total.length, msg).toBe(8 * 7 * 120);
      expect(r.unseen, msg).toBe(0);
      // The sender's own packet leaves with its call; the host's relay waits at most one packet interval.
      expect(Math.max(...r.senderWait), msg).toBeLessThanOrEqual(1e-6);
      expect(Math.max(...r.hostWait), msg).toBeLessThanOrEqual(1000 / near + 1e-6);
    }
  });

  it('keeps the usual rate for a far host and for a rate given by hand', () => {
    const far = runRelayLatency({
      seed: SEEDS[0] ?? 0,
      users: 4,
      linkMs: 40,
      warmupMs: 1000,
      windowMs: 1000,
    });
    expect(acceptedRates(far)).toEqual([85, 85, 85, 85]);
    const byHand = runRelayLatency({
      seed: SEEDS[0] ?? 0,
      users: 4,
      rate: sessionRate(66, 85),
      warmupMs: 1000,
      windowMs: 1000,
    });
    expect(acceptedRates(byHand)).toEqual([85, 85, 85, 85]);
    // At 85 packets/s to each of four users, three pointers at 60 Hz each wait for a slot.
    expect(Math.max(...byHand.hostWait)).toBeGreaterThan(1000 / 195);
  });
});
