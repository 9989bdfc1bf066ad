// Bit-packed coding of board object fields for mirror commands, driven by the field table (shared/board.ts's
// OBJECT_FIELDS): a field added to the table is carried with no change here. The session's field codecs
// (session/fields.ts) sit in a layer mirror/ may not import, and need net/'s bitstream, so board/ and shared/
// cannot hold them; this is the table's coding over the same bitstream, with points written plainly (mirror links
// carry few creates next to a peer's paste). Knows nothing of connections or of what a command does.
import type { BitReader, BitWriter } from '../net/bitstream';
import { DecodeError } from '../net/bitstream';
import type { FieldSpec, FieldType, NewObject, ObjectPatch } from '../../shared/board';
import {
  fieldRefusal,
  MAX_PEER_ID,
  MAX_POINTS,
  MAX_TEXT_BYTES,
  NEW_OBJECT_FIELDS,
  OBJECT_FIELDS,
  OBJECT_KINDS,
  PATCH_FIELDS,
  POINT_EXTENT,
} from '../../shared/board';
import { bytesToHex, hexToBytes } from '../../shared/images';

const SPECS = new Map((OBJECT_FIELDS as readonly FieldSpec[]).map((f) => [f.name, f]));

function spec(name: string): FieldSpec {
  const f = SPECS.get(name);
  if (f === undefined) throw new RangeError(`no object field ${name}`);
  return f;
}

/** Writes one value of the type; a value out of its range is a programmer error (RangeError). */
export function writeFieldValue(w: BitWriter, t: FieldType, v: unknown): void {
  switch (t.type) {
    case 'int':
      w.writeRanged(v as number, t.min, t.max);
      return;
    case 'z':
      w.writeVarInt(v as number);
      return;
    case 'kind': {
      const k = (OBJECT_KINDS as readonly unknown[]).indexOf(v);
      if (k < 0) throw new RangeError(`unknown kind ${String(v)}`);
      w.writeRanged(k, 0, OBJECT_KINDS.length - 1);
      return;
    }
    case 'color':
      w.writeBool(v !== null);
      if (v !== null) w.writeUint(v as number, 24);
      return;
    case 'text':
      w.writeString(v as string);
      return;
    case 'points': {
      const points = v as readonly number[];
      if (points.length % 2 !== 0 || points.length > MAX_POINTS * 2)
        throw new RangeError('bad points');
      w.writeRanged(points.length / 2, 0, MAX_POINTS);
      for (const p of points) w.writeRanged(p, -POINT_EXTENT, POINT_EXTENT);
      return;
    }
    case 'holder':
      w.writeBool(v !== null);
      if (v !== null) w.writeRanged(v as number, 0, MAX_PEER_ID);
      return;
    case 'hash':
      w.writeBool(v !== '');
      if (v !== '') w.writeBytes(hexToBytes(v as string));
      return;
  }
}

/** Reads one value of the type; anything out of range is a DecodeError. */
export function readFieldValue(r: BitReader, t: FieldType): unknown {
  switch (t.type) {
    case 'int':
      return r.readRanged(t.min, t.max);
    case 'z':
      return r.readVarInt();
    case 'kind': {
      const k = OBJECT_KINDS[r.readRanged(0, OBJECT_KINDS.length - 1)];
      if (k === undefined) throw new DecodeError('range', 'object kind');
      return k;
    }
    case 'color':
      return r.readBool() ? r.readUint(24) : null;
    case 'text':
      return r.readString(MAX_TEXT_BYTES);
    case 'points': {
      const n = r.readRanged(0, MAX_POINTS);
      // Checked before allocating: a hostile count costs nothing when the bits are not there.
      r.requireBits(n * 2 * 16);
      const out: number[] = [];
      for (let i = 0; i < n * 2; i++) out.push(r.readRanged(-POINT_EXTENT, POINT_EXTENT));
      return out;
    }
    case 'holder':
      return r.readBool() ? r.readRanged(0, MAX_PEER_ID) : null;
    case 'hash':
      return r.readBool() ? bytesToHex(r.readBytes(32)) : '';
  }
}

/** A new object's fields, in the table's order. */
export function writeNewObject(w: BitWriter, fields: NewObject): void {
  const values = fields as Readonly<Record<string, unknown>>;
  for (const name of NEW_OBJECT_FIELDS) writeChecked(w, spec(name), values[name]);
}

export function readNewObject(r: BitReader): NewObject {
  const out: Record<string, unknown> = {};
  for (const name of NEW_OBJECT_FIELDS) out[name] = readChecked(r, spec(name));
  return out as unknown as NewObject;
}

/** A patch: a presence bit per patchable field (the table's order), then the values present. */
export function writePatch(w: BitWriter, patch: ObjectPatch): void {
  const values = patch as Readonly<Record<string, unknown>>;
  for (const name of PATCH_FIELDS) w.writeBool(values[name] !== undefined);
  for (const name of PATCH_FIELDS)
    if (values[name] !== undefined) writeChecked(w, spec(name), values[name]);
}

export function readPatch(r: BitReader): ObjectPatch {
  const present = PATCH_FIELDS.filter(() => r.readBool());
  const out: Record<string, unknown> = {};
  for (const name of present) out[name] = readChecked(r, spec(name));
  return out;
}

/** Writing a value out of its field's range is a programmer error: the reader would refuse it. */
function writeChecked(w: BitWriter, f: FieldSpec, v: unknown): void {
  const why = fieldRefusal(f, v);
  if (why !== undefined) throw new RangeError(`${f.name}: ${why}`);
  writeFieldValue(w, f.codec, v);
}

/** A value in its field's range (the table's own check: what the wire's width cannot rule out, such as text length). */
function readChecked(r: BitReader, f: FieldSpec): unknown {
  const v = readFieldValue(r, f.codec);
  const why = fieldRefusal(f, v);
  if (why !== undefined) throw new DecodeError('range', `${f.name}: ${why}`);
  return v;
}
