// The fair queue alone: status changes first, shares proportional to priority, no credit for idling, re-keying on
// a doubled priority, starvation and keep-in-line. Records are real; no bits are written.
import { describe, expect, it, vi } from 'vitest';
import { Rng } from '../rng';
import { blankShape, SHAPE, testRegistry } from '../testing/ghost-classes';
import { FairQueue } from './ghost-fair-queue';
import type { GhostState, RecordOwner } from './ghost-record';
import { GhostRecord } from './ghost-record';
import { GhostDomain } from './ghost-source';
import { GhostSendCounters } from './ghost-stats';

const POS = SHAPE.maskOf('position');

const owner: RecordOwner = {
  counters: new GhostSendCounters(),
  queue: () => undefined,
  queueUrgent: () => undefined,
  release: () => undefined,
};

/** A record with ghost id `id` in `state`, a live one with its position dirty, added to `line` at `priority`. */
function record(
  line: FairQueue,
  id: number,
  priority: number,
  state: GhostState = 'live',
): GhostRecord {
  const domain = new GhostDomain(testRegistry());
  const source = domain.add(SHAPE, { ...blankShape(), key: id });
  const rec = new GhostRecord(owner, source, id);
  source.attach(rec);
  rec.state = state;
  if (state === 'live') rec.mask = POS;
  line.add(id, priority);
  return rec;
}

/**
 * One packet that takes `n` records. Each stays dirty (backlogged) and goes back in line after it for its next
 * turn, as the writer puts back a record that is written while changing faster than its turns come.
 */
function packet(line: FairQueue, n: number): GhostRecord[] {
  line.startPacket();
  const taken: GhostRecord[] = [];
  for (let i = 0; i < n; i++) {
    const rec = line.pop();
    if (rec === undefined) break;
    line.wrote(rec);
    taken.push(rec);
  }
  for (const rec of taken) line.keepInLine(rec);
  return taken;
}

