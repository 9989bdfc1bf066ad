// Unit tests of the command throttle with a fake clock.
import { describe, expect, it } from 'vitest';
import { type Clock, Throttle } from './throttle';

function fakeClock(): Clock & { advance(ms: number): void } {
  let t = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    now: () => t,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: t + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((x) => x.id !== id);
    },
    advance(ms) {
      t += ms;
      const due = timers.filter((x) => x.at <= t);
      timers = timers.filter((x) => x.at > t);
      for (const x of due) x.fn();
    },
  };
}

describe('Throttle', () => {
  it('sends the first value at once and the latest one at the end of the interval', () => {
    const clock = fakeClock();
    const sent: number[] = [];
    const th = new Throttle<number>(16, (v) => sent.push(v), clock);
    th.push(1);
    th.push(2);
    th.push(3);
    expect(sent).toEqual([1]);
    clock.advance(16);
    expect(sent).toEqual([1, 3]);
    clock.advance(100);
    th.push(4);
    expect(sent).toEqual([1, 3, 4]);
  });

  it('flushes and cancels the pending value', () => {
    const clock = fakeClock();
    const sent: number[] = [];
    const th = new Throttle<number>(16, (v) => sent.push(v), clock);
    th.push(1);
    th.push(2);
    th.flush();
    expect(sent).toEqual([1, 2]);
    th.push(3);
    th.cancel();
    clock.advance(50);
    expect(sent).toEqual([1, 2]);
  });

  it('never sends more than once per interval under a steady stream', () => {
    const clock = fakeClock();
    const times: number[] = [];
    const th = new Throttle<number>(16, () => times.push(clock.now()), clock);
    for (let i = 0; i < 100; i++) {
      th.push(i);
      clock.advance(4);
    }
    for (let i = 1; i < times.length; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(16);
    }
    expect(times.length).toBeGreaterThanOrEqual(24);
  });
});
