// What the live layer draws for one peer: a telepointer with a name tag, and a ghost of the object they drag.
// Draws only; knows nothing of the store, the bridge or interpolation.
import type { ReactElement } from 'react';
import { Group, Label, Path, Rect, Tag, Text } from 'react-konva';
import type { BoardObject } from '../../shared/board';
import { ObjectShape } from './ObjectShape';
import { FONT_FAMILY } from './shape-bodies';

/** Names of a ghost's parts that the live layer reshapes every frame. */
export const GHOST_BODY = 'ghost-body';
export const GHOST_BOX = 'ghost-box';
export const GHOST_TAG = 'ghost-tag';

const CURSOR_PATH = 'M0 0 L0 17 L4.5 12.8 L7.6 19.6 L10.6 18.2 L7.6 11.6 L13.6 11.4 Z';

export function NameTag(p: { name: string; color: string; x: number; y: number }): ReactElement {
  return (
    <Label x={p.x} y={p.y} listening={false}>
      <Tag
        fill={p.color}
        cornerRadius={6}
        shadowColor="#000"
        shadowOpacity={0.15}
        shadowBlur={4}
        shadowOffsetY={1}
      />
      <Text
        text={p.name}
        fontFamily={FONT_FAMILY}
        fontSize={12}
        fontStyle="600"
        fill="#ffffff"
        padding={5}
      />
    </Label>
  );
}

/** A cursor in the peer's colour; its name tag is left off while their ghost carries the name. */
export function Pointer(p: {
  name: string;
  color: string;
  scale: number;
  labelled: boolean;
}): ReactElement {
  return (
    <Group scaleX={1 / p.scale} scaleY={1 / p.scale} listening={false}>
      <Path
        data={CURSOR_PATH}
        fill={p.color}
        stroke="#ffffff"
        strokeWidth={1.5}
        shadowColor="#000"
        shadowOpacity={0.25}
        shadowBlur={3}
        shadowOffsetY={1}
      />
      {p.labelled && <NameTag name={p.name} color={p.color} x={14} y={18} />}
    </Group>
  );
}

/** The dragged object drawn at (0, 0) of its group, outlined in the holder's colour, with their name on it. */
export function Ghost(p: {
  o: BoardObject;
  name: string;
  color: string;
  scale: number;
  /** Whether this ghost carries the name tag (one per peer when it drags several objects). */
  labelled: boolean;
  /** Being resized or rotated, not only moved. */
  shaped?: boolean;
}): ReactElement {
  const { o, scale } = p;
  return (
    <>
      {/* Named for the live layer, which scales the body and sizes the box during a resize (never React). */}
      <Group name={GHOST_BODY}>
        <ObjectShape o={{ ...o, x: 0, y: 0, rotation: 0 }} listening={false} opacity={0.92} />
      </Group>
      <Rect
        name={GHOST_BOX}
        x={-4}
        y={-4}
        width={o.w + 8}
        height={o.h + 8}
        stroke={p.color}
        strokeWidth={1.5 / scale}
        dash={[6 / scale, 4 / scale]}
        cornerRadius={6 / scale}
        fill="transparent"
      />
      {p.labelled && (
        <Group
          name={GHOST_TAG}
          scaleX={1 / scale}
          scaleY={1 / scale}
          y={-26 / scale}
          listening={false}
        >
          <NameTag
            name={`${p.name} is ${p.shaped === true ? 'changing' : 'moving'} this`}
            color={p.color}
            x={-4}
            y={0}
          />
        </Group>
      )}
    </>
  );
}
