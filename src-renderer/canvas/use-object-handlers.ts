// Konva node events of board objects (drag, transform, double-click) translated for the tool machines
// (tools/): positions in world units and a handle to put the node back. Decides nothing and draws nothing.
import type Konva from 'konva';
import { useMemo } from 'react';
import type { DragHandle, DragInfo } from '../tools/events';
import type { Tools } from '../tools/Tools';
import type { ObjectHandlers } from './ObjectShape';

function handleOf(node: Konva.Node): DragHandle {
  return {
    put: (at, stop) => {
      if (stop && node.isDragging()) node.stopDrag();
      node.position(at);
      node.getLayer()?.batchDraw();
    },
  };
}

/** Konva fires no stage pointer events while a node is dragged or transformed: read the pointer here. */
const pointerOf = (node: Konva.Node) => node.getStage()?.getRelativePointerPosition() ?? null;

function dragInfo(id: number, node: Konva.Node): DragInfo {
  return { id, at: node.position(), pointer: pointerOf(node), node: handleOf(node) };
}

export function useObjectHandlers(tools: Tools): ObjectHandlers {
  return useMemo<ObjectHandlers>(
    () => ({
      onDblClick: (id) => tools.handle({ type: 'doubleClick', id }),
      onDragStart: (id, node) => tools.handle({ type: 'dragStart', drag: dragInfo(id, node) }),
      onDragMove: (id, node) => tools.handle({ type: 'dragMove', drag: dragInfo(id, node) }),
      onDragEnd: (id, node) => tools.handle({ type: 'dragEnd', drag: dragInfo(id, node) }),
      onTransform: (id, node) => tools.handle({ type: 'transform', id, pointer: pointerOf(node) }),
      onTransformEnd: (id, node) => {
        const result = {
          x: node.x(),
          y: node.y(),
          scaleX: node.scaleX(),
          scaleY: node.scaleY(),
          rotation: node.rotation(),
        };
        // Scale goes into w/h (and points); the node itself always stays at scale 1.
        node.scale({ x: 1, y: 1 });
        tools.handle({ type: 'transformEnd', id, result });
      },
    }),
    [tools],
  );
}
