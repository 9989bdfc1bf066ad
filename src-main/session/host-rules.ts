// The host's side of the lock rules: drives the board core's grab, drop and release through the host's executor,
// and keeps what the core cannot know, each holder's last activity, to release the locks of holders gone quiet.
// Knows nothing of connections.
import type { ObjectId, PeerId } from '../../shared/board';
import type { BoardExecutor, Executed } from './board-executor';

export class HostRules {
  /** Last drag activity per holder. */
  private readonly activeAt = new Map<PeerId, number>();

  constructor(
    private readonly executor: Pick<BoardExecutor, 'execute'>,
    private readonly lockTimeoutMs: number,
  ) {}

  /** The first grab the host sees wins. */
  grab(id: ObjectId, peer: PeerId, now: number): Executed {
    const r = this.executor.execute(peer, { type: 'grab', id, peer }, now);
    if (r.ok) this.activeAt.set(peer, now);
    return r;
  }

  /** Only the holder drops, with the final position. */
  drop(id: ObjectId, peer: PeerId, x: number, y: number, now: number): Executed {
    return this.executor.execute(peer, { type: 'drop', id, peer, x, y }, now);
  }

  touch(peer: PeerId, now: number): void {
    this.activeAt.set(peer, now);
  }

  /** Releases every lock a departed peer held (bottom to top); returns the objects. */
  releaseAll(peer: PeerId, now: number): ObjectId[] {
    this.activeAt.delete(peer);
    const r = this.executor.execute(peer, { type: 'release', peer }, now);
    const released: ObjectId[] = [];
    if (r.ok) for (const e of r.effects) if (e.type === 'upsert') released.push(e.object.id);
    return released;
  }

  /** Releases locks of peers (not the host) quiet for longer than the timeout. */
  expire(now: number): { id: ObjectId; peer: PeerId }[] {
    const out: { id: ObjectId; peer: PeerId }[] = [];
    for (const [peer, at] of this.activeAt) {
      if (peer === 0 || now - at < this.lockTimeoutMs) continue;
      for (const id of this.releaseAll(peer, now)) out.push({ id, peer });
    }
    return out;
  }
}
