// Draws one board object as a Konva group at its (x, y), rotated; children drawn relative (with a padlock when it
// is locked in place). Draws only: no
// store, no bridge; events are reported to the caller by object id.
import type Konva from 'konva';
import { memo, type ReactElement } from 'react';
import { Group } from 'react-konva';
import type { BoardObject } from '../../shared/board';
import { LockBadge } from './LockBadge';
import { ShapeBody } from './shape-bodies';

type KonvaHandler = (
  e: Konva.KonvaEventObject<DragEvent | MouseEvent | PointerEvent | Event>,
) => void;

export interface ObjectHandlers {
  readonly onPointerDown?: (id: number, e: Konva.KonvaEventObject<PointerEvent>) => void;
  readonly onDblClick?: (id: number) => void;
  readonly onDragStart?: (id: number, node: Konva.Node) => void;
  readonly onDragMove?: (id: number, node: Konva.Node) => void;
  readonly onDragEnd?: (id: number, node: Konva.Node) => void;
  readonly onTransform?: (id: number, node: Konva.Node) => void;
  readonly onTransformEnd?: (id: number, node: Konva.Node) => void;
}

export interface ObjectShapeProps {
  readonly o: BoardObject;
  readonly draggable?: boolean;
  readonly listening?: boolean;
  readonly opacity?: number;
  /** Hide the text: the HTML editor is over it. */
  readonly editing?: boolean;
  /** The level of detail's scale (board/detail.ts); 1 (the default) draws everything. */
  readonly detail?: number;
  /** Konva name: board objects are `object` (picked, and drawn into the layer's snapshot); drafts another. */
  readonly name?: string;
  readonly handlers?: ObjectHandlers;
}

function on<T>(
  f: ((id: number, x: T) => void) | undefined,
  id: number,
  pick: (e: Konva.KonvaEventObject<Event>) => T,
): KonvaHandler | undefined {
  return f
    ? (e) => {
        f(id, pick(e));
      }
    : undefined;
}

export const ObjectShape = memo(function ObjectShape(p: ObjectShapeProps): ReactElement {
  const { o, handlers: h } = p;
  const node = (e: Konva.KonvaEventObject<Event>): Konva.Node => e.currentTarget;
  const events = {
    onPointerDown: on(h?.onPointerDown, o.id, (e) => e as Konva.KonvaEventObject<PointerEvent>),
    onDblClick: h?.onDblClick
      ? () => {
          h.onDblClick?.(o.id);
        }
      : undefined,
    onDblTap: h?.onDblClick
      ? () => {
          h.onDblClick?.(o.id);
        }
      : undefined,
    onDragStart: on(h?.onDragStart, o.id, node),
    onDragMove: on(h?.onDragMove, o.id, node),
    onDragEnd: on(h?.onDragEnd, o.id, node),
    onTransform: on(h?.onTransform, o.id, node),
    onTransformEnd: on(h?.onTransformEnd, o.id, node),
  };
  const defined = Object.fromEntries(Object.entries(events).filter(([, v]) => v !== undefined));
  return (
    <Group
      id={`obj-${o.id}`}
      name={p.name ?? 'object'}
      x={o.x}
      y={o.y}
      rotation={o.rotation / 10}
      draggable={p.draggable ?? false}
      listening={p.listening ?? true}
      opacity={p.opacity ?? 1}
      {...defined}
    >
      <ShapeBody o={o} editing={p.editing ?? false} scale={p.detail ?? 1} />
      {o.pinned === 1 && <LockBadge o={o} />}
    </Group>
  );
});
