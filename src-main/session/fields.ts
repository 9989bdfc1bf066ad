// Bit-packed codecs for whiteboard values (coordinates, colours, points, ids), one per type of the object field
// table (shared/board.ts's OBJECT_FIELDS): what RPC params and ghost groups write. Knows nothing of connections
// or what the session does with them.
import type { BitReader, BitWriter } from '../net/bitstream';
import { DecodeError } from '../net/bitstream';
import type { Field, TableStringReader, TableStringWriter } from '../net/stream/params';
import { ranged, string } from '../net/stream/params';
import type { BoardObject, Color, FieldName, FieldType, PeerId } from '../../shared/board';
import {
  fieldSpec,
  MAX_OBJECT_ID,
  MAX_PEER_ID,
  MAX_POINTS,
  MAX_TEXT_BYTES,
  MAX_SIZE,
  OBJECT_KINDS,
  POINT_EXTENT,
  WORLD_EXTENT,
} from '../../shared/board';
import type { ObjectKind } from '../../shared/board';
import { bytesToHex, hexToBytes } from '../../shared/images';

export { MAX_PEER_ID };

export const worldCoord = (): Field<number> => ranged(-WORLD_EXTENT, WORLD_EXTENT);
export const size = (): Field<number> => ranged(0, MAX_SIZE);
export const objectId = (): Field<number> => ranged(1, MAX_OBJECT_ID);
export const peerId = (): Field<number> => ranged(0, MAX_PEER_ID);

function writeColor(w: BitWriter, c: Color): void {
  w.writeBool(c !== null);
  if (c !== null) w.writeUint(c, 24);
}

function readColor(r: BitReader): Color {
  return r.readBool() ? r.readUint(24) : null;
}

export const color = (): Field<Color> => ({
  write: (w, v) => writeColor(w, v),
  read: (r) => readColor(r),
});

function writeKind(w: BitWriter, k: ObjectKind): void {
  w.writeRanged(OBJECT_KINDS.indexOf(k), 0, OBJECT_KINDS.length - 1);
}

function readKind(r: BitReader): ObjectKind {
  const k = OBJECT_KINDS[r.readRanged(0, OBJECT_KINDS.length - 1)];
  if (k === undefined) throw new DecodeError('range', 'object kind');
  return k;
}

export const kind = (): Field<ObjectKind> => ({
  write: (w, v) => writeKind(w, v),
  read: (r) => readKind(r),
});

/** Points: a count, then each coordinate in 16 bits relative to the object's origin. */
function writePoints(w: BitWriter, points: readonly number[]): void {
  if (points.length % 2 !== 0 || points.length > MAX_POINTS * 2) throw new RangeError('bad points');
  w.writeRanged(points.length / 2, 0, MAX_POINTS);
  for (const p of points) w.writeRanged(p, -POINT_EXTENT, POINT_EXTENT);
}

function readPoints(r: BitReader): number[] {
  const n = r.readRanged(0, MAX_POINTS);
  r.requireBits(n * 2 * 16);
  const out = new Array<number>(n * 2);
  for (let i = 0; i < n * 2; i++) out[i] = r.readRanged(-POINT_EXTENT, POINT_EXTENT);
  return out;
}

export const points = (): Field<number[]> => ({
  write: (w, v) => writePoints(w, v),
  read: (r) => readPoints(r),
});

/** A lock holder: a presence bit, then the peer id. */
export const holder = (): Field<PeerId | null> => ({
  write: (w, v) => {
    w.writeBool(v !== null);
    if (v !== null) w.writeRanged(v, 0, MAX_PEER_ID);
  },
  read: (r) => (r.readBool() ? r.readRanged(0, MAX_PEER_ID) : null),
});

/** A content hash ('' or 64 hex digits): a presence bit, then its 32 bytes. */
export const contentHash = (): Field<string> => ({
  write: (w, v) => {
    w.writeBool(v !== '');
    if (v !== '') w.writeBytes(hexToBytes(v));
  },
  read: (r) => (r.readBool() ? bytesToHex(r.readBytes(32)) : ''),
});

/** A stacking order: a variable-length signed integer. */
export const stackingOrder = (): Field<number> => ({
  write: (w, v) => w.writeVarInt(v),
  read: (r) => r.readVarInt(),
});

/** How a field of this type goes on the wire (the same in RPC params and ghost groups). */
export function fieldCodec(t: FieldType): Field<unknown> {
  switch (t.type) {
    case 'int':
      return ranged(t.min, t.max);
    case 'z':
      return stackingOrder();
    case 'kind':
      return kind();
    case 'color':
      return color();
    case 'text':
      return string(MAX_TEXT_BYTES);
    case 'points':
      return points();
    case 'holder':
      return holder();
    case 'hash':
      return contentHash();
  }
}

/** Params for these object fields, in the order given (each typed as the object's field). */
export function objectParams<K extends FieldName>(
  names: readonly K[],
): { readonly [N in K]: Field<BoardObject[N]> } {
  const out: Record<string, Field<unknown>> = {};
  for (const name of names) out[name] = fieldCodec(fieldSpec(name).codec);
  return out as { readonly [N in K]: Field<BoardObject[N]> };
}

/** Object fields use no string table: what a ghost group passes where a table would go. */
export const NO_TABLE: TableStringWriter & TableStringReader = {
  writeTableString: () => {
    throw new Error('board object fields have no table strings');
  },
  readTableString: () => {
    throw new Error('board object fields have no table strings');
  },
};
