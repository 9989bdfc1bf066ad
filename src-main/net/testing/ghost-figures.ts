// Figures for the benchmark report: the wire cost of one pointer-sized ghost update and the CPU cost of
// scoping and selecting a large board per packet. Knows nothing of sockets, sessions or the scheduler.
import { BitReader, BitWriter } from '../bitstream';
import type { GhostClass } from '../ghost/ghost-class';
import { defineGhostClass, GhostRegistry } from '../ghost/ghost-class';
import { GhostManager } from '../ghost/ghost-manager';
import type { GhostScope } from '../ghost/ghost-sender';
import type { GhostSource } from '../ghost/ghost-source';
import { GhostDomain } from '../ghost/ghost-source';
import { SECTION_OVERHEAD_BITS } from '../ghost/ghost-wire';

/** Board units: the coordinate range the whiteboard uses. */
const COORD = 1_000_000;

interface Point {
  x: number;
  y: number;
  tool: number;
  visible: boolean;
}

/** A pointer-like class: urgent position (x, y ranged to ±1,000,000), tool (3 bits), visible (1 bit). */
const POINT: GhostClass<Point, Point> = defineGhostClass<Point, Point>({
  name: 'point',
  createGhost: () => ({ x: 0, y: 0, tool: 0, visible: true }),
  groups: [
    {
      name: 'position',
      urgent: true,
      pack: (w, p) => {
        w.writeRanged(p.x, -COORD, COORD);
        w.writeRanged(p.y, -COORD, COORD);
      },
      unpack: (r, g) => {
        g.x = r.readRanged(-COORD, COORD);
        g.y = r.readRanged(-COORD, COORD);
      },
    },
    {
      name: 'tool',
      pack: (w, p) => {
        w.writeUint(p.tool, 3);
      },
      unpack: (r, g) => (g.tool = r.readUint(3)),
    },
    {
      name: 'visible',
      pack: (w, p) => {
        w.writeBool(p.visible);
      },
      unpack: (r, g) => (g.visible = r.readBool()),
    },
  ],
});

export interface PointerUpdateBits {
  /** The whole ghost section carrying one position update: header, entry, end bit. */
  readonly sectionBits: number;
  /** The entry alone: more bit, id, update flag, 3-bit mask, 2 × 21-bit coordinates. */
  readonly entryBits: number;
  /** Plus the scheduler's one presence bit for the section: what the packet pays. */
  readonly packetBits: number;
}

/** Bits for one pointer-sized update (one pointer moved) when `liveGhosts` ghosts are live (ids ~ log2 of it). */
export function pointerUpdateBits(liveGhosts = 40): PointerUpdateBits {
  const registry = new GhostRegistry([POINT]);
  const domain = new GhostDomain(registry);
  const points: GhostSource<Point>[] = [];
  for (let i = 0; i < liveGhosts; i++) {
    points.push(domain.add(POINT, { x: i, y: -i, tool: 1, visible: true }, { always: true }));
  }
  const sender = new GhostManager({ registry, domain });
  const receiver = new GhostManager({ registry });
  for (let now = 0; sender.demand(now) !== 'none'; now++) {
    const w = new BitWriter();
    const rec = sender.write(now, w, 1_000_000);
    receiver.read(now, new BitReader(w.finish(), 0, w.bitLength));
    if (rec !== undefined) sender.notify(now, rec, true);
  }
  const p = points[liveGhosts - 1];
  if (p === undefined) throw new RangeError('pointerUpdateBits needs at least one ghost');
  p.obj.x = 987_654;
  p.obj.y = -123_456;
  p.markDirty(POINT.maskOf('position'));
  const w = new BitWriter();
  sender.write(1e9, w, 1_000_000);
  const sectionBits = w.bitLength;
  return {
    sectionBits,
    entryBits: sectionBits - SECTION_OVERHEAD_BITS,
    packetBits: sectionBits + 1,
  };
}

export interface ScopeCost {
  /** Mean CPU time per packet, microseconds: scope pass, selection of the update list and writing it. */
  readonly usPerPacket: number;
  readonly objects: number;
  readonly inScope: number;
  readonly dirtyPerPacket: number;
}

/**
 * Times `packets` packets for a board of `objects` points whose scope callback visits every object and keeps
 * those in a viewport holding `inScope` of them, rescoping every packet, with `dirtyPerPacket` objects moved
 * before each. Wall-clock: for the benchmark, never for a test assertion.
 */
export function measureScopeCost(
  objects = 1_000,
  inScope = 1_000,
  dirtyPerPacket = 100,
  packets = 2_000,
): ScopeCost {
  const registry = new GhostRegistry([POINT]);
  const domain = new GhostDomain(registry);
  const points: GhostSource<Point>[] = [];
  for (let i = 0; i < objects; i++)
    points.push(domain.add(POINT, { x: i, y: 0, tool: 0, visible: true }));
  const scope = (_now: number, s: GhostScope): void => {
    for (const src of points) if (src.obj.x < inScope) s.add(src, 1 + 1 / (1 + src.obj.x));
  };
  const sender = new GhostManager({ registry, domain, scope, scopeIntervalMs: 0 });
  const run = (n: number, from: number): void => {
    for (let k = 0; k < n; k++) {
      const now = from + k;
      for (let d = 0; d < dirtyPerPacket; d++)
        points[(k * dirtyPerPacket + d) % objects]?.markDirty(1);
      const w = new BitWriter(1200);
      const rec = sender.write(now, w, 9_000);
      if (rec !== undefined) sender.notify(now, rec, true);
    }
  };
  run(Math.ceil(objects / 40) + 50, 0); // create everything first, and warm up
  const start = performance.now();
  run(packets, 1e6);
  const usPerPacket = ((performance.now() - start) * 1000) / packets;
  return { usPerPacket, objects, inScope, dirtyPerPacket };
}
