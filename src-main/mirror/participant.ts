// A participant of one mirror as the other mirrors see it: the replicated class that carries its identity, its
// profile (name, colour, role), its pointer, its tool and its drag in progress between mirrors as a current-state
// ghost, split in state groups so that only what changed is sent. Knows nothing of links, rosters or sessions.
//
// Groups (bit i of the state mask, widths in bits):
//   0 identity  origin ranged 0..MAX_MIRROR_ID (4) · client ranged 0..MAX_PEER_ID (12); sent with the create only
//   1 profile   name (Huffman when shorter, at most PARTICIPANT_NAME_MAX_BYTES) · colour index ranged
//               0..MAX_COLOR_INDEX (10) · viewer 1
//   2 pointer   visible 1 · x, y (near flag 1, then 14 bits within ±8192, else 22 within ±WORLD_EXTENT)
//   3 tool      ranged 0..TOOLS.length-1 (3)
//   4 drag      dragging 1 · when dragging: object id ranged 1..MAX_OBJECT_ID (24) · x, y as the pointer's ·
//               shaped 1 · when shaped: w, h (near flag 1, then 12 bits below 4096, else 20) · rotation (12)
import type { Role } from '../../shared/api';
import { TOOLS } from '../../shared/api';
import type { PeerId } from '../../shared/board';
import {
  MAX_OBJECT_ID,
  MAX_PEER_ID,
  MAX_SIZE,
  ROTATION_STEPS,
  WORLD_EXTENT,
} from '../../shared/board';
import type { BitReader, BitWriter } from '../net/bitstream';
import { defineGhostClass, GhostRegistry } from '../net/ghost/ghost-class';
import { utf8Length } from '../net/stream/params';
import type { MirrorId } from './mirror-id';
import { MAX_MIRROR_ID } from './mirror-id';

/** A display name's bound: the session's own (session/protocol.ts MAX_NAME_BYTES). */
export const PARTICIPANT_NAME_MAX_BYTES = 48;
/** Colour indices (session/colors.ts participantColor) a participant may carry; a host wraps larger ones. */
export const MAX_COLOR_INDEX = 1023;

/** What a mirror sets of one of its own clients: everything but the identity, which the mirror gives. */
export interface ParticipantFields {
  name: string;
  colorIndex: number;
  role: Role;
  visible: boolean;
  x: number;
  y: number;
  /** Index into TOOLS. */
  tool: number;
  /** The object being dragged (0: none) and where it is now. */
  dragId: number;
  dragX: number;
  dragY: number;
  /** Whether the held object is being resized or rotated; its live size and rotation (tenths of a degree) then. */
  dragShaped: boolean;
  dragW: number;
  dragH: number;
  dragRotation: number;
}

/** A participant whole: which mirror serves it (its origin) and its id among that mirror's clients. */
export interface ParticipantState extends ParticipantFields {
  origin: MirrorId;
  client: PeerId;
}

