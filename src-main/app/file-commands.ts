// The file commands of the renderer API (files): save, save-as, open and new on the host's open file, and the web
// host's upload (open-text) and download. Opening reads the file strictly (a corrupt, foreign or newer one is
// refused with the codec's reason, and nothing on the board or the disk changes), replays its journal (edits a
// crash left unsaved) and replaces the live board, which every joiner sees. Hosting starts from the same loads
// (filesleft: a file, an upload, an unsaved board recovered). Knows nothing of windows, dialogs or the network.
import { basename } from 'node:path';
import type { ApiCommand, ApiEvent, ApiReply, StartBoard } from '../../shared/api';
import type { ImageBlob } from '../../shared/images';
import type { Recovery } from '../files/journal';
import { recoverJournal } from '../files/journal';
import { decodeBoardFileContent } from '../files/board-codec';
import { Board } from '../session/board';
import { openBoardFile } from '../files/board-file';
import type { SessionHandle } from './core-io';
import type { OpenFile } from './open-file';
import type { ReadBoard } from './unsaved-boards';
import { readUnsaved } from './unsaved-boards';

export type FileCommand = Extract<
  ApiCommand,
  { cmd: 'save' | 'save-as' | 'open' | 'new' | 'open-text' | 'download' }
>;

const FILE_COMMANDS: readonly string[] = [
  'save',
  'save-as',
  'open',
  'new',
  'open-text',
  'download',
];

export function isFileCommand(c: ApiCommand): c is FileCommand {
  return FILE_COMMANDS.includes(c.cmd);
}

const JOINER_REFUSAL = "only the host has the board's file: save a copy from the Export panel";

/** A board to put on the live board, and the open file it makes (none of it applied yet). */
export interface LoadedBoard extends ReadBoard {
  /** Its file (absent: a board with no file, named `name`). */
  readonly path?: string;
  readonly name?: string;
  /** The hash of the board as saved: the live board differs by what a journal or a recovery brought back. */
  readonly savedHash: string;
  /** A recovered unsaved board: its unsaved store already holds it. */
  readonly kept?: boolean;
  /** What to tell the user once it is on the board. */
  readonly notices: readonly Extract<ApiEvent, { type: 'notice' }>[];
}

export type Load = LoadedBoard | { readonly refused: string };

/** The file at `path` with the edits its journal kept (a damaged journal is set aside, the notice says so). */
export async function loadPath(path: string): Promise<Load> {
  const r = await openBoardFile(path);
  if ('refused' in r) return { refused: `cannot open ${path}: ${r.refused}` };
  const name = basename(path);
  const notices: Extract<ApiEvent, { type: 'notice' }>[] = [];
  let rec: Recovery;
  try {
    rec = await recoverJournal(path, r.state, r.digest);
  } catch (e) {
    rec = { none: true };
    const why = e instanceof Error ? e.message : String(e);
    notices.push({ type: 'notice', level: 'warn', text: `${name} has no journal (${why}).` });
  }
  if ('state' in rec)
    notices.push({
      type: 'notice',
      level: 'info',
      text: `${name}: the edits not saved when the host stopped were brought back from its journal (${rec.records} record${rec.records === 1 ? '' : 's'}); save to keep them.`,
    });
  else if ('refused' in rec)
    notices.push({
      type: 'notice',
      level: 'warn',
      text: `${name}: its journal could not be read (${rec.refused}) and was kept as ${rec.movedTo}; the file opened as last saved.`,
    });
  const blobs: ImageBlob[] = [...r.blobs, ...('state' in rec ? rec.blobs : [])];
  return {
    state: 'state' in rec ? rec.state : r.state,
    blobs,
    path,
    savedHash: new Board(r.state).hash(),
    notices,
  };
}

/** An uploaded board file's text (web host), checked as a file on disk is; it has no path. */
export function loadText(name: string, text: string): Load {
  const c = decodeBoardFileContent(text);
  if ('refused' in c) return { refused: `cannot open ${name}: ${c.refused}` };
  return {
    state: c.state,
    blobs: c.blobs,
    name,
    savedHash: new Board(c.state).hash(),
    notices: [],
  };
}

/** What a hosted session starts with; undefined: a new empty board. */
export async function loadStart(
  board: StartBoard | undefined,
  dataDir: string,
): Promise<Load | undefined> {
  switch (board?.kind) {
    case undefined:
    case 'new':
      return undefined;
    case 'file':
      return loadPath(board.path);
    case 'upload':
      return loadText(board.name, board.text);
    case 'recovered': {
      const r = await readUnsaved(dataDir, board.id);
      if ('refused' in r) return { refused: `the unsaved board cannot be recovered: ${r.refused}` };
      // Unsaved as it was: the board differs from the empty one it started as.
      return { ...r, savedHash: new Board().hash(), kept: true, notices: [] };
    }
  }
}

/** Puts a loaded board on the live board (every joiner sees it) and makes it the open file; or why not. */
export function applyLoad(
  l: LoadedBoard,
  replace: NonNullable<SessionHandle['controls']['replaceBoard']>,
  file: OpenFile,
  now: number,
  emit: (e: ApiEvent) => void,
): ApiReply {
  const refused = replace(now, l.state, l.blobs);
  if (refused !== undefined) return { ok: false, reason: refused.refused };
  file.replaced(l.path, l.savedHash, {
    ...(l.name === undefined ? {} : { name: l.name }),
    ...(l.kept === undefined ? {} : { kept: l.kept }),
  });
  for (const n of l.notices) emit(n);
  return { ok: true };
}

export async function fileCommand(
  c: FileCommand,
  s: SessionHandle['controls'],
  file: OpenFile | undefined,
  now: number,
  emit: (e: ApiEvent) => void,
): Promise<ApiReply> {
  const replace = s.replaceBoard;
  if (file === undefined || replace === undefined) return { ok: false, reason: JOINER_REFUSAL };
  switch (c.cmd) {
    case 'save':
      if (file.current === undefined)
        return { ok: false, reason: 'the board has no file yet: use Save As' };
      return saved(() => file.save());
    case 'save-as':
      return saved(() => file.save(c.path));
    case 'open':
    case 'open-text': {
      const l = c.cmd === 'open' ? await loadPath(c.path) : loadText(c.name, c.text);
      return 'refused' in l
        ? { ok: false, reason: l.refused }
        : applyLoad(l, replace, file, now, emit);
    }
    case 'new': {
      const refused = replace(now, new Board().state, []);
      if (refused !== undefined) return { ok: false, reason: refused.refused };
      file.replaced(undefined);
      return { ok: true };
    }
    case 'download': {
      const hash = s.board.hash();
      const text = s.board.toFile((h) => s.images.get(h));
      file.downloaded(hash);
      return { ok: true, text };
    }
  }
}

async function saved(write: () => Promise<void>): Promise<ApiReply> {
  try {
    await write();
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: `not saved: ${e instanceof Error ? e.message : String(e)}` };
  }
}
