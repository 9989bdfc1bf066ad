// The section writer alone, over a fake line that hands out records in a fixed order: what it writes reads back,
// it never passes its budget, rolls back what doesn't fit, and tells the line and the tail repeats what it wrote.
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../bitstream';
import { Rng } from '../rng';
import { blankShape, POINTER, SHAPE, testRegistry } from '../testing/ghost-classes';
import type { AnyGhostClass } from './ghost-class';
import type { GhostState, GhostTx, RecordOwner } from './ghost-record';
import { GhostRecord } from './ghost-record';
import type { WriterLine } from './ghost-section-writer';
import { MAX_MISFITS, SectionWriter } from './ghost-section-writer';
import { GhostDomain } from './ghost-source';
import { GhostSendCounters } from './ghost-stats';
import {
  readEntryHead,
  readSectionHeader,
  readUpdateMask,
  SECTION_OVERHEAD_BITS,
} from './ghost-wire';

const POS = SHAPE.maskOf('position');
const STYLE = SHAPE.maskOf('style');

/** Records in a fixed order; remembers what the writer gave back. */
class ListLine implements WriterLine {
  readonly queue: GhostRecord[] = [];
  readonly putBacks: GhostRecord[] = [];
  readonly kept: GhostRecord[] = [];
  readonly starved = new Set<GhostRecord>();
  /** Every record the writer took, in order. */
  readonly popped: GhostRecord[] = [];
  packets = 0;

  startPacket(): void {
    this.packets++;
  }
  first(): GhostRecord | undefined {
    return this.queue[0];
  }
  pop(): GhostRecord | undefined {
    const rec = this.queue.shift();
    if (rec !== undefined) this.popped.push(rec);
    return rec;
  }
  putBack(rec: GhostRecord): void {
    this.putBacks.push(rec);
  }
  wrote(rec: GhostRecord): boolean {
    return this.starved.has(rec);
  }
  keepInLine(rec: GhostRecord): void {
    this.kept.push(rec);
  }
  waiting(rec: GhostRecord): boolean {
    return [...this.queue, ...this.putBacks, ...this.kept].includes(rec);
  }
}

interface Setup {
  readonly line: ListLine;
  readonly counters: GhostSendCounters;
  readonly writer: SectionWriter;
  readonly domain: GhostDomain;
  /** Every entry the writer told the tail repeats of, with its starved flag. */
  readonly repeated: [GhostTx, boolean][];
  /** Records the writer queued again. */
  readonly requeued: GhostRecord[];
  /** The id width the writer is told (4 bits: up to 16 records), and the next id to hand out. */
  readonly ids: { idBits: number; next: number };
  /** Called for each entry the tail repeats are told of. */
  onWrote: (tx: GhostTx) => void;
}

function setup(): Setup {
  const registry = testRegistry();
  const line = new ListLine();
  const counters = new GhostSendCounters();
  const repeated: [GhostTx, boolean][] = [];
  const requeued: GhostRecord[] = [];
  const ids = { idBits: 4, next: 0 };
  const s: Setup = {
    line,
    counters,
    domain: new GhostDomain(registry),
    repeated,
    requeued,
    ids,
    onWrote: () => undefined,
    writer: new SectionWriter({
      line,
      repeats: {
        wrote: (_now, tx, starved) => {
          repeated.push([tx, starved]);
          s.onWrote(tx);
        },
      },
      counters,
      ids,
      registry,
      queue: (rec) => requeued.push(rec),
    }),
  };
  return s;
}

const owner: RecordOwner = {
  counters: new GhostSendCounters(),
  queue: () => undefined,
  queueUrgent: () => undefined,
  release: () => undefined,
};

/** A shape record in `state` (a live one with `mask` dirty), queued in the line. */
function shape(s: Setup, state: GhostState, mask = 0): GhostRecord {
  const id = s.ids.next++;
  const source = s.domain.add(SHAPE, { ...blankShape(), key: id, x: id * 3, label: `s${id}` });
  const rec = new GhostRecord(owner, source, id);
  source.attach(rec);
  rec.state = state;
  rec.mask = mask;
  s.line.queue.push(rec);
  return rec;
}

