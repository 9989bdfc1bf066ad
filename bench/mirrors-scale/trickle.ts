// The mirrors-scale bench's trickle of edits and chat: each user edits about once a minute (a new rectangle at
// its home, or a move of an object its board shows) and chats about once every two minutes, drawn from the run's
// seeded Rng on a 100 ms tick. Knows nothing of mirrors or of what is measured.
import type { Rng } from '../../src-main/net/rng';
import type { Joiner } from '../../src-main/mirrored/testing/mirror-hosts';
import { newRect } from '../../shared/testing/rect';
import type { Layout } from './layout';
import { homeOf } from './layout';

const EDIT_EVERY_MS = 60_000;
const CHAT_EVERY_MS = 120_000;
const TICK_MS = 100;

export class Trickle {
  private edits = 0;
  private chats = 0;
  /** Fractions of an edit and a chat owed since the last tick (the expected count accrues each tick). */
  private editOwed = 0;
  private chatOwed = 0;

  constructor(
    private readonly rng: Rng,
    private readonly lay: Layout,
    private readonly users: readonly Joiner[],
  ) {}

  counts(): { edits: number; chats: number } {
    return { edits: this.edits, chats: this.chats };
  }

  /** One 100 ms tick's share of the session's edits and chat lines. */
  tick(now: number): void {
    const n = this.users.length;
    this.editOwed += (n * TICK_MS) / EDIT_EVERY_MS;
    this.chatOwed += (n * TICK_MS) / CHAT_EVERY_MS;
    for (; this.editOwed >= 1; this.editOwed--) this.edit(this.rng.int(n));
    for (; this.chatOwed >= 1; this.chatOwed--) {
      const u = this.rng.int(n);
      this.users[u]?.peer.chat(`line ${this.chats} from user ${u} at ${Math.round(now)}`);
      this.chats++;
    }
  }

  private edit(u: number): void {
    const peer = this.users[u]?.peer;
    if (peer === undefined) return;
    const objects = peer.board.all();
    const h = homeOf(this.lay, u);
    if (objects.length === 0 || this.rng.bool()) {
      peer.create(newRect({ x: Math.round(h.x), y: Math.round(h.y + 150) }));
    } else {
      const o = this.rng.pick(objects);
      peer.edit(o.id, { x: Math.round(o.x + this.rng.range(-50, 50)) });
    }
    this.edits++;
  }
}
