// The Konva nodes that draw each kind of board object, relative to the object's (x, y). Draws only.
import type { ReactElement } from 'react';
import { Arrow, Ellipse, Line, Rect, Text } from 'react-konva';
import { ImageBody } from './ImageBody';
import type { BoardObject } from '../../shared/board';
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

function LineBody({ o }: { o: BoardObject }): ReactElement {
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
  return (
    <Line
      points={[...o.points]}
      tension={pen ? 0.35 : 0}
      lineCap="round"
      lineJoin="round"
      hitStrokeWidth={hitWidth(o)}
      {...common(o)}
    />
  );
}

function TextBody({ o, editing }: { o: BoardObject; editing: boolean }): ReactElement {
  return (
    <>
      <Rect width={o.w} height={o.h} fill="transparent" />
      <Text
        text={o.text}
        width={o.w}
        fontSize={TEXT_FONT_SIZE}
        fontFamily={FONT_FAMILY}
        lineHeight={LINE_HEIGHT}
        fill={colorToCss(o.stroke ?? INK)}
        visible={!editing}
      />
    </>
  );
}

function NoteBody({ o, editing }: { o: BoardObject; editing: boolean }): ReactElement {
  return (
    <>
      <Rect
        width={o.w}
        height={o.h}
        fill={fillOf(o.fill ?? NOTE_FILL)}
        cornerRadius={NOTE_CORNER}
        shadowColor="#1b1d23"
        shadowOpacity={0.16}
        shadowBlur={12}
        shadowOffsetY={3}
        {...paint(o.stroke)}
        strokeWidth={o.stroke === null ? 0 : 1}
      />
      <Text
        x={NOTE_PADDING}
        y={NOTE_PADDING}
        width={Math.max(0, o.w - 2 * NOTE_PADDING)}
        height={Math.max(0, o.h - 2 * NOTE_PADDING)}
        text={o.text}
        fontSize={NOTE_FONT_SIZE}
        fontFamily={FONT_FAMILY}
        lineHeight={LINE_HEIGHT}
        fill={colorToCss(INK)}
        ellipsis
        visible={!editing}
      />
    </>
  );
}

export function ShapeBody({ o, editing }: { o: BoardObject; editing: boolean }): ReactElement {
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
      return <LineBody o={o} />;
    case 'text':
      return <TextBody o={o} editing={editing} />;
    case 'note':
      return <NoteBody o={o} editing={editing} />;
    case 'image':
      return <ImageBody o={o} />;
  }
}
