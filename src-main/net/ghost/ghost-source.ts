// The sending side's replicated objects: marking state dirty fans out to every connection ghosting the object,
// and destroying one tells them all. Knows nothing of the wire, ghost ids or packets.
import type { GhostClass, GhostRegistry } from './ghost-class';

/** One connection's ghost record of a source; the source tells it of every change (TRIBES Ghost Record). */
export interface GhostLink {
  onDirty(mask: number): void;
  onDestroyed(): void;
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
  private readonly links: GhostLink[] = [];
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
  }

  get destroyed(): boolean {
    return this.isDestroyed;
  }

  /** Connections ghosting this object now. */
  get linkCount(): number {
    return this.links.length;
  }

  /** The object changed the state of these groups: every connection ghosting it will send their current state. */
  markDirty(mask: number): void {
    if (this.isDestroyed) throw new Error(`markDirty on a destroyed ${this.cls.name}`);
    const m = mask >>> 0;
    if ((m & ~this.cls.allMask) !== 0) {
      throw new RangeError(`mask ${m.toString(2)} has bits ${this.cls.name} has no group for`);
    }
    if (m === 0) return;
    for (const link of this.links) link.onDirty(m);
  }

  /** Removes the object: its ghost is deleted on every connection. */
  destroy(): void {
    if (this.isDestroyed) return;
    this.isDestroyed = true;
    this.domain.remove(this);
    // A record never sent lets go of its link at once, so walk a copy.
    for (const link of this.links.slice()) link.onDestroyed();
    this.links.length = 0;
  }

  /** For ghost managers: start / stop telling this record of changes. */
  attach(link: GhostLink): void {
    this.links.push(link);
  }

  detach(link: GhostLink): void {
    const i = this.links.indexOf(link);
    if (i < 0) return;
    this.links[i] = this.links[this.links.length - 1] as GhostLink;
    this.links.pop();
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
