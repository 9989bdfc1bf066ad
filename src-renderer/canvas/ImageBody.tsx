// Draws an image object: its picture once the bytes are here and decoded, until then a placeholder with how much
// has arrived. Reads only the image's entry in the store; draws only.
import { type ReactElement, useEffect, useReducer } from 'react';
import { Group, Image as KonvaImage, Rect, Text } from 'react-konva';
import type { BoardObject } from '../../shared/board';
import { useAppState } from '../view/context';
import { counterInverted, useDarkScheme } from './dark-ink';
import { imageCache } from './image-cache';

export function ImageBody({ o }: { o: BoardObject }): ReactElement {
  const entry = useAppState((s) => s.images.get(o.blob));
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useEffect(() => imageCache.subscribe(redraw), []);
  const dark = useDarkScheme();
  const el = entry && 'url' in entry ? imageCache.get(o.blob, entry.url) : undefined;
  if (el !== undefined)
    return <KonvaImage image={dark ? counterInverted(el) : el} width={o.w} height={o.h} />;
  const failed = imageCache.natural(o.blob) === 'failed';
  const pct =
    entry && 'received' in entry && entry.total > 0
      ? Math.floor((entry.received / entry.total) * 100)
      : entry && 'url' in entry
        ? 100
        : 0;
  const fontSize = Math.max(10, Math.min(18, o.h / 5));
  return (
    <Group>
      <Rect
        width={o.w}
        height={o.h}
        fill="#f1f3f5"
        stroke="#adb5bd"
        strokeWidth={1}
        dash={[6, 4]}
      />
      <Rect
        x={0}
        y={Math.max(0, o.h - 6)}
        width={(o.w * pct) / 100}
        height={Math.min(6, o.h)}
        fill="#4f46e5"
        listening={false}
      />
      <Text
        width={o.w}
        height={o.h}
        align="center"
        verticalAlign="middle"
        fontSize={fontSize}
        fill="#495057"
        text={failed ? 'Image could not be shown' : `Image… ${pct}%`}
        listening={false}
      />
    </Group>
  );
}
