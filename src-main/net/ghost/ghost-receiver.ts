// One connection's incoming ghosts: the id → ghost dictionary, ghosts built through the class registry, and the
// created / updated / deleted callbacks. Treats every section as hostile. Knows nothing of sending or scoping.
import type { BitReader } from '../bitstream';
import { ProtocolError } from '../stream/manager';
import type { AnyGhostClass, GhostRegistry } from './ghost-class';
import { idBitsFor } from './ghost-ids';
import type { GhostReceiveStats } from './ghost-stats';
import { readEntryHead, readSectionHeader, readUpdateMask } from './ghost-wire';

/** What the app hears about the peer's objects. `ghost` is what the class's createGhost returned. */
export interface GhostEvents {
  created?(now: number, ghost: unknown, classId: number): void;
  /** `mask`: the groups this update carried (bit i = the class's group i). */
  updated?(now: number, ghost: unknown, mask: number, classId: number): void;
  deleted?(now: number, ghost: unknown, classId: number): void;
}

interface Entry {
  readonly ghost: unknown;
  readonly classId: number;
  readonly cls: AnyGhostClass;
}

export class GhostReceiver {
  /** Ids at or above this are refused; it also bounds the dictionary. */
  readonly limit: number;
  private readonly maxIdBits: number;
  /**
   * Live ghosts by id (ids are below `limit` and kept dense by the sender, so an array indexed by id; a client
   * looks one up for every update it reads).
   */
  private readonly ghosts: (Entry | undefined)[] = [];
  private live = 0;
  private bits = 0;
  private creates = 0;
  private updates = 0;
  private deletes = 0;

  constructor(
    private readonly registry: GhostRegistry,
    limit: number,
    private readonly events: GhostEvents = {},
  ) {
    this.limit = limit;
    this.maxIdBits = idBitsFor(limit);
  }

  get size(): number {
    return this.live;
  }

  /** The ghost with this id, if live. */
  ghost(id: number): unknown {
    return this.ghosts[id]?.ghost;
  }

  /** Every live ghost with its id and class id. */
  *entries(): IterableIterator<{ id: number; ghost: unknown; classId: number }> {
    for (let id = 0; id < this.ghosts.length; id++) {
      const e = this.ghosts[id];
      if (e !== undefined) yield { id, ghost: e.ghost, classId: e.classId };
    }
  }

  stats(): GhostReceiveStats {
    return {
      bits: this.bits,
      creates: this.creates,
      updates: this.updates,
      deletes: this.deletes,
      live: this.live,
    };
  }

  /** Reads one section. Hostile input throws DecodeError or ProtocolError, and the connection closes. */
  read(now: number, r: BitReader): void {
    const start = r.position;
    const idBits = readSectionHeader(r, this.maxIdBits);
    for (
      let h = readEntryHead(r, idBits, this.limit);
      h;
      h = readEntryHead(r, idBits, this.limit)
    ) {
      switch (h.kind) {
        case 'create':
        case 'refresh':
          this.readCreate(now, r, h.id, h.kind === 'refresh');
          break;
        case 'update':
          this.readUpdate(now, r, h.id);
          break;
        case 'delete':
          this.readDelete(now, h.id);
          break;
      }
    }
    this.bits += r.position - start;
  }

  private readCreate(now: number, r: BitReader, id: number, refresh: boolean): void {
    const existing = this.ghosts[id];
    if (existing !== undefined && !refresh) {
      throw new ProtocolError(`ghost create for id ${id}, already in use`);
    }
    const classId = r.readUint(this.registry.classIdBits);
    const cls = this.registry.byId(classId);
    if (cls === undefined) throw new ProtocolError(`ghost create with unknown class id ${classId}`);
    if (existing !== undefined) {
      if (existing.classId !== classId) {
        throw new ProtocolError(
          `ghost refresh of id ${id} as class ${classId}, not ${existing.classId}`,
        );
      }
      for (const g of cls.groups) g.unpack(r, existing.ghost);
      this.updates++;
      this.events.updated?.(now, existing.ghost, cls.allMask, classId);
      return;
    }
    const ghost = cls.createGhost();
    for (const g of cls.groups) g.unpack(r, ghost);
    this.setEntry(id, { ghost, classId, cls });
    this.live++;
    this.creates++;
    this.events.created?.(now, ghost, classId);
  }

  private readUpdate(now: number, r: BitReader, id: number): void {
    const e = this.ghosts[id];
    if (e === undefined) throw new ProtocolError(`ghost update for unknown id ${id}`);
    const groups = e.cls.groups;
    const mask = readUpdateMask(r, e.cls.maskBits);
    for (let i = 0; i < groups.length; i++) {
      if ((mask & (1 << i)) !== 0) groups[i]?.unpack(r, e.ghost);
    }
    this.updates++;
    this.events.updated?.(now, e.ghost, mask, e.classId);
  }

  private readDelete(now: number, id: number): void {
    const e = this.ghosts[id];
    if (e === undefined) throw new ProtocolError(`ghost delete for unknown id ${id}`);
    this.ghosts[id] = undefined;
    this.live--;
    this.deletes++;
    this.events.deleted?.(now, e.ghost, e.classId);
  }

  /** Fills the array up to `id` first, so it stays packed (ids arrive in any order, the lowest free first). */
  private setEntry(id: number, e: Entry): void {
    const ghosts = this.ghosts;
    while (ghosts.length < id) ghosts.push(undefined);
    ghosts[id] = e;
  }
}
