// The Konva stage: reports the viewport, and hosts the board and live layers, each of which carries the camera
// (the board layer through its snapshot, which lags it while a large board pans); its input goes to the tool
// machines (tools/) through use-stage-input. Store in; tools and controller out.
import { type ReactElement, useEffect, useMemo } from 'react';
import { Stage } from 'react-konva';
import type { Tool } from '../../shared/api';
import { type Camera, type Size, visibleWorld } from '../board/camera';
import { useAppState, useController, useTools } from '../view/context';
import { LiveLayer } from './LiveLayer';
import { PositionMirror } from './position-mirror';
import { SelectionMirror } from './SelectionMirror';
import { StaticLayer } from './StaticLayer';
import { wheelWithoutPicking } from './stage-wheel';
import { useStageInput } from './use-stage-input';

function cursorFor(tool: Tool, panning: boolean): string {
  if (panning) return 'grab';
  if (tool === 'select') return 'default';
  return tool === 'text' ? 'text' : 'crosshair';
}

export function BoardCanvas({ size, spaceHeld }: { size: Size; spaceHeld: boolean }): ReactElement {
  const controller = useController();
  const tool = useAppState((s) => s.tool);
  const tools = useTools();
  const input = useStageInput(tools, spaceHeld, controller.store);
  const mirror = useMemo(() => new PositionMirror(controller), [controller]);
  useEffect(() => controller.onLocal(mirror.local), [controller, mirror]);

  // The viewport reported as the camera moves, without re-rendering the stage for it.
  useEffect(() => {
    let last: Camera | null = null;
    const report = (): void => {
      const c = controller.store.getState().camera;
      if (c === last || size.width <= 0) return;
      last = c;
      controller.viewport(visibleWorld(c, size));
    };
    report();
    return controller.store.subscribe(report);
  }, [controller, size]);

  return (
    <>
      <Stage
        ref={(stage) => {
          if (stage) wheelWithoutPicking(stage);
        }}
        width={size.width}
        height={size.height}
        style={{ cursor: cursorFor(tool, spaceHeld) }}
        onPointerDown={input.onPointerDown}
        onPointerMove={input.onPointerMove}
        onPointerUp={input.onPointerUp}
        onPointerLeave={input.onPointerLeave}
        onWheel={input.onWheel}
        onContextMenu={(e) => {
          e.evt.preventDefault();
        }}
      >
        <StaticLayer size={size} />
        <LiveLayer mirror={mirror} />
      </Stage>
      <div className="position-mirror" aria-hidden="true" ref={mirror.attach} />
      <SelectionMirror />
    </>
  );
}
