// The bench clocks' rules for what counts as a simulated process's own work: a poll of its datagrams is timed
// after other work of it until the socket is drained, and never counts as work that moves its next timeout. A
// call runs timed exactly when the clock is inside it (depth 1), so the test reads that, not wall times.
import { describe, expect, it } from 'vitest';
import { hostClock, timed, timedPoll } from '../../bench/host-clock';

describe('timedPoll', () => {
  it('times a socket’s polls after other work until one finds nothing, per socket', () => {
    const clock = hostClock();
    const work = timed(clock, () => undefined);
    const queued: Record<string, number[]> = { a: [1], b: [] };
    const seen: string[] = [];
    const poll = timedPoll(clock, (side: string) => {
      seen.push(`${side}${clock.depth}`);
      return queued[side]?.shift();
    });
    work();
    expect(poll('a')).toBe(1);
    expect(poll('a')).toBeUndefined();
    poll('a'); // drained: the simulator polling again is not this process's work
    poll('b'); // the other socket's first look since the work is
    poll('b');
    work();
    poll('a');
    expect(seen).toEqual(['a1', 'a1', 'a0', 'b1', 'b0', 'a1']);
  });

  it('leaves the clock’s acted flag alone', () => {
    const clock = hostClock();
    clock.acted = false;
    const poll = timedPoll(clock, () => 7);
    expect(poll()).toBe(7);
    expect(clock.acted).toBe(false);
  });
});
