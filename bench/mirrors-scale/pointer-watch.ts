// What each user of the mirrors-scale bench sees of the others' pointers while counting is on: moves from its own
// cluster (its view) and from anywhere else, told apart by who sent them. Knows nothing of what is measured.
import type { Joiner } from '../../src-main/mirrored/testing/mirror-hosts';
import type { Layout } from './layout';
import { clusterOf } from './layout';
import type { UserIds } from './user-ids';

export class PointerWatch {
  counting = false;
  readonly inView: number[];
  readonly outOfView: number[];

  constructor(lay: Layout, users: readonly Joiner[], ids: UserIds) {
    this.inView = new Array<number>(users.length).fill(0);
    this.outOfView = new Array<number>(users.length).fill(0);
    users.forEach((j, u) => {
      const mine = clusterOf(lay, u);
      j.peer.on((e) => {
        if (!this.counting || e.type !== 'pointer' || !e.moved) return;
        const from = ids.userOf(j.mirror, e.pointer.peer);
        if (from === undefined) return;
        const into = clusterOf(lay, from) === mine ? this.inView : this.outOfView;
        into[u] = (into[u] ?? 0) + 1;
      });
    });
  }

  /** Zeroes the counts and starts counting. */
  start(): void {
    this.inView.fill(0);
    this.outOfView.fill(0);
    this.counting = true;
  }
}
