// Bit-packed codecs for whiteboard values (coordinates, colours, points, ids) as RPC param fields and ghost
// group helpers. Knows nothing of connections or what the session does with them.
import type { BitReader, BitWriter } from '../net/bitstream';
import { DecodeError } from '../net/bitstream';
import type { Field } from '../net/stream/params';
import { ranged } from '../net/stream/params';
import type { Color } from '../../shared/board';
import {
  MAX_OBJECT_ID,
  MAX_POINTS,
  MAX_SIZE,
  MAX_STROKE_WIDTH,
  OBJECT_KINDS,
  POINT_EXTENT,
  ROTATION_STEPS,
  WORLD_EXTENT,
} from '../../shared/board';
import type { ObjectKind } from '../../shared/board';

/** Peer ids: 0 is the host, peers get 1..MAX_PEER_ID. */
export const MAX_PEER_ID = 1023;

export const worldCoord = (): Field<number> => ranged(-WORLD_EXTENT, WORLD_EXTENT);
export const size = (): Field<number> => ranged(0, MAX_SIZE);
export const rotation = (): Field<number> => ranged(0, ROTATION_STEPS - 1);
export const strokeWidth = (): Field<number> => ranged(0, MAX_STROKE_WIDTH);
export const objectId = (): Field<number> => ranged(1, MAX_OBJECT_ID);
export const peerId = (): Field<number> => ranged(0, MAX_PEER_ID);

export function writeColor(w: BitWriter, c: Color): void {
  w.writeBool(c !== null);
  if (c !== null) w.writeUint(c, 24);
}

export function readColor(r: BitReader): Color {
  return r.readBool() ? r.readUint(24) : null;
}

export const color = (): Field<Color> => ({
  write: (w, v) => writeColor(w, v),
  read: (r) => readColor(r),
});

export function writeKind(w: BitWriter, k: ObjectKind): void {
  w.writeRanged(OBJECT_KINDS.indexOf(k), 0, OBJECT_KINDS.length - 1);
}

export function readKind(r: BitReader): ObjectKind {
  const k = OBJECT_KINDS[r.readRanged(0, OBJECT_KINDS.length - 1)];
  if (k === undefined) throw new DecodeError('range', 'object kind');
  return k;
}

export const kind = (): Field<ObjectKind> => ({
  write: (w, v) => writeKind(w, v),
  read: (r) => readKind(r),
});

/** Points: a count, then each coordinate in 16 bits relative to the object's origin. */
export function writePoints(w: BitWriter, points: readonly number[]): void {
  if (points.length % 2 !== 0 || points.length > MAX_POINTS * 2) throw new RangeError('bad points');
  w.writeRanged(points.length / 2, 0, MAX_POINTS);
  for (const p of points) w.writeRanged(p, -POINT_EXTENT, POINT_EXTENT);
}

export function readPoints(r: BitReader): number[] {
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
