// Folds one local UI action (tool, selection, camera, panels, predictions) into the state. Pure; no framework.
import type { ObjectId, ObjectPatch } from '../../shared/board';
import { isProvisional, provisionalId } from './drafts';
import type { AppState, Action } from './state';
import { addToast, reduceEvent } from './reduce-events';

export function reduce(s: AppState, a: Action): AppState {
  switch (a.type) {
    case 'event':
      return reduceEvent(s, a.event);
    case 'tool':
      return {
        ...s,
        tool: a.tool,
        selection: a.tool === 'select' ? s.selection : [],
        editing: null,
      };
    case 'select':
      return { ...s, selection: a.ids.filter((id) => s.board.has(id)) };
    case 'marquee':
      return s.marquee === a.rect ? s : { ...s, marquee: a.rect };
    case 'style':
      return { ...s, style: { ...s.style, ...a.style } };
    case 'camera':
      return { ...s, camera: a.camera };
    case 'panel': {
      const panels = new Set(s.panels);
      if (a.open) panels.add(a.panel);
      else panels.delete(a.panel);
      return { ...s, panels, unread: a.panel === 'chat' && a.open ? 0 : s.unread };
    }
    case 'toast':
      return addToast(s, a.level, a.text);
    case 'dismissToast':
      return { ...s, toasts: s.toasts.filter((t) => t.id !== a.id) };
    case 'moved': {
      if (!s.board.has(a.id)) return s;
      return { ...s, moves: new Map(s.moves).set(a.id, { x: a.x, y: a.y }) };
    }
    case 'moveUndone': {
      const moves = new Map(s.moves);
      moves.delete(a.id);
      return { ...s, moves };
    }
    case 'edited': {
      if (isProvisional(a.id)) return patchDraft(s, a.id, a.patch);
      if (!s.board.has(a.id)) return s;
      const merged = { ...s.edits.get(a.id), ...a.patch };
      return { ...s, edits: new Map(s.edits).set(a.id, merged) };
    }
    case 'editUndone': {
      const edits = new Map(s.edits);
      edits.delete(a.id);
      return { ...s, edits };
    }
    case 'draft':
      return { ...s, drafts: [...s.drafts, { key: a.key, object: a.object, id: null }] };
    case 'created':
      return created(s, a.key, a.id);
    case 'draftFailed': {
      // Refused (or emptied before its id came): it goes from the board and, if open, from the editor.
      const editing = s.editing === provisionalId(a.key) ? null : s.editing;
      return { ...s, drafts: s.drafts.filter((d) => d.key !== a.key), editing };
    }
    case 'removed':
      return hide(s, a.ids);
    case 'preview':
      return s.preview === a.object ? s : { ...s, preview: a.object };
    case 'editing':
      return startEditing(s, a.id);
    case 'ghosted':
      return sameSet(s.ghosted, a.ids) ? s : { ...s, ghosted: a.ids };
    case 'bridge':
      return s.bridge === a.bridge ? s : { ...s, bridge: a.bridge };
    case 'openLinkTaken':
      return s.openLink === null ? s : { ...s, openLink: null };
    case 'openBoardTaken':
      return s.openBoard === null ? s : { ...s, openBoard: null };
  }
}

/**
 * The host gave a draft its id: the draft stays drawn until the board has it, then the new object is selected;
 * an edit open on it goes on under the real id (same editKey).
 */
function created(s: AppState, key: number, id: number): AppState {
  const editing = s.editing === provisionalId(key) ? id : s.editing;
  if (!s.board.has(id))
    return { ...s, editing, drafts: s.drafts.map((d) => (d.key === key ? { ...d, id } : d)) };
  const drafts = s.drafts.filter((d) => d.key !== key);
  return { ...s, drafts, editing, selection: s.tool === 'select' ? [id] : s.selection };
}

/** This user deleted these objects: off the board, the selection and the editor at once, kept to put back. */
function hide(s: AppState, ids: readonly ObjectId[]): AppState {
  const gone = ids.filter((id) => s.board.has(id));
  if (gone.length === 0) return s;
  const board = new Map(s.board);
  const removed = new Map(s.removed);
  for (const id of gone) {
    const o = board.get(id);
    if (o !== undefined) removed.set(id, o);
    board.delete(id);
  }
  const selection = s.selection.filter((id) => board.has(id));
  const editing = s.editing !== null && removed.has(s.editing) ? null : s.editing;
  return { ...s, board, removed, selection, editing };
}

/** Opens (or closes, null) the editor; a draft is selected once the board has it, not before. */
function startEditing(s: AppState, id: ObjectId | null): AppState {
  if (id === null) return { ...s, editing: null };
  const editKey = id === s.editing ? s.editKey : s.editKey + 1;
  return { ...s, editing: id, editKey, selection: isProvisional(id) ? [] : [id] };
}

/** An edit of a draft (a text box's height, its text once the editor closed) shows on the draft at once. */
function patchDraft(s: AppState, id: ObjectId, patch: ObjectPatch): AppState {
  const drafts = s.drafts.map((d) =>
    provisionalId(d.key) === id ? { ...d, object: { ...d.object, ...patch } } : d,
  );
  return { ...s, drafts };
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const v of a) if (!b.has(v)) return false;
  return true;
}
