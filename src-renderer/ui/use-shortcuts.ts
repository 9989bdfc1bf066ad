// Keyboard shortcuts: tools (V R O L A P T N), Delete/Backspace, zoom (+ − Shift+0 Shift+1), panels (C B); the
// tool machines get unmodified keys first (Esc cancels a gesture or clears the selection, Enter edits a selected
// note, arrows nudge it) and Ctrl/Cmd+A (select all), undo (Ctrl/Cmd+Z) and redo (Ctrl/Cmd+Shift+Z, Ctrl+Y) of
// this user's own steps; duplicate (Ctrl/Cmd+D), lock/unlock (Ctrl/Cmd+Shift+L), bring to front (]) and send to
// back ([) of the selection (copy, cut and paste are the clipboard events: clipboard/use-clipboard.ts); and whether
// Space is held (space-drag pans). While a text or note is open for typing, every key is its own (controller/editor-keys.ts),
// even one pressed before its box had focus: none runs a shortcut.
import { useEffect, useState } from 'react';
import type { Tool } from '../../shared/api';
import type { Size } from '../board/camera';
import type { ClipboardActions } from '../clipboard/clipboard-actions';
import type { Controller } from '../controller/controller';
import type { Tools } from '../tools/Tools';
import { useTools } from '../view/context';
import { fitBoard, zoomBy } from './ZoomControls';

const TOOL_KEYS: Record<string, Tool> = {
  v: 'select',
  r: 'rect',
  o: 'ellipse',
  l: 'line',
  a: 'arrow',
  p: 'pen',
  t: 'text',
  n: 'note',
};

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Takes back this user's newest step, or does the newest undone one again (the core says when there is none). */
export function undoRedo(controller: Controller, way: 'undo' | 'redo'): void {
  void controller.invoke({ cmd: way }).then((r) => {
    if (!r.ok) controller.toast('info', `${r.reason.charAt(0).toUpperCase()}${r.reason.slice(1)}.`);
  });
}

function handleKey(
  e: KeyboardEvent,
  controller: Controller,
  tools: Tools,
  size: Size,
  clipboard: ClipboardActions,
): boolean {
  const { store } = controller;
  const s = store.getState();
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && !e.altKey && key === 'd') {
    clipboard.duplicate();
    return true;
  }
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.shiftKey && key === 'l') {
    const sel = s.selection.flatMap((id) => s.board.get(id) ?? []);
    clipboard.setLocked(!sel.every((o) => o.pinned === 1));
    return true;
  }
  // Undo Ctrl/Cmd+Z; redo Ctrl/Cmd+Shift+Z or Ctrl+Y (a text being typed into keeps its own: see typingIn).
  if ((e.ctrlKey || e.metaKey) && !e.altKey && (key === 'z' || key === 'y')) {
    undoRedo(controller, key === 'y' || e.shiftKey ? 'redo' : 'undo');
    return true;
  }
  // Select all objects; never the page's text, even mid-gesture when the tools let the key go.
  if ((e.ctrlKey || e.metaKey) && !e.altKey && key === 'a') {
    tools.handle({ type: 'keyDown', key: { key: e.key, mod: true } });
    return true;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  if (e.shiftKey && (e.code === 'Digit0' || e.code === 'Digit1')) {
    if (e.code === 'Digit1') fitBoard(store, size);
    else zoomBy(store, 1 / s.camera.scale, size);
    return true;
  }
  if (tools.handle({ type: 'keyDown', key: { key: e.key, shift: e.shiftKey } })) return true;
  const tool = TOOL_KEYS[key];
  if (tool) controller.setTool(tool);
  else if (key === 'delete' || key === 'backspace') controller.deleteSelection();
  else if (key === ']' || key === '[') clipboard.restack(key === ']');
  else if (key === '+' || key === '=') zoomBy(store, 1.25, size);
  else if (key === '-' || key === '_') zoomBy(store, 1 / 1.25, size);
  else if (key === 'c')
    store.dispatch({ type: 'panel', panel: 'chat', open: !s.panels.has('chat') });
  else if (key === 'b')
    store.dispatch({ type: 'panel', panel: 'bandwidth', open: !s.panels.has('bandwidth') });
  else return false;
  return true;
}

/** Installs the shortcuts while the board shows; returns whether Space is held. */
export function useShortcuts(
  controller: Controller,
  size: Size,
  clipboard: ClipboardActions,
): boolean {
  const tools = useTools();
  const [space, setSpace] = useState(false);
  useEffect(() => {
    const down = (e: KeyboardEvent): void => {
      if (typingIn(e.target)) return;
      const s = controller.store.getState();
      const open = s.editing === null ? null : s.editKey;
      const modified = e.ctrlKey || e.metaKey || e.altKey;
      const route = controller.editorKeys.route(open, { key: e.key, modified });
      // 'box': the editor's box has focus now and the browser types the key there.
      if (route === 'box') return;
      if (route === 'held') {
        e.preventDefault();
        return;
      }
      if (e.code === 'Space') {
        e.preventDefault();
        setSpace(true);
        return;
      }
      if (handleKey(e, controller, tools, size, clipboard)) e.preventDefault();
    };
    const up = (e: KeyboardEvent): void => {
      if (e.code === 'Space') setSpace(false);
    };
    const blur = (): void => {
      setSpace(false);
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
    };
  }, [controller, tools, size, clipboard]);
  return space;
}
