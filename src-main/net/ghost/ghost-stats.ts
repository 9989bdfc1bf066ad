// Running ghost traffic counters for the bandwidth panel ("ghosts by class") and the tests.
// Knows nothing of records, scoping or the wire layout.

/** What one connection's ghost manager has sent, as running totals. */
export interface GhostSendStats {
  /** Bits of entries (id, status, mask, class id, state) per class name. */
  readonly bitsByClass: Readonly<Record<string, number>>;
  /** Section headers and end bits. */
  readonly overheadBits: number;
  readonly sections: number;
  readonly creates: number;
  /** Creates repeated, with current state, while the first was unacknowledged and the object changed. */
  readonly refreshes: number;
  readonly updates: number;
  readonly deletes: number;
  /** State group bits set again after a drop because no later packet carried them (TRIBES rule): resent state. */
  readonly restoredBits: number;
  /** Dropped group bits not resent because a later packet had already carried that group: stale state saved. */
  readonly staleBitsSkipped: number;
  /** Creates and deletes redone after a drop. */
  readonly recreates: number;
  readonly redeletes: number;
  readonly scopePasses: number;
  /** Objects in scope left unghosted because every ghost id was in use. */
  readonly idExhausted: number;
  /** Entries that did not fit the packet's budget and were rolled back. */
  readonly misfits: number;
  readonly tailRepeats: number;
  /** Ghost records with an id (live remotely, or on their way in or out). */
  readonly liveIds: number;
  /** Width of ids in the last section written. */
  readonly idBits: number;
}

/** What one connection's ghost manager has received. */
export interface GhostReceiveStats {
  readonly bits: number;
  readonly creates: number;
  readonly updates: number;
  readonly deletes: number;
  readonly live: number;
}

export class GhostSendCounters {
  /** Bits per class, indexed by class id, and the classes in the order they were first counted (the snapshot's). */
  private readonly byClassId: { readonly name: string; bits: number }[] = [];
  private readonly classes: { readonly name: string; bits: number }[] = [];
  overheadBits = 0;
  sections = 0;
  creates = 0;
  refreshes = 0;
  updates = 0;
  deletes = 0;
  restoredBits = 0;
  staleBitsSkipped = 0;
  recreates = 0;
  redeletes = 0;
  scopePasses = 0;
  idExhausted = 0;
  misfits = 0;
  /** Urgent groups written once more after they stopped changing (see TAIL_REPEAT_MS). */
  tailRepeats = 0;
  idBits = 0;

  /** Called for every entry written: indexed by class id rather than keyed by name. */
  addClassBits(classId: number, name: string, bits: number): void {
    let c = this.byClassId[classId];
    if (c === undefined) {
      c = { name, bits: 0 };
      this.byClassId[classId] = c;
      this.classes.push(c);
    }
    c.bits += bits;
  }

  get bitsByClass(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.classes.map((c) => [c.name, c.bits]));
  }

  snapshot(liveIds: number): GhostSendStats {
    return {
      bitsByClass: this.bitsByClass,
      overheadBits: this.overheadBits,
      sections: this.sections,
      creates: this.creates,
      refreshes: this.refreshes,
      updates: this.updates,
      deletes: this.deletes,
      restoredBits: this.restoredBits,
      staleBitsSkipped: this.staleBitsSkipped,
      recreates: this.recreates,
      redeletes: this.redeletes,
      scopePasses: this.scopePasses,
      idExhausted: this.idExhausted,
      misfits: this.misfits,
      tailRepeats: this.tailRepeats,
      liveIds,
      idBits: this.idBits,
    };
  }
}

/** Number of set bits in a 32-bit mask. */
export function popcount(mask: number): number {
  let v = mask >>> 0;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
