// Folds one local UI action (tool, selection, camera, panels, predictions) into the state. Pure; no framework.
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
    case 'draftFailed':
      return { ...s, drafts: s.drafts.filter((d) => d.key !== a.key) };
    case 'preview':
      return s.preview === a.object ? s : { ...s, preview: a.object };
    case 'editing':
      return { ...s, editing: a.id, selection: a.id === null ? s.selection : [a.id] };
    case 'ghosted':
      return sameSet(s.ghosted, a.ids) ? s : { ...s, ghosted: a.ids };
    case 'bridge':
      return s.bridge === a.bridge ? s : { ...s, bridge: a.bridge };
    case 'openLinkTaken':
      return s.openLink === null ? s : { ...s, openLink: null };
  }
}

/** The host gave a draft its id: the draft stays drawn until the board has it, then the new object is selected. */
function created(s: AppState, key: number, id: number): AppState {
  if (!s.board.has(id))
    return { ...s, drafts: s.drafts.map((d) => (d.key === key ? { ...d, id } : d)) };
  const drafts = s.drafts.filter((d) => d.key !== key);
  return { ...s, drafts, selection: s.tool === 'select' ? [id] : s.selection };
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const v of a) if (!b.has(v)) return false;
  return true;
}