describe('FairQueue', () => {
  it('serves status changes (creates, deletes) before any update, whatever their keys', () => {
    const line = new FairQueue();
    const updates = [0, 1, 2].map((id) => record(line, id, 1000));
    const create = record(line, 3, 0.001, 'create');
    const del = record(line, 4, 0.001, 'delete');
    for (const rec of [...updates, create, del]) line.queue(rec);
    expect(packet(line, 5).map((r) => r.id)).toEqual([3, 4, 0, 1, 2]);
  });

  it('moves a waiting update up to the status tier once, keeping its key', () => {
    const line = new FairQueue();
    const a = record(line, 0, 1);
    const b = record(line, 1, 1);
    line.queue(a);
    line.queue(b);
    b.state = 'delete'; // left scope while it waited
    line.queue(b);
    line.startPacket();
    expect([line.pop(), line.pop(), line.pop()]).toEqual([b, a, undefined]); // b's update entry went stale
  });

  for (const seed of [1, 2, 3]) {
    it(`gives backlogged records turns in proportion to their priorities (seed ${seed})`, () => {
      const rng = new Rng(seed);
      const line = new FairQueue();
      const priorities = Array.from({ length: 20 }, () => 1 + rng.int(10));
      // Ids past the first 64 make the line grow its numbers.
      const recs = priorities.map((p, i) => record(line, 3 * i + 7, p));
      for (const rec of recs) line.queue(rec);
      const turns = new Map<GhostRecord, number>();
      const packets = 2000;
      const perPacket = 5;
      for (let i = 0; i < packets; i++) {
        for (const rec of packet(line, perPacket)) turns.set(rec, (turns.get(rec) ?? 0) + 1);
      }
      const sum = priorities.reduce((a, b) => a + b, 0);
      recs.forEach((rec, i) => {
        const share = (packets * perPacket * (priorities[i] ?? 0)) / sum;
        // Self-clocked fair queueing keeps a backlogged flow within about one turn of its share.
        expect(Math.abs((turns.get(rec) ?? 0) - share), `seed ${seed}, record ${i}`).toBeLessThan(
          1,
        );
      });
    });
  }

  it('gives a record that was idle no credit for it: it joins at the clock, not ahead of the rest', () => {
    const line = new FairQueue();
    const busy = [0, 1].map((id) => record(line, id, 1));
    for (const rec of busy) line.queue(rec);
    for (let i = 0; i < 100; i++) packet(line, 1);
    const idle = record(line, 2, 1);
    line.queue(idle);
    const order = Array.from({ length: 30 }, () => packet(line, 1)[0]);
    // Equal priorities: one turn in three, never two in a row as a credit for the 100 packets it sat out.
    expect(order.filter((r) => r === idle)).toHaveLength(10);
    for (let i = 1; i < order.length; i++)
      expect(order[i] === idle && order[i - 1] === idle).toBe(false);
  });

  it('moves a waiting record up when its priority more than doubles, and only then', () => {
    const line = new FairQueue();
    const others = Array.from({ length: 10 }, (_, i) => record(line, i, 1));
    const far = record(line, 10, 0.01); // its key is 100 strides of the others away
    for (const rec of [...others, far]) line.queue(rec);
    for (let i = 0; i < 5; i++) packet(line, 1);
    line.prioritize(far, 0.019); // less than double: it keeps its key
    expect(Array.from({ length: 50 }, () => packet(line, 1)[0])).not.toContain(far);
    line.prioritize(far, 1); // the viewer came close
    expect(Array.from({ length: 11 }, () => packet(line, 1)[0])).toContain(far);
  });

  it('says a record was starved when a packet went out without it while it waited', () => {
    const line = new FairQueue();
    const rec = record(line, 0, 1);
    line.queue(rec);
    line.startPacket();
    expect(line.pop()).toBe(rec);
    expect(line.wrote(rec)).toBe(false); // queued before this packet: its first chance
    line.queue(rec);
    line.startPacket(); // a packet that leaves it out
    line.startPacket();
    expect(line.pop()).toBe(rec);
    expect(line.wrote(rec)).toBe(true);
  });

  it('keeps a put-back record in its place', () => {
    const line = new FairQueue();
    const recs = [0, 1, 2].map((id) => record(line, id, 1 + id));
    for (const rec of recs) line.queue(rec);
    line.startPacket();
    const first = line.pop();
    expect(first).toBe(recs[2]);
    if (first === undefined) throw new Error('empty');
    expect(line.waiting(first)).toBe(false);
    line.putBack(first);
    expect(line.waiting(first)).toBe(true);
    expect(line.first()).toBe(first);
  });

  it('keeps a starved live record in line with its source holding changes, until a turn finds none', () => {
    const line = new FairQueue();
    const rec = record(line, 0, 1);
    line.queue(rec);
    line.startPacket();
    line.pop();
    line.wrote(rec);
    rec.mask = 0; // written
    line.keepInLine(rec);
    expect(line.waiting(rec)).toBe(true);
    const told = vi.spyOn(rec, 'onDirty');
    rec.source.markDirty(POS);
    expect(told).not.toHaveBeenCalled(); // held: read from the source when its turn comes
    expect(line.first()).toBe(rec);
    rec.mask = 0; // its turn took the change
    expect(line.first()).toBeUndefined(); // nothing new: it leaves the line and is told of changes again
    expect(line.waiting(rec)).toBe(false);
    rec.source.markDirty(POS);
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('does not keep in line a record that is not live or already waits', () => {
    const line = new FairQueue();
    const leaving = record(line, 0, 1, 'deleting');
    line.keepInLine(leaving);
    expect(line.waiting(leaving)).toBe(false);
    const waiting = record(line, 1, 1);
    line.queue(waiting);
    line.keepInLine(waiting);
    line.startPacket();
    expect([line.pop(), line.pop()]).toEqual([waiting, undefined]);
  });

  it('is empty after clear()', () => {
    const line = new FairQueue();
    line.queue(record(line, 0, 1, 'create'));
    line.queue(record(line, 1, 1));
    line.clear();
    expect(line.first()).toBeUndefined();
  });
});
