// Derived views of the state (who I am, what to say about an ended session). Pure; no framework.
import type { EndReason, Participant, SessionStatus } from '../../shared/api';
import type { BoardObject, PeerId } from '../../shared/board';
import { draftObject, draftOf } from './drafts';
import type { AppState } from './state';

export function selfId(status: SessionStatus): PeerId | null {
  return status.phase === 'hosting' || status.phase === 'joined' ? status.you : null;
}

export function selfParticipant(s: AppState): Participant | null {
  return s.participants.find((p) => p.isSelf) ?? null;
}

/** Whether the host has gone quiet (this user's board is read-only until it is back). */
export function hostAway(s: Pick<AppState, 'status'>): boolean {
  return s.status.phase === 'joined' && s.status.reconnecting !== undefined;
}

export function canEdit(s: AppState): boolean {
  return selfParticipant(s)?.role !== 'viewer' && !hostAway(s);
}

export function participantOf(s: AppState, peer: PeerId): Participant | null {
  return s.participants.find((p) => p.id === peer) ?? null;
}

/** The object as this user should see it: with their own unconfirmed edit and drop applied. */
export function shownObject(s: Pick<AppState, 'moves' | 'edits'>, o: BoardObject): BoardObject {
  const e = s.edits.get(o.id);
  const m = s.moves.get(o.id);
  if (!e && !m) return o;
  return { ...o, ...e, ...m };
}

/** The text or note open in the editor as this user sees it: the board's, or its draft's before it lands. */
export function editedObject(
  s: Pick<AppState, 'editing' | 'board' | 'moves' | 'edits' | 'drafts'>,
): BoardObject | undefined {
  if (s.editing === null) return undefined;
  const o = s.board.get(s.editing);
  if (o) return shownObject(s, o);
  const d = draftOf(s.drafts, s.editing);
  return d && draftObject(d);
}

const END_MESSAGES: Record<EndReason, string> = {
  left: 'You left the session.',
  kicked: 'The host removed you from the session.',
  'host-left': 'The host ended the session.',
  timeout: 'The connection timed out: the host stopped answering.',
  'wrong-code': 'The join code is wrong. Check it with the host and try again.',
  'version-mismatch':
    'The host runs a different version of Ghostboard. Both of you need the same version.',
  full: 'The session is full.',
  'rate-limited':
    'Too many wrong codes came from your network, so the host is refusing it for now. Wait a minute, then try again.',
  banned: 'The host removed you from this session and does not let your address back in.',
  'code-locked':
    "Too many wrong codes were tried, so the host locked this session's code. Ask the host for the new code.",
  unreachable:
    'Could not reach the host at that address. Check the address and port, and that UDP is not blocked by a firewall.',
  'not-found':
    'The directory knows no session by that name: it may have ended, or the link may be incomplete. Ask the host for a new link.',
  error: 'Something went wrong.',
};

/** A plain sentence for why the session ended, and whether it is an error at all. */
export function endMessage(status: SessionStatus): { text: string; isError: boolean } | null {
  if (status.phase !== 'ended') return null;
  // A generic error says what happened when the core could tell (a stalled or overflowing link, say).
  const text =
    status.reason === 'error' && status.detail !== ''
      ? `Something went wrong: ${status.detail}.`
      : END_MESSAGES[status.reason];
  return { text, isError: status.reason !== 'left' };
}

export function formatIdle(ms: number): string {
  if (ms < 10_000) return 'active';
  if (ms < 60_000) return `idle ${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `idle ${Math.round(ms / 60_000)} min`;
  return `idle ${Math.round(ms / 3_600_000)} h`;
}
