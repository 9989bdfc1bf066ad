// Writes one packet's ghost section within its bit budget, taking records in the line's order and rolling back the
// entries that don't fit. Knows nothing of how the line orders records, of scoping, or of when repeats fall due.
import type { BitWriter } from '../bitstream';
import type { GhostRegistry } from './ghost-class';
import type { GhostRecord, GhostTx } from './ghost-record';
import type { GhostSource } from './ghost-source';
import type { GhostSendCounters } from './ghost-stats';
import type { EntryKind } from './ghost-wire';
import {
  SECTION_OVERHEAD_BITS,
  writeEntryHead,
  writeSectionEnd,
  writeSectionHeader,
  writeUpdateMask,
} from './ghost-wire';

/** The ghost manager's packet record: every entry it wrote (TRIBES Figure 5's transmission structures). */
export interface GhostPacketRecord {
  readonly entries: readonly GhostTx[];
  /** Section size, bits. */
  readonly bits: number;
}

/** The line of records waiting to send, as the writer uses it (FairQueue). */
export interface WriterLine {
  startPacket(): void;
  first(): GhostRecord | undefined;
  pop(): GhostRecord | undefined;
  /** A popped record didn't fit: it keeps its place. */
  putBack(rec: GhostRecord): void;
  /** A popped record was written; returns whether it was starved (left out of a packet while it had something). */
  wrote(rec: GhostRecord): boolean;
  /** A starved record written as an update waits for its next turn at once (see FairQueue.keepInLine). */
  keepInLine(rec: GhostRecord): void;
  waiting(rec: GhostRecord): boolean;
}

export interface SectionWriterDeps {
  readonly line: WriterLine;
  /** Told of every entry written (it may set the entry's tail repeat). */
  readonly repeats: { wrote(now: number, tx: GhostTx, starved: boolean): void };
  readonly counters: GhostSendCounters;
  /** Width of ids in this connection's sections now. */
  readonly ids: { readonly idBits: number };
  readonly registry: GhostRegistry;
  /** Puts a record written with more to send back in line (and raises the connection's demand). */
  readonly queue: (rec: GhostRecord) => void;
}

/** After this many entries that don't fit, the packet is full: smaller ones may still slip in before that. */
export const MAX_MISFITS = 4;

export class SectionWriter {
  /** Records that didn't fit the packet being written, queued again after it. */
  private readonly misfits: GhostRecord[] = [];
  /** Starved records written into the packet being written, kept in line after it. */
  private readonly kept: GhostRecord[] = [];

  constructor(private readonly d: SectionWriterDeps) {}

  /** Writes a section of at most `budgetBits`, or nothing (and returns undefined) when no entry fits or waits. */
  write(now: number, w: BitWriter, budgetBits: number): GhostPacketRecord | undefined {
    const { line, counters } = this.d;
    if (budgetBits < SECTION_OVERHEAD_BITS || line.first() === undefined) return undefined;
    const start = w.bitLength;
    const limit = start + budgetBits - 1; // the end bit always fits
    const idBits = this.d.ids.idBits;
    writeSectionHeader(w, idBits);
    line.startPacket();
    const entries: GhostTx[] = [];
    const misfits = this.misfits;
    const kept = this.kept;
    for (let rec = line.pop(); rec !== undefined; rec = line.pop()) {
      const mark = w.bitLength;
      const kind = kindOf(rec);
      const mask = this.writeEntry(w, idBits, rec, kind);
      if (w.bitLength > limit) {
        w.truncate(mark);
        counters.misfits++;
        misfits.push(rec);
        if (misfits.length >= MAX_MISFITS) break;
        continue;
      }
      this.counted(rec, kind, w.bitLength - mark);
      const starved = line.wrote(rec);
      const tx = rec.wrote(kind, mask);
      entries.push(tx);
      if (starved && kind === 'update') kept.push(rec);
      this.d.repeats.wrote(now, tx, starved);
    }
    // A record that didn't fit keeps its key and place in line; one written with more to send queues anew.
    for (const rec of misfits) line.putBack(rec);
    misfits.length = 0;
    for (const rec of kept) line.keepInLine(rec);
    kept.length = 0;
    for (const tx of entries) if (!line.waiting(tx.rec) && tx.rec.sendable) this.d.queue(tx.rec);
    if (entries.length === 0) {
      w.truncate(start);
      return undefined;
    }
    writeSectionEnd(w);
    counters.sections++;
    counters.overheadBits += SECTION_OVERHEAD_BITS;
    counters.idBits = idBits;
    return { entries, bits: w.bitLength - start };
  }

  private writeEntry(w: BitWriter, idBits: number, rec: GhostRecord, kind: EntryKind): number {
    writeEntryHead(w, idBits, { id: rec.id, kind });
    const source = rec.source;
    const cls = source.cls;
    switch (kind) {
      case 'delete':
        return 0;
      case 'create':
      case 'refresh':
        w.writeUint(source.classId, this.d.registry.classIdBits);
        packGroups(w, source, cls.allMask);
        return cls.allMask;
      case 'update':
        writeUpdateMask(w, cls.maskBits, rec.mask);
        packGroups(w, source, rec.mask);
        return rec.mask;
    }
  }

  private counted(rec: GhostRecord, kind: EntryKind, bits: number): void {
    const counters = this.d.counters;
    counters.addClassBits(rec.source.classId, rec.source.cls.name, bits);
    switch (kind) {
      case 'create':
        counters.creates++;
        return;
      case 'refresh':
        counters.refreshes++;
        return;
      case 'update':
        counters.updates++;
        return;
      case 'delete':
        counters.deletes++;
        return;
    }
  }
}

function kindOf(rec: GhostRecord): EntryKind {
  switch (rec.state) {
    case 'create':
      return 'create';
    case 'creating':
      return 'refresh';
    case 'delete':
      return 'delete';
    case 'live':
    case 'deleting':
    case 'freed':
      return 'update'; // only live records are selected among these
  }
}

function packGroups(w: BitWriter, source: GhostSource, mask: number): void {
  const groups = source.cls.groups;
  for (let i = 0; i < groups.length; i++) {
    if ((mask & (1 << i)) !== 0) groups[i]?.pack(w, source.obj);
  }
}
