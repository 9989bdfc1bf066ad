// Tail repeats alone: when a stopped pointer's last write is repeated, that it is repeated once, and what cancels
// or skips it. Records are real, time is a number; no bits are written.
import { describe, expect, it } from 'vitest';
import { POINTER, testRegistry } from '../testing/ghost-classes';
import type { GhostTx, RecordOwner } from './ghost-record';
import { GhostRecord } from './ghost-record';
import { GhostDomain } from './ghost-source';
import { GhostSendCounters } from './ghost-stats';
import {
  cancelRepeat,
  TAIL_REPEAT_MIN_MS,
  TAIL_REPEAT_MS,
  tailRepeatDue,
  TailRepeats,
} from './ghost-tail-repeat';

const POSITION = POINTER.maskOf('position'); // urgent
const TOOL = POINTER.maskOf('tool');

interface Setup {
  readonly counters: GhostSendCounters;
  readonly repeats: TailRepeats;
  readonly rec: GhostRecord;
  /** Records the owner was asked to queue as urgent. */
  readonly urgent: GhostRecord[];
}

function setup(): Setup {
  const counters = new GhostSendCounters();
  const urgent: GhostRecord[] = [];
  const owner: RecordOwner = {
    counters,
    queue: () => undefined,
    queueUrgent: (r) => urgent.push(r),
    release: () => undefined,
  };
  const domain = new GhostDomain(testRegistry());
  const source = domain.add(POINTER, { x: 0, y: 0, tool: 0 });
  const rec = new GhostRecord(owner, source, 0);
  source.attach(rec);
  rec.state = 'live';
  return { counters, repeats: new TailRepeats(counters), rec, urgent };
}

/** Writes the record's `mask` as an update at `now` and tells `repeats`, as the section writer does. */
function write(s: Setup, now: number, mask = POSITION, starved = false): GhostTx {
  s.rec.mask = s.rec.mask | mask;
  const tx = s.rec.wrote('update', mask);
  s.repeats.wrote(now, tx, starved);
  return tx;
}

describe('tailRepeatDue', () => {
  it('waits one and a half of the learnt gap between writes, within its bounds', () => {
    const { rec } = setup();
    expect(tailRepeatDue(rec, 1000)).toBe(1000 + TAIL_REPEAT_MS); // no rhythm yet
    let now = 1000;
    let due = 0;
    for (let i = 0; i < 200; i++) due = tailRepeatDue(rec, (now += 1000 / 60));
    expect(due - now).toBeCloseTo(25, 6); // 60 Hz
    for (let i = 0; i < 200; i++) due = tailRepeatDue(rec, (now += 1000 / 30));
    expect(due - now).toBeCloseTo(TAIL_REPEAT_MS, 6); // 30 Hz: 1.5 gaps is exactly the cap
    for (let i = 0; i < 200; i++) due = tailRepeatDue(rec, (now += 5));
    expect(due - now).toBeCloseTo(TAIL_REPEAT_MIN_MS, 6); // 200 Hz: never sooner than the floor
  });

  it('takes a gap over 200 ms for a pause, not the rhythm', () => {
    const { rec } = setup();
    let now = 0;
    for (let i = 0; i < 100; i++) tailRepeatDue(rec, (now += 16));
    const gap = rec.urgentWriteGap;
    expect(tailRepeatDue(rec, (now += 5000)) - now).toBe(24);
    expect(rec.urgentWriteGap).toBe(gap);
  });
});

describe('TailRepeats', () => {
  it('repeats the last urgent write once, when due, as an urgent update of those groups', () => {
    const s = setup();
    const tx = write(s, 100);
    expect(tx.repeats).toBe(true);
    expect(s.repeats.nextAt()).toBe(100 + TAIL_REPEAT_MS);
    s.repeats.release(100 + TAIL_REPEAT_MS - 1);
    expect(s.counters.tailRepeats).toBe(0);
    s.repeats.release(100 + TAIL_REPEAT_MS);
    expect(s.counters.tailRepeats).toBe(1);
    expect(s.rec.mask).toBe(POSITION);
    expect(s.urgent).toEqual([s.rec]);
    // The repeat itself is written, and not repeated again.
    const again = write(s, 160);
    expect(again.repeats).toBe(false);
    expect(s.repeats.nextAt()).toBe(Infinity);
  });

  it('sets no repeat for non-urgent groups, entries other than updates, or a starved write', () => {
    const s = setup();
    expect(write(s, 0, TOOL).repeats).toBe(false);
    s.rec.mask = POSITION;
    const create = s.rec.wrote('refresh', POINTER.allMask);
    s.repeats.wrote(0, create, false);
    expect(create.repeats).toBe(false);
    s.rec.state = 'live';
    write(s, 10);
    // Starved: the packets can't keep up, so its next turn brings newer state; any pending repeat is dropped.
    expect(write(s, 20, POSITION, true).repeats).toBe(false);
    expect(s.repeats.nextAt()).toBe(Infinity);
    s.repeats.release(1000);
    expect(s.counters.tailRepeats).toBe(0);
  });

  it('is cancelled when the latest write of those groups is known delivered', () => {
    const s = setup();
    const tx = write(s, 0);
    cancelRepeat(tx);
    expect(s.repeats.nextAt()).toBe(Infinity);
    s.repeats.release(1000);
    expect(s.counters.tailRepeats).toBe(0);
  });

  it('skips a repeat whose groups are dirty again (newer state goes instead), or whose record is not live', () => {
    const s = setup();
    write(s, 0);
    s.rec.onDirty(POSITION);
    s.repeats.release(1000);
    expect(s.counters.tailRepeats).toBe(0);
    write(s, 2000);
    s.rec.state = 'delete';
    s.repeats.release(3000);
    expect(s.counters.tailRepeats).toBe(0);
  });

  it('keeps one pending repeat per record, due after its latest write', () => {
    const s = setup();
    write(s, 0); // due at 50
    write(s, 16); // learns a 16 ms gap: due at 40, earlier, so a second entry
    write(s, 32); // due at 56: the entry for 40 moves there when it surfaces
    expect(s.repeats.nextAt()).toBe(56);
    s.repeats.release(55);
    expect(s.counters.tailRepeats).toBe(0);
    s.repeats.release(1000);
    expect(s.counters.tailRepeats).toBe(1);
    expect(s.repeats.nextAt()).toBe(Infinity);
  });

  it('forgets every pending repeat on clear()', () => {
    const s = setup();
    write(s, 0);
    s.repeats.clear();
    expect(s.repeats.nextAt()).toBe(Infinity);
    s.repeats.release(1000);
    expect(s.counters.tailRepeats).toBe(0);
  });
});
