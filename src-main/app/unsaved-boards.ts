// The unsaved boards a host leaves in the data folder (filesleft): the crash safety of a board with no file (an
// Untitled one, or one uploaded to the web host). Each hosted session has its own, unsaved/untitled-<ms>.ghostboard,
// written a few seconds after a change and when the session ends with changes unsaved, removed once the board is
// saved or replaced. Nothing here is ever hosted unless the user picks it on the start screen ("Recover unsaved
// board from …"). The data folder's board.json of older versions joins them once. Knows nothing of sessions or UI.
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { UnsavedBoard } from '../../shared/api';
import { UNSAVED_ID } from '../../shared/api-validate';
import { openBoardFile, saveBoardFile } from '../files/board-file';

/** A board file read: its state and images (files/board-file.ts's). */
export type ReadBoard = Omit<
  Extract<Awaited<ReturnType<typeof openBoardFile>>, { state: unknown }>,
  'digest'
>;

export const UNSAVED_DIR = 'unsaved';
/** The newest this many are kept (and offered); older ones (and empty ones) are removed when the list is read. */
export const UNSAVED_KEEP = 5;
/** Where hosts of older versions kept an Untitled board (and hosted it again, unasked). */
export const LEGACY_BOARD = 'board.json';
const SUFFIX = '.ghostboard';

/**
 * What reading each unsaved board found (object count, or damaged), by file, size and time written: a board is read
 * again only once rewritten (a 10 000-object board takes some 150 ms to check, and the list is read on each sync).
 */
const seen = new Map<string, number | 'damaged'>();
const SEEN_MAX = 64;

/** A new session's id: its start time (wall clock, ms), never a path (UNSAVED_ID). */
export function unsavedId(nowMs: number): string {
  return `untitled-${Math.max(0, Math.floor(nowMs))}`;
}

export function unsavedPath(dataDir: string, id: string): string {
  if (!UNSAVED_ID.test(id)) throw new Error(`not an unsaved board's id: ${id}`);
  return join(dataDir, UNSAVED_DIR, `${id}${SUFFIX}`);
}

/** One session's unsaved board on disk: written atomically (files/board-file.ts), or removed. */
export class UnsavedSlot {
  readonly file: string;

  constructor(
    private readonly dataDir: string,
    readonly id: string,
  ) {
    this.file = unsavedPath(dataDir, id);
  }

  async write(text: string): Promise<void> {
    await mkdir(join(this.dataDir, UNSAVED_DIR), { recursive: true });
    await saveBoardFile(this.file, text, false);
  }

  async remove(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

/** The unsaved board `id` names, read as any board file is (bounded, checked), or why it cannot be. */
export async function readUnsaved(
  dataDir: string,
  id: string,
): Promise<ReadBoard | { readonly refused: string }> {
  const r = await openBoardFile(unsavedPath(dataDir, id));
  return 'refused' in r ? { refused: r.refused } : { state: r.state, blobs: r.blobs };
}

/**
 * The unsaved boards that can be recovered, newest first: each one read whole (one that does not load is not
 * offered; one that holds no object is removed). Past UNSAVED_KEEP the oldest are removed. An older version's
 * board.json moves in first (then it is offered like the others, never hosted unasked).
 */
export async function listUnsaved(dataDir: string): Promise<UnsavedBoard[]> {
  await adoptLegacy(dataDir);
  const dir = join(dataDir, UNSAVED_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const found: { id: string; savedAt: number; key: string }[] = [];
  for (const name of names) {
    const id = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : '';
    if (!UNSAVED_ID.test(id)) continue;
    try {
      const st = await stat(join(dir, name));
      found.push({ id, savedAt: st.mtimeMs, key: `${join(dir, name)}:${st.size}:${st.mtimeMs}` });
    } catch {
      // Gone since the listing.
    }
  }
  found.sort((a, b) => b.savedAt - a.savedAt || (a.id < b.id ? 1 : -1));
  const out: UnsavedBoard[] = [];
  let damaged = 0;
  for (const f of found) {
    const objects = await objectsIn(dataDir, f.id, f.key);
    // An empty board holds nothing to lose; past the newest UNSAVED_KEEP (good ones, and apart from them damaged
    // ones, which are kept for whoever wants to look) the oldest go.
    const stale = objects === 'damaged' ? ++damaged > UNSAVED_KEEP : out.length >= UNSAVED_KEEP;
    if (objects === 0 || stale) await rm(unsavedPath(dataDir, f.id), { force: true });
    else if (objects !== 'damaged') out.push({ id: f.id, savedAt: Math.round(f.savedAt), objects });
  }
  return out;
}

/** How many objects the unsaved board holds, or that it is damaged: read once per version of the file. */
async function objectsIn(dataDir: string, id: string, key: string): Promise<number | 'damaged'> {
  const known = seen.get(key);
  if (known !== undefined) return known;
  const r = await readUnsaved(dataDir, id);
  const found = 'refused' in r ? 'damaged' : r.state.objects.size;
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(key, found);
  return found;
}

/** Moves an older version's data-folder board.json among the unsaved boards (named by when it was written). */
async function adoptLegacy(dataDir: string): Promise<void> {
  const legacy = join(dataDir, LEGACY_BOARD);
  let mtime: number;
  try {
    mtime = (await stat(legacy)).mtimeMs;
  } catch {
    return;
  }
  await mkdir(join(dataDir, UNSAVED_DIR), { recursive: true });
  await rename(legacy, unsavedPath(dataDir, unsavedId(mtime))).catch(() => undefined);
}
