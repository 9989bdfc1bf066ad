// The sending side's replicated objects: marking state dirty fans out to every connection ghosting the object,
// and destroying one tells them all. Knows nothing of the wire, ghost ids or packets.
import type { GhostClass, GhostRegistry } from './ghost-class';

/** One connection's ghost record of a source; the source tells it of every change (TRIBES Ghost Record). */
export interface GhostObserver {
  /**
   * Returns the groups marking again would change nothing for (dirty, queued to send, not a repeat): the source
   * skips this observer for those until the observer calls `unhold`. 0 is always correct.
   */
  onDirty(mask: number): number;
  onDestroyed(): void;
  /** Its place in the source's observers, kept by the source (attach / detach). */
  observerIndex: number;
}

export interface GhostSourceOptions {
  /** TRIBES "ghost always": in scope on every connection whatever the scope callback says. */
  readonly always?: boolean;
  /** Priority of an always-in-scope object when the scope callback does not give one (default 1). */
  readonly alwaysPriority?: number;
}

/** A replicated object on the sending side: the app's object plus the per-connection records ghosting it. */
export class GhostSource<S = unknown> {
  readonly always: boolean;
  readonly alwaysPriority: number;
  private readonly observers: GhostObserver[] = [];
  /**
   * Per observer, at the same index: the groups it said marking again would not change (see GhostObserver.onDirty). A
   * change then skips the connections already waiting to send it without touching their records: on a busy host
   * most records of a moving pointer are, and each touch of a record was a likely cache miss.
   */
  private held = new Uint32Array(4);
  /**
   * Changes so far, and per group the change that last touched it. A record held across its writes (see
   * FairQueue.keepInLine: a far pointer the packets can't keep up with) learns its dirty groups from these when its
   * turn comes, instead of being told of each change.
   */
  private changeCount = 0;
  private readonly changedAt: number[];
  /** The groups the latest change touched: what a record one change behind reads (the common case). */
  private lastMask = 0;
  private isDestroyed = false;

  constructor(
    private readonly domain: GhostDomain,
    readonly cls: GhostClass<S, unknown>,
    readonly classId: number,
    readonly obj: S,
    options: GhostSourceOptions,
  ) {
    this.always = options.always ?? false;
    this.alwaysPriority = options.alwaysPriority ?? 1;
    this.changedAt = cls.groups.map(() => 0);
  }

  /** How many changes have been marked so far (see changedSince). */
  get changes(): number {
    return this.changeCount;
  }

  /** The groups changed after the change numbered `seen`. */
  changedSince(seen: number): number {
    // A record told of every change but this one (a pointer's records, on each of its moves) asks for this.
    if (seen === this.changeCount - 1) return this.lastMask;
    let m = 0;
    const at = this.changedAt;
    for (let g = 0; g < at.length; g++) if ((at[g] as number) > seen) m |= 1 << g;
    return m >>> 0;
  }

  get destroyed(): boolean {
    return this.isDestroyed;
  }

  /** Connections ghosting this object now. */
  get observerCount(): number {
    return this.observers.length;
  }

  /** The object changed the state of these groups: every connection ghosting it will send their current state. */
  markDirty(mask: number): void {
    if (this.isDestroyed) throw new Error(`markDirty on a destroyed ${this.cls.name}`);
    const m = mask >>> 0;
    if ((m & ~this.cls.allMask) !== 0) {
      throw new RangeError(`mask ${m.toString(2)} has bits ${this.cls.name} has no group for`);
    }
    if (m === 0) return;
    const c = ++this.changeCount;
    this.lastMask = m;
    for (let g = 0, b = m; b !== 0; g++, b >>>= 1) if ((b & 1) !== 0) this.changedAt[g] = c;
    const observers = this.observers;
    const held = this.held;
    for (let i = 0; i < observers.length; i++) {
      if (((held[i] as number) & m) !== m) held[i] = (observers[i] as GhostObserver).onDirty(m);
    }
  }

  /** The observer's next change must reach it again (its record sent, or changed state). */
  unhold(observer: GhostObserver): void {
    if (this.observers[observer.observerIndex] === observer) this.held[observer.observerIndex] = 0;
  }

  /**
   * Changes to these groups skip the observer until it calls `unhold`: it reads them from `changedSince` when it
   * next looks (see GhostObserver.onDirty for the other way an observer comes to be skipped).
   */
  hold(observer: GhostObserver, mask: number): void {
    if (this.observers[observer.observerIndex] === observer)
      this.held[observer.observerIndex] = mask;
  }

  /** Removes the object: its ghost is deleted on every connection. */
  destroy(): void {
    if (this.isDestroyed) return;
    this.isDestroyed = true;
    this.domain.remove(this);
    // A record never sent lets go of its observer at once, so walk a copy.
    for (const observer of this.observers.slice()) observer.onDestroyed();
    this.observers.length = 0;
  }

  /** For ghost managers: start / stop telling this record of changes. */
  attach(observer: GhostObserver): void {
    const i = this.observers.length;
    if (i === this.held.length) {
      const grown = new Uint32Array(i * 2);
      grown.set(this.held);
      this.held = grown;
    }
    observer.observerIndex = i;
    this.observers.push(observer);
    this.held[i] = 0;
  }

  detach(observer: GhostObserver): void {
    const i = observer.observerIndex;
    if (this.observers[i] !== observer) return;
    const last = this.observers.length - 1;
    const moved = this.observers[last] as GhostObserver;
    this.observers[i] = moved;
    this.held[i] = this.held[last] as number;
    moved.observerIndex = i;
    this.observers.pop();
    this.held[last] = 0;
    observer.observerIndex = -1;
  }
}

/** The set of objects one side replicates (one per side, shared by all its connections' ghost managers). */
export class GhostDomain {
  private readonly alwaysSet = new Set<GhostSource>();
  private count = 0;
  /** Bumped when the always-in-scope set changes, so managers rescope at once. */
  version = 0;
  /** Told when the version changes (each connection's sender, to wake its scheduler). */
  private readonly watchers = new Set<() => void>();

  constructor(readonly registry: GhostRegistry) {}

  /** Makes `obj` replicable; nothing is sent until a manager scopes it (or it is always in scope). */
  add<S>(cls: GhostClass<S, unknown>, obj: S, options: GhostSourceOptions = {}): GhostSource<S> {
    const classId = this.registry.idOf(cls);
    const source = new GhostSource<S>(this, cls, classId, obj, options);
    this.count++;
    if (source.always) {
      this.alwaysSet.add(source);
      this.bump();
    }
    return source;
  }

  /** Calls `fn` after every version change until the returned function is called. */
  watch(fn: () => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  private bump(): void {
    this.version++;
    for (const w of this.watchers) w();
  }

  get size(): number {
    return this.count;
  }

  get alwaysInScope(): ReadonlySet<GhostSource> {
    return this.alwaysSet;
  }

  /** Called by GhostSource.destroy. */
  remove(source: GhostSource): void {
    this.count--;
    if (this.alwaysSet.delete(source)) this.bump();
  }
}
