// The host's lock rules: the first grab the host sees wins, only the holder may drop, a lock whose holder
// leaves or goes quiet is released. Pure over the board model; knows nothing of connections.
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';
import type { Board, Refusal } from './board';
import { isRefusal } from './board';

export class HostRules {
  /** Last drag activity per holder. */
  private readonly activeAt = new Map<PeerId, number>();

  constructor(
    private readonly board: Board,
    private readonly lockTimeoutMs: number,
  ) {}

  grab(
    id: ObjectId,
    peer: PeerId,
    now: number,
    nameOf: (p: PeerId) => string,
  ): BoardObject | Refusal {
    const o = this.board.get(id);
    if (o === undefined) return { refused: `no object ${id}` };
    if (o.lockedBy !== null && o.lockedBy !== peer)
      return { refused: `held by ${nameOf(o.lockedBy)}` };
    this.activeAt.set(peer, now);
    return this.board.setLock(id, peer);
  }

  /** The drop carries the final position, so the result is exact whatever happened to the drag updates. */
  drop(id: ObjectId, peer: PeerId, x: number, y: number): BoardObject | Refusal {
    const o = this.board.get(id);
    if (o === undefined) return { refused: `no object ${id}` };
    if (o.lockedBy !== peer) return { refused: 'you are not holding it' };
    const moved = this.board.update(id, { x, y });
    if (isRefusal(moved)) return moved;
    return this.board.setLock(id, null);
  }

  lockedByOther(id: ObjectId, peer: PeerId, nameOf: (p: PeerId) => string): Refusal | undefined {
    const holder = this.board.get(id)?.lockedBy ?? null;
    return holder !== null && holder !== peer
      ? { refused: `held by ${nameOf(holder)}` }
      : undefined;
  }

  touch(peer: PeerId, now: number): void {
    this.activeAt.set(peer, now);
  }

  /** Releases every lock a departed peer held; returns the objects. */
  releaseAll(peer: PeerId): ObjectId[] {
    this.activeAt.delete(peer);
    const released: ObjectId[] = [];
    for (const o of this.board.all()) {
      if (o.lockedBy === peer) {
        this.board.setLock(o.id, null);
        released.push(o.id);
      }
    }
    return released;
  }

  /** Releases locks of peers (not the host) quiet for longer than the timeout. */
  expire(now: number): { id: ObjectId; peer: PeerId }[] {
    const out: { id: ObjectId; peer: PeerId }[] = [];
    for (const [peer, at] of this.activeAt) {
      if (peer === 0 || now - at < this.lockTimeoutMs) continue;
      for (const id of this.releaseAll(peer)) out.push({ id, peer });
    }
    return out;
  }
}