function pointer(s: Setup): GhostRecord {
  const id = s.ids.next++;
  const source = s.domain.add(POINTER, { x: id, y: -id, tool: 1 });
  const rec = new GhostRecord(owner, source, id);
  source.attach(rec);
  rec.state = 'live';
  rec.mask = POINTER.allMask;
  s.line.queue.push(rec);
  return rec;
}

/** One entry as read back: its head, and for creates and updates the groups' bytes as packed again. */
interface ReadEntry {
  readonly id: number;
  readonly kind: string;
  readonly mask: number;
  readonly packed: string;
}

/** Packs `obj`'s groups in `mask` as `cls` would, as text: two objects compare equal on those groups. */
function packed(cls: AnyGhostClass, obj: unknown, mask: number): string {
  const w = new BitWriter();
  cls.groups.forEach((g, i) => {
    if ((mask & (1 << i)) !== 0) g.pack(w, obj);
  });
  return `${w.bitLength}:${w.finish().join(',')}`;
}

/**
 * Reads `bits` from `start` as a section, knowing each id's class as the peer would, and requires that it ends
 * exactly there.
 */
function readBack(w: BitWriter, start: number, bits: number, recs: GhostRecord[]): ReadEntry[] {
  const registry = testRegistry();
  const r = new BitReader(w.finish(), start, start + bits);
  const idBits = readSectionHeader(r, 16);
  const out: ReadEntry[] = [];
  for (
    let h = readEntryHead(r, idBits, 1 << idBits);
    h;
    h = readEntryHead(r, idBits, 1 << idBits)
  ) {
    const id = h.id;
    let cls = recs.find((rec) => rec.id === id)?.source.cls;
    let mask = 0;
    if (h.kind === 'create' || h.kind === 'refresh') {
      cls = registry.byId(r.readUint(registry.classIdBits));
      mask = cls?.allMask ?? 0;
    } else if (h.kind === 'update' && cls !== undefined) {
      mask = readUpdateMask(r, cls.maskBits);
    }
    if (cls === undefined) throw new Error(`no class for ghost ${id}`);
    const ghost = cls.createGhost();
    cls.groups.forEach((g, i) => {
      if ((mask & (1 << i)) !== 0) g.unpack(r, ghost);
    });
    out.push({ id, kind: h.kind, mask, packed: packed(cls, ghost, mask) });
  }
  expect(r.bitsLeft).toBe(0);
  return out;
}

/** What readBack should find for these entries. */
function expected(entries: readonly GhostTx[]): ReadEntry[] {
  return entries.map((tx) => ({
    id: tx.rec.id,
    kind: tx.kind,
    mask: tx.mask,
    packed: packed(tx.rec.source.cls, tx.rec.source.obj, tx.mask),
  }));
}

