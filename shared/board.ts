// The whiteboard's object model as every process sees it: kinds, fields, limits. Types and pure helpers only.

export type ObjectId = number;
export type PeerId = number;

export const OBJECT_KINDS = ['rect', 'ellipse', 'line', 'arrow', 'stroke', 'text', 'note'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** World coordinates are integers in [-WORLD_EXTENT, WORLD_EXTENT] (22-bit ranged on the wire). */
export const WORLD_EXTENT = 2_000_000;
/** Sizes are integers in [0, MAX_SIZE]. */
export const MAX_SIZE = 1_000_000;
/** Rotation in whole degrees' tenths: 0..3599. */
export const ROTATION_STEPS = 3600;
export const MAX_STROKE_WIDTH = 64;
/** Text of a note or label; one create or edit must fit one packet. */
export const MAX_TEXT_BYTES = 1000;
/** Points of a freehand stroke or a polyline (the renderer simplifies longer strokes). */
export const MAX_POINTS = 256;
/** Point coordinates are relative to the object's x, y, within ±POINT_EXTENT (16 bits each on the wire). */
export const POINT_EXTENT = 32_767;
/** Ids are allocated by the host from 1; 2^24 of them before a board must be compacted. */
export const MAX_OBJECT_ID = 2 ** 24 - 1;

/** A colour as 24-bit RGB, or null for none/transparent. */
export type Color = number | null;

export interface BoardObject {
  readonly id: ObjectId;
  readonly kind: ObjectKind;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** Tenths of a degree, 0..3599. */
  readonly rotation: number;
  readonly stroke: Color;
  readonly fill: Color;
  readonly strokeWidth: number;
  readonly text: string;
  /** Flat [x0, y0, x1, y1, ...] relative to (x, y), for line, arrow and stroke. */
  readonly points: readonly number[];
  /** Stacking order; higher draws on top. Unique per board. */
  readonly z: number;
  /** The peer holding the object's lock (grabbed / being dragged), or null. */
  readonly lockedBy: PeerId | null;
}

/** The fields an editor may set when creating an object (the host assigns id, z and the lock). */
export type NewObject = Omit<BoardObject, 'id' | 'z' | 'lockedBy'>;

/** The fields an edit may change. */
export type ObjectPatch = Partial<
  Pick<
    BoardObject,
    'x' | 'y' | 'w' | 'h' | 'rotation' | 'stroke' | 'fill' | 'strokeWidth' | 'text' | 'points'
  >
>;

/** '#rrggbb' for a colour, 'none' for null. */
export function colorToCss(c: Color): string {
  return c === null ? 'none' : `#${c.toString(16).padStart(6, '0')}`;
}

/** Parses '#rgb' or '#rrggbb' (or 'none'); undefined when it is neither. */
export function parseColor(s: string): Color | undefined {
  if (s === 'none' || s === 'transparent') return null;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(s.trim());
  if (!m?.[1]) return undefined;
  const hex = m[1].length === 3 ? m[1].replace(/./g, (ch) => ch + ch) : m[1];
  return parseInt(hex, 16);
}

/** Why an object or patch is not acceptable, or undefined when it is. */
export function validateObjectFields(o: ObjectPatch & { kind?: ObjectKind }): string | undefined {
  const inWorld = (v: number | undefined): boolean =>
    v === undefined || (Number.isInteger(v) && Math.abs(v) <= WORLD_EXTENT);
  const inSize = (v: number | undefined): boolean =>
    v === undefined || (Number.isInteger(v) && v >= 0 && v <= MAX_SIZE);
  const isColor = (c: Color | undefined): boolean =>
    c === undefined || c === null || (Number.isInteger(c) && c >= 0 && c <= 0xffffff);
  if (o.kind !== undefined && !OBJECT_KINDS.includes(o.kind))
    return `unknown kind ${o.kind as string}`;
  if (!inWorld(o.x) || !inWorld(o.y)) return 'position outside the board';
  if (!inSize(o.w) || !inSize(o.h)) return 'size out of range';
  if (
    o.rotation !== undefined &&
    !(Number.isInteger(o.rotation) && o.rotation >= 0 && o.rotation < ROTATION_STEPS)
  ) {
    return 'rotation out of range';
  }
  if (!isColor(o.stroke) || !isColor(o.fill)) return 'bad colour';
  if (
    o.strokeWidth !== undefined &&
    !(Number.isInteger(o.strokeWidth) && o.strokeWidth >= 0 && o.strokeWidth <= MAX_STROKE_WIDTH)
  ) {
    return 'stroke width out of range';
  }
  if (o.text !== undefined && new TextEncoder().encode(o.text).length > MAX_TEXT_BYTES)
    return 'text too long';
  if (o.points !== undefined) {
    if (o.points.length % 2 !== 0 || o.points.length > MAX_POINTS * 2) return 'bad points';
    if (!o.points.every((p) => Number.isInteger(p) && Math.abs(p) <= POINT_EXTENT))
      return 'point out of range';
  }
  return undefined;
}
