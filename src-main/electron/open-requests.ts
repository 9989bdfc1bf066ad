// What the OS asks the desktop app to open (filesleft): a ghostboard:// invite link or a .ghostboard board file,
// found among a command line's arguments (Windows and Linux start the app, or hand a running one through
// second-instance, with the path or link as an argument) or handed over as macOS's open-url / open-file events,
// which may come before the app is ready: they wait in order until a handler is attached. Pure (no Electron
// import), so it is unit-tested with fakes. Knows nothing of the core, menus or windows.
import { isAbsolute, resolve } from 'node:path';
import { MAX_PATH_CHARS } from '../../shared/api';

export type OpenRequest =
  | { readonly kind: 'link'; readonly link: string }
  | { readonly kind: 'board'; readonly path: string };

const BOARD_EXT = /\.ghostboard$/i;
/** Requests that wait for the app at most (the oldest go first): the OS cannot pile up more than this. */
export const MAX_WAITING = 16;

/**
 * The requests a command line carries, in order: each ghostboard:// link, and each argument naming a .ghostboard
 * file (made absolute against `cwd`, the directory the command ran in). Switches (Chromium's among them, and the
 * values of ours, none of which end in .ghostboard) and the executable itself are not requests.
 */
export function requestsIn(argv: readonly string[], cwd: string): OpenRequest[] {
  const out: OpenRequest[] = [];
  for (const a of argv.slice(1)) {
    if (a.startsWith('-') || a.length > MAX_PATH_CHARS || a.includes('\0')) continue;
    if (a.toLowerCase().startsWith('ghostboard://')) out.push({ kind: 'link', link: a });
    else if (BOARD_EXT.test(a) && !a.includes('://'))
      out.push({ kind: 'board', path: isAbsolute(a) ? a : resolve(cwd, a) });
  }
  return out;
}

/** Requests offered before the app can act on them wait here, in order; afterwards they go straight through. */
export class OpenRequests {
  private handler: ((r: OpenRequest) => void) | undefined;
  private readonly waiting: OpenRequest[] = [];

  offer(...requests: readonly OpenRequest[]): void {
    for (const r of requests) {
      if (this.handler !== undefined) this.handler(r);
      else if (this.waiting.push(r) > MAX_WAITING) this.waiting.shift();
    }
  }

  /** From now on requests go to `handler`, those waiting first. */
  attach(handler: (r: OpenRequest) => void): void {
    this.handler = handler;
    for (const r of this.waiting.splice(0)) handler(r);
  }
}