export function blankParticipant(origin: MirrorId = 0, client: PeerId = 0): ParticipantState {
  return {
    origin,
    client,
    name: '',
    colorIndex: 0,
    role: 'editor',
    visible: false,
    x: 0,
    y: 0,
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

/**
 * Pointer and drag positions, sent many times a second and mostly near the board's origin: one flag bit, then 14
 * bits for |v| < 8192 or the full 22-bit range (the session's presence does the same).
 */
const NEAR_COORD = 8192;
function writeCoord(w: BitWriter, v: number): void {
  w.writeNearRanged(v, -NEAR_COORD, NEAR_COORD - 1, -WORLD_EXTENT, WORLD_EXTENT);
}
function readCoord(r: BitReader): number {
  return r.readNearRanged(-NEAR_COORD, NEAR_COORD - 1, -WORLD_EXTENT, WORLD_EXTENT);
}

/** A live width or height, mostly a few hundred units: one flag bit, then 12 bits below 4096 or 20. */
const NEAR_SIZE = 4096;
function writeSize(w: BitWriter, v: number): void {
  w.writeNearRanged(v, 0, NEAR_SIZE - 1, 0, MAX_SIZE);
}
function readSize(r: BitReader): number {
  return r.readNearRanged(0, NEAR_SIZE - 1, 0, MAX_SIZE);
}

/** No drag (or no shape): the fields that mean nothing then are zero, so two equal states compare equal. */
function clearDrag(s: ParticipantFields): void {
  s.dragId = 0;
  s.dragX = 0;
  s.dragY = 0;
  clearShape(s);
}
function clearShape(s: ParticipantFields): void {
  s.dragShaped = false;
  s.dragW = 0;
  s.dragH = 0;
  s.dragRotation = 0;
}

/** Zeroes what the drag's state says means nothing (no drag, or a drag without a shape): what a ghost reads. */
export function canonicalDrag(s: ParticipantFields): void {
  if (s.dragId === 0) clearDrag(s);
  else if (!s.dragShaped) clearShape(s);
}

export const Participant = defineGhostClass<ParticipantState, ParticipantState>({
  name: 'participant',
  createGhost: () => blankParticipant(),
  groups: [
    {
      name: 'identity',
      pack: (w, s) => {
        w.writeRanged(s.origin, 0, MAX_MIRROR_ID);
        w.writeRanged(s.client, 0, MAX_PEER_ID);
      },
      unpack: (r, g) => {
        g.origin = r.readRanged(0, MAX_MIRROR_ID);
        g.client = r.readRanged(0, MAX_PEER_ID);
      },
    },
    {
      name: 'profile',
      pack: (w, s) => {
        w.writeString(s.name);
        w.writeRanged(s.colorIndex, 0, MAX_COLOR_INDEX);
        w.writeBool(s.role === 'viewer');
      },
      unpack: (r, g) => {
        g.name = r.readString(PARTICIPANT_NAME_MAX_BYTES);
        g.colorIndex = r.readRanged(0, MAX_COLOR_INDEX);
        g.role = r.readBool() ? 'viewer' : 'editor';
      },
    },
    {
      name: 'pointer',
      urgent: true,
      pack: (w, s) => {
        w.writeBool(s.visible);
        writeCoord(w, s.x);
        writeCoord(w, s.y);
      },
      unpack: (r, g) => {
        g.visible = r.readBool();
        g.x = readCoord(r);
        g.y = readCoord(r);
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
        writeCoord(w, s.dragX);
        writeCoord(w, s.dragY);
        w.writeBool(s.dragShaped);
        if (!s.dragShaped) return;
        writeSize(w, s.dragW);
        writeSize(w, s.dragH);
        w.writeRanged(s.dragRotation, 0, ROTATION_STEPS - 1);
      },
      unpack: (r, g) => {
        clearDrag(g);
        if (!r.readBool()) return;
        g.dragId = r.readRanged(1, MAX_OBJECT_ID);
        g.dragX = readCoord(r);
        g.dragY = readCoord(r);
        g.dragShaped = r.readBool();
        if (!g.dragShaped) return;
        g.dragW = readSize(r);
        g.dragH = readSize(r);
        g.dragRotation = r.readRanged(0, ROTATION_STEPS - 1);
      },
    },
  ],
});

/** Each group's bit: what a change names (PresenceChange.fields). */
export const PARTICIPANT_FIELD = {
  identity: Participant.maskOf('identity'),
  profile: Participant.maskOf('profile'),
  pointer: Participant.maskOf('pointer'),
  tool: Participant.maskOf('tool'),
  drag: Participant.maskOf('drag'),
} as const;
export type ParticipantGroup = keyof typeof PARTICIPANT_FIELD;

/** The names of a mask's groups, in bit order (for logs and tests). */
export function fieldNames(mask: number): ParticipantGroup[] {
  return (Object.keys(PARTICIPANT_FIELD) as ParticipantGroup[]).filter(
    (k) => (mask & PARTICIPANT_FIELD[k]) !== 0,
  );
}

/** The class table of the participants' ghosts on a mirror link; both ends build it identically. */
export const PARTICIPANT_REGISTRY = new GhostRegistry([Participant]);

const isInt = (v: number, min: number, max: number): boolean =>
  Number.isInteger(v) && v >= min && v <= max;

/**
 * Why `f` could not be packed, or undefined when every field is in its range. A mirror checks what its host sets
 * before it marks anything dirty: a value out of range would throw inside a link's packet.
 */
export function participantFieldsInvalid(f: Readonly<ParticipantFields>): string | undefined {
  if (utf8Length(f.name) > PARTICIPANT_NAME_MAX_BYTES)
    return `name longer than ${PARTICIPANT_NAME_MAX_BYTES} bytes`;
  if (!isInt(f.colorIndex, 0, MAX_COLOR_INDEX)) return 'colour index out of range';
  if (!isInt(f.x, -WORLD_EXTENT, WORLD_EXTENT) || !isInt(f.y, -WORLD_EXTENT, WORLD_EXTENT))
    return 'pointer out of the world';
  if (!isInt(f.tool, 0, TOOLS.length - 1)) return 'unknown tool';
  if (!isInt(f.dragId, 0, MAX_OBJECT_ID)) return 'drag object id out of range';
  if (f.dragId === 0) return undefined;
  if (!isInt(f.dragX, -WORLD_EXTENT, WORLD_EXTENT) || !isInt(f.dragY, -WORLD_EXTENT, WORLD_EXTENT))
    return 'drag out of the world';
  if (!f.dragShaped) return undefined;
  if (!isInt(f.dragW, 0, MAX_SIZE) || !isInt(f.dragH, 0, MAX_SIZE)) return 'drag size out of range';
  if (!isInt(f.dragRotation, 0, ROTATION_STEPS - 1)) return 'drag rotation out of range';
  return undefined;
}

/** Which groups differ between two states (identity excluded: it never changes). */
export function changedParticipantGroups(
  a: Readonly<ParticipantFields>,
  b: Readonly<ParticipantFields>,
): number {
  let m = 0;
  if (a.name !== b.name || a.colorIndex !== b.colorIndex || a.role !== b.role)
    m |= PARTICIPANT_FIELD.profile;
  if (a.visible !== b.visible || a.x !== b.x || a.y !== b.y) m |= PARTICIPANT_FIELD.pointer;
  if (a.tool !== b.tool) m |= PARTICIPANT_FIELD.tool;
  if (
    a.dragId !== b.dragId ||
    (b.dragId !== 0 &&
      (a.dragX !== b.dragX ||
        a.dragY !== b.dragY ||
        a.dragShaped !== b.dragShaped ||
        (b.dragShaped &&
          (a.dragW !== b.dragW || a.dragH !== b.dragH || a.dragRotation !== b.dragRotation))))
  )
    m |= PARTICIPANT_FIELD.drag;
  return m >>> 0;
}

/** Copies every field but the identity. */
export function copyParticipantFields(
  to: ParticipantFields,
  from: Readonly<ParticipantFields>,
): void {
  to.name = from.name;
  to.colorIndex = from.colorIndex;
  to.role = from.role;
  to.visible = from.visible;
  to.x = from.x;
  to.y = from.y;
  to.tool = from.tool;
  to.dragId = from.dragId;
  to.dragX = from.dragX;
  to.dragY = from.dragY;
  to.dragShaped = from.dragShaped;
  to.dragW = from.dragW;
  to.dragH = from.dragH;
  to.dragRotation = from.dragRotation;
}
