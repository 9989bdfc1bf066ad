// The whiteboard's replicated classes: a participant's presence (pointer, tool, live drag) and a board object,
// each split into state groups so only what changed is sent (a board object's groups are those of the field
// table, shared/board.ts's OBJECT_FIELDS). Knows nothing of connections or scoping.
import type { BoardObject, FieldSpec, FieldType } from '../../shared/board';
import {
  MAX_OBJECT_ID,
  MAX_SIZE,
  OBJECT_FIELDS,
  OBJECT_KINDS,
  ROTATION_STEPS,
  WORLD_EXTENT,
} from '../../shared/board';
import type { BitReader, BitWriter } from '../net/bitstream';
import { defineGhostClass, GhostRegistry } from '../net/ghost/ghost-class';
import type { Field } from '../net/stream/params';
import { fieldCodec, MAX_PEER_ID, NO_TABLE } from './fields';
import { TOOLS } from '../../shared/api';

/**
 * Pointer and drag positions, sent many times a second, mostly near the board's origin: one flag bit, then 14
 * bits for |v| < 8192 or the full 22-bit range. Saves 14 bits on a typical pointer update (a quarter of it).
 */
const NEAR_COORD = 8192;
const writePointerCoord = (w: BitWriter, v: number): void => {
  w.writeNearRanged(v, -NEAR_COORD, NEAR_COORD - 1, -WORLD_EXTENT, WORLD_EXTENT);
};
const readPointerCoord = (r: BitReader): number =>
  r.readNearRanged(-NEAR_COORD, NEAR_COORD - 1, -WORLD_EXTENT, WORLD_EXTENT);

/**
 * A live resize's width or height, mostly a few hundred units: one flag bit, then 12 bits below 4096 or the full
 * 20-bit range.
 */
const NEAR_SIZE = 4096;
const writeLiveSize = (w: BitWriter, v: number): void => {
  w.writeNearRanged(v, 0, NEAR_SIZE - 1, 0, MAX_SIZE);
};
const readLiveSize = (r: BitReader): number => r.readNearRanged(0, NEAR_SIZE - 1, 0, MAX_SIZE);

/** A participant's live presence, as its owner sets it and as every other participant sees it. */
export interface PresenceState {
  peer: number;
  x: number;
  y: number;
  visible: boolean;
  tool: number;
  /** The object being dragged (0: none) and where it is. */
  dragId: number;
  dragX: number;
  dragY: number;
  /**
   * Whether the held object is being resized or rotated (not only moved), and its live size (world units) and
   * rotation (tenths of a degree, 0..3599) while it is; meaningless otherwise.
   */
  dragShaped: boolean;
  dragW: number;
  dragH: number;
  dragRotation: number;
}

/** Copies every field of `from` into `to` (per update received: a plain copy, not Object.assign's generic one). */
export function copyPresence(to: PresenceState, from: PresenceState): void {
  to.peer = from.peer;
  to.x = from.x;
  to.y = from.y;
  to.visible = from.visible;
  to.tool = from.tool;
  to.dragId = from.dragId;
  to.dragX = from.dragX;
  to.dragY = from.dragY;
  to.dragShaped = from.dragShaped;
  to.dragW = from.dragW;
  to.dragH = from.dragH;
  to.dragRotation = from.dragRotation;
}

export function blankPresence(peer = 0): PresenceState {
  return {
    peer,
    x: 0,
    y: 0,
    visible: false,
    tool: 0,
    dragId: 0,
    dragX: 0,
    dragY: 0,
    dragShaped: false,
    dragW: 0,
    dragH: 0,
    dragRotation: 0,
  };
}

