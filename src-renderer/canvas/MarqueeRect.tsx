// The select tool's marquee while it is dragged: a thin dashed box the same on-screen width at any zoom. Draws
// the store's `marquee` only; never takes events.
import type { ReactElement } from 'react';
import { Rect } from 'react-konva';
import { useAppState } from '../view/context';

export function MarqueeRect(): ReactElement | null {
  const rect = useAppState((s) => s.marquee);
  const scale = useAppState((s) => s.camera.scale);
  if (rect === null) return null;
  return (
    <Rect
      x={rect.x}
      y={rect.y}
      width={rect.w}
      height={rect.h}
      fill="rgba(79, 70, 229, 0.06)"
      stroke="#4f46e5"
      strokeWidth={1 / scale}
      dash={[4 / scale, 3 / scale]}
      listening={false}
    />
  );
}
