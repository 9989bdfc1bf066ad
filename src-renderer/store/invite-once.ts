// Whether to open the invitation by itself: once per hosted session, not again on a reload of the window (the
// session's port and code name it). Pure over the storage it is given; knows nothing of React.
import type { SessionStatus } from '../../shared/api';
import type { StringStorage } from './recent';

export const INVITE_KEY = 'ghostboard.invite-shown';

/** The session an invitation belongs to; undefined when not hosting. */
export function hostedSessionKey(status: SessionStatus): string | undefined {
  return status.phase === 'hosting' ? `${status.port}/${status.code}` : undefined;
}

/**
 * True the first time it is asked about a hosted session, false after (this window or a reload of it). A new
 * code (rotated, or a new session) is a new invitation to hand out, so it opens again.
 */
export function firstInviteOf(storage: StringStorage | null, status: SessionStatus): boolean {
  const key = hostedSessionKey(status);
  if (key === undefined) return false;
  let seen: string | null = null;
  try {
    seen = storage?.getItem(INVITE_KEY) ?? null;
    if (seen !== key) storage?.setItem(INVITE_KEY, key);
  } catch {
    // Storage refused: open it, as without storage.
  }
  return seen !== key;
}
