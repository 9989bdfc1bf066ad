// A peer dragging, resizing or rotating a selection: the wire carries one live drag per peer (the first object
// of the gesture), but the peer holds the lock of every object in it. Each peer's drag is carried to the other
// objects it holds by the same transform that takes the first object from where the board has it to where it
// is live (a move: the same offset; a resize or rotate: the same scale in its frame and the same turn, which is
// exactly what the selection's handles do to each object whose rotation matches the first's), so the whole
// selection is seen changing live. Pure; knows nothing of React, Konva or the bridge.
import { ROTATION_STEPS } from '../../shared/board';
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';
import type { LiveDrag, LiveFrame } from './remote-live';

type Board = ReadonlyMap<ObjectId, BoardObject>;

/** Objects each peer holds, per board (rebuilt only when the board changes, not every frame). */
const heldCache = new WeakMap<Board, ReadonlyMap<PeerId, readonly BoardObject[]>>();

function heldBy(board: Board): ReadonlyMap<PeerId, readonly BoardObject[]> {
  const cached = heldCache.get(board);
  if (cached) return cached;
  const held = new Map<PeerId, BoardObject[]>();
  for (const o of board.values()) {
    if (o.lockedBy === null) continue;
    const list = held.get(o.lockedBy);
    if (list) list.push(o);
    else held.set(o.lockedBy, [o]);
  }
  heldCache.set(board, held);
  return held;
}

/** The frame with each peer's drag repeated for the other objects that peer holds (the originals first). */
export function withHeldObjects(frame: LiveFrame, board: Board): LiveFrame {
  if (frame.drags.length === 0) return frame;
  const held = heldBy(board);
  const drags: LiveDrag[] = [...frame.drags];
  const shown = new Set(frame.drags.map((d) => d.id));
  for (const d of frame.drags) {
    const lead = board.get(d.id);
    if (!lead) continue;
    const follow = follower(lead, d);
    for (const o of held.get(d.peer) ?? []) {
      if (shown.has(o.id)) continue;
      shown.add(o.id);
      drags.push({ peer: d.peer, id: o.id, dropped: d.dropped, ...follow(o) });
    }
  }
  return { pointers: frame.pointers, drags };
}

type Followed = Pick<LiveDrag, 'x' | 'y' | 'shape'>;

const RADIANS_PER_STEP = Math.PI / (ROTATION_STEPS / 2);

/** Where another held object is, given the lead's board state and live drag. */
function follower(lead: BoardObject, d: LiveDrag): (o: BoardObject) => Followed {
  const shape = d.shape;
  if (shape === undefined) {
    const dx = d.x - lead.x;
    const dy = d.y - lead.y;
    return (o) => ({ x: o.x + dx, y: o.y + dy });
  }
  // Into the lead's frame as the board has it, scaled there, out through its live frame.
  const sx = lead.w > 0 ? shape.w / lead.w : 1;
  const sy = lead.h > 0 ? shape.h / lead.h : 1;
  const a0 = lead.rotation * RADIANS_PER_STEP;
  const a1 = shape.rotation * RADIANS_PER_STEP;
  const [c0, s0, c1, s1] = [Math.cos(a0), Math.sin(a0), Math.cos(a1), Math.sin(a1)];
  const turn = shape.rotation - lead.rotation;
  return (o) => {
    const px = o.x - lead.x;
    const py = o.y - lead.y;
    const u = (c0 * px + s0 * py) * sx;
    const v = (-s0 * px + c0 * py) * sy;
    return {
      x: d.x + c1 * u - s1 * v,
      y: d.y + s1 * u + c1 * v,
      shape: {
        w: o.w * sx,
        h: o.h * sy,
        rotation: (((o.rotation + turn) % ROTATION_STEPS) + ROTATION_STEPS) % ROTATION_STEPS,
      },
    };
  };
}
