// The per-connection string table (TNL's string manager): repeated strings become ids of a bounded LRU table,
// sent inline with their id until a packet carrying the entry is delivered. Knows nothing of packets' layout,
// events or RPCs; the scheduler hands it each packet's fate.
import type { BitReader, BitWriter } from '../bitstream';
import { bitsForRange } from '../bitstream';
import { ProtocolError } from './manager';
import { utf8Length } from './params';
import type { PacketTracker } from './tracker';

export interface StringTableOptions {
  /** Entries, 2..65536; both ends must agree (ids take ceil(log2(size)) bits). */
  readonly size: number;
  /** Longer strings are not worth an entry and go through writeString. */
  readonly maxEntryBytes: number;
}

export const DEFAULT_STRING_TABLE: StringTableOptions = { size: 512, maxEntryBytes: 64 };

interface Slot {
  readonly str: string;
  /** Bumped each time the slot is reused, so a late delivery can't confirm a newer mapping. */
  readonly gen: number;
  /** A packet that carried this mapping inline was delivered: the peer has it, the id alone will do. */
  confirmed: boolean;
  /** References to this slot in packets not yet notified (and in the packet being built). */
  pins: number;
}

interface StringRef {
  readonly slot: number;
  readonly gen: number;
  readonly inline: boolean;
}

/** The table's part of a transmission record: every reference the packet carried. */
export type StringRecord = readonly StringRef[];

export interface StringTableCounters {
  inline: number;
  byId: number;
  untabled: number;
  evictions: number;
  /** Strings sent untabled because every slot was referenced by a packet in flight. */
  allPinned: number;
}

export class StringTable implements PacketTracker<StringRecord> {
  readonly idBits: number;
  readonly counters: StringTableCounters = {
    inline: 0,
    byId: 0,
    untabled: 0,
    evictions: 0,
    allPinned: 0,
  };
  private readonly slots: (Slot | undefined)[] = [];
  /** String -> slot, in least-recently-used-first order (a Map keeps insertion order; a use re-inserts). */
  private readonly lru = new Map<string, number>();
  private pending: StringRef[] = [];
  /** What the peer's ids mean, as defined by its inline entries. */
  private readonly remote: (string | undefined)[] = [];

  constructor(readonly options: StringTableOptions = DEFAULT_STRING_TABLE) {
    if (!Number.isInteger(options.size) || options.size < 2 || options.size > 65536) {
      throw new RangeError(`string table size must be an integer in 2..65536, got ${options.size}`);
    }
    this.idBits = bitsForRange(0, options.size - 1);
  }

  /**
   * Layout: 0 then writeString(s) (untabled); or 1, the id, then 1 and writeString(s) (inline: the entry is new to
   * the peer) or 0 (the peer has it).
   */
  writeTableString(w: BitWriter, s: string): void {
    const length = utf8Length(s);
    const slot = length === 0 || length > this.options.maxEntryBytes ? undefined : this.slotFor(s);
    const e = slot === undefined ? undefined : this.slots[slot];
    if (slot === undefined || e === undefined) {
      this.counters.untabled++;
      w.writeBool(false);
      w.writeString(s);
      return;
    }
    const inline = !e.confirmed;
    w.writeBool(true);
    w.writeUint(slot, this.idBits);
    w.writeBool(inline);
    if (inline) w.writeString(s);
    if (inline) this.counters.inline++;
    else this.counters.byId++;
    e.pins++;
    this.pending.push({ slot, gen: e.gen, inline });
  }

  /** The most bits writeTableString can take for `s`, written without touching the table (for size checks). */
  writeWorstCase(w: BitWriter, s: string): void {
    w.writeBool(true);
    w.writeUint(0, this.idBits);
    w.writeBool(true);
    w.writeString(s);
  }

  /** Hostile input: an id never defined (or out of range) or an over-long string throws ProtocolError/DecodeError. */
  readTableString(r: BitReader, maxBytes: number): string {
    if (!r.readBool()) return r.readString(maxBytes);
    const id = r.readUint(this.idBits);
    if (id >= this.options.size)
      throw new ProtocolError(`string id ${id} outside a table of ${this.options.size}`);
    if (r.readBool()) {
      const s = r.readString(Math.min(maxBytes, this.options.maxEntryBytes));
      if (s.length === 0) throw new ProtocolError('empty string table entry');
      this.remote[id] = s;
      return s;
    }
    const s = this.remote[id];
    if (s === undefined) throw new ProtocolError(`undefined string id ${id}`);
    if (utf8Length(s) > maxBytes)
      throw new ProtocolError(`string id ${id} longer than ${maxBytes} bytes`);
    return s;
  }

  mark(): number {
    return this.pending.length;
  }

  rollback(mark: number): void {
    for (const ref of this.pending.splice(mark)) this.unpin(ref);
  }

  takeRecord(): StringRecord | undefined {
    if (this.pending.length === 0) return undefined;
    const record = this.pending;
    this.pending = [];
    return record;
  }

  notify(_now: number, record: StringRecord, delivered: boolean): void {
    for (const ref of record) {
      const e = this.unpin(ref);
      if (delivered && ref.inline && e?.gen === ref.gen) e.confirmed = true;
    }
  }

  /** Entries in use on the sending side. */
  get size(): number {
    return this.lru.size;
  }

  private unpin(ref: StringRef): Slot | undefined {
    const e = this.slots[ref.slot];
    // A pinned slot is never reused, so the generation still matches while pins are held.
    if (e !== undefined) e.pins--;
    return e;
  }

  /** The slot holding `s`, allocating (and evicting the least recently used unpinned entry) if needed. */
  private slotFor(s: string): number | undefined {
    const existing = this.lru.get(s);
    if (existing !== undefined) {
      this.lru.delete(s);
      this.lru.set(s, existing);
      return existing;
    }
    let slot: number | undefined =
      this.slots.length < this.options.size ? this.slots.length : undefined;
    let gen = 0;
    if (slot === undefined) {
      // Evicting a slot that an unnotified packet references could let the peer resolve that reference to the
      // new string if it ever processed packets out of order; waiting for the notify rules that out entirely.
      for (const [str, i] of this.lru) {
        const old = this.slots[i];
        if (old === undefined || old.pins > 0) continue;
        this.lru.delete(str);
        this.counters.evictions++;
        slot = i;
        gen = old.gen + 1;
        break;
      }
    }
    if (slot === undefined) {
      this.counters.allPinned++;
      return undefined;
    }
    this.slots[slot] = { str: s, gen, confirmed: false, pins: 0 };
    this.lru.set(s, slot);
    return slot;
  }
}
