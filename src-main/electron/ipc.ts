// The Electron IPC gate: decides whether an invoke comes from our own page and validates its payload before it
// reaches the core. Pure (no Electron import), so it is unit-tested without a binary.
import type { ApiReply } from '../../shared/api';
import { parseCommand } from '../../shared/api-validate';
import type { AppCore } from '../app/core-api';

/** The renderer is served from app://ghostboard/ (a privileged standard scheme registered by the shell). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'ghostboard';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** What the shell knows about the sender of one IPC message. */
export interface SenderInfo {
  /** The sending webContents is our window's. */
  readonly fromOurWindow: boolean;
  /** The sending frame is that window's top frame (not an iframe). */
  readonly isMainFrame: boolean;
  /** The sending frame's URL; undefined when the frame is gone. */
  readonly frameUrl: string | undefined;
}

/** True when a URL is one of our own app:// pages. */
export function isAppUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '';
  } catch {
    return false;
  }
}

export function isTrustedSender(sender: SenderInfo): boolean {
  return sender.fromOurWindow && sender.isMainFrame && isAppUrl(sender.frameUrl);
}

/**
 * Answers one `ghostboard:invoke`: refused unless the sender is trusted and the payload is a valid command;
 * a core failure becomes a refusal too (an exception must not reach the renderer as a rejected promise
 * carrying main-process details).
 */
export async function handleInvoke(
  core: Pick<AppCore, 'invoke'>,
  sender: SenderInfo,
  payload: unknown,
  log: (line: string) => void = () => undefined,
): Promise<ApiReply> {
  if (!isTrustedSender(sender)) {
    log(`ipc: refused a message from ${sender.frameUrl ?? 'a vanished frame'}`);
    return { ok: false, reason: 'untrusted sender' };
  }
  return runCommand(core, payload, log);
}

/**
 * Validates and runs one command from the shell's own side (a menu item) as a renderer's is: the same parse, the
 * same refusal on a core failure.
 */
export async function runCommand(
  core: Pick<AppCore, 'invoke'>,
  payload: unknown,
  log: (line: string) => void = () => undefined,
): Promise<ApiReply> {
  const command = parseCommand(payload);
  if ('error' in command) return { ok: false, reason: command.error };
  try {
    return await core.invoke(command);
  } catch (e) {
    log(`ipc: command ${command.cmd} failed: ${String(e)}`);
    return { ok: false, reason: 'internal error' };
  }
}
