import { describe, expect, it } from 'vitest';
import { runCapTracking } from '../testing/cap-tracking';
import { fairShares, RateController } from './congestion';

const rtt = (latestMs: number, min = 40) => ({
  smoothed: latestMs,
  latestMs,
  min,
  hasSample: true,
});

describe('RateController', () => {
  it('a raised policy that held the rate lifts it at once; one the path held it under does not', () => {
    const held = new RateController({ floorBytesPerSecond: 2000, initialBytesPerSecond: 100_000 });
    held.clamp(100_000);
    held.policyRaised(100_000, 150_000);
    expect(held.bytesPerSecond).toBe(150_000);
    const cut = new RateController({ floorBytesPerSecond: 2000, initialBytesPerSecond: 60_000 });
    cut.policyRaised(100_000, 150_000);
    expect(cut.bytesPerSecond).toBe(60_000);
    cut.policyRaised(150_000, 100_000);
    expect(cut.bytesPerSecond).toBe(60_000);
  });

  it('backs off below what it sent when queueing delay appears, at most once per round', () => {
    const c = new RateController({ floorBytesPerSecond: 2000, initialBytesPerSecond: 100_000 });
    let now = 0;
    // Rounds on a 40 ms path set its floor.
    for (let i = 0; i < 50; i++) c.onNotify((now += 10), 500, true, rtt(40));
    expect(c.bytesPerSecond).toBe(100_000);
    // Then rounds of 100 ms delivering 500 B every 10 ms = 50,000 B/s, every sample 60 ms above the floor.
    let changedAt = -1;
    for (let i = 0; i < 25 && changedAt < 0; i++) {
      if (c.onNotify((now += 10), 500, true, rtt(100))) changedAt = now;
    }
    expect(changedAt).toBeGreaterThan(0);
    // From the 50,000 B/s it sent (not the 100,000 it was allowed, which it never used), by more than the 5 % a
    // queue just over the target takes: this one is 60 ms on a 40 ms path.
    expect(c.bytesPerSecond).toBeLessThan(50_000 * 0.85);
    expect(c.bytesPerSecond).toBeGreaterThan(50_000 * 0.5);
    const after = c.bytesPerSecond;
    // The very next notify is inside the same round: no second cut.
    c.onNotify((now += 10), 500, true, rtt(100));
    expect(c.bytesPerSecond).toBe(after);
  });

  it('does not throttle on steady random loss alone', () => {
    const c = new RateController({ floorBytesPerSecond: 2000, initialBytesPerSecond: 50_000 });
    let now = 0;
    for (let i = 0; i < 2000; i++) {
      c.markLimited();
      c.onNotify((now += 10), 500, i % 20 !== 0, rtt(40));
    }
    // 5 % loss every round is the path's usual loss, not congestion: the rate grew.
    expect(c.bytesPerSecond).toBeGreaterThan(50_000);
  });

  it('grows only while the rate holds the sender back', () => {
    const idle = new RateController({ floorBytesPerSecond: 2000, initialBytesPerSecond: 10_000 });
    let now = 0;
    for (let i = 0; i < 500; i++) idle.onNotify((now += 10), 100, true, rtt(40));
    expect(idle.bytesPerSecond).toBe(10_000);
  });

  it('a stalled receiver (late acks, a trickle) cuts from what the last rounds delivered, not the trickle', () => {
    const c = new RateController({ floorBytesPerSecond: 2000, initialBytesPerSecond: 100_000 });
    let now = 0;
    // 500 B every 10 ms: 50,000 B/s sent, on a 40 ms path.
    for (let i = 0; i < 50; i++) c.onNotify((now += 10), 500, true, rtt(40));
    expect(c.bytesPerSecond).toBe(100_000);
    // One late ack alone is no standing queue (a reordered packet looks the same).
    c.onNotify((now += 250), 1200, true, rtt(240));
    expect(c.bytesPerSecond).toBe(100_000);
    // The receiver's process stalls on: its acks trickle in 200 ms late (12,000 B/s).
    for (let i = 0; i < 20 && c.bytesPerSecond >= 100_000; i++)
      c.onNotify((now += 25), 300, true, rtt(240));
    // One round of a deep queue may be a stall: the rate at most halves (to 50,000 B/s, what the last rounds
    // took until the stall), cut for the 200 ms queue (by 1 - 180 / 480): more than the trickle would leave.
    const factor = 1 - 180 / 480;
    expect(c.bytesPerSecond).toBeLessThanOrEqual(50_000 * factor);
    expect(c.bytesPerSecond).toBeGreaterThan(12_000 * factor);
    // Once an RTT: the next acks of the stall cut no further.
    const after = c.bytesPerSecond;
    c.onNotify((now += 25), 300, true, rtt(240));
    c.onNotify((now += 25), 300, true, rtt(240));
    expect(c.bytesPerSecond).toBe(after);
    // A queue that stays keeps cutting, once an RTT, until the rate is under what the path delivers.
    for (let i = 0; i < 200; i++) {
      c.markLimited();
      c.onNotify((now += 10), 100, true, rtt(140)); // 10,000 B/s delivered
    }
    expect(c.bytesPerSecond).toBeLessThan(10_000);
  });

  it('takes the one-way queue the peer reports over the RTT, which carries the other direction’s queue too', () => {
    const c = new RateController({ floorBytesPerSecond: 2000, initialBytesPerSecond: 20_000 });
    let now = 0;
    for (let i = 0; i < 50; i++) c.onNotify((now += 10), 100, true, rtt(40));
    // The RTT says 100 ms of queue, but the peer sees none on our packets: the queue is the other direction's.
    for (let i = 0; i < 100; i++) {
      c.markLimited();
      c.onQueueReport(0);
      c.onNotify((now += 10), 200, true, rtt(140));
    }
    expect(c.bytesPerSecond).toBeGreaterThan(20_000);
    // The peer now sees 100 ms on ours: back off.
    const before = c.bytesPerSecond;
    for (let i = 0; i < 100; i++) {
      c.markLimited();
      c.onQueueReport(100);
      c.onNotify((now += 10), 200, true, rtt(140));
    }
    expect(c.bytesPerSecond).toBeLessThan(before / 2);
  });

  it('after a join burst into a 16 kbit/s link, comes back from the floor to the capacity it found', () => {
    const c = new RateController({ floorBytesPerSecond: 800, initialBytesPerSecond: 40_000 });
    let now = 0;
    // The rate after `ms` of packets of `bytes` every `everyMs`, each reported as `queueMs` of queue.
    const run = (ms: number, bytes: number, everyMs: number, queueMs: number): number => {
      for (const end = now + ms; now < end;) {
        now += everyMs;
        c.markLimited();
        c.onQueueReport(queueMs);
        c.onNotify(now, bytes, true, rtt(100, 40));
      }
      return c.bytesPerSecond;
    };
    // Light traffic first (500 B/s, no queue): the first cut's figure of what the path takes averages it in.
    run(1000, 100, 200, 0);
    // The burst: a standing 480 ms queue while the 2,000 B/s link delivers all it can, for 2 s.
    expect(run(2000, 100, 50, 480)).toBe(800);
    // Then the sender sends what the rate lets it. At the floor, data waits and leaves in large packets (200 B
    // every 250 ms), and a large packet's serialization against the small packets' floor reads as a queue: 70 ms
    // at 2,000 B/s, over the 40 ms target, though the link is not half used. At more than the floor, packets of
    // 100 B read 20 ms. Back near 2,000 B/s within 3 s.
    for (const end = now + 3000; now < end;) {
      const bytes = c.bytesPerSecond < 1000 ? 200 : 100;
      now += (1000 * bytes) / c.bytesPerSecond;
      c.markLimited();
      c.onQueueReport((bytes - 60) / 2);
      c.onNotify(now, bytes, true, rtt(100, 40));
    }
    expect(c.bytesPerSecond).toBeGreaterThan(1400);
    expect(c.bytesPerSecond).toBeLessThan(2000 * 1.1);
    // A queue that really stands at that rate (deep, round after round) takes it back down to the floor.
    expect(run(2000, 100, 50, 480)).toBe(800);
  });

  it('at the floor with no capacity found, probes up through its own large packets’ serialization', () => {
    const c = new RateController({ floorBytesPerSecond: 800, initialBytesPerSecond: 800 });
    let now = 0;
    const step = (bytes: number, queueMs: number): void => {
      now += (1000 * bytes) / c.bytesPerSecond;
      c.markLimited();
      c.onQueueReport(queueMs);
      c.onNotify(now, bytes, true, rtt(100, 40));
    };
    // A queue seen at the floor (a loss burst's episode found no capacity): the rate has nowhere to go.
    for (let i = 0; i < 6; i++) step(200, 300);
    expect(c.bytesPerSecond).toBe(800);
    // Then 200-byte packets that read 70 ms (their own time on a 2,000 B/s link), 100-byte ones 20 ms once the
    // rate is off the floor: back above 1,400 B/s within 3 s.
    for (const end = now + 3000; now < end;) {
      const bytes = c.bytesPerSecond < 1000 ? 200 : 100;
      step(bytes, (bytes - 60) / 2);
    }
    expect(c.bytesPerSecond).toBeGreaterThan(1400);
  });

  it('never goes below its floor', () => {
    const c = new RateController({ floorBytesPerSecond: 2280, initialBytesPerSecond: 10_000 });
    let now = 0;
    for (let i = 0; i < 1000; i++) c.onNotify((now += 10), 10, false, rtt(400));
    expect(c.bytesPerSecond).toBe(2280);
  });
});

describe('fairShares', () => {
  it('gives small demands what they ask and splits the rest evenly', () => {
    expect(fairShares(100, [10, 80, 80])).toEqual([10, 45, 45]);
    expect(fairShares(100, [10, 20])).toEqual([10, 20]);
    expect(fairShares(90, [100, 100, 100])).toEqual([30, 30, 30]);
    expect(fairShares(0, [5])).toEqual([0]);
  });
});

describe('adaptive rate over a simulated bottleneck', () => {
  it('tracks a bandwidth cap that halves mid-run, with little loss once adapted', () => {
    const seed = 77;
    const phases = runCapTracking(seed, [400, 200, 100]);
    for (const ph of phases) {
      // Uses most of the bottleneck and loses little once adapted (tail drops are the only losses here).
      expect(ph.achievedKbps, `seed ${seed} ${JSON.stringify(phases)}`).toBeGreaterThan(
        ph.capKbps * 0.6,
      );
      expect(ph.achievedKbps, `seed ${seed} ${JSON.stringify(phases)}`).toBeLessThanOrEqual(
        ph.capKbps * 1.01,
      );
      expect(ph.lossPct, `seed ${seed} ${JSON.stringify(phases)}`).toBeLessThan(5);
    }
  });
});
