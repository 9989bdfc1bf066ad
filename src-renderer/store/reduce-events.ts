// Folds one ApiEvent from the core into the state. Pure; knows nothing of the bridge, React or Konva.
import type { ApiEvent, SessionStatus } from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';
import { draftOf } from './drafts';
import { selfId } from './selectors';
import type { AppState, Panel } from './state';
import { INITIAL_STATE } from './state';
import { appendStats } from './stats-history';

const MAX_CHAT = 500;
const MAX_TOASTS = 5;

export function reduceEvent(s: AppState, e: ApiEvent): AppState {
  switch (e.type) {
    case 'status':
      return reduceStatus(s, e.status);
    case 'board':
      return settleBoard(s, new Map(e.objects.map((o) => [o.id, o])), e.objects, null);
    case 'objects': {
      const board = new Map(s.board);
      for (const id of e.deletes) board.delete(id);
      for (const o of e.upserts) board.set(o.id, o);
      return settleBoard(s, board, e.upserts, new Set(e.deletes));
    }
    case 'participants':
      return { ...s, participants: e.list };
    case 'pointers':
    case 'text-splice':
      return s; // High-rate: interpolated outside the store (interp/remote-live.ts), never re-renders React.
    case 'chat': {
      const chat = [...s.chat, e.message].slice(-MAX_CHAT);
      const mine = e.message.peer === selfId(s.status);
      const unread = s.panels.has('chat') || mine ? s.unread : s.unread + 1;
      return { ...s, chat, unread };
    }
    case 'notice':
      return addToast(s, e.level, e.text);
    case 'stats':
      return { ...s, stats: e.stats, history: appendStats(s.history, e.stats) };
    case 'lan-sessions':
      return { ...s, lan: e.sessions };
    case 'settings':
      return { ...s, settings: e.settings };
    case 'open-link':
      return { ...s, openLink: e.link };
    case 'refused':
      return takeBack(s, e.cmd, e.id);
    case 'history':
      return s.canUndo === e.canUndo && s.canRedo === e.canRedo
        ? s
        : { ...s, canUndo: e.canUndo, canRedo: e.canRedo };
    case 'image': {
      const images = new Map(s.images);
      images.set(e.hash, { url: `data:${e.imageType};base64,${e.data}` });
      return { ...s, images };
    }
    case 'image-progress': {
      if (s.images.has(e.hash) && 'url' in (s.images.get(e.hash) ?? {})) return s;
      const images = new Map(s.images);
      images.set(e.hash, { received: e.received, total: e.total, upload: e.upload });
      return { ...s, images };
    }
    case 'file':
      return {
        ...s,
        file: { name: e.name, ...(e.path === undefined ? {} : { path: e.path }), dirty: e.dirty },
      };
    case 'recoveries':
      return { ...s, recoveries: e.boards };
    case 'recent-files':
      return { ...s, recentFiles: e.paths };
    case 'open-board':
      return { ...s, openBoard: e.path };
  }
}

/** The host refused this user's command on an object: what was shown at once for it goes (the notice says why). */
function takeBack(s: AppState, cmd: string, id: ObjectId): AppState {
  if (cmd === 'delete') {
    const o = s.removed.get(id);
    if (o === undefined) return s;
    const removed = new Map(s.removed);
    removed.delete(id);
    return { ...s, removed, board: new Map(s.board).set(id, o) };
  }
  if ((cmd === 'edit' || cmd === 'text') && s.edits.has(id)) {
    const edits = new Map(s.edits);
    edits.delete(id);
    return { ...s, edits };
  }
  if (cmd === 'drop' && s.moves.has(id)) {
    const moves = new Map(s.moves);
    moves.delete(id);
    return { ...s, moves };
  }
  return s;
}

export function addToast(
  s: AppState,
  level: AppState['toasts'][number]['level'],
  text: string,
): AppState {
  const toasts = [...s.toasts, { id: s.nextToastId, level, text }].slice(-MAX_TOASTS);
  return { ...s, toasts, nextToastId: s.nextToastId + 1 };
}

