import { describe, expect, it } from 'vitest';
import type { Impairment } from './impairment';
import { NO_IMPAIRMENT } from './impairment';
import type { Pair, Side } from './testing/pair';
import { makePair } from './testing/pair';
import { Rng } from './rng';

const SEEDS = Number(process.env.GB_SIM_SEEDS ?? 1000);

function randomConditions(rng: Rng): Impairment {
  return {
    loss: rng.next() * 0.3,
    delayMs: rng.range(0, 120),
    jitterMs: rng.range(0, 40),
    reorder: rng.next() * 0.1,
    duplicate: rng.next() * 0.1,
    bandwidthBps: rng.bool(0.3) ? rng.range(40_000, 400_000) : 0,
    maxQueueMs: 150,
  };
}

/** Runs a pair through random traffic, then heals the path and lets every notification come back. */
function runSeed(seed: number): Pair {
  const rng = new Rng(seed ^ 0x5eed);
  const conditions = randomConditions(rng);
  const initialSeq = rng.bool(0.5) ? rng.range(1, 2 ** 40) : 2 ** 32 - rng.range(1, 300);
  const pair = makePair({ seed, conditions, connection: { initialSeq } });
  const { sim } = pair;
  const trafficEnd = 5_000;
  const tick = rng.range(10, 40);
  sim.every(tick, (now) => {
    if (now > trafficEnd) return;
    for (const side of [pair.hostSide, pair.clientSide]) {
      // Bursts sometimes fill the window, so "full window pauses sending" is exercised too.
      const n = rng.bool(0.05) ? rng.range(5, 80) : rng.bool(0.7) ? 1 : 0;
      for (let i = 0; i < n; i++) side.sendOne(now, rng.range(0, 20));
    }
  });
  sim.runUntil(trafficEnd + 50);
  pair.net.setDefaults(NO_IMPAIRMENT);
  sim.runUntil(trafficEnd + 6_000);
  return pair;
}

function checkSide(seed: number, me: Side, peer: Side): void {
  const msg = `seed ${seed}`;
  // Exactly once and in send order.
  expect(
    me.notified.map((n) => n.id),
    msg,
  ).toEqual(me.sent);
  for (const n of me.notified) {
    // Delivered only if the peer processed it; dropped only if it didn't.
    expect(peer.received.has(n.id), `${msg} id ${n.id} delivered=${n.delivered}`).toBe(n.delivered);
  }
}

describe('notify protocol over a simulated path', () => {
  // Seeds run in chunks so each test stays short on a loaded machine; together they cover SEEDS seeds.
  const CHUNK = 100;
  for (let first = 1; first <= SEEDS; first += CHUNK) {
    const last = Math.min(SEEDS, first + CHUNK - 1);
    it(`notifies every packet exactly once, in order, truthfully (seeds ${first}-${last})`, () => {
      let delivered = 0;
      let dropped = 0;
      for (let seed = first; seed <= last; seed++) {
        const pair = runSeed(seed);
        expect(pair.clientSide.conn?.isOpen, `seed ${seed} client open`).toBe(true);
        expect(pair.hostSide.conn?.isOpen, `seed ${seed} host open`).toBe(true);
        checkSide(seed, pair.hostSide, pair.clientSide);
        checkSide(seed, pair.clientSide, pair.hostSide);
        for (const s of [pair.hostSide, pair.clientSide]) {
          for (const n of s.notified) {
            if (n.delivered) delivered++;
            else dropped++;
          }
        }
      }
      // The seeds must actually exercise both outcomes.
      const n = last - first + 1;
      expect(delivered).toBeGreaterThan(n * 100);
      expect(dropped).toBeGreaterThan(n * 5);
    });
  }

  it('crosses many wraps of the 8-bit wire sequence on a clean path without a false drop', () => {
    const pair = makePair({ seed: 7, connection: { initialSeq: 2 ** 32 - 5 } });
    pair.sim.every(10, (now) => {
      pair.hostSide.sendOne(now);
      pair.clientSide.sendOne(now);
    });
    pair.sim.runUntil(20_000);
    const s = pair.hostSide;
    expect(s.sent.length).toBeGreaterThan(1500);
    const notified = s.notified.length;
    expect(notified).toBeGreaterThan(s.sent.length - 10);
    expect(s.notified.every((n) => n.delivered)).toBe(true);
  });

  it('stops sending when the window is full and resumes when acks arrive', () => {
    const pair = makePair({ seed: 3, conditions: { ...NO_IMPAIRMENT, delayMs: 100 } });
    pair.sim.runUntil(1000);
    const side = pair.clientSide;
    let sent = 0;
    while (side.sendOne(pair.sim.now)) sent++;
    expect(sent).toBeGreaterThan(55);
    expect(side.conn?.inFlight).toBe(64);
    expect(side.conn?.canSend()).toBe(false);
    pair.sim.runUntil(1300);
    expect(side.conn?.canSend()).toBe(true);
    expect(side.notified.filter((n) => n.delivered)).toHaveLength(sent);
  });

  it('keeps working through a total outage shorter than the timeout', () => {
    const pair = makePair({ seed: 11 });
    pair.sim.every(33, (now) => {
      pair.hostSide.sendOne(now);
      pair.clientSide.sendOne(now);
    });
    pair.sim.runUntil(1000);
    pair.net.setDefaults({ ...NO_IMPAIRMENT, loss: 1 });
    pair.sim.runUntil(6000);
    pair.net.setDefaults(NO_IMPAIRMENT);
    pair.sim.runUntil(9000);
    expect(pair.clientSide.conn?.isOpen).toBe(true);
    const last = pair.clientSide.notified.at(-1);
    expect(last?.delivered).toBe(true);
    expect(pair.clientSide.notified.map((n) => n.id)).toEqual(
      pair.clientSide.sent.slice(0, pair.clientSide.notified.length),
    );
  });

  it('an idle pair goes quiet: only keepalives and their acks', () => {
    const pair = makePair({ seed: 12, conditions: { ...NO_IMPAIRMENT, delayMs: 30 } });
    pair.sim.runUntil(10_000);
    const before = pair.net.log.length;
    pair.sim.runUntil(70_000);
    const perSecond = (pair.net.log.length - before) / 60;
    // One keepalive each way per second, and at most one ack-only answer to each.
    expect(perSecond).toBeLessThanOrEqual(4);
    expect(pair.clientSide.conn?.isOpen).toBe(true);
  });
});
