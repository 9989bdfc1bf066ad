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
    pinned: 0,
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

describe('withHeldObjects: a resize or rotate of a selection (liveresize)', () => {
  const sel = (o: BoardObject) => [o.id, o] as const;
  const lead = { ...obj(1, 0, 0, 7), w: 100, h: 50 };
  const other = { ...obj(2, 200, 100, 7), w: 40, h: 20 };
  const two = new Map([sel(lead), sel(other)]);

  it('a resize scales the others from the same corner: their place and size alike', () => {
    const frame: LiveFrame = {
      pointers: [],
      drags: [
        {
          peer: 7,
          id: 1,
          x: -10,
          y: -5,
          dropped: false,
          shape: { w: 200, h: 150, rotation: 0 },
        },
      ],
    };
    const [, follower] = withHeldObjects(frame, two).drags;
    expect(follower).toEqual({
      peer: 7,
      id: 2,
      x: -10 + 200 * 2,
      y: -5 + 100 * 3,
      dropped: false,
      shape: { w: 80, h: 60, rotation: 0 },
    });
  });

  it("a quarter turn about the selection's centre turns the others about it too", () => {
    // The two objects' box is 0..240 x 0..120, centre (120, 60); 90° clockwise (y down) about it.
    const turn = (x: number, y: number) => ({ x: 120 - (y - 60), y: 60 + (x - 120) });
    const at = turn(lead.x, lead.y);
    const frame: LiveFrame = {
      pointers: [],
      drags: [
        {
          peer: 7,
          id: 1,
          ...at,
          dropped: false,
          shape: { w: 100, h: 50, rotation: 900 },
        },
      ],
    };
    const [, follower] = withHeldObjects(frame, two).drags;
    const want = turn(other.x, other.y);
    expect(follower?.x).toBeCloseTo(want.x, 9);
    expect(follower?.y).toBeCloseTo(want.y, 9);
    expect(follower?.shape?.w).toBeCloseTo(40, 9);
    expect(follower?.shape?.rotation).toBe(900);
  });

  it('rotation wraps: a follower at 350° turned by 20° is at 10°', () => {
    const b = new Map([sel({ ...lead, rotation: 100 }), sel({ ...other, rotation: 3500 })]);
    const frame: LiveFrame = {
      pointers: [],
      drags: [
        { peer: 7, id: 1, x: 0, y: 0, dropped: false, shape: { w: 100, h: 50, rotation: 300 } },
      ],
    };
    expect(withHeldObjects(frame, b).drags[1]?.shape?.rotation).toBe(100);
  });
});
