// The start screen's form as plain data: what typing an address does to the code, when the form can be sent,
// and the 'host' / 'join' command it becomes. Pure; knows nothing of React.
import type { ApiCommand, StartBoard } from '../../shared/api';
import { joinAddress, recognizeLink } from './reach-text';

export type Mode = 'host' | 'join';
export type Reach = 'lan' | 'directory';

export interface StartFields {
  readonly name: string;
  /** An address, or an invite link (with or without its code). */
  readonly address: string;
  readonly code: string;
  readonly port: string;
  /** What the user picked; null: the default (the directory when one is set). */
  readonly reach: Reach | null;
  /** With the directory: listed publicly under this name; empty: unlisted. */
  readonly listName: string;
}

export const EMPTY_FIELDS: StartFields = {
  name: '',
  address: '',
  code: '',
  port: '',
  reach: null,
  listName: '',
};

/** The reach hosting will use: only the LAN without a directory, else the user's pick or the directory. */
export function effectiveReach(f: StartFields, directories: number): Reach {
  return directories === 0 ? 'lan' : (f.reach ?? 'directory');
}

/**
 * A new address: a pasted link fills the code it carries (unless the user typed another one), and a code that
 * only came from a link goes when the link does.
 */
export function withAddress(f: StartFields, address: string): StartFields {
  const before = recognizeLink(f.address);
  const after = recognizeLink(address);
  const codeFromLink = before !== undefined && before.code !== '' && f.code === before.code;
  let code = f.code;
  if (after !== undefined && after.code !== '' && (f.code === '' || codeFromLink))
    code = after.code;
  else if (after === undefined && codeFromLink) code = '';
  return { ...f, address, code };
}

/** Whether the form has what its command needs (a link may carry the code). */
export function startReady(mode: Mode, f: StartFields): boolean {
  if (f.name.trim() === '') return false;
  if (mode === 'host') return true;
  if (f.address.trim() === '') return false;
  const linkCode = recognizeLink(f.address)?.code ?? '';
  return f.code.trim() !== '' || linkCode !== '';
}

/** The host or join command the form makes; hosting starts with `board` (absent: a new board). */
export function startCommand(
  mode: Mode,
  f: StartFields,
  directories: number,
  board?: StartBoard,
): ApiCommand {
  if (mode === 'join')
    return {
      cmd: 'join',
      options: { name: f.name, address: joinAddress(f.address, f.code), code: f.code.trim() },
    };
  const reach = effectiveReach(f, directories);
  const listName = f.listName.trim();
  return {
    cmd: 'host',
    options: {
      name: f.name,
      ...(f.port.trim() === '' ? {} : { port: Number.parseInt(f.port, 10) }),
      reach,
      ...(reach === 'directory' && listName !== '' ? { listName } : {}),
      ...(board === undefined || board.kind === 'new' ? {} : { board }),
    },
  };
}
