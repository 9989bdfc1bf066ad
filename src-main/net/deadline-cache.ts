// The endpoint's cache of each connection's next timeout, with the earliest found in a heap with lazy deletion.
// Knows nothing of datagrams, handshakes or what a connection's timers are for.
import { DueHeap } from './due-heap';

/** What the cache needs of an endpoint's entry: its connection (key and deadline) and a version of its own. */
export interface Scheduled {
  readonly conn: { readonly peer: string; nextTimeout(): number };
  /** Bumped whenever its cached deadline is replaced or taken: older heap items for it are dead. */
  version: number;
}

/** A connection's cached nextTimeout(), valid while `version` matches its entry's. */
export interface DeadlineItem<E> {
  readonly at: number;
  readonly order: number;
  readonly entry: E;
  readonly version: number;
}

/**
 * Each connection's next timeout, cached: working it out asks the connection's stream managers for their
 * demand, and a host with hundreds of connections can't afford that for all of them on every datagram. A
 * connection's deadline is worked out again after activity on it or when its layers wake it (data queued
 * from outside its callbacks); the earliest is found in a heap with lazy deletion.
 */
export class DeadlineCache<E extends Scheduled> {
  private readonly deadlines = new DueHeap<DeadlineItem<E>>();
  private deadlineOrder = 0;
  private readonly stale = new Set<E>();

  /** `entries`: the endpoint's connections by current key; an entry no longer there has no deadline. */
  constructor(private readonly entries: ReadonlyMap<string, E>) {}

  /** Its deadline is worked out again at the next refresh. */
  markStale(entry: E): void {
    this.stale.add(entry);
  }

  refresh(): void {
    if (this.stale.size === 0) return;
    for (const e of this.stale) {
      if (this.entries.get(e.conn.peer) !== e) continue;
      const at = e.conn.nextTimeout();
      e.version++;
      if (Number.isFinite(at))
        this.deadlines.push({ at, order: this.deadlineOrder++, entry: e, version: e.version });
    }
    this.stale.clear();
    // Dead items wait in the heap until they surface; rebuild it before they outnumber the live ones much.
    if (this.deadlines.size > 4 * this.entries.size + 64) {
      const live = this.deadlines.drain().filter((d) => this.isLive(d));
      for (const d of live) this.deadlines.push(d);
    }
  }

  /** Takes the entries whose cached deadline is at or before `now`, earliest first (their deadlines are gone). */
  takeDue(now: number): E[] {
    const due: E[] = [];
    for (let top = this.earliest(); top !== undefined && top.at <= now; top = this.earliest()) {
      this.deadlines.pop();
      top.entry.version++;
      due.push(top.entry);
    }
    return due;
  }

  /** The earliest live cached deadline (dead ones on top are dropped). */
  earliest(): DeadlineItem<E> | undefined {
    for (let top = this.deadlines.peek(); top !== undefined; top = this.deadlines.peek()) {
      if (this.isLive(top)) return top;
      this.deadlines.pop();
    }
    return undefined;
  }

  private isLive(d: DeadlineItem<E>): boolean {
    return d.version === d.entry.version && this.entries.get(d.entry.conn.peer) === d.entry;
  }
}
