// The whiteboard's object model as every process sees it: kinds, limits, and the one table of an object's fields
// (type and range, who sets it, which ghost group carries it) that validation, RPC params, ghost groups and the
// board file are built from. Types, data and pure helpers only.

export type ObjectId = number;
export type PeerId = number;

export const OBJECT_KINDS = [
  'rect',
  'ellipse',
  'line',
  'arrow',
  'stroke',
  'text',
  'note',
  'image',
] as const;
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
/**
 * Participant ids: 0 is the host, peers get 1..MAX_PEER_ID (12 bits on the wire). A mirrored session splits them
 * among its up to 16 hosts (≡ host mod 16), so each host can take 255 joiners: 1,000 people over 4 hosts.
 */
export const MAX_PEER_ID = 4095;

/** A colour as 24-bit RGB, or null for none/transparent. */
export type Color = number | null;

/**
 * How a field's value is typed, checked and encoded:
 * - int: an integer in [min, max], ranged on the wire (the fewest bits that hold the range);
 * - z: any safe integer, a variable-length signed integer on the wire (a board file bounds it);
 * - kind: one of OBJECT_KINDS, by index;
 * - color: a Color, a presence bit then 24 bits;
 * - text: a string of at most MAX_TEXT_BYTES UTF-8 bytes, Huffman-coded when shorter;
 * - points: flat [x0, y0, x1, y1, …] of at most MAX_POINTS points within ±POINT_EXTENT, a count then 16 bits each;
 * - holder: a PeerId or null, a presence bit then 0..MAX_PEER_ID;
 * - hash: a content hash (SHA-256 as 64 lowercase hex digits) or '' for none, a presence bit then 256 bits.
 */
export type FieldType =
  | { readonly type: 'int'; readonly min: number; readonly max: number }
  | { readonly type: 'z' }
  | { readonly type: 'kind' }
  | { readonly type: 'color' }
  | { readonly type: 'text' }
  | { readonly type: 'points' }
  | { readonly type: 'holder' }
  | { readonly type: 'hash' };

/**
 * Who sets a field: 'host' (id, z, lock: never an editor's), 'create' (given once, at creation), 'edit' (at
 * creation and by an edit, carried in the edit call's field mask) or 'content' (at creation and by an edit, each
 * with a call of its own: text is typed as splices, points are replaced whole).
 */
export type FieldSetter = 'host' | 'create' | 'edit' | 'content';

export interface FieldSpec {
  readonly name: string;
  readonly codec: FieldType;
  readonly set: FieldSetter;
  /** The ghost state group that carries it; groups go on the wire in the order they first appear here. */
  readonly group: string;
  /** Why a value out of its range is refused (kind and points say more themselves). */
  readonly invalid: string;
  /** Never changes once the object exists (its identity): no update carries it. */
  readonly fixed?: true;
}

/**
 * Every field of a board object, in wire order: a create's params and each ghost group's fields are written in
 * this order, so a new field goes at the end of its group (and a new group at the end of the table).
 */
// prettier-ignore
export const OBJECT_FIELDS = [
  { name: 'id', codec: { type: 'int', min: 1, max: MAX_OBJECT_ID }, set: 'host', group: 'ident', fixed: true, invalid: 'object id out of range' },
  { name: 'kind', codec: { type: 'kind' }, set: 'create', group: 'ident', fixed: true, invalid: 'unknown kind' },
  { name: 'x', codec: { type: 'int', min: -WORLD_EXTENT, max: WORLD_EXTENT }, set: 'edit', group: 'pos', invalid: 'position outside the board' },
  { name: 'y', codec: { type: 'int', min: -WORLD_EXTENT, max: WORLD_EXTENT }, set: 'edit', group: 'pos', invalid: 'position outside the board' },
  { name: 'w', codec: { type: 'int', min: 0, max: MAX_SIZE }, set: 'edit', group: 'size', invalid: 'size out of range' },
  { name: 'h', codec: { type: 'int', min: 0, max: MAX_SIZE }, set: 'edit', group: 'size', invalid: 'size out of range' },
  // Tenths of a degree.
  { name: 'rotation', codec: { type: 'int', min: 0, max: ROTATION_STEPS - 1 }, set: 'edit', group: 'size', invalid: 'rotation out of range' },
  { name: 'stroke', codec: { type: 'color' }, set: 'edit', group: 'style', invalid: 'bad colour' },
  { name: 'fill', codec: { type: 'color' }, set: 'edit', group: 'style', invalid: 'bad colour' },
  { name: 'strokeWidth', codec: { type: 'int', min: 0, max: MAX_STROKE_WIDTH }, set: 'edit', group: 'style', invalid: 'stroke width out of range' },
  { name: 'text', codec: { type: 'text' }, set: 'content', group: 'text', invalid: 'text too long' },
  // Relative to (x, y), for line, arrow and stroke.
  { name: 'points', codec: { type: 'points' }, set: 'content', group: 'points', invalid: 'bad points' },
  // Stacking order; higher draws on top. Unique per board.
  { name: 'z', codec: { type: 'z' }, set: 'host', group: 'z', invalid: 'stacking order (z) out of range' },
  // The peer holding the object's lock (grabbed / being dragged), or null.
  { name: 'lockedBy', codec: { type: 'holder' }, set: 'host', group: 'lock', invalid: 'bad lock holder' },
  // 1 while a user has locked the object in place (the Lock action): no one may move, resize, restyle, type into,
  // restack or delete it until someone unlocks it. Not lockedBy, which is the transient grab of a drag. Set by the
  // pin call only (board state: every peer sees it, a board file keeps it).
  { name: 'pinned', codec: { type: 'int', min: 0, max: 1 }, set: 'host', group: 'pin', invalid: 'bad pinned flag' },
  // An image's content: the SHA-256 of its bytes (the bytes travel apart, as a blob); '' for every other kind.
  { name: 'blob', codec: { type: 'hash' }, set: 'create', group: 'ident', fixed: true, invalid: 'bad image hash' },
] as const satisfies readonly FieldSpec[];

