// The host's side of the lock rules: drives the board core's grab, drop and release, and keeps what the core
// cannot know, each holder's last activity, to release the locks of holders gone quiet. Knows nothing of
// connections.
import type { ObjectId, PeerId } from '../../shared/board';
import type { ApplyResult } from '../board';
import type { Board } from './board';

export class HostRules {
  /** Last drag activity per holder. */
  private readonly activeAt = new Map<PeerId, number>();

  constructor(
    private readonly board: Board,
    private readonly lockTimeoutMs: number,
  ) {}

  /** The first grab the host sees wins. */
  grab(id: ObjectId, peer: PeerId, now: number): ApplyResult {
    const r = this.board.apply({ type: 'grab', id, peer });
    if (r.ok) this.activeAt.set(peer, now);
    return r;
  }

  /** Only the holder drops, with the final position. */
  drop(id: ObjectId, peer: PeerId, x: number, y: number): ApplyResult {
    return this.board.apply({ type: 'drop', id, peer, x, y });
  }

  touch(peer: PeerId, now: number): void {
    this.activeAt.set(peer, now);
  }

  /** Releases every lock a departed peer held (bottom to top); returns the objects. */
  releaseAll(peer: PeerId): ObjectId[] {
    this.activeAt.delete(peer);
    const r = this.board.apply({ type: 'release', peer });
    const released: ObjectId[] = [];
    if (r.ok) for (const e of r.effects) if (e.type === 'upsert') released.push(e.object.id);
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
