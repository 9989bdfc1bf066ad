// Packet fates alone: which entries reach their records, in what order, and when a delivery cancels a tail repeat.
// Records are real; the packet records are built by hand.
import { describe, expect, it, vi } from 'vitest';
import { POINTER, SHAPE, testRegistry } from '../testing/ghost-classes';
import { notifyFates } from './ghost-fates';
import type { GhostState, GhostTx, RecordOwner } from './ghost-record';
import { GhostRecord } from './ghost-record';
import type { GhostPacketRecord } from './ghost-section-writer';
import { GhostDomain } from './ghost-source';
import { GhostSendCounters } from './ghost-stats';

const POSITION = POINTER.maskOf('position');
const TOOL = POINTER.maskOf('tool');

const owner: RecordOwner = {
  counters: new GhostSendCounters(),
  queue: () => undefined,
  queueUrgent: () => undefined,
  release: () => undefined,
};

function pointer(id: number, state: GhostState = 'live'): GhostRecord {
  const source = new GhostDomain(testRegistry()).add(POINTER, { x: 0, y: 0, tool: 0 });
  const rec = new GhostRecord(owner, source, id);
  source.attach(rec);
  rec.state = state;
  return rec;
}

/** `rec` written as an update of `mask`; `repeats` as the tail repeats would have set it. */
function update(rec: GhostRecord, mask: number, repeats = false): GhostTx {
  rec.mask = rec.mask | mask;
  const tx = rec.wrote('update', mask);
  tx.repeats = repeats;
  if (repeats) rec.repeatMask |= mask;
  return tx;
}

function packet(...entries: GhostTx[]): GhostPacketRecord {
  return { entries, bits: 0 };
}

describe('notifyFates', () => {
  it('leaves a delivered update that set no repeat alone: it changes nothing for its record', () => {
    const rec = pointer(0);
    const fate = vi.spyOn(rec, 'fate');
    notifyFates(packet(update(rec, TOOL)), true);
    expect(fate).not.toHaveBeenCalled();
  });

  it("cancels the repeat of a delivered write that is its record's latest, and not of an older one", () => {
    const rec = pointer(0);
    const older = update(rec, POSITION, true);
    const latest = update(rec, POSITION, true);
    notifyFates(packet(older), true); // a later write follows: its own delivery decides
    expect(rec.repeatMask).toBe(POSITION);
    notifyFates(packet(latest), true);
    expect(rec.repeatMask).toBe(0);
  });

  it('cancels only the groups the delivered write carried', () => {
    const rec = pointer(0);
    rec.repeatMask = POSITION | TOOL;
    notifyFates(packet(update(rec, POSITION, true)), true);
    expect(rec.repeatMask).toBe(TOOL);
  });

  it('hands every dropped entry to its record in the order written, leaving repeats to the drop rule', () => {
    const a = pointer(0);
    const b = pointer(1);
    const seen: [GhostRecord, GhostTx, boolean][] = [];
    for (const rec of [a, b]) {
      vi.spyOn(rec, 'fate').mockImplementation((tx, delivered) => seen.push([rec, tx, delivered]));
    }
    const entries = [update(a, POSITION, true), update(b, TOOL), update(a, TOOL)];
    notifyFates(packet(...entries), false);
    expect(seen).toEqual(entries.map((tx) => [tx.rec, tx, false]));
    expect(a.repeatMask).toBe(POSITION);
  });

  it('hands delivered creates and deletes to their records', () => {
    const domain = new GhostDomain(testRegistry());
    const source = domain.add(SHAPE, { key: 1, x: 0, y: 0, w: 0, h: 0, color: 0, label: '' });
    const rec = new GhostRecord(owner, source, 0);
    source.attach(rec);
    const create = rec.wrote('create', SHAPE.allMask);
    notifyFates(packet(create), true);
    expect(rec.state).toBe('live');
    rec.state = 'delete';
    const del = rec.wrote('delete', 0);
    const released = vi.spyOn(owner, 'release');
    rec.wanted = false;
    notifyFates(packet(del), true);
    expect(released).toHaveBeenCalledWith(rec);
  });
});
