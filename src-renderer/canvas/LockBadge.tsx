// What shows that an object is locked in place: a small padlock at its top-right corner (drawn with the object,
// turning with it), and, while it is selected, a dashed outline where the Transformer's box would be (a locked
// object is neither resized nor dragged). Draws only; listens to nothing.
import type { ReactElement } from 'react';
import { Group, Path, Rect } from 'react-konva';
import type { BoardObject } from '../../shared/board';
import { tightBounds } from '../board/selection';

/** World units of the badge's side. */
const BADGE = 18;

/** The padlock, in the object's own (unrotated) coordinates. */
export function LockBadge({ o }: { readonly o: BoardObject }): ReactElement {
  let maxX = Math.max(0, o.w);
  let minY = Math.min(0, o.h);
  for (let i = 0; i + 1 < o.points.length; i += 2) {
    maxX = Math.max(maxX, o.points[i] ?? 0);
    minY = Math.min(minY, o.points[i + 1] ?? 0);
  }
  return (
    <Group name="lock-badge" x={maxX - BADGE / 2} y={minY - BADGE / 2} listening={false}>
      <Rect
        width={BADGE}
        height={BADGE}
        cornerRadius={5}
        fill="#ffffff"
        stroke="#d0d5dd"
        strokeWidth={1}
      />
      <Path data="M6.5 8.5 V6.5 a2.5 2.5 0 0 1 5 0 V8.5" stroke="#5c6370" strokeWidth={1.6} />
      <Rect x={5} y={8.5} width={8} height={6} cornerRadius={1.5} fill="#5c6370" />
    </Group>
  );
}

/** A selected locked object's outline (world coordinates), one screen px wide at any zoom. */
export function LockedOutline(p: {
  readonly o: BoardObject;
  readonly scale: number;
}): ReactElement {
  const b = tightBounds(p.o);
  const pad = 4 / p.scale;
  return (
    <Rect
      name="locked-outline"
      x={b.x - pad}
      y={b.y - pad}
      width={b.w + 2 * pad}
      height={b.h + 2 * pad}
      stroke="#4f46e5"
      strokeWidth={1 / p.scale}
      dash={[4 / p.scale, 3 / p.scale]}
      listening={false}
    />
  );
}
