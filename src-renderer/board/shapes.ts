// New objects from tool gestures, and the patch a resize/rotate makes. Pure; knows nothing of Konva or React.
import type { Tool } from '../../shared/api';
import type { BoardObject, Color, NewObject, ObjectPatch } from '../../shared/board';
import { MAX_SIZE, POINT_EXTENT, ROTATION_STEPS, WORLD_EXTENT } from '../../shared/board';
import { NOTE_FILL } from '../../shared/look';
import type { Pt } from './simplify';

export { NOTE_FILL };

export interface Style {
  readonly stroke: Color;
  readonly fill: Color;
  readonly strokeWidth: number;
}

export const NOTE_SIZE = { w: 200, h: 160 } as const;
export const TEXT_SIZE = { w: 240, h: 32 } as const;

const clampWorld = (v: number): number =>
  Math.max(-WORLD_EXTENT, Math.min(WORLD_EXTENT, Math.round(v)));
const clampSize = (v: number): number => Math.max(0, Math.min(MAX_SIZE, Math.round(v)));
const clampPoint = (v: number): number =>
  Math.max(-POINT_EXTENT, Math.min(POINT_EXTENT, Math.round(v)));

function base(kind: NewObject['kind'], style: Style): NewObject {
  return { kind, x: 0, y: 0, w: 0, h: 0, rotation: 0, ...style, text: '', points: [], blob: '' };
}

/** The object a drag from `a` to `b` draws with a box or line tool, or null for tools that don't drag out. */
export function dragShape(
  tool: Tool,
  a: Pt,
  b: Pt,
  style: Style,
  square = false,
): NewObject | null {
  if (tool === 'rect' || tool === 'ellipse') {
    let w = Math.abs(b.x - a.x);
    let h = Math.abs(b.y - a.y);
    if (square) w = h = Math.max(w, h);
    const x = b.x < a.x ? a.x - w : a.x;
    const y = b.y < a.y ? a.y - h : a.y;
    return {
      ...base(tool, style),
      x: clampWorld(x),
      y: clampWorld(y),
      w: clampSize(w),
      h: clampSize(h),
    };
  }
  if (tool === 'line' || tool === 'arrow') {
    const x = Math.min(a.x, b.x);
    const y = Math.min(a.y, b.y);
    const ox = clampWorld(x);
    const oy = clampWorld(y);
    const points = [a.x - ox, a.y - oy, b.x - ox, b.y - oy].map(clampPoint);
    return {
      ...base(tool, { ...style, fill: null }),
      x: ox,
      y: oy,
      w: clampSize(Math.abs(b.x - a.x)),
      h: clampSize(Math.abs(b.y - a.y)),
      points,
    };
  }
  return null;
}

/** True when a drag is too small to be meant as a shape (a click). */
export function isTinyShape(o: NewObject): boolean {
  return Math.max(o.w, o.h) < 3;
}

/** A sticky note or text box placed at `p` (its top-left). */
export function placedShape(kind: 'note' | 'text', p: Pt, style: Style): NewObject {
  const size = kind === 'note' ? NOTE_SIZE : TEXT_SIZE;
  const fill = kind === 'note' ? (style.fill ?? NOTE_FILL) : null;
  const stroke = kind === 'note' ? null : style.stroke;
  return {
    ...base(kind, { ...style, fill, stroke }),
    x: clampWorld(p.x),
    y: clampWorld(p.y),
    ...size,
  };
}

/** Tenths of a degree in 0..3599 from any angle in degrees. */
export function toRotationSteps(degrees: number): number {
  const steps = Math.round(degrees * 10) % ROTATION_STEPS;
  return steps < 0 ? steps + ROTATION_STEPS : steps;
}

export interface TransformResult {
  readonly x: number;
  readonly y: number;
  readonly scaleX: number;
  readonly scaleY: number;
  /** Degrees. */
  readonly rotation: number;
}

/** A held object's live place, size and rotation (board units: rotation in tenths of a degree). */
export interface LiveGeometry {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly rotation: number;
}

/** Where a Transformer gesture has the object now: what the others see live (the release's edit has the points). */
export function transformGeometry(o: BoardObject, t: TransformResult): LiveGeometry {
  const sx = Math.abs(t.scaleX);
  const sy = Math.abs(t.scaleY);
  return {
    x: clampWorld(t.x),
    y: clampWorld(t.y),
    w: clampSize(o.w * sx),
    h: clampSize(o.h * sy),
    rotation: toRotationSteps(t.rotation),
  };
}

/** The edit a Transformer gesture makes: scale goes into w/h (and the points), never into the object. */
export function transformPatch(o: BoardObject, t: TransformResult): ObjectPatch {
  const sx = Math.abs(t.scaleX);
  const sy = Math.abs(t.scaleY);
  const patch: ObjectPatch = transformGeometry(o, t);
  if (o.points.length === 0) return patch;
  const points = o.points.map((v, i) => clampPoint(v * (i % 2 === 0 ? sx : sy)));
  return { ...patch, points };
}
