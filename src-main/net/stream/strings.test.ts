import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../bitstream';
import { Rng } from '../rng';
import { ProtocolError } from './manager';
import type { StringRecord } from './strings';
import { StringTable } from './strings';

const VOCAB = Array.from({ length: 40 }, (_, i) => `word-${i}`);

interface Packet {
  readonly bytes: Uint8Array;
  readonly record: StringRecord | undefined;
  readonly strings: readonly string[];
  readonly delivered: boolean;
}

/** Sender and receiver tables over a lossy in-order "connection" with notifies arriving `lag` packets late. */
function runSeed(seed: number): { sender: StringTable; decoded: number } {
  const rng = new Rng(seed);
  const options = { size: rng.range(2, 8), maxEntryBytes: 16 };
  const sender = new StringTable(options);
  const receiver = new StringTable(options);
  const loss = rng.next() * 0.5;
  const lag = rng.range(0, 6);
  const inFlight: Packet[] = [];
  let decoded = 0;
  for (let n = 0; n < 300; n++) {
    const w = new BitWriter();
    const strings = Array.from({ length: rng.range(1, 5) }, () =>
      rng.pick(VOCAB.slice(0, options.size * 3)),
    );
    const kept: string[] = [];
    for (const s of strings) {
      // Sometimes a write is rolled back, as the event manager does when an event doesn't fit.
      const mark = sender.mark();
      const at = w.bitLength;
      sender.writeTableString(w, s);
      if (rng.bool(0.1)) {
        w.truncate(at);
        sender.rollback(mark);
      } else {
        kept.push(s);
      }
    }
    inFlight.push({
      bytes: w.finish(),
      record: sender.takeRecord(),
      strings: kept,
      delivered: !rng.bool(loss),
    });
    const last = inFlight.at(-1);
    if (last?.delivered === true) {
      // Processed on arrival, in send order; a lost packet is simply never read.
      const r = new BitReader(last.bytes);
      for (const s of last.strings) {
        const got = receiver.readTableString(r, 16);
        if (got !== s) expect.fail(`seed ${seed} packet ${n}: ${got} !== ${s}`);
        decoded++;
      }
    }
    while (inFlight.length > lag) {
      const p = inFlight.shift();
      if (p?.record !== undefined) sender.notify(0, p.record, p.delivered);
    }
  }
  return { sender, decoded };
}

describe('string table', () => {
  it('ids always decode to the right string, across LRU eviction, rollback and loss (500 seeds)', () => {
    let byId = 0;
    let evictions = 0;
    let allPinned = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const { sender } = runSeed(seed);
      byId += sender.counters.byId;
      evictions += sender.counters.evictions;
      allPinned += sender.counters.allPinned;
    }
    expect(byId).toBeGreaterThan(10_000);
    expect(evictions).toBeGreaterThan(10_000);
    expect(allPinned).toBeGreaterThan(100);
  });

  it('never reuses an id an unnotified packet references; sends the string untabled instead', () => {
    const t = new StringTable({ size: 2, maxEntryBytes: 16 });
    const w = new BitWriter();
    t.writeTableString(w, 'alice');
    t.writeTableString(w, 'bob');
    const first = t.takeRecord();
    t.writeTableString(w, 'carol');
    expect(t.counters).toMatchObject({ inline: 2, untabled: 1, allPinned: 1, evictions: 0 });
    if (first === undefined) throw new Error('no record');
    t.notify(0, first, true);
    t.writeTableString(w, 'alice'); // confirmed: the id alone, and now the most recently used
    t.writeTableString(w, 'carol'); // evicts bob, the least recently used unpinned entry
    expect(t.counters).toMatchObject({ byId: 1, inline: 3, evictions: 1 });
  });

  it('sends the id alone only after a packet carrying the entry is delivered', () => {
    const t = new StringTable({ size: 4, maxEntryBytes: 16 });
    const r = new StringTable({ size: 4, maxEntryBytes: 16 });
    const w = new BitWriter();
    t.writeTableString(w, 'pen');
    const lost = t.takeRecord();
    if (lost === undefined) throw new Error('no record');
    t.notify(0, lost, false);
    const w2 = new BitWriter();
    t.writeTableString(w2, 'pen'); // still inline
    const rec = t.takeRecord();
    if (rec === undefined) throw new Error('no record');
    expect(r.readTableString(new BitReader(w2.finish()), 16)).toBe('pen');
    t.notify(0, rec, true);
    const w3 = new BitWriter();
    t.writeTableString(w3, 'pen');
    expect(w3.bitLength).toBe(1 + 2 + 1);
    expect(r.readTableString(new BitReader(w3.finish()), 16)).toBe('pen');
  });

  it('rejects an undefined id, an over-long entry and keeps long strings out of the table', () => {
    const r = new StringTable({ size: 8, maxEntryBytes: 16 });
    const w = new BitWriter();
    w.writeBool(true);
    w.writeUint(5, 3);
    w.writeBool(false);
    expect(() => r.readTableString(new BitReader(w.finish()), 16)).toThrow(ProtocolError);
    const t = new StringTable({ size: 8, maxEntryBytes: 4 });
    const w2 = new BitWriter();
    t.writeTableString(w2, 'much too long for an entry');
    expect(t.counters.untabled).toBe(1);
    expect(t.takeRecord()).toBeUndefined();
    expect(r.readTableString(new BitReader(w2.finish()), 64)).toBe('much too long for an entry');
  });

  it('releases pins on rollback', () => {
    const t = new StringTable({ size: 2, maxEntryBytes: 16 });
    const w = new BitWriter();
    const mark = t.mark();
    t.writeTableString(w, 'a');
    t.writeTableString(w, 'b');
    t.rollback(mark);
    expect(t.takeRecord()).toBeUndefined();
    t.writeTableString(w, 'c'); // a and b are unpinned, so c may evict one
    expect(t.counters).toMatchObject({ evictions: 1, allPinned: 0 });
  });
});
