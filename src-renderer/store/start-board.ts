// The board a hosted session starts with, as the start screen offers it (filesleft): a new board, an unsaved one a
// host left ("Recover unsaved board from …"), a file picked (Open… on the desktop, an upload on the web host) and
// the recent files (desktop). Pure; knows nothing of React or the bridge.
import type { StartBoard, UnsavedBoard } from '../../shared/api';

export interface BoardOption {
  /** Stable per option (React key, test id suffix). */
  readonly key: string;
  readonly board: StartBoard;
  readonly title: string;
  readonly detail: string;
}

/** A file's name as the title shows it: its base name (either slash) without .ghostboard. */
export function boardFileName(pathOrName: string): string {
  const base = pathOrName.split(/[\\/]/).pop() ?? pathOrName;
  return base.replace(/\.ghostboard$/i, '') || base;
}

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Two options are the same board (a picked file already in the recent list is shown once). */
export function sameBoard(a: StartBoard, b: StartBoard): boolean {
  switch (a.kind) {
    case 'new':
      return b.kind === 'new';
    case 'file':
      return b.kind === 'file' && b.path === a.path;
    case 'upload':
      return b.kind === 'upload' && b.name === a.name && b.text === a.text;
    case 'recovered':
      return b.kind === 'recovered' && b.id === a.id;
  }
}

/**
 * What the start screen offers, in order: New, each unsaved board (newest first), the file picked if any, then
 * the recent files. `time` formats a moment (ms since the epoch) for people.
 */
export function boardOptions(
  recoveries: readonly UnsavedBoard[],
  picked: StartBoard | null,
  recent: readonly string[],
  time: (ms: number) => string,
): BoardOption[] {
  const out: BoardOption[] = [
    { key: 'new', board: { kind: 'new' }, title: 'New board', detail: 'An empty board, Untitled.' },
  ];
  for (const r of recoveries)
    out.push({
      key: `recovered-${r.id}`,
      board: { kind: 'recovered', id: r.id },
      title: `Recover unsaved board from ${time(r.savedAt)}`,
      detail: `${plural(r.objects, 'object')}, never saved: the host stopped before it was.`,
    });
  const files: StartBoard[] = recent.map((path) => ({ kind: 'file', path }));
  if (picked !== null && picked.kind !== 'new' && !files.some((f) => sameBoard(f, picked)))
    files.unshift(picked);
  for (const b of files) {
    if (b.kind === 'file')
      out.push({ key: `file-${b.path}`, board: b, title: boardFileName(b.path), detail: b.path });
    else if (b.kind === 'upload')
      out.push({
        key: `upload-${b.name}`,
        board: b,
        title: boardFileName(b.name),
        detail: `Uploaded from this browser (${b.name}).`,
      });
  }
  return out;
}
