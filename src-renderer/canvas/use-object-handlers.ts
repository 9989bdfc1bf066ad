// Konva node events of board objects (drag, transform, double-click) translated for the tool machines
// (tools/): positions in world units and a handle to put the node back (or end the handles' gesture). Decides
// nothing and draws nothing.
import type Konva from 'konva';
import { useMemo } from 'react';
import type { TransformResult } from '../board/shapes';
import type { DragHandle, DragInfo, TransformHandle } from '../tools/events';
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

function transformOf(node: Konva.Node): TransformResult {
  return {
    x: node.x(),
    y: node.y(),
    scaleX: node.scaleX(),
    scaleY: node.scaleY(),
    rotation: node.rotation(),
  };
}

/** The Transformers on the node's layer: among the layer's own children (not a search of every node). */
function transformersOf(node: Konva.Node): Konva.Transformer[] {
  return (node.getLayer()?.getChildren((n) => n.getClassName() === 'Transformer') ??
    []) as Konva.Transformer[];
}

/** Whether the selection's handles are in a gesture now. */
function isTransforming(node: Konva.Node): boolean {
  return transformersOf(node)[0]?.isTransforming() ?? false;
}

/** Whether `node` is the last of the selection Transformer's nodes (whose ends are reported in order). */
function isLastNode(node: Konva.Node): boolean {
  const tr = transformersOf(node)[0];
  return tr === undefined || tr.nodes().at(-1) === node;
}

function transformHandleOf(node: Konva.Node): TransformHandle {
  return {
    stop: () => {
      // Every Transformer on the layer (there is one: the selection's); each reports its nodes' transformEnd.
      for (const tr of transformersOf(node)) tr.stopTransform();
    },
    put: (o) => {
      node.setAttrs({ x: o.x, y: o.y, rotation: o.rotation / 10, scaleX: 1, scaleY: 1 });
      node.getLayer()?.batchDraw();
    },
  };
}

/**
 * Konva fires no stage pointer events while a node is dragged or transformed: read the pointer here, in world
 * units (the node's layer carries the camera).
 */
const pointerOf = (node: Konva.Node) => node.getLayer()?.getRelativePointerPosition() ?? null;

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
      onTransform: (id, node) =>
        // A gesture the tools stopped during this move still reports the move's other nodes: not a new one.
        isTransforming(node) &&
        tools.handle({
          type: 'transform',
          id,
          pointer: pointerOf(node),
          result: transformOf(node),
          node: transformHandleOf(node),
        }),
      onTransformEnd: (id, node) => {
        const result = transformOf(node);
        // Scale goes into w/h (and points); the node itself always stays at scale 1.
        node.scale({ x: 1, y: 1 });
        tools.handle({ type: 'transformEnd', id, result, last: isLastNode(node) });
      },
    }),
    [tools],
  );
}
