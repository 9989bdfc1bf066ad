// Board files on disk: a bounded, validated load that sets a damaged file aside (and falls back to the newest
// backup that loads) instead of refusing to host, and saves that survive a crash: temp file, fsync, rename,
// fsync of the folder, with rotating backups. Knows nothing of sockets, sessions or the UI.
import { copyFile, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BoardState } from '../board';
import type { ImageBlob } from '../../shared/images';
import { decodeBoardFileContent, MAX_BOARD_FILE_BYTES } from './board-codec';
import { fileDigest } from './journal';

/** Backups kept beside the file: FILE.1 (newest) … FILE.3. */
export const BOARD_BACKUPS = 3;

/** What a load did besides reading the file, for the host to show (the CLI prints it, the app says it). */
export interface BoardFileNotice {
  readonly status: 'moved-aside';
  readonly file: string;
  /** Where the damaged file now is. */
  readonly movedTo: string;
  /** Why it could not be loaded. */
  readonly reason: string;
  /** The backup the board was restored from, or undefined: the session starts with an empty board. */
  readonly restoredFrom: string | undefined;
}

export interface BoardLoad {
  /** Undefined: no file yet (a new board; the first save creates it) or nothing could be restored. */
  readonly state: BoardState | undefined;
  /** The board's images (none with no state). */
  readonly blobs?: readonly ImageBlob[];
  readonly notice?: BoardFileNotice;
}

type ReadResult =
  | { readonly state: BoardState; readonly blobs: readonly ImageBlob[]; readonly digest: string }
  | { readonly missing: true }
  | { readonly bad: string };

/**
 * Loads FILE. A file that is too large, not a board or out of range is renamed to FILE.corrupt-<time> (kept:
 * it may hold work someone wants back) and the newest backup that loads is used instead, if any. Errors that
 * say nothing about the file's content (no permission, a directory) are thrown: hosting would not be able to
 * save either.
 */
export async function readBoardFile(file: string, now = new Date()): Promise<BoardLoad> {
  const first = await readBoard(file);
  if ('state' in first) return { state: first.state, blobs: first.blobs };
  if ('missing' in first) return { state: undefined };
  const movedTo = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  await rename(file, movedTo);
  for (let i = 1; i <= BOARD_BACKUPS; i++) {
    const backup = `${file}.${i}`;
    const r = await readBoard(backup).catch(() => undefined);
    if (r !== undefined && 'state' in r) {
      return {
        state: r.state,
        blobs: r.blobs,
        notice: { status: 'moved-aside', file, movedTo, reason: first.bad, restoredFrom: backup },
      };
    }
  }
  return {
    state: undefined,
    notice: { status: 'moved-aside', file, movedTo, reason: first.bad, restoredFrom: undefined },
  };
}

/**
 * Opens FILE as the user asked to (File › Open): the board, or why it cannot be opened (missing, too large,
 * corrupt, foreign or a newer version) with the codec's reason. Unlike readBoardFile it moves nothing aside:
 * a file the user picked is left exactly as it was.
 */
export async function openBoardFile(
  file: string,
): Promise<
  | { readonly state: BoardState; readonly blobs: readonly ImageBlob[]; readonly digest: string }
  | { readonly refused: string }
> {
  let r: ReadResult;
  try {
    r = await readBoard(file);
  } catch (e) {
    return { refused: e instanceof Error ? e.message : String(e) };
  }
  if ('missing' in r) return { refused: 'no such file' };
  if ('bad' in r) return { refused: r.bad };
  return r;
}

/** Reads and validates one file; the size is checked on the open file before a byte is read. */
async function readBoard(file: string): Promise<ReadResult> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return { missing: true };
    throw e;
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_BOARD_FILE_BYTES)
      return {
        bad: `the file is ${size} bytes, over the ${MAX_BOARD_FILE_BYTES} a board may take`,
      };
    // Read at most one byte past the cap, whatever the file grew to since stat().
    const buf = Buffer.alloc(Math.min(size, MAX_BOARD_FILE_BYTES) + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got === buf.length) break;
    }
    if (got > MAX_BOARD_FILE_BYTES) return { bad: 'the file grew past the size a board may take' };
    const text = buf.subarray(0, got).toString('utf8');
    const c = decodeBoardFileContent(text);
    return 'refused' in c ? { bad: c.refused } : { ...c, digest: fileDigest(text) };
  } finally {
    await handle.close();
  }
}

/**
 * Saves `text` as FILE so that a crash or power cut leaves either the old file or the new one, never a torn
 * one: written to FILE.tmp and flushed to disk, renamed over FILE, and the folder flushed so the rename
 * itself is durable. With `backup`, the file being replaced is first copied to FILE.1 (FILE.1 → .2 → .3):
 * a copy, not a rename, so FILE exists at every instant.
 */
export async function saveBoardFile(file: string, text: string, backup: boolean): Promise<void> {
  const tmp = `${file}.tmp`;
  const h = await open(tmp, 'w');
  try {
    await h.writeFile(text, 'utf8');
    await h.sync();
  } finally {
    await h.close();
  }
  if (backup) await rotateBackups(file);
  await rename(tmp, file);
  await syncFolder(dirname(file));
}

async function rotateBackups(file: string): Promise<void> {
  for (let i = BOARD_BACKUPS - 1; i >= 1; i--) {
    await rename(`${file}.${i}`, `${file}.${i + 1}`).catch((e: unknown) => {
      if (!isErrno(e, 'ENOENT')) throw e;
    });
  }
  await copyFile(file, `${file}.1`).catch((e: unknown) => {
    if (!isErrno(e, 'ENOENT')) throw e; // nothing saved yet: nothing to back up
  });
}

/** Makes renames in `dir` durable. Some systems (Windows) cannot open a folder: there, renames are. */
async function syncFolder(dir: string): Promise<void> {
  let h;
  try {
    h = await open(dir, 'r');
    await h.sync();
  } catch {
    // Best effort: the data itself was flushed before the rename.
  } finally {
    await h?.close();
  }
}

function isErrno(e: unknown, code: string): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === code;
}
