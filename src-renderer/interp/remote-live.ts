// Remote telepointers and live drags, interpolated per peer: fed with 'pointers' events and their arrival times,
// queried once per animation frame. Knows nothing of React, Konva or the bridge; every time is passed in (ms).
import type { LiveShape, RemotePointer, Tool } from '../../shared/api';
import type { ObjectId, PeerId } from '../../shared/board';
import { ShapeTrack } from './shape-track';
import { DEFAULT_TRACK, Track, type TrackOptions } from './track';

export interface LivePointer {
  readonly peer: PeerId;
  readonly x: number;
  readonly y: number;
  readonly tool: Tool;
}

export interface LiveDrag {
  readonly peer: PeerId;
  readonly id: ObjectId;
  readonly x: number;
  readonly y: number;
  /** The holder dropped it; the ghost stays until the board shows the object's new place. */
  readonly dropped: boolean;
  /** While it is being resized or rotated: its live size and rotation (absent: as the board has them). */
  readonly shape?: LiveShape;
}

export interface LiveFrame {
  readonly pointers: readonly LivePointer[];
  readonly drags: readonly LiveDrag[];
}

interface DragState {
  readonly id: ObjectId;
  readonly track: Track;
  /** Its size and rotation, once a resize or rotate reported them. */
  shape: ShapeTrack | null;
  /** When the holder dropped it (ms), or null while still dragging. */
  droppedAt: number | null;
}

interface PeerState {
  readonly pointer: Track;
  visible: boolean;
  tool: Tool;
  drag: DragState | null;
}

/** How long a dropped ghost waits for the object's upsert before it goes anyway, ms. */
export const DROP_LINGER_MS = 1000;

export class RemoteLive {
  private readonly peers = new Map<PeerId, PeerState>();

  constructor(private readonly opts: TrackOptions = DEFAULT_TRACK) {}

  /** Applies one 'pointers' event that arrived at `now`. */
  update(pointers: readonly RemotePointer[], gone: readonly PeerId[], now: number): void {
    for (const peer of gone) this.peers.delete(peer);
    for (const p of pointers) this.updateOne(p, now);
  }

  private updateOne(p: RemotePointer, now: number): void {
    let s = this.peers.get(p.peer);
    if (s === undefined) {
      s = { pointer: new Track(this.opts), visible: p.visible, tool: p.tool, drag: null };
      this.peers.set(p.peer, s);
    }
    // A pointer that reappears shows where it is now, instead of gliding in from where it left.
    if (p.visible && !s.visible) s.pointer.reset();
    s.visible = p.visible;
    s.tool = p.tool;
    if (p.visible) s.pointer.push(now, p.x, p.y);
    this.updateDrag(s, p.drag, now);
  }

  private updateDrag(s: PeerState, d: RemotePointer['drag'], now: number): void {
    if (d === null) {
      if (s.drag && s.drag.droppedAt === null) {
        s.drag.droppedAt = now;
        s.drag.track.hold(now);
        s.drag.shape?.hold(now);
      }
      return;
    }
    if (s.drag?.id !== d.id || s.drag.droppedAt !== null) {
      s.drag = { id: d.id, track: new Track(this.opts), shape: null, droppedAt: null };
    }
    s.drag.track.push(now, d.x, d.y);
    if (d.shape === undefined) s.drag.shape = null;
    else (s.drag.shape ??= new ShapeTrack(this.opts)).push(now, d.shape);
  }

  /** The board now shows object `id` where its holder left it: its ghost can go. */
  release(id: ObjectId): void {
    for (const s of this.peers.values())
      if (s.drag?.id === id && s.drag.droppedAt !== null) s.drag = null;
  }

  /** Ids of objects that have a ghost now (the board hides the original under it). */
  ghosted(now: number): Set<ObjectId> {
    this.expire(now);
    const ids = new Set<ObjectId>();
    for (const s of this.peers.values()) if (s.drag) ids.add(s.drag.id);
    return ids;
  }

  /** What to draw at `now`. */
  frame(now: number): LiveFrame {
    this.expire(now);
    const pointers: LivePointer[] = [];
    const drags: LiveDrag[] = [];
    for (const [peer, s] of this.peers) {
      const at = s.visible ? s.pointer.sample(now) : null;
      if (at) pointers.push({ peer, x: at.x, y: at.y, tool: s.tool });
      const d = s.drag;
      const dragAt = d?.track.sample(now);
      if (d && dragAt) {
        const shape = d.shape?.sample(now);
        const dropped = d.droppedAt !== null;
        drags.push({ peer, id: d.id, ...dragAt, dropped, ...(shape ? { shape } : {}) });
      }
    }
    return { pointers, drags };
  }

  private expire(now: number): void {
    for (const s of this.peers.values()) {
      if (s.drag?.droppedAt != null && now - s.drag.droppedAt > DROP_LINGER_MS) s.drag = null;
    }
  }
}
