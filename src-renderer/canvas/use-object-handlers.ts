// Select, move (grab/drag/drop with prediction and snap-back) and resize handlers for board objects.
// Turns Konva node events into controller calls; draws nothing and keeps no board state of its own.
import type Konva from 'konva';
import { useMemo, useRef } from 'react';
import type { ObjectId } from '../../shared/board';
import { WORLD_EXTENT } from '../../shared/board';
import { transformPatch } from '../board/shapes';
import type { Controller } from '../controller/controller';
import type { DragSession } from '../controller/drag-session';
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

function dragHandlers(
  controller: Controller,
  drags: Map<ObjectId, DragSession>,
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
      const session = controller.startDrag(id, (reason) => {
        snapBack(id, node);
        controller.toast('warn', reason);
      });
      drags.set(id, session);
    },
    onDragMove: (id, node) => {
      drags.get(id)?.move(clampWorld(node.x()), clampWorld(node.y()));
    },
    onDragEnd: (id, node) => {
      const session = drags.get(id);
      drags.delete(id);
      const x = clampWorld(node.x());
      const y = clampWorld(node.y());
      node.position({ x, y });
      // Prediction: show the drop at once; the host's upsert confirms or corrects it.
      if (session?.end(x, y)) store.dispatch({ type: 'moved', id, x, y });
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
  const drags = useRef(new Map<ObjectId, DragSession>());
  return useMemo<ObjectHandlers>(
    () => ({
      ...selectionHandlers(controller.store, (text) => {
        controller.toast('info', text);
      }),
      ...dragHandlers(controller, drags.current),
      onTransformEnd: transformHandler(controller),
    }),
    [controller],
  );
}
