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
  const found: { id: string; savedAt: number }[] = [];
  for (const name of names) {
    const id = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : '';
    if (!UNSAVED_ID.test(id)) continue;
    try {
      found.push({ id, savedAt: (await stat(join(dir, name))).mtimeMs });
    } catch {
      // Gone since the listing.
    }
  }
  found.sort((a, b) => b.savedAt - a.savedAt || (a.id < b.id ? 1 : -1));
  const out: UnsavedBoard[] = [];
  let damaged = 0;
  for (const f of found) {
    const r = await readUnsaved(dataDir, f.id);
    // An empty board holds nothing to lose; past the newest UNSAVED_KEEP (good ones, and apart from them damaged
    // ones, which are kept for whoever wants to look) the oldest go.
    const empty = !('refused' in r) && r.state.objects.size === 0;
    const stale = 'refused' in r ? ++damaged > UNSAVED_KEEP : out.length >= UNSAVED_KEEP;
    if (empty || stale) await rm(unsavedPath(dataDir, f.id), { force: true });
    else if (!('refused' in r))
      out.push({ id: f.id, savedAt: Math.round(f.savedAt), objects: r.state.objects.size });
  }
  return out;
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
