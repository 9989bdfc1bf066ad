// The Konva nodes that draw each kind of board object, relative to the object's (x, y), at a level of detail
// (board/detail.ts: zoomed far out, a tiny object is a box, a freehand line fewer straight segments, small text
// grey bars, a note shadowless). Draws only.
import type { ReactElement } from 'react';
import { Arrow, Ellipse, Line, Rect, Text } from 'react-konva';
import { ImageBody } from './ImageBody';
import type { BoardObject } from '../../shared/board';
import { decimate, isFine, isTiny, isUnreadable } from '../board/detail';
import { colorToCss } from '../../shared/board';
import {
  arrowHead,
  FONT_FAMILY,
  INK,
  LINE_HEIGHT,
  NOTE_CORNER,
  NOTE_FILL,
  NOTE_FONT_SIZE,
  NOTE_PADDING,
  RECT_CORNER,
  TEXT_FONT_SIZE,
} from '../../shared/look';

export { FONT_FAMILY, LINE_HEIGHT, NOTE_FONT_SIZE, NOTE_PADDING, TEXT_FONT_SIZE };

const paint = (c: number | null): { stroke?: string } =>
  c === null ? {} : { stroke: colorToCss(c) };
/** Transparent rather than no fill, so the inside of an unfilled shape can still be picked. */
const fillOf = (c: number | null): string => (c === null ? 'transparent' : colorToCss(c));
const common = (o: BoardObject) => ({
  ...paint(o.stroke),
  strokeWidth: o.strokeWidth,
  perfectDrawEnabled: false,
});
const hitWidth = (o: BoardObject): number => Math.max(14, o.strokeWidth);

/** Text too small to read: a grey bar per line (at most 6), about as long as the line. */
function TextBars({
  text,
  x,
  y,
  w,
  size,
  color,
}: {
  text: string;
  x: number;
  y: number;
  w: number;
  size: number;
  color: string;
}): ReactElement {
  const lines = text.split('\n').slice(0, 6);
  return (
    <>
      {lines.map((line, i) =>
        line.length === 0 ? null : (
          <Rect
            key={i}
            x={x}
            y={y + i * size * LINE_HEIGHT + size * 0.3}
            width={Math.max(0, Math.min(w, line.length * size * 0.5))}
            height={size * 0.5}
            fill={color}
            opacity={0.35}
            perfectDrawEnabled={false}
          />
        ),
      )}
    </>
  );
}

function LineBody({ o, scale }: { o: BoardObject; scale: number }): ReactElement {
  if (o.kind === 'arrow') {
    const head = arrowHead(o);
    return (
      <Arrow
        points={[...o.points]}
        pointerLength={head}
        pointerWidth={head}
        fill={fillOf(o.stroke)}
        lineCap="round"
        lineJoin="round"
        hitStrokeWidth={hitWidth(o)}
        {...common(o)}
      />
    );
  }
  const pen = o.kind === 'stroke';
  const fine = isFine(scale);
  return (
    <Line
      points={fine ? [...o.points] : decimate(o.points, 1.5 / scale)}
      tension={pen && fine ? 0.35 : 0}
      lineCap="round"
      lineJoin="round"
      hitStrokeWidth={hitWidth(o)}
      {...common(o)}
    />
  );
}

interface BodyProps {
  readonly o: BoardObject;
  readonly editing: boolean;
  readonly scale: number;
}

function TextBody({ o, editing, scale }: BodyProps): ReactElement {
  const color = colorToCss(o.stroke ?? INK);
  if (isUnreadable(TEXT_FONT_SIZE, scale))
    return (
      <>
        <Rect width={o.w} height={o.h} fill="transparent" />
        {!editing && (
          <TextBars text={o.text} x={0} y={0} w={o.w} size={TEXT_FONT_SIZE} color={color} />
        )}
      </>
    );
  return (
    <>
      <Rect width={o.w} height={o.h} fill="transparent" />
      <Text
        text={o.text}
        width={o.w}
        fontSize={TEXT_FONT_SIZE}
        fontFamily={FONT_FAMILY}
        lineHeight={LINE_HEIGHT}
        fill={color}
        visible={!editing}
      />
    </>
  );
}

function NoteBody({ o, editing, scale }: BodyProps): ReactElement {
  const shadow = isFine(scale)
    ? { shadowColor: '#1b1d23', shadowOpacity: 0.16, shadowBlur: 12, shadowOffsetY: 3 }
    : {};
  const inner = Math.max(0, o.w - 2 * NOTE_PADDING);
  return (
    <>
      <Rect
        width={o.w}
        height={o.h}
        fill={fillOf(o.fill ?? NOTE_FILL)}
        cornerRadius={NOTE_CORNER}
        {...shadow}
        shadowForStrokeEnabled={false}
        {...paint(o.stroke)}
        strokeWidth={o.stroke === null ? 0 : 1}
        perfectDrawEnabled={false}
      />
      {isUnreadable(NOTE_FONT_SIZE, scale) ? (
        !editing && (
          <TextBars
            text={o.text}
            x={NOTE_PADDING}
            y={NOTE_PADDING}
            w={inner}
            size={NOTE_FONT_SIZE}
            color={colorToCss(INK)}
          />
        )
      ) : (
        <Text
          x={NOTE_PADDING}
          y={NOTE_PADDING}
          width={inner}
          height={Math.max(0, o.h - 2 * NOTE_PADDING)}
          text={o.text}
          fontSize={NOTE_FONT_SIZE}
          fontFamily={FONT_FAMILY}
          lineHeight={LINE_HEIGHT}
          fill={colorToCss(INK)}
          ellipsis
          visible={!editing}
        />
      )}
    </>
  );
}

/** A tiny object (a couple of screen px): one box in its colour. */
function Speck({ o }: { o: BoardObject }): ReactElement {
  const c = o.fill ?? o.stroke ?? (o.kind === 'note' ? NOTE_FILL : INK);
  return (
    <Rect
      width={Math.max(1, o.w)}
      height={Math.max(1, o.h)}
      fill={colorToCss(c)}
      perfectDrawEnabled={false}
    />
  );
}

/** `scale`: the detail scale (board/detail.ts detailScale); 1 draws everything in full. */
export function ShapeBody({
  o,
  editing,
  scale = 1,
}: {
  o: BoardObject;
  editing: boolean;
  scale?: number;
}): ReactElement {
  if (scale < 1 && o.kind !== 'image' && isTiny(o.w, o.h, scale)) return <Speck o={o} />;
  switch (o.kind) {
    case 'rect':
      return (
        <Rect
          width={o.w}
          height={o.h}
          fill={fillOf(o.fill)}
          cornerRadius={RECT_CORNER}
          {...common(o)}
        />
      );
    case 'ellipse':
      return (
        <Ellipse
          x={o.w / 2}
          y={o.h / 2}
          radiusX={o.w / 2}
          radiusY={o.h / 2}
          fill={fillOf(o.fill)}
          {...common(o)}
        />
      );
    case 'line':
    case 'arrow':
    case 'stroke':
      return <LineBody o={o} scale={scale} />;
    case 'text':
      return <TextBody o={o} editing={editing} scale={scale} />;
    case 'note':
      return <NoteBody o={o} editing={editing} scale={scale} />;
    case 'image':
      return <ImageBody o={o} />;
  }
}
