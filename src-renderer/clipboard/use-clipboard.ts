// The board's clipboard events: Ctrl/Cmd+C, X and V raise the browser's copy, cut and paste events (the one way
// a page may write its own clipboard types, and read the clipboard without asking), answered here with the
// selection's payload, or by pasting what the clipboard holds. A text field or an open text box keeps its own
// clipboard. Installs listeners; renders nothing.
import { imageFileOf } from '../controller/image-prep';
import { useEffect, useMemo } from 'react';
import type { Size } from '../board/camera';
import type { Controller } from '../controller/controller';
import { ClipboardActions } from './clipboard-actions';

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The clipboard actions for this board screen, with the document's clipboard events wired to them. */
export function useClipboard(controller: Controller, size: Size): ClipboardActions {
  const actions = useMemo(() => new ClipboardActions(controller), [controller]);
  useEffect(() => {
    actions.setSize(size);
  }, [actions, size]);
  useEffect(() => {
    const ours = (e: ClipboardEvent): boolean =>
      e.clipboardData !== null &&
      !typingIn(e.target) &&
      controller.store.getState().editing === null;
    const copy = (e: ClipboardEvent): void => {
      if (!ours(e) || e.clipboardData === null || !actions.writeTo(e.clipboardData)) return;
      e.preventDefault();
      if (e.type === 'cut') actions.deleteAfterCut();
    };
    const paste = (e: ClipboardEvent): void => {
      if (!ours(e) || e.clipboardData === null) return;
      // A picture (even one that came with HTML or text beside it) is the image input's (ui/use-image-input.ts).
      if (imageFileOf(e.clipboardData.files) !== undefined) return;
      e.preventDefault();
      actions.pasteTransfer(e.clipboardData);
    };
    document.addEventListener('copy', copy);
    document.addEventListener('cut', copy);
    document.addEventListener('paste', paste);
    return () => {
      document.removeEventListener('copy', copy);
      document.removeEventListener('cut', copy);
      document.removeEventListener('paste', paste);
    };
  }, [actions, controller]);
  return actions;
}
