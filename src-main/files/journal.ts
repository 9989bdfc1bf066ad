// The open board file's journal (FILE.journal): what changed since the file was last saved, appended at most once
// a second, so a crash of the host loses at most the last second of edits. A pure codec (header, records,
// replay) and a small fs layer (reset, append with fsync, bounded read). Knows nothing of sessions or the UI.
//
// Layout (every integer little-endian):
//   header  "GBJ1" · u16 n · n bytes: the saved file's digest (sha-256 hex of its text)
//   record  u32 length · u32 crc32 of the payload · payload (UTF-8 JSON, `length` bytes)
//   payload { "deleted": [id, …], "changed": "<a .ghostboard text of the changed objects, their images and
//             the board's nextId>" }
// A record holds whole changed objects (not operations): replaying is a put of each and a removal of each deleted
// id, so it does not depend on the board core's operation rules, and the objects are checked by the board codec
// as any file's are. A journal whose digest is not the file's belongs to an older save and is not replayed.
import { createHash } from 'node:crypto';
import { open, rename } from 'node:fs/promises';
import type { BoardObject, ObjectId } from '../../shared/board';
import { MAX_OBJECT_ID } from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import type { BoardState } from '../board';
import { emptyBoard } from '../board';
import { decodeBoardFileContent, encodeBoardFile, MAX_BOARD_FILE_BYTES } from './board-codec';

const MAGIC = 'GBJ1';
const RECORD_HEAD = 8;
/** A journal longer than this is refused unread: a save folds it in long before. */
export const MAX_JOURNAL_BYTES = 4 * MAX_BOARD_FILE_BYTES;
/** One record's payload at most (a whole board's worth of changed objects). */
const MAX_RECORD_BYTES = MAX_BOARD_FILE_BYTES;
const MAX_DIGEST_CHARS = 128;

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE, as zlib's) of `bytes`: a record's checksum. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The journal's name beside FILE. */
export const journalPath = (file: string): string => `${file}.journal`;

/** The digest a journal names its file by: sha-256 of the file's text, hex. */
export function fileDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** What changed since the last record (or the save): whole objects, deleted ids, the id counter. */
export interface JournalChange {
  readonly changed: readonly BoardObject[];
  readonly deleted: readonly ObjectId[];
  readonly nextId: number;
}

export function encodeJournalHeader(digest: string): Uint8Array {
  const d = Buffer.from(digest, 'utf8');
  const out = Buffer.alloc(MAGIC.length + 2 + d.length);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt16LE(d.length, MAGIC.length);
  d.copy(out, MAGIC.length + 2);
  return out;
}

export function encodeJournalRecord(
  change: JournalChange,
  blobOf: (hash: string) => ImageBlob | undefined = () => undefined,
): Uint8Array {
  const partial = emptyBoard();
  for (const o of change.changed) partial.objects.set(o.id, o);
  partial.nextId = change.nextId;
  const payload = Buffer.from(
    JSON.stringify({ deleted: change.deleted, changed: encodeBoardFile(partial, blobOf) }),
    'utf8',
  );
  const head = Buffer.alloc(RECORD_HEAD);
  head.writeUInt32LE(payload.length, 0);
  head.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([head, payload]);
}

export type Replay =
  | {
      /** The board with the journal's records applied (a copy: the given one is untouched). */
      readonly state: BoardState;
      /** The images the records carried. */
      readonly blobs: readonly ImageBlob[];
      /** Complete records applied. */
      readonly records: number;
      /** A torn last record was left out (the host crashed while writing it). */
      readonly torn: boolean;
    }
  /** The journal follows another save of the file (older than it): nothing to replay. */
  | { readonly stale: true }
  | { readonly refused: string };

/**
 * The board `base` (the file's, whose digest is `digest`) with the journal `bytes` replayed over it. A torn last
 * record is ignored; any other damage refuses the whole journal with a reason.
 */
export function replayJournal(base: BoardState, digest: string, bytes: Uint8Array): Replay {
  if (bytes.length > MAX_JOURNAL_BYTES) return { refused: 'the journal is too large' };
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const headLen = MAGIC.length + 2;
  if (buf.length < headLen) return { refused: 'the journal has no header' };
  if (buf.toString('latin1', 0, MAGIC.length) !== MAGIC)
    return { refused: 'not a Ghostboard journal' };
  const n = buf.readUInt16LE(MAGIC.length);
  if (n > MAX_DIGEST_CHARS || buf.length < headLen + n)
    return { refused: 'the journal has a bad header' };
  if (buf.toString('utf8', headLen, headLen + n) !== digest) return { stale: true };
  const state: BoardState = {
    objects: new Map(base.objects),
    nextId: base.nextId,
    topZ: base.topZ,
  };
  const blobs = new Map<string, ImageBlob>();
  let at = headLen + n;
  let records = 0;
  while (at < buf.length) {
    if (buf.length - at < RECORD_HEAD) return done(true);
    const length = buf.readUInt32LE(at);
    const sum = buf.readUInt32LE(at + 4);
    if (length > MAX_RECORD_BYTES) return { refused: `journal record ${records + 1} is too large` };
    const end = at + RECORD_HEAD + length;
    if (end > buf.length) return done(true);
    const payload = buf.subarray(at + RECORD_HEAD, end);
    if (crc32(payload) !== sum) {
      // The last record written when the host went down may be whole in length but not in content.
      if (end === buf.length) return done(true);
      return { refused: `journal record ${records + 1} is damaged` };
    }
    const why = applyRecord(state, blobs, payload.toString('utf8'));
    if (why !== undefined) return { refused: `journal record ${records + 1}: ${why}` };
    records++;
    at = end;
  }
  return done(false);

  function done(torn: boolean): Replay {
    return { state, blobs: [...blobs.values()], records, torn };
  }
}

