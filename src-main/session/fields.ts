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

/** Bits of the width of a stroke's point-to-point differences (each axis says its own). */
const DELTA_WIDTH_BITS = 5;
/** Two coordinates within ±POINT_EXTENT differ by at most 2 x POINT_EXTENT: 17 signed bits. */
const MAX_DELTA_WIDTH = signedWidth(2 * POINT_EXTENT);

/** Fewest two's complement bits that hold `d` (0 for 0: an axis that never moves costs nothing a point). */
function signedWidth(d: number): number {
  let bits = 0;
  while (d < -(2 ** (bits - 1)) || d >= 2 ** (bits - 1) || (bits === 0 && d !== 0)) bits++;
  return bits;
}

function checkPoints(points: readonly number[]): void {
  if (points.length % 2 !== 0 || points.length > MAX_POINTS * 2) throw new RangeError('bad points');
  for (const p of points)
    if (!Number.isInteger(p) || p < -POINT_EXTENT || p > POINT_EXTENT)
      throw new RangeError(`point coordinate ${p} outside ±${POINT_EXTENT}`);
}

/**
 * Points, relative to the object's origin: a count; the first point in 16 bits a coordinate; then, once per axis,
 * the width of its point-to-point differences (5 bits) and, point by point, the x and y differences in those
 * widths. A hand moves a few pixels between two samples, so a freehand stroke takes a third or less of the 16
 * bits a coordinate it took before (a paste of strokes is mostly points).
 */
function writePoints(w: BitWriter, points: readonly number[]): void {
  checkPoints(points);
  const n = points.length / 2;
  w.writeRanged(n, 0, MAX_POINTS);
  if (n === 0) return;
  w.writeRanged(points[0] ?? 0, -POINT_EXTENT, POINT_EXTENT);
  w.writeRanged(points[1] ?? 0, -POINT_EXTENT, POINT_EXTENT);
  if (n === 1) return;
  const widths = [0, 0];
  for (let i = 2; i < points.length; i++) {
    const d = (points[i] ?? 0) - (points[i - 2] ?? 0);
    widths[i % 2] = Math.max(widths[i % 2] ?? 0, signedWidth(d));
  }
  for (const width of widths) w.writeUint(width, DELTA_WIDTH_BITS);
  for (let i = 2; i < points.length; i++) {
    const width = widths[i % 2] ?? 0;
    if (width > 0) w.writeInt((points[i] ?? 0) - (points[i - 2] ?? 0), width);
  }
}

function readPoints(r: BitReader): number[] {
  const n = r.readRanged(0, MAX_POINTS);
  if (n === 0) return [];
  const out = new Array<number>(n * 2);
  out[0] = r.readRanged(-POINT_EXTENT, POINT_EXTENT);
  out[1] = r.readRanged(-POINT_EXTENT, POINT_EXTENT);
  if (n === 1) return out;
  const widths = [r.readUint(DELTA_WIDTH_BITS), r.readUint(DELTA_WIDTH_BITS)];
  if (widths.some((b) => b > MAX_DELTA_WIDTH))
    throw new DecodeError('range', `point differences ${widths.join('/')} bits wide`);
  r.requireBits((n - 1) * ((widths[0] ?? 0) + (widths[1] ?? 0)));
  for (let i = 2; i < n * 2; i++) {
    const width = widths[i % 2] ?? 0;
    const v = (out[i - 2] ?? 0) + (width > 0 ? r.readInt(width) : 0);
    if (v < -POINT_EXTENT || v > POINT_EXTENT)
      throw new DecodeError('range', `point coordinate ${v} outside ±${POINT_EXTENT}`);
    out[i] = v;
  }
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

/** A stacking order or none: a presence bit, then the variable-length signed integer (restack's exact z). */
export const optionalStackingOrder = (): Field<number | null> => ({
  write: (w, v) => {
    w.writeBool(v !== null);
    if (v !== null) w.writeVarInt(v);
  },
  read: (r) => (r.readBool() ? r.readVarInt() : null),
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
