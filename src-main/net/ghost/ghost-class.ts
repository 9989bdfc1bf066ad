// Declares replicated classes (state groups, ghost construction) and the class-id registry both ends share.
// Knows nothing of connections, ghost ids, scoping or packets.
import type { BitReader, BitWriter } from '../bitstream';
import { bitsForRange } from '../bitstream';

/** A state mask has one bit per group (TRIBES "State Mask"), so a class has at most 32. */
export const MAX_GHOST_GROUPS = 32;

/** One independently tracked and sent part of an object's state (position, style, label, ...). */
export interface GhostGroup<S, G> {
  readonly name: string;
  /** Latency-sensitive (a pointer's position): while dirty, the manager's demand is 'urgent'. */
  readonly urgent?: boolean;
  /** Writes the source object's current state for this group. */
  pack(w: BitWriter, source: S): void;
  /** Reads what pack wrote into the ghost. Hostile input throws DecodeError (or ProtocolError). */
  unpack(r: BitReader, ghost: G): void;
}

export interface GhostClassSpec<S, G> {
  /** Unique within a registry; also the key of per-class traffic figures. */
  readonly name: string;
  /** Group i is bit i of the state mask. */
  readonly groups: readonly GhostGroup<S, G>[];
  /** A blank ghost on the receiving side; the create's groups are unpacked into it. */
  createGhost(): G;
}

export interface GhostClass<S, G> extends GhostClassSpec<S, G> {
  /** Every group's bit: what a create carries. */
  readonly allMask: number;
  /** The bits of groups flagged urgent. */
  readonly urgentMask: number;
  /** Width of an update's mask on the wire: one bit per group, none for a one-group class. */
  readonly maskBits: number;
  /** The mask of the named groups (throws on an unknown name: a programmer error). */
  maskOf(...names: string[]): number;
}

/** Type-erased class, as the managers see it; the typed GhostClass<S, G> is assignable to it. */
export type AnyGhostClass = GhostClass<unknown, unknown>;

export function defineGhostClass<S, G>(spec: GhostClassSpec<S, G>): GhostClass<S, G> {
  const n = spec.groups.length;
  if (n < 1 || n > MAX_GHOST_GROUPS) {
    throw new RangeError(`ghost class ${spec.name}: 1..${MAX_GHOST_GROUPS} groups, got ${n}`);
  }
  const bits = new Map<string, number>();
  let urgentMask = 0;
  spec.groups.forEach((g, i) => {
    if (bits.has(g.name))
      throw new RangeError(`ghost class ${spec.name}: duplicate group ${g.name}`);
    bits.set(g.name, (1 << i) >>> 0);
    if (g.urgent === true) urgentMask = (urgentMask | (1 << i)) >>> 0;
  });
  return {
    name: spec.name,
    groups: spec.groups,
    createGhost: () => spec.createGhost(),
    allMask: n === 32 ? 0xffffffff : (1 << n) - 1,
    urgentMask,
    maskBits: n === 1 ? 0 : n,
    maskOf(...names: string[]): number {
      let m = 0;
      for (const name of names) {
        const bit = bits.get(name);
        if (bit === undefined)
          throw new RangeError(`ghost class ${spec.name} has no group ${name}`);
        m |= bit;
      }
      return m >>> 0;
    },
  };
}

/**
 * Class id = position in the list, which both ends must build identically (TRIBES' ClassRep table).
 * A class id on the wire takes bitsForRange(0, size - 1) bits: none when there is one class.
 */
export class GhostRegistry {
  readonly classIdBits: number;
  private readonly ids = new Map<AnyGhostClass, number>();

  constructor(readonly classes: readonly AnyGhostClass[]) {
    if (classes.length === 0) throw new RangeError('a ghost registry needs at least one class');
    const names = new Set<string>();
    classes.forEach((c, i) => {
      if (names.has(c.name) || this.ids.has(c))
        throw new RangeError(`duplicate ghost class ${c.name}`);
      names.add(c.name);
      this.ids.set(c, i);
    });
    this.classIdBits = bitsForRange(0, classes.length - 1);
  }

  get size(): number {
    return this.classes.length;
  }

  /** The class id of a registered class (throws for an unregistered one: a programmer error). */
  idOf(cls: AnyGhostClass): number {
    const id = this.ids.get(cls);
    if (id === undefined) throw new RangeError(`ghost class ${cls.name} is not registered`);
    return id;
  }

  /** The class with this id, or undefined for an id no class has. */
  byId(id: number): AnyGhostClass | undefined {
    return this.classes[id];
  }
}