/** Applies one record's payload to `state`, or says why it cannot be (and leaves `state` as it is). */
function applyRecord(
  state: BoardState,
  blobs: Map<string, ImageBlob>,
  text: string,
): string | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (typeof data !== 'object' || data === null) return 'not a record';
  const { deleted, changed } = data as Record<string, unknown>;
  if (!Array.isArray(deleted) || typeof changed !== 'string') return 'not a record';
  if (!deleted.every((id) => Number.isInteger(id) && id >= 1 && id <= MAX_OBJECT_ID))
    return 'bad deleted id';
  const c = decodeBoardFileContent(changed);
  if ('refused' in c) return c.refused;
  for (const id of deleted as number[]) state.objects.delete(id);
  for (const o of c.state.objects.values()) state.objects.set(o.id, o);
  state.nextId = Math.max(state.nextId, c.state.nextId);
  state.topZ = Math.max(state.topZ, c.state.topZ);
  for (const b of c.blobs) blobs.set(b.hash, b);
  return undefined;
}

/** Starts FILE's journal afresh for the save whose digest is `digest` (written aside, then renamed over). */
export async function resetJournal(file: string, digest: string): Promise<void> {
  const path = journalPath(file);
  const tmp = `${path}.tmp`;
  const h = await open(tmp, 'w');
  try {
    await h.writeFile(encodeJournalHeader(digest));
    await h.sync();
  } finally {
    await h.close();
  }
  await rename(tmp, path);
}

/** Appends one record to FILE's journal and flushes it to disk. */
export async function appendJournal(file: string, record: Uint8Array): Promise<void> {
  const h = await open(journalPath(file), 'a');
  try {
    await h.writeFile(record);
    await h.sync();
  } finally {
    await h.close();
  }
}

/** FILE's journal's bytes (undefined: there is none), read only when within MAX_JOURNAL_BYTES. */
export async function readJournal(
  file: string,
): Promise<Uint8Array | { refused: string } | undefined> {
  let h;
  try {
    h = await open(journalPath(file), 'r');
  } catch (e) {
    if (e instanceof Error && (e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { refused: e instanceof Error ? e.message : String(e) };
  }
  try {
    const { size } = await h.stat();
    if (size > MAX_JOURNAL_BYTES) return { refused: 'the journal is too large' };
    const buf = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const { bytesRead } = await h.read(buf, got, size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  } finally {
    await h.close();
  }
}

/**
 * What changed from `before` (the objects as last journaled or saved) to `now`: objects are replaced, never
 * changed in place, by the board core, so a changed object is one that is not the same reference.
 */
export function journalChange(
  before: ReadonlyMap<ObjectId, BoardObject>,
  now: { readonly objects: ReadonlyMap<ObjectId, BoardObject>; readonly nextId: number },
): JournalChange | undefined {
  const changed: BoardObject[] = [];
  const deleted: ObjectId[] = [];
  for (const [id, o] of now.objects) if (before.get(id) !== o) changed.push(o);
  for (const id of before.keys()) if (!now.objects.has(id)) deleted.push(id);
  return changed.length === 0 && deleted.length === 0
    ? undefined
    : { changed, deleted, nextId: now.nextId };
}

/** What opening FILE found in its journal. */
export type Recovery =
  /** Records replayed over the file's board (a crash left edits unsaved): the board with them. */
  | { readonly state: BoardState; readonly blobs: readonly ImageBlob[]; readonly records: number }
  /** No journal, or one of an older save: the file's board as it is. */
  | { readonly none: true }
  /** A damaged journal, set aside as `movedTo`: the file's board as it is. */
  | { readonly refused: string; readonly movedTo: string };

/**
 * Replays FILE's journal over its board `base` (the file's text has digest `digest`), then starts the journal
 * afresh for it: with one record of what was recovered, so the next crash recovers it again until a save.
 */
export async function recoverJournal(
  file: string,
  base: BoardState,
  digest: string,
): Promise<Recovery> {
  const bytes = await readJournal(file);
  let out: Recovery = { none: true };
  if (bytes !== undefined) {
    const r = 'refused' in bytes ? bytes : replayJournal(base, digest, bytes);
    if ('refused' in r) {
      const movedTo = `${journalPath(file)}.damaged`;
      await rename(journalPath(file), movedTo).catch(() => undefined);
      out = { refused: r.refused, movedTo };
    } else if ('state' in r && r.records > 0)
      out = { state: r.state, blobs: r.blobs, records: r.records };
  }
  await resetJournal(file, digest);
  if ('state' in out) {
    const change = journalChange(base.objects, out.state);
    const blobs = new Map(out.blobs.map((b) => [b.hash, b]));
    if (change !== undefined)
      await appendJournal(
        file,
        encodeJournalRecord(change, (h) => blobs.get(h)),
      );
  }
  return out;
}
