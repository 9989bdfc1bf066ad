// The .ghostboard file format, version 2: JSON text, built from the object field table so a new field is saved
// and checked like the others. A damaged or hostile file is refused whole, with a reason. Knows nothing of disks
// (board-file.ts) or sessions.
//
//   { "format": "ghostboard-board", "version": 2, "nextId": N, "objects": [OBJECT, …], "blobs": [BLOB, …] }
//
// blobs: the images' bytes (blob-section.ts). Version 1 (before images and locks) had no blobs and no `blob` or
// `pinned` field in its objects: it is still read, each object's blob '' and nothing locked in place.
//
// Version 2 added the field `pinned` (an object locked in place); a version 1 file has none, and its objects load
// unpinned.
// nextId: the id the next create takes (at least one above every object's id). objects: bottom to top, each with
// every field of OBJECT_FIELDS in table order; lockedBy is written null and ignored on reading (a lock belongs to
// a live session). Files written before this codec had the same fields in another key order: JSON objects are
// unordered, and they load the same.
import type { BoardObject, FieldSpec, FieldType } from '../../shared/board';
import {
  fieldRefusal,
  MAX_OBJECT_ID,
  OBJECT_FIELDS,
  OBJECT_KINDS,
  validateObjectFields,
} from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import type { BoardState } from '../board';
import { decodeBlobs, encodeBlobs } from './blob-section';
import { emptyBoard, MAX_OBJECTS, objectsByZ } from '../board';

export const FILE_FORMAT = 'ghostboard-board';
export const FILE_VERSION = 2;
/** Fields a version 1 file does not have, and the value its objects load with. */
const ADDED_IN_V2: Readonly<Record<string, unknown>> = { pinned: 0, blob: '' };
/** Versions read: 1 (before images) and this one. */
const READ_VERSIONS: readonly unknown[] = [1, FILE_VERSION];
/**
 * A board file larger than this is refused before it is read: 100,000 objects of typical size take well under
 * it, and a file past it would take the host's memory several times over while parsed.
 */
export const MAX_BOARD_FILE_BYTES = 64 * 1024 * 1024;
/**
 * Stacking order a file may hold, ±2^40: every z then fits the wire (a varint, ±2^52) with room for 2^52 − 2^40
 * more restacks in the session, each one step past the top or the bottom.
 */
export const MAX_Z = 2 ** 40;

/** Why a file was not loaded, in words for the person hosting. */
export interface FileRefusal {
  readonly refused: string;
}

const FIELDS: readonly FieldSpec[] = OBJECT_FIELDS;

/** The file's text: objects bottom to top, each field in table order, then the bytes of their images. */
export function encodeBoardFile(
  state: BoardState,
  blobOf: (hash: string) => ImageBlob | undefined = () => undefined,
): string {
  const sorted = objectsByZ(state);
  const objects = sorted.map((o) => {
    const out: Record<string, unknown> = {};
    for (const f of FIELDS)
      out[f.name] = f.codec.type === 'holder' ? null : o[f.name as keyof BoardObject];
    return out;
  });
  return JSON.stringify({
    format: FILE_FORMAT,
    version: FILE_VERSION,
    nextId: state.nextId,
    objects,
    blobs: encodeBlobs(sorted, blobOf),
  });
}

/** A board and its images as a file holds them. */
export interface BoardFileContent {
  readonly state: BoardState;
  readonly blobs: readonly ImageBlob[];
}

/** Reads a file's board, validating every field; a damaged or hostile file is refused whole. */
export function decodeBoardFile(text: string): BoardState | FileRefusal {
  const c = decodeBoardFileContent(text);
  return 'refused' in c ? c : c.state;
}

/** Reads a file's board and images, validating every field and every image's hash. */
export function decodeBoardFileContent(text: string): BoardFileContent | FileRefusal {
  if (text.length > MAX_BOARD_FILE_BYTES) return { refused: 'board file too large' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { refused: 'board file is not valid JSON' };
  }
  if (!isRecord(data) || data.format !== FILE_FORMAT || !READ_VERSIONS.includes(data.version)) {
    return { refused: 'not a Ghostboard board file (or a newer version)' };
  }
  const v1 = data.version === 1;
  if (!Array.isArray(data.objects) || data.objects.length > MAX_OBJECTS)
    return { refused: 'bad object list' };
  const state = emptyBoard();
  for (const raw of data.objects as unknown[]) {
    const o = readObject(v1 && isRecord(raw) ? { ...raw, ...ADDED_IN_V2 } : raw);
    if ('refused' in o) return o;
    if (state.objects.has(o.id)) return { refused: `duplicate object id ${o.id}` };
    state.objects.set(o.id, o);
    state.nextId = Math.max(state.nextId, o.id + 1);
    state.topZ = Math.max(state.topZ, o.z);
  }
  const nextId = data.nextId;
  if (typeof nextId === 'number' && Number.isInteger(nextId) && nextId <= MAX_OBJECT_ID + 1) {
    state.nextId = Math.max(state.nextId, nextId);
  }
  const blobs = v1 ? [] : decodeBlobs(data.blobs);
  return 'refused' in blobs ? blobs : { state, blobs };
}

/**
 * Shape checks by type, in the order a file's object is checked (the first failing one names the refusal); a lock
 * holder is not read.
 */
const SHAPES: readonly {
  readonly types: readonly FieldType['type'][];
  readonly ok: (v: unknown) => boolean;
  readonly refused: string;
}[] = [
  {
    types: ['int', 'z'],
    ok: (v) => typeof v === 'number' && Number.isInteger(v),
    refused: 'bad number in object',
  },
  {
    types: ['kind'],
    ok: (v) => typeof v === 'string' && (OBJECT_KINDS as readonly string[]).includes(v),
    refused: 'bad kind',
  },
  { types: ['text'], ok: (v) => typeof v === 'string', refused: 'bad text or points' },
  { types: ['hash'], ok: (v) => typeof v === 'string', refused: 'bad image hash' },
  { types: ['points'], ok: (v) => Array.isArray(v), refused: 'bad text or points' },
  { types: ['color'], ok: (v) => v === null || typeof v === 'number', refused: 'bad colour' },
];

function readObject(raw: unknown): BoardObject | FileRefusal {
  if (!isRecord(raw)) return { refused: 'bad object' };
  for (const shape of SHAPES) {
    for (const f of FIELDS)
      if (shape.types.includes(f.codec.type) && !shape.ok(raw[f.name]))
        return { refused: shape.refused };
  }
  const values: Record<string, unknown> = {};
  for (const f of FIELDS) values[f.name] = f.codec.type === 'holder' ? null : raw[f.name];
  const o = values as unknown as BoardObject;
  // The host-set fields the editors' validation does not see: the id's range, and z within what the wire carries.
  for (const f of FIELDS) {
    if (f.set !== 'host' || f.codec.type === 'holder') continue;
    const why = f.codec.type === 'z' ? zRefusal(f, o.z) : fieldRefusal(f, values[f.name]);
    if (why !== undefined) return { refused: why };
  }
  const why = validateObjectFields(o);
  return why === undefined ? o : { refused: why };
}

function zRefusal(f: FieldSpec, z: number): string | undefined {
  return Math.abs(z) > MAX_Z ? f.invalid : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
