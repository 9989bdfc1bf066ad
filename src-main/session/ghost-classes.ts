// The whiteboard's replicated classes: a participant's presence (pointer, tool, live drag) and a board object,
// each split into state groups so only what changed is sent. Knows nothing of connections or scoping.
import type { BoardObject } from '../../shared/board';
import { MAX_TEXT_BYTES, WORLD_EXTENT } from '../../shared/board';
import type { BitReader, BitWriter } from '../net/bitstream';
import { defineGhostClass, GhostRegistry } from '../net/ghost/ghost-class';
import {
  readColor,
  readKind,
  readPoints,
  writeColor,
  writeKind,
  writePoints,
  MAX_PEER_ID,
} from './fields';
import { MAX_OBJECT_ID, MAX_SIZE, MAX_STROKE_WIDTH, ROTATION_STEPS } from '../../shared/board';
import { TOOLS } from '../../shared/api';

const writeCoord = (w: BitWriter, v: number): void => {
  w.writeRanged(v, -WORLD_EXTENT, WORLD_EXTENT);
};
const readCoord = (r: BitReader): number => r.readRanged(-WORLD_EXTENT, WORLD_EXTENT);

/**
 * Pointer and drag positions, sent many times a second, mostly near the board's origin: one flag bit, then 14
 * bits for |v| < 8192 or the full 22-bit range. Saves 14 bits on a typical pointer update (a quarter of it).
 */
const NEAR_COORD = 8192;
const writePointerCoord = (w: BitWriter, v: number): void => {
  const near = v >= -NEAR_COORD && v < NEAR_COORD;
  w.writeBool(near);
  if (near) w.writeRanged(v, -NEAR_COORD, NEAR_COORD - 1);
  else writeCoord(w, v);
};
const readPointerCoord = (r: BitReader): number =>
  r.readBool() ? r.readRanged(-NEAR_COORD, NEAR_COORD - 1) : readCoord(r);

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
}

export function blankPresence(peer = 0): PresenceState {
  return { peer, x: 0, y: 0, visible: false, tool: 0, dragId: 0, dragX: 0, dragY: 0 };
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
      name: 'drag',
      urgent: true,
      pack: (w, s) => {
        w.writeBool(s.dragId !== 0);
        if (s.dragId === 0) return;
        w.writeRanged(s.dragId, 1, MAX_OBJECT_ID);
        writePointerCoord(w, s.dragX);
        writePointerCoord(w, s.dragY);
      },
      unpack: (r, g) => {
        if (!r.readBool()) {
          g.dragId = 0;
          return;
        }
        g.dragId = r.readRanged(1, MAX_OBJECT_ID);
        g.dragX = readPointerCoord(r);
        g.dragY = readPointerCoord(r);
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

function blankObject(): BoardGhost {
  return {
    id: 0,
    kind: 'rect',
    x: 0,
    y: 0,
    w: 0,
    h: 0,
    rotation: 0,
    stroke: null,
    fill: null,
    strokeWidth: 0,
    text: '',
    points: [],
    z: 0,
    lockedBy: null,
  };
}

export const BoardItem = defineGhostClass<BoardHolder, BoardGhost>({
  name: 'object',
  createGhost: blankObject,
  groups: [
    {
      name: 'ident',
      pack: (w, s) => {
        w.writeRanged(s.o.id, 1, MAX_OBJECT_ID);
        writeKind(w, s.o.kind);
      },
      unpack: (r, g) => {
        g.id = r.readRanged(1, MAX_OBJECT_ID);
        g.kind = readKind(r);
      },
    },
    {
      name: 'pos',
      pack: (w, s) => {
        writeCoord(w, s.o.x);
        writeCoord(w, s.o.y);
      },
      unpack: (r, g) => {
        g.x = readCoord(r);
        g.y = readCoord(r);
      },
    },
    {
      name: 'size',
      pack: (w, s) => {
        w.writeRanged(s.o.w, 0, MAX_SIZE);
        w.writeRanged(s.o.h, 0, MAX_SIZE);
        w.writeRanged(s.o.rotation, 0, ROTATION_STEPS - 1);
      },
      unpack: (r, g) => {
        g.w = r.readRanged(0, MAX_SIZE);
        g.h = r.readRanged(0, MAX_SIZE);
        g.rotation = r.readRanged(0, ROTATION_STEPS - 1);
      },
    },
    {
      name: 'style',
      pack: (w, s) => {
        writeColor(w, s.o.stroke);
        writeColor(w, s.o.fill);
        w.writeRanged(s.o.strokeWidth, 0, MAX_STROKE_WIDTH);
      },
      unpack: (r, g) => {
        g.stroke = readColor(r);
        g.fill = readColor(r);
        g.strokeWidth = r.readRanged(0, MAX_STROKE_WIDTH);
      },
    },
    {
      name: 'text',
      pack: (w, s) => w.writeString(s.o.text),
      unpack: (r, g) => void (g.text = r.readString(MAX_TEXT_BYTES)),
    },
    {
      name: 'points',
      pack: (w, s) => writePoints(w, s.o.points),
      unpack: (r, g) => void (g.points = readPoints(r)),
    },
    {
      name: 'z',
      pack: (w, s) => w.writeVarInt(s.o.z),
      unpack: (r, g) => void (g.z = r.readVarInt()),
    },
    {
      name: 'lock',
      pack: (w, s) => {
        w.writeBool(s.o.lockedBy !== null);
        if (s.o.lockedBy !== null) w.writeRanged(s.o.lockedBy, 0, MAX_PEER_ID);
      },
      unpack: (r, g) => void (g.lockedBy = r.readBool() ? r.readRanged(0, MAX_PEER_ID) : null),
    },
  ],
});

export const PRESENCE_REGISTRY = new GhostRegistry([Presence]);
export const BOARD_REGISTRY = new GhostRegistry([BoardItem]);

/** Which state groups differ between two versions of an object (what an update must carry). */
export function changedGroups(a: BoardObject, b: BoardObject): number {
  const m = (...names: string[]): number => BoardItem.maskOf(...names);
  let mask = 0;
  if (a.x !== b.x || a.y !== b.y) mask |= m('pos');
  if (a.w !== b.w || a.h !== b.h || a.rotation !== b.rotation) mask |= m('size');
  if (a.stroke !== b.stroke || a.fill !== b.fill || a.strokeWidth !== b.strokeWidth)
    mask |= m('style');
  if (a.text !== b.text) mask |= m('text');
  if (a.points !== b.points && a.points.join() !== b.points.join()) mask |= m('points');
  if (a.z !== b.z) mask |= m('z');
  if (a.lockedBy !== b.lockedBy) mask |= m('lock');
  return mask;
}