export const Presence = defineGhostClass<PresenceState, PresenceState>({
  name: 'presence',
  createGhost: () => blankPresence(),
  groups: [
    {
      name: 'peer',
      pack: (w, s) => w.writeRanged(s.peer, 0, MAX_PEER_ID),
      unpack: (r, g) => void (g.peer = r.readRanged(0, MAX_PEER_ID)),
    },
    {
      name: 'pointer',
      urgent: true,
      pack: (w, s) => {
        w.writeBool(s.visible);
        writePointerCoord(w, s.x);
        writePointerCoord(w, s.y);
      },
      unpack: (r, g) => {
        g.visible = r.readBool();
        g.x = readPointerCoord(r);
        g.y = readPointerCoord(r);
      },
    },
    {
      name: 'tool',
      pack: (w, s) => w.writeRanged(s.tool, 0, TOOLS.length - 1),
      unpack: (r, g) => void (g.tool = r.readRanged(0, TOOLS.length - 1)),
    },
    {
      // A held object's live state: where it is and, during a resize or rotate, its size and rotation. One group
      // (not a fifth one) so a pointer-only update's mask stays 4 bits; a plain move costs one bit more.
      name: 'drag',
      urgent: true,
      pack: (w, s) => {
        w.writeBool(s.dragId !== 0);
        if (s.dragId === 0) return;
        w.writeRanged(s.dragId, 1, MAX_OBJECT_ID);
        writePointerCoord(w, s.dragX);
        writePointerCoord(w, s.dragY);
        w.writeBool(s.dragShaped);
        if (!s.dragShaped) return;
        writeLiveSize(w, s.dragW);
        writeLiveSize(w, s.dragH);
        w.writeRanged(s.dragRotation, 0, ROTATION_STEPS - 1);
      },
      unpack: (r, g) => {
        if (!r.readBool()) {
          g.dragId = 0;
          g.dragShaped = false;
          return;
        }
        g.dragId = r.readRanged(1, MAX_OBJECT_ID);
        g.dragX = readPointerCoord(r);
        g.dragY = readPointerCoord(r);
        g.dragShaped = r.readBool();
        if (!g.dragShaped) return;
        g.dragW = readLiveSize(r);
        g.dragH = readLiveSize(r);
        g.dragRotation = r.readRanged(0, ROTATION_STEPS - 1);
      },
    },
  ],
});

/** The host's board object as a ghost source: a holder, since board objects are replaced on every change. */
export interface BoardHolder {
  o: BoardObject;
}

/** What a peer holds of a board object while its groups arrive. */
export type BoardGhost = { -readonly [K in keyof BoardObject]: BoardObject[K] };

/** A field as its group writes it. */
interface GroupField {
  readonly name: keyof BoardObject;
  readonly codec: Field<unknown>;
  /** Never changes once the object exists: no update looks at it. */
  readonly fixed: boolean;
  /** Whether two values differ (points compare by content). */
  readonly differs: (a: unknown, b: unknown) => boolean;
}

const samePoints = (a: readonly number[], b: readonly number[]): boolean =>
  a === b || a.join() === b.join();

/** The table's fields by ghost group, groups in the order they first appear (bit i = i-th group). */
const BOARD_GROUPS: readonly { readonly name: string; readonly fields: readonly GroupField[] }[] =
  (() => {
    const groups: { name: string; fields: GroupField[] }[] = [];
    for (const f of OBJECT_FIELDS as readonly FieldSpec[]) {
      let g = groups.find((x) => x.name === f.group);
      if (g === undefined) groups.push((g = { name: f.group, fields: [] }));
      g.fields.push({
        fixed: f.fixed === true,
        name: f.name as keyof BoardObject,
        codec: fieldCodec(f.codec),
        differs:
          f.codec.type === 'points'
            ? (a, b) => !samePoints(a as readonly number[], b as readonly number[])
            : (a, b) => a !== b,
      });
    }
    return groups;
  })();

/** A blank of each type: what a ghost holds before its create's groups are read. */
function blankValue(t: FieldType): unknown {
  switch (t.type) {
    case 'int':
    case 'z':
      return 0;
    case 'kind':
      return OBJECT_KINDS[0];
    case 'color':
    case 'holder':
      return null;
    case 'text':
    case 'hash':
      return '';
    case 'points':
      return [];
  }
}

function blankObject(): BoardGhost {
  const g: Record<string, unknown> = {};
  for (const f of OBJECT_FIELDS as readonly FieldSpec[]) g[f.name] = blankValue(f.codec);
  return g as BoardGhost;
}

export const BoardItem = defineGhostClass<BoardHolder, BoardGhost>({
  name: 'object',
  createGhost: blankObject,
  groups: BOARD_GROUPS.map(({ name, fields }) => ({
    name,
    pack: (w: BitWriter, s: BoardHolder) => {
      for (const f of fields) f.codec.write(w, s.o[f.name], NO_TABLE);
    },
    unpack: (r: BitReader, g: BoardGhost) => {
      const out = g as Record<keyof BoardObject, unknown>;
      for (const f of fields) out[f.name] = f.codec.read(r, NO_TABLE);
    },
  })),
});

/** Each group's bit, by group index. */
const GROUP_BITS = BOARD_GROUPS.map((g) => BoardItem.maskOf(g.name));

export const PRESENCE_REGISTRY = new GhostRegistry([Presence]);
export const BOARD_REGISTRY = new GhostRegistry([BoardItem]);

/** Which state groups differ between two versions of an object (what an update must carry). */
export function changedGroups(a: BoardObject, b: BoardObject): number {
  let mask = 0;
  BOARD_GROUPS.forEach((g, i) => {
    for (const f of g.fields) {
      if (!f.fixed && f.differs(a[f.name], b[f.name])) {
        mask |= GROUP_BITS[i] ?? 0;
        return;
      }
    }
  });
  return mask;
}
