// Pointer and wheel input on the stage, translated for the tool machines (tools/): world and screen points,
// buttons, Shift and Space, and what was pressed. Decides nothing and draws nothing.
import type Konva from 'konva';
import { useMemo } from 'react';
import { toWorld } from '../board/camera';
import type { Store } from '../store/store';
import type { PointerInfo, Target } from '../tools/events';
import type { Tools } from '../tools/Tools';

type KEvent<E> = Konva.KonvaEventObject<E>;

const OBJECT_ID = /^obj-(\d+)$/;

/** The board object a press landed in (its ObjectShape group), the bare stage, or anything else. */
function targetOf(e: KEvent<PointerEvent>, stage: Konva.Stage): Target {
  if (e.target === stage) return { kind: 'canvas' };
  const group = e.target.findAncestors('.object', true)[0];
  const m = group ? OBJECT_ID.exec(group.id()) : null;
  return m?.[1] === undefined ? { kind: 'chrome' } : { kind: 'object', id: Number(m[1]) };
}

class StageInput {
  spaceHeld = false;

  constructor(
    private readonly tools: Tools,
    private readonly store: Store,
  ) {}

  private info(e: KEvent<PointerEvent>): PointerInfo | null {
    const stage = e.target.getStage();
    const screen = stage?.getPointerPosition();
    if (!stage || !screen) return null;
    // The stage itself is not transformed: its layers carry the camera.
    return {
      world: toWorld(this.store.getState().camera, screen.x, screen.y),
      screen,
      button: e.evt.button,
      shift: e.evt.shiftKey,
      space: this.spaceHeld,
      target: targetOf(e, stage),
    };
  }

  readonly onPointerDown = (e: KEvent<PointerEvent>): void => {
    const pointer = this.info(e);
    if (pointer && this.tools.handle({ type: 'pointerDown', pointer })) e.evt.preventDefault();
  };

  readonly onPointerMove = (e: KEvent<PointerEvent>): void => {
    const pointer = this.info(e);
    if (pointer) this.tools.handle({ type: 'pointerMove', pointer });
  };

  readonly onPointerUp = (): void => {
    this.tools.handle({ type: 'pointerUp' });
  };

  readonly onPointerLeave = (): void => {
    this.tools.handle({ type: 'pointerLeave' });
  };

  readonly onWheel = (e: KEvent<WheelEvent>): void => {
    const wheel = {
      screen: e.target.getStage()?.getPointerPosition() ?? null,
      deltaX: e.evt.deltaX,
      deltaY: e.evt.deltaY,
      lines: e.evt.deltaMode === 1,
      zoom: e.evt.ctrlKey || e.evt.metaKey,
    };
    if (this.tools.handle({ type: 'wheel', wheel })) e.evt.preventDefault();
  };
}

export function useStageInput(tools: Tools, spaceHeld: boolean, store: Store): StageInput {
  const input = useMemo(() => new StageInput(tools, store), [tools, store]);
  input.spaceHeld = spaceHeld;
  return input;
}
