// The file commands of the renderer API (files): save, save-as, open and new, on the host's open file. Opening
// reads the file strictly (a corrupt, foreign or newer one is refused with the codec's reason, and nothing on the
// board or the disk changes), replays its journal (edits a crash left unsaved) and replaces the live board, which
// every joiner sees. Knows nothing of windows, dialogs or the network.
import { basename } from 'node:path';
import type { ApiCommand, ApiEvent, ApiReply } from '../../shared/api';
import type { ImageBlob } from '../../shared/images';
import type { Recovery } from '../files/journal';
import { recoverJournal } from '../files/journal';
import { Board } from '../session/board';
import { openBoardFile } from '../files/board-file';
import type { SessionHandle } from './core-io';
import type { OpenFile } from './open-file';

export type FileCommand = Extract<ApiCommand, { cmd: 'save' | 'save-as' | 'open' | 'new' }>;

export function isFileCommand(c: ApiCommand): c is FileCommand {
  return c.cmd === 'save' || c.cmd === 'save-as' || c.cmd === 'open' || c.cmd === 'new';
}

const JOINER_REFUSAL = "only the host has the board's file: save a copy from the Export panel";

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
    case 'open': {
      const r = await openBoardFile(c.path);
      if ('refused' in r) return { ok: false, reason: `cannot open ${c.path}: ${r.refused}` };
      const name = basename(c.path);
      let rec: Recovery;
      try {
        rec = await recoverJournal(c.path, r.state, r.digest);
      } catch (e) {
        rec = { none: true };
        const why = e instanceof Error ? e.message : String(e);
        emit({ type: 'notice', level: 'warn', text: `${name} has no journal (${why}).` });
      }
      const state = 'state' in rec ? rec.state : r.state;
      const blobs: ImageBlob[] = [...r.blobs, ...('state' in rec ? rec.blobs : [])];
      const refused = replace(now, state, blobs);
      if (refused !== undefined) return { ok: false, reason: refused.refused };
      file.replaced(c.path, new Board(r.state).hash());
      if ('state' in rec)
        emit({
          type: 'notice',
          level: 'info',
          text: `${name}: the edits not saved when the host stopped were brought back from its journal (${rec.records} record${rec.records === 1 ? '' : 's'}); save to keep them.`,
        });
      else if ('refused' in rec)
        emit({
          type: 'notice',
          level: 'warn',
          text: `${name}: its journal could not be read (${rec.refused}) and was kept as ${rec.movedTo}; the file opened as last saved.`,
        });
      return { ok: true };
    }
    case 'new': {
      const refused = replace(now, new Board().state, []);
      if (refused !== undefined) return { ok: false, reason: refused.refused };
      file.replaced(undefined);
      return { ok: true };
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
