// A peer dragging a selection: the wire carries one live drag per peer (the last object it reported), but the
// peer holds the lock of every object it drags. Each peer's drag is carried to the other objects it holds, by
// the same offset from where the board has them, so the whole selection is seen moving live. Pure; knows
// nothing of React, Konva or the bridge.
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
    const dx = d.x - lead.x;
    const dy = d.y - lead.y;
    for (const o of held.get(d.peer) ?? []) {
      if (shown.has(o.id)) continue;
      shown.add(o.id);
      drags.push({ peer: d.peer, id: o.id, x: o.x + dx, y: o.y + dy, dropped: d.dropped });
    }
  }
  return { pointers: frame.pointers, drags };
}