/** Which kind of session this status belongs to, and whether it got onto the board (kept after it ends). */
function sessionKind(last: AppState['lastSession'], st: SessionStatus): AppState['lastSession'] {
  if (st.phase === 'hosting') return { kind: 'host', reached: true };
  if (st.phase === 'joined') return { kind: 'join', reached: true };
  if (st.phase === 'connecting') return { kind: 'join', reached: false };
  return last;
}

function inSession(st: SessionStatus): boolean {
  return st.phase === 'hosting' || st.phase === 'joined';
}

function reduceStatus(s: AppState, status: SessionStatus): AppState {
  const entering =
    (status.phase === 'connecting' || status.phase === 'hosting') &&
    s.status.phase !== status.phase;
  const fresh = entering && !inSession(s.status);
  const base: AppState = fresh ? freshSession(s) : s;
  // The invitation opens by itself once per hosted session, not on every load (see store/invite-once.ts).
  let panels = base.panels;
  if (!inSession(status)) panels = new Set<Panel>();
  return { ...base, status, panels, lastSession: sessionKind(base.lastSession, status) };
}

/**
 * Keeps what belongs to this user (tool, style, toasts, settings), the bridge to the core and the LAN list, and
 * forgets the last session's data.
 */
function freshSession(s: AppState): AppState {
  const { tool, style, toasts, nextToastId, bridge, lan, settings, editKey } = s;
  // editKey keeps counting: an editor of the last session never passes for one of this one.
  return { ...INITIAL_STATE, tool, style, toasts, nextToastId, bridge, lan, settings, editKey };
}

/**
 * A new board (or part of it) arrived: drafts the board now holds and drops the host confirmed (or overrode)
 * are done; the selection and the editor lose deleted objects (not drafts being typed into).
 */
function settleBoard(
  s: AppState,
  board: Map<ObjectId, BoardObject>,
  upserts: readonly BoardObject[],
  deleted: ReadonlySet<ObjectId> | null,
): AppState {
  const me = selfId(s.status);
  // What this user deleted stays off the board until the host's delete arrives (kept as the board last had it).
  let removed = s.removed;
  if (removed.size > 0) {
    const next = new Map(removed);
    for (const [id, o] of removed) {
      if (deleted ? deleted.has(id) : !board.has(id)) next.delete(id);
      else {
        next.set(id, board.get(id) ?? o);
        board.delete(id);
      }
    }
    removed = next;
  }
  const moves = new Map(s.moves);
  for (const o of upserts) {
    const m = moves.get(o.id);
    // The upsert that ends our drag carries the lock released (or someone else's); until then keep our drop.
    if (m && (o.lockedBy !== me || (o.x === m.x && o.y === m.y))) moves.delete(o.id);
  }
  for (const id of moves.keys()) if (!board.has(id)) moves.delete(id);
  const edits = new Map(s.edits);
  for (const o of upserts) edits.delete(o.id);
  for (const id of edits.keys()) if (!board.has(id)) edits.delete(id);
  const drafts = s.drafts.filter((d) => d.id === null || !board.has(d.id));
  const landed = s.drafts.flatMap((d) => (d.id !== null && board.has(d.id) ? [d.id] : []));
  // A partial update only removes what it deletes (an id we were just given may not have arrived yet).
  const gone = (id: ObjectId): boolean => (deleted ? deleted.has(id) : !board.has(id));
  const kept = s.selection.filter((id) => !gone(id));
  const selection = landed.length > 0 && s.tool === 'select' ? landed : kept;
  // An edit open on a draft (provisional, or given an id the board does not hold yet) stays open.
  const editing =
    s.editing !== null && gone(s.editing) && !draftOf(drafts, s.editing) ? null : s.editing;
  return { ...s, board, removed, moves, edits, drafts, selection, editing };
}
