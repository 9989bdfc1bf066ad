// Images into the board: Ctrl/Cmd+V with a PNG, JPEG or SVG on the clipboard places it at the middle of the view,
// and one dropped on the board lands where it was dropped (controller/image-place.ts sends it). Text pastes and
// pastes into text boxes are left alone.
import { type RefObject, useEffect } from 'react';
import type { Size } from '../board/camera';
import { toWorld, visibleWorld } from '../board/camera';
import type { Controller } from '../controller/controller';
import { imageFileOf } from '../controller/image-prep';
import { placeImage } from '../controller/image-place';

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useImageInput(
  controller: Controller,
  area: RefObject<HTMLDivElement | null>,
  size: Size,
): void {
  useEffect(() => {
    const el = area.current;
    const paste = (e: ClipboardEvent): void => {
      if (typingIn(e.target)) return;
      const file = imageFileOf(e.clipboardData?.files ?? []);
      if (file === undefined) return;
      e.preventDefault();
      const v = visibleWorld(controller.store.getState().camera, size);
      void placeImage(controller, file, { x: v.x + v.w / 2, y: v.y + v.h / 2 });
    };
    const over = (e: DragEvent): void => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    };
    const drop = (e: DragEvent): void => {
      const file = imageFileOf(e.dataTransfer?.files ?? []);
      if (file === undefined || el === null) return;
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const at = toWorld(controller.store.getState().camera, e.clientX - r.left, e.clientY - r.top);
      void placeImage(controller, file, at);
    };
    window.addEventListener('paste', paste);
    el?.addEventListener('dragover', over);
    el?.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('paste', paste);
      el?.removeEventListener('dragover', over);
      el?.removeEventListener('drop', drop);
    };
  }, [controller, area, size]);
}
