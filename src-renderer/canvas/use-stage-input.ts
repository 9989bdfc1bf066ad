// Pointer and wheel input on the stage: pan (space-drag, middle mouse, wheel), zoom (ctrl/cmd + wheel, pinch),
// pointer reports, and presses routed to the drawing gesture. Changes the camera; draws nothing.
import type Konva from 'konva';
import { useMemo } from 'react';
import { panBy, wheelZoomFactor, zoomAt } from '../board/camera';
import type { Controller } from '../controller/controller';
import type { DrawGesture } from './use-draw-gesture';

type KEvent<E> = Konva.KonvaEventObject<E>;

class StageInput {
  /** Where a pan drag last was (screen px), or null when not panning. */
  private pan: { x: number; y: number } | null = null;
  draw: DrawGesture | null = null;
  spaceHeld = false;

  constructor(private readonly controller: Controller) {}

  readonly onPointerDown = (e: KEvent<PointerEvent>): void => {
    const stage = e.target.getStage();
    if (!stage) return;
    if (e.evt.button === 1 || (this.spaceHeld && e.evt.button === 0)) {
      e.evt.preventDefault();
      this.pan = stage.getPointerPosition();
      return;
    }
    if (e.evt.button !== 0) return;
    const { store } = this.controller;
    const tool = store.getState().tool;
    if (tool === 'select') {
      if (e.target === stage) store.dispatch({ type: 'select', ids: [] });
      return;
    }
    const at = stage.getRelativePointerPosition();
    if (at) this.draw?.begin(tool, at);
  };

  readonly onPointerMove = (e: KEvent<PointerEvent>): void => {
    const stage = e.target.getStage();
    const screen = stage?.getPointerPosition();
    if (!stage || !screen) return;
    if (this.pan) {
      const { store } = this.controller;
      const c = store.getState().camera;
      store.dispatch({
        type: 'camera',
        camera: panBy(c, screen.x - this.pan.x, screen.y - this.pan.y),
      });
      this.pan = screen;
      return;
    }
    const at = stage.getRelativePointerPosition();
    if (!at) return;
    this.controller.pointerMoved(at.x, at.y);
    if (this.draw?.active()) this.draw.move(at, e.evt.shiftKey);
  };

  readonly onPointerUp = (): void => {
    this.pan = null;
    if (this.draw?.active()) this.draw.end();
  };

  readonly onPointerLeave = (): void => {
    this.onPointerUp();
    this.controller.pointerLeft();
  };

  readonly onWheel = (e: KEvent<WheelEvent>): void => {
    e.evt.preventDefault();
    const { store } = this.controller;
    const screen = e.target.getStage()?.getPointerPosition();
    const c = store.getState().camera;
    const unit = e.evt.deltaMode === 1 ? 16 : 1;
    if (e.evt.ctrlKey || e.evt.metaKey) {
      // Trackpad pinches arrive as ctrl + wheel in Chromium.
      if (!screen) return;
      const scale = c.scale * wheelZoomFactor(e.evt.deltaY * unit);
      store.dispatch({ type: 'camera', camera: zoomAt(c, scale, screen.x, screen.y) });
    } else {
      store.dispatch({
        type: 'camera',
        camera: panBy(c, -e.evt.deltaX * unit, -e.evt.deltaY * unit),
      });
    }
  };
}

export function useStageInput(
  controller: Controller,
  draw: DrawGesture,
  spaceHeld: boolean,
): StageInput {
  const input = useMemo(() => new StageInput(controller), [controller]);
  input.draw = draw;
  input.spaceHeld = spaceHeld;
  return input;
}