describe('SectionWriter', () => {
  it('writes nothing without room for a section or a record waiting', () => {
    const s = setup();
    const w = new BitWriter();
    w.writeUint(5, 3);
    expect(s.writer.write(0, w, 1000)).toBeUndefined(); // none waiting
    shape(s, 'create');
    expect(s.writer.write(0, w, SECTION_OVERHEAD_BITS - 1)).toBeUndefined();
    expect(w.bitLength).toBe(3);
    expect(s.line.packets).toBe(0);
  });

  it('writes creates, updates of the dirty groups and deletes that read back, counting each', () => {
    const s = setup();
    const created = shape(s, 'create');
    shape(s, 'live', POS | STYLE);
    pointer(s);
    const deleted = shape(s, 'delete');
    const w = new BitWriter();
    w.writeUint(1, 7); // what an earlier section of the packet wrote
    const record = s.writer.write(0, w, 10_000);
    expect(record?.entries.map((tx) => [tx.kind, tx.mask])).toEqual([
      ['create', SHAPE.allMask],
      ['update', POS | STYLE],
      ['update', POINTER.allMask],
      ['delete', 0],
    ]);
    expect(record?.bits).toBe(w.bitLength - 7);
    expect([created.state, deleted.state]).toEqual(['creating', 'deleting']);
    const c = s.counters;
    expect([c.sections, c.creates, c.updates, c.deletes, c.misfits]).toEqual([1, 1, 2, 1, 0]);
    const byClass = c.bitsByClass;
    expect((byClass.shape ?? 0) + (byClass.pointer ?? 0) + c.overheadBits).toBe(record?.bits);
    const entries = record?.entries ?? [];
    expect(readBack(w, 7, record?.bits ?? 0, s.line.popped)).toEqual(expected(entries));
  });

  it('rolls back entries that do not fit, lets smaller ones in, and stops after MAX_MISFITS', () => {
    const s = setup();
    const small = shape(s, 'live', POS);
    const w0 = new BitWriter();
    const one = s.writer.write(0, w0, 10_000)?.bits ?? 0; // a section with one position update
    const big = Array.from({ length: MAX_MISFITS }, () => shape(s, 'create'));
    const last = shape(s, 'live', POS);
    s.line.queue.length = 0;
    s.line.queue.push(big[0] as GhostRecord, small, ...big.slice(1), last);
    small.mask = POS;
    const w = new BitWriter();
    const record = s.writer.write(0, w, one);
    expect(record?.entries.map((tx) => tx.rec)).toEqual([small]);
    expect(w.bitLength).toBe(one);
    expect(s.line.putBacks).toEqual(big); // in the order met, each keeping its place
    expect(s.line.queue).toEqual([last]); // the packet was full: the last one was not looked at
    expect(s.counters.misfits).toBe(MAX_MISFITS);
  });

  it('leaves the writer as it found it when nothing fits', () => {
    const s = setup();
    const rec = shape(s, 'create');
    const w = new BitWriter();
    w.writeUint(3, 2);
    expect(s.writer.write(0, w, SECTION_OVERHEAD_BITS + 4)).toBeUndefined();
    expect(w.bitLength).toBe(2);
    expect(s.line.putBacks).toEqual([rec]);
    expect(rec.state).toBe('create');
    expect(s.counters.sections).toBe(0);
  });

  it('keeps starved updates in line, and tells the tail repeats of every entry with its starved flag', () => {
    const s = setup();
    const update = shape(s, 'live', POS);
    const create = shape(s, 'create');
    const fresh = shape(s, 'live', POS);
    s.line.starved.add(update);
    s.line.starved.add(create);
    s.writer.write(5, new BitWriter(), 10_000);
    expect(s.line.kept).toEqual([update]); // a create leaves the line: its record is not live yet
    expect(s.repeated.map(([tx, starved]) => [tx.rec, starved])).toEqual([
      [update, true],
      [create, true],
      [fresh, false],
    ]);
  });

  it('queues again a record written with more to send', () => {
    const s = setup();
    const rec = shape(s, 'live', POS);
    // Its object changes again before the packet is done (as a group's pack might).
    s.onWrote = (tx) => {
      if (tx.rec === rec) rec.source.markDirty(STYLE);
    };
    s.writer.write(0, new BitWriter(), 10_000);
    expect(s.requeued).toEqual([rec]);
  });

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`never passes its budget and loses no record, whatever the budget (seed ${seed})`, () => {
      const rng = new Rng(seed);
      for (let round = 0; round < 200; round++) {
        const s = setup();
        const recs: GhostRecord[] = [];
        for (let i = rng.int(12); i > 0; i--) {
          const state = rng.pick<GhostState>(['create', 'creating', 'live', 'delete']);
          recs.push(state === 'live' && rng.bool() ? pointer(s) : shape(s, state, 1 + rng.int(15)));
        }
        const w = new BitWriter();
        const before = rng.int(40);
        for (let i = 0; i < before; i++) w.writeBool(rng.bool());
        const budget = rng.int(400);
        const record = s.writer.write(0, w, budget);
        const where = `seed ${seed}, round ${round}`;
        const bits = w.bitLength - before;
        expect(bits, where).toBeLessThanOrEqual(budget);
        expect(bits, where).toBe(record?.bits ?? 0);
        const written = record?.entries.map((tx) => tx.rec) ?? [];
        const accounted = [...written, ...s.line.putBacks, ...s.line.queue];
        expect(
          accounted.sort((a, b) => a.id - b.id),
          where,
        ).toEqual(recs);
        if (record !== undefined) {
          expect(readBack(w, before, bits, recs), where).toEqual(expected(record.entries));
        }
      }
    });
  }
});
