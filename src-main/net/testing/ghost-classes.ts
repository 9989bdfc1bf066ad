// Test fixture: test classes (four-group shape, pointer with an urgent position, one-group marker) and
// a direct in-memory sender → receiver loop with scripted fates. Knows nothing of connections or the sim.
import { BitReader, BitWriter } from '../bitstream';
import type { GhostClass } from '../ghost/ghost-class';
import { defineGhostClass, GhostRegistry } from '../ghost/ghost-class';
import type { GhostManagerOptions } from '../ghost/ghost-manager';
import { GhostManager } from '../ghost/ghost-manager';
import type { GhostPacketRecord } from '../ghost/ghost-sender';
import type { GhostSource } from '../ghost/ghost-source';
import { GhostDomain } from '../ghost/ghost-source';

/** Board coordinates, units. */
export const COORD_MIN = -1_000_000;
export const COORD_MAX = 1_000_000;

export interface Shape {
  key: number;
  x: number;
  y: number;
  w: number;
  h: number;
  color: number;
  label: string;
}

export function blankShape(): Shape {
  return { key: -1, x: 0, y: 0, w: 0, h: 0, color: 0, label: '' };
}

export const SHAPE: GhostClass<Shape, Shape> = defineGhostClass<Shape, Shape>({
  name: 'shape',
  createGhost: blankShape,
  groups: [
    {
      name: 'identity',
      pack: (w, s) => {
        w.writeVarUint(s.key);
      },
      unpack: (r, g) => (g.key = r.readVarUint()),
    },
    {
      name: 'position',
      pack: (w, s) => {
        w.writeRanged(s.x, COORD_MIN, COORD_MAX);
        w.writeRanged(s.y, COORD_MIN, COORD_MAX);
      },
      unpack: (r, g) => {
        g.x = r.readRanged(COORD_MIN, COORD_MAX);
        g.y = r.readRanged(COORD_MIN, COORD_MAX);
      },
    },
    {
      name: 'size',
      pack: (w, s) => {
        w.writeUint(s.w, 16);
        w.writeUint(s.h, 16);
      },
      unpack: (r, g) => {
        g.w = r.readUint(16);
        g.h = r.readUint(16);
      },
    },
    {
      name: 'style',
      pack: (w, s) => {
        w.writeUint(s.color, 24);
        w.writeString(s.label);
      },
      unpack: (r, g) => {
        g.color = r.readUint(24);
        g.label = r.readString(256);
      },
    },
  ],
});

export interface Pointer {
  x: number;
  y: number;
  tool: number;
}

export const POINTER: GhostClass<Pointer, Pointer> = defineGhostClass<Pointer, Pointer>({
  name: 'pointer',
  createGhost: () => ({ x: 0, y: 0, tool: 0 }),
  groups: [
    {
      name: 'position',
      urgent: true,
      pack: (w, p) => {
        w.writeRanged(p.x, COORD_MIN, COORD_MAX);
        w.writeRanged(p.y, COORD_MIN, COORD_MAX);
      },
      unpack: (r, g) => {
        g.x = r.readRanged(COORD_MIN, COORD_MAX);
        g.y = r.readRanged(COORD_MIN, COORD_MAX);
      },
    },
    {
      name: 'tool',
      pack: (w, p) => {
        w.writeUint(p.tool, 3);
      },
      unpack: (r, g) => (g.tool = r.readUint(3)),
    },
  ],
});

/** A one-group class: its updates carry no mask bits. */
export const MARKER: GhostClass<{ n: number }, { n: number }> = defineGhostClass<
  { n: number },
  { n: number }
>({
  name: 'marker',
  createGhost: () => ({ n: 0 }),
  groups: [
    {
      name: 'n',
      pack: (w, m) => {
        w.writeUint(m.n, 8);
      },
      unpack: (r, g) => (g.n = r.readUint(8)),
    },
  ],
});

/** Shape = class 0, pointer = 1, marker = 2: class ids take 2 bits and id 3 is unknown. */
export function testRegistry(): GhostRegistry {
  return new GhostRegistry([SHAPE, POINTER, MARKER]);
}

/** A packet written by the loop's sender, not yet read or notified. */
export interface LoopPacket {
  readonly bytes: Uint8Array;
  readonly bits: number;
  readonly record: GhostPacketRecord | undefined;
}

/** Sender and receiver managers joined directly: the test decides every packet's fate and its timing. */
export class GhostLoop {
  readonly registry = testRegistry();
  readonly domain = new GhostDomain(this.registry);
  readonly sender: GhostManager;
  readonly receiver: GhostManager;
  /** Live ghosts on the receiving side by shape key (shapes) or by ghost object (pointers). */
  readonly shapes = new Map<number, Shape>();
  /** Every update the receiver heard: shape key (or -1 for pointers) and the groups it carried. */
  readonly updates: { key: number; mask: number }[] = [];
  now = 0;

  constructor(send: Omit<GhostManagerOptions, 'registry' | 'domain'> = {}) {
    this.sender = new GhostManager({ ...send, registry: this.registry, domain: this.domain });
    this.receiver = new GhostManager({
      registry: this.registry,
      ...(send.maxGhosts === undefined ? {} : { maxGhosts: send.maxGhosts }),
      events: {
        created: (_now, g, classId) => {
          if (classId === 0) this.shapes.set((g as Shape).key, g as Shape);
        },
        updated: (_now, g, mask, classId) => {
          this.updates.push({ key: classId === 0 ? (g as Shape).key : -1, mask });
        },
        deleted: (_now, g, classId) => {
          if (classId === 0) this.shapes.delete((g as Shape).key);
        },
      },
    });
  }

  /** Adds a shape to the sender's domain (always in scope unless `scoped`). */
  addShape(key: number, scoped = false): GhostSource<Shape> {
    const shape: Shape = {
      ...blankShape(),
      key,
      x: key * 10,
      y: -key,
      w: 5,
      h: 7,
      color: key,
      label: `s${key}`,
    };
    return this.domain.add(SHAPE, shape, { always: !scoped });
  }

  /** Writes one packet within `budgetBits` (nothing when the sender has no demand). */
  write(budgetBits = 9000): LoopPacket {
    const w = new BitWriter();
    const record =
      this.sender.demand(this.now) === 'none'
        ? undefined
        : this.sender.write(this.now, w, budgetBits);
    this.now += 1; // the sender scopes at most once per instant
    return { bytes: w.finish(), bits: w.bitLength, record };
  }

  read(p: LoopPacket): void {
    if (p.bits > 0) this.receiver.read(this.now, new BitReader(p.bytes, 0, p.bits));
  }

  notify(p: LoopPacket, delivered: boolean): void {
    if (p.record !== undefined) this.sender.notify(this.now, p.record, delivered);
  }

  /** Writes, delivers (or drops) and notifies one packet at once. */
  exchange(delivered = true, budgetBits = 9000): LoopPacket {
    const p = this.write(budgetBits);
    if (delivered) this.read(p);
    this.notify(p, delivered);
    this.now += 10;
    return p;
  }
}
