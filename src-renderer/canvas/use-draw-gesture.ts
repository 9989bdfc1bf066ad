// Drawing with the shape, line, pen, text and note tools: tracks the gesture in world coordinates, exposes the
// preview, and creates the object on release. Draws nothing; knows nothing of Konva nodes.
import { useMemo, useRef, useState } from 'react';
import type { Tool } from '../../shared/api';
import type { NewObject } from '../../shared/board';
import { dragShape, isTinyShape, placedShape } from '../board/shapes';
import { type Pt, strokeGeometry } from '../board/simplify';
import type { Controller } from '../controller/controller';

type Gesture =
  | { readonly kind: 'shape'; readonly tool: Tool; readonly from: Pt; last: NewObject | null }
  | { readonly kind: 'pen'; readonly points: Pt[] }
  | { readonly kind: 'place'; readonly tool: 'text' | 'note'; readonly at: Pt };

export interface DrawGesture {
  readonly preview: NewObject | null;
  /** Starts drawing with `tool` at a world point; false for the select tool. */
  begin(tool: Tool, at: Pt): boolean;
  move(at: Pt, shift: boolean): void;
  end(): void;
  readonly active: () => boolean;
}

function penObject(
  points: readonly Pt[],
  stroke: NewObject['stroke'],
  strokeWidth: number,
): NewObject {
  const first = points[0] ?? { x: 0, y: 0 };
  return {
    kind: 'stroke',
    x: first.x,
    y: first.y,
    w: 0,
    h: 0,
    rotation: 0,
    stroke,
    fill: null,
    strokeWidth,
    text: '',
    points: points.flatMap((p) => [p.x - first.x, p.y - first.y]),
  };
}

export function useDrawGesture(controller: Controller): DrawGesture {
  const gesture = useRef<Gesture | null>(null);
  const [preview, setPreview] = useState<NewObject | null>(null);

  const api = useMemo(() => {
    const style = () => controller.store.getState().style;
    const finish = (g: Gesture): void => {
      const s = style();
      switch (g.kind) {
        case 'pen':
          void controller.create({
            ...penObject(g.points, s.stroke, s.strokeWidth),
            ...strokeGeometry(g.points),
          });
          return;
        case 'place':
          controller.setTool('select');
          void controller.create(placedShape(g.tool, g.at, s)).then((id) => {
            if (id !== null) controller.store.dispatch({ type: 'editing', id });
          });
          return;
        case 'shape':
          if (g.last && !isTinyShape(g.last)) {
            controller.setTool('select');
            void controller.create(g.last);
          }
      }
    };
    return {
      begin(tool: Tool, at: Pt): boolean {
        if (tool === 'select') return false;
        if (tool === 'pen') gesture.current = { kind: 'pen', points: [at] };
        else if (tool === 'text' || tool === 'note') gesture.current = { kind: 'place', tool, at };
        else gesture.current = { kind: 'shape', tool, from: at, last: null };
        return true;
      },
      move(at: Pt, shift: boolean): void {
        const g = gesture.current;
        if (g?.kind === 'shape') {
          g.last = dragShape(g.tool, g.from, at, style(), shift);
          setPreview(g.last);
        } else if (g?.kind === 'pen') {
          g.points.push(at);
          setPreview(penObject(g.points, style().stroke, style().strokeWidth));
        }
      },
      end(): void {
        const g = gesture.current;
        gesture.current = null;
        setPreview(null);
        if (g) finish(g);
      },
      active: (): boolean => gesture.current !== null,
    };
  }, [controller]);

  return { preview, ...api };
}
