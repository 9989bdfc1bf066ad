// Select, move (grab/drag/drop with prediction and snap-back) and resize handlers for board objects.
// Turns Konva node events into controller calls; draws nothing and keeps no board state of its own.
import type Konva from 'konva';
import { useMemo } from 'react';
import type { ObjectId } from '../../shared/board';
import { WORLD_EXTENT } from '../../shared/board';
import { transformPatch } from '../board/shapes';
import type { Controller } from '../controller/controller';
import { participantOf, selfId, shownObject } from '../store/selectors';
import type { Store } from '../store/store';
import type { ObjectHandlers } from './ObjectShape';

type Handlers = Required<ObjectHandlers>;

const clampWorld = (v: number): number =>
  Math.max(-WORLD_EXTENT, Math.min(WORLD_EXTENT, Math.round(v)));

/** Who else holds the object's lock, or null when nobody (or this user) does. */
function holderName(store: Store, id: ObjectId): string | null {
  const s = store.getState();
  const o = s.board.get(id);
  if (!o || o.lockedBy === null || o.lockedBy === selfId(s.status)) return null;
  return participantOf(s, o.lockedBy)?.name ?? 'Someone';
}

function selectionHandlers(
  store: Store,
  toast: (text: string) => void,
): Pick<Handlers, 'onPointerDown' | 'onDblClick'> {
  return {
    onPointerDown: (id, e) => {
      const holder = holderName(store, id);
      if (holder !== null) {
        toast(`${holder} is moving this right now.`);
        return;
      }
      const sel = store.getState().selection;
      if (e.evt.shiftKey) {
        store.dispatch({
          type: 'select',
          ids: sel.includes(id) ? sel.filter((x) => x !== id) : [...sel, id],
        });
      } else if (!sel.includes(id)) store.dispatch({ type: 'select', ids: [id] });
    },
    onDblClick: (id) => {
      const o = store.getState().board.get(id);
      if (o && (o.kind === 'text' || o.kind === 'note')) store.dispatch({ type: 'editing', id });
    },
  };
}

/**
 * Konva fires no stage pointer events while a node is dragged or transformed: report the pointer from the node's
 * own events, so the others' telepointer keeps following the hand that moves the object.
 */
function reportPointer(controller: Controller, node: Konva.Node): void {
  const at = node.getStage()?.getRelativePointerPosition();
  if (at) controller.pointerMoved(at.x, at.y);
}

function dragHandlers(
  controller: Controller,
): Pick<Handlers, 'onDragStart' | 'onDragMove' | 'onDragEnd'> {
  const { store } = controller;
  /** Puts the node back where the board has the object (the grab was refused). */
  const snapBack = (id: ObjectId, node: Konva.Node): void => {
    const o = store.getState().board.get(id);
    if (node.isDragging()) node.stopDrag();
    store.dispatch({ type: 'moveUndone', id });
    if (o) node.position({ x: o.x, y: o.y });
    node.getLayer()?.batchDraw();
  };
  return {
    onDragStart: (id, node) => {
      const holder = holderName(store, id);
      if (holder !== null) {
        snapBack(id, node); // pointer-down already said who has it
        return;
      }
      controller.startDrag(id, (reason) => {
        snapBack(id, node);
        controller.toast('warn', reason);
      });
    },
    onDragMove: (id, node) => {
      reportPointer(controller, node);
      controller.moveDrag(id, clampWorld(node.x()), clampWorld(node.y()));
    },
    onDragEnd: (id, node) => {
      const x = clampWorld(node.x());
      const y = clampWorld(node.y());
      node.position({ x, y });
      controller.endDrag(id, x, y);
    },
  };
}

function transformHandler(controller: Controller): Handlers['onTransformEnd'] {
  return (id, node) => {
    const s = controller.store.getState();
    const o = s.board.get(id);
    if (!o) return;
    const t = {
      x: node.x(),
      y: node.y(),
      scaleX: node.scaleX(),
      scaleY: node.scaleY(),
      rotation: node.rotation(),
    };
    // Scale goes into w/h (and points); the node itself always stays at scale 1.
    node.scale({ x: 1, y: 1 });
    controller.edit(id, transformPatch(shownObject(s, o), t));
  };
}

export function useObjectHandlers(controller: Controller): ObjectHandlers {
  return useMemo<ObjectHandlers>(
    () => ({
      ...selectionHandlers(controller.store, (text) => {
        controller.toast('info', text);
      }),
      ...dragHandlers(controller),
      onTransform: (_id, node) => {
        reportPointer(controller, node);
      },
      onTransformEnd: transformHandler(controller),
    }),
    [controller],
  );
}
