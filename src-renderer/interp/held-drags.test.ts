// A peer's one live drag carried to the other objects it holds.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../shared/board';
import type { LiveFrame } from './remote-live';
import { withHeldObjects } from './held-drags';

function obj(id: number, x: number, y: number, lockedBy: number | null): BoardObject {
  return {
    id,
    kind: 'rect',
    x,
    y,
    w: 10,
    h: 10,
    rotation: 0,
    stroke: 0,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [],
    blob: '',
    z: id,
    lockedBy,
  };
}

const board = new Map(
  [obj(1, 0, 0, 7), obj(2, 100, 50, 7), obj(3, 300, 0, 8), obj(4, -20, -20, null)].map(
    (o) => [o.id, o] as const,
  ),
);

describe('withHeldObjects', () => {
  it("moves every other object the dragging peer holds by its drag's offset, and nothing else", () => {
    const frame: LiveFrame = {
      pointers: [],
      drags: [{ peer: 7, id: 1, x: 15, y: -5, dropped: false }],
    };
    expect(withHeldObjects(frame, board).drags).toEqual([
      { peer: 7, id: 1, x: 15, y: -5, dropped: false },
      { peer: 7, id: 2, x: 115, y: 45, dropped: false },
    ]);
  });

  it('keeps a dropped drag dropped, and a frame without drags as it is', () => {
    const empty: LiveFrame = { pointers: [], drags: [] };
    expect(withHeldObjects(empty, board)).toBe(empty);
    const dropped: LiveFrame = {
      pointers: [],
      drags: [{ peer: 8, id: 3, x: 310, y: 0, dropped: true }],
    };
    expect(withHeldObjects(dropped, board).drags).toEqual(dropped.drags);
  });

  it('an object already dragged in its own right keeps its own position', () => {
    const frame: LiveFrame = {
      pointers: [],
      drags: [
        { peer: 7, id: 1, x: 10, y: 0, dropped: false },
        { peer: 7, id: 2, x: 500, y: 500, dropped: false },
      ],
    };
    expect(withHeldObjects(frame, board).drags).toEqual(frame.drags);
  });
});