type Field = (typeof OBJECT_FIELDS)[number];
type ValueOf<T extends FieldType> = T extends { type: 'int' | 'z' }
  ? number
  : T extends { type: 'kind' }
    ? ObjectKind
    : T extends { type: 'color' }
      ? Color
      : T extends { type: 'text' }
        ? string
        : T extends { type: 'points' }
          ? readonly number[]
          : T extends { type: 'hash' }
            ? string
            : PeerId | null;

/** A board object: one property per row of OBJECT_FIELDS. */
export type BoardObject = { readonly [F in Field as F['name']]: ValueOf<F['codec']> };
export type FieldName = Field['name'];

type Named<S extends FieldSetter> = Extract<Field, { readonly set: S }>['name'];
/** Fields set only at creation or later by an edit call's mask. */
export type EditField = Named<'edit'>;

/** The fields an editor may set when creating an object (the host assigns id, z and the lock). */
export type NewObject = Pick<BoardObject, Named<'create' | 'edit' | 'content'>>;

/** The fields an edit may change. */
export type ObjectPatch = Partial<Pick<BoardObject, Named<'edit' | 'content'>>>;

const names = (keep: (f: FieldSpec) => boolean): readonly string[] =>
  (OBJECT_FIELDS as readonly FieldSpec[]).filter(keep).map((f) => f.name);

/** A new object's fields, in wire order. */
export const NEW_OBJECT_FIELDS = names((f) => f.set !== 'host') as readonly (keyof NewObject)[];
/** The fields an edit may change, in wire order. */
export const PATCH_FIELDS = names(
  (f) => f.set === 'edit' || f.set === 'content',
) as readonly (keyof ObjectPatch)[];
/** The fields an edit call carries under its mask (bit i = i-th of them); text and points have calls of their own. */
export const EDIT_FIELDS = names((f) => f.set === 'edit') as readonly EditField[];

/** A field's row of OBJECT_FIELDS. */
export function fieldSpec(name: FieldName): FieldSpec {
  const f = (OBJECT_FIELDS as readonly FieldSpec[]).find((x) => x.name === name);
  if (f === undefined) throw new RangeError(`no object field ${name}`);
  return f;
}

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

/** Why a value of this type is out of range (given the field's own message), or undefined when it is in range. */
export function fieldRefusal(f: FieldSpec, v: unknown): string | undefined {
  const c = f.codec;
  switch (c.type) {
    case 'int':
      return Number.isInteger(v) && (v as number) >= c.min && (v as number) <= c.max
        ? undefined
        : f.invalid;
    case 'z':
      return Number.isSafeInteger(v) ? undefined : f.invalid;
    case 'kind':
      return (OBJECT_KINDS as readonly unknown[]).includes(v)
        ? undefined
        : `unknown kind ${String(v)}`;
    case 'color':
      return v === null || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffffff)
        ? undefined
        : f.invalid;
    case 'text':
      return typeof v === 'string' && new TextEncoder().encode(v).length <= MAX_TEXT_BYTES
        ? undefined
        : f.invalid;
    case 'points': {
      if (!Array.isArray(v) || v.length % 2 !== 0 || v.length > MAX_POINTS * 2) return f.invalid;
      const inRange = (p: unknown): boolean =>
        Number.isInteger(p) && Math.abs(p as number) <= POINT_EXTENT;
      return v.every(inRange) ? undefined : 'point out of range';
    }
    case 'holder':
      return v === null ||
        (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_PEER_ID)
        ? undefined
        : f.invalid;
    case 'hash':
      return typeof v === 'string' && (v === '' || HASH_HEX.test(v)) ? undefined : f.invalid;
  }
}

/** A content hash as the field table carries it: SHA-256, 64 lowercase hex digits. */
const HASH_HEX = /^[0-9a-f]{64}$/;

/** Why an object or patch is not acceptable, or undefined when it is (fields absent are not checked). */
export function validateObjectFields(o: ObjectPatch & { kind?: ObjectKind }): string | undefined {
  const values = o as Readonly<Record<string, unknown>>;
  for (const f of OBJECT_FIELDS as readonly FieldSpec[]) {
    if (f.set === 'host') continue;
    const v = values[f.name];
    if (v === undefined) continue;
    const why = fieldRefusal(f, v);
    if (why !== undefined) return why;
  }
  // An image is its content, and only an image has one.
  const blob = (o as { blob?: string }).blob;
  if (o.kind !== undefined && blob !== undefined && (o.kind === 'image') !== (blob !== ''))
    return o.kind === 'image' ? 'an image needs its content' : 'only an image has content';
  return undefined;
}
