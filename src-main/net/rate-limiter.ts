// Bounded per-source buckets of failed join attempts, so join codes can't be guessed quickly, and the source key
// they are kept under. Pure; time passed in.

/**
 * The key a source's failures are counted under: an IPv4 address, or the /64 an IPv6 address belongs to (one
 * subscriber's network: counting per address would let a host that rotates through its 2^64 addresses guess
 * without limit). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function sourcePrefix(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!address.includes(':')) return address;
  const zoneless = address.split('%')[0] ?? address;
  const [head = '', tail] = zoneless.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill =
    tail === undefined
      ? []
      : new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  const groups = [...left, ...fill, ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export interface FailureBucketOptions {
  /** Failures a source may have before it is refused. */
  readonly burst: number;
  /** One failure is forgiven per this many ms. */
  readonly refillMs: number;
  /** The table never holds more sources than this (the least recently failed go first). */
  readonly maxKeys: number;
}

export const DEFAULT_FAILURE_BUCKET: FailureBucketOptions = {
  burst: 8,
  refillMs: 10_000,
  maxKeys: 4096,
};

/**
 * A leaky bucket of failures per source: each failure adds one, one drains per `refillMs`, and a source whose
 * bucket is full is refused until one drains. Only failures count, never successes, so people sharing an address
 * (a carrier NAT, an office) are slowed only by someone there who keeps failing, and only while they keep failing.
 */
export class FailureLimiter {
  private readonly table = new Map<string, { level: number; at: number }>();
  private readonly options: FailureBucketOptions;

  constructor(options: Partial<FailureBucketOptions> = {}) {
    this.options = { ...DEFAULT_FAILURE_BUCKET, ...options };
  }

  get size(): number {
    return this.table.size;
  }

  private level(now: number, key: string): number {
    const e = this.table.get(key);
    if (e === undefined) return 0;
    return Math.max(0, e.level - Math.max(0, now - e.at) / this.options.refillMs);
  }

  isLimited(now: number, key: string): boolean {
    return this.level(now, key) > this.options.burst - 1;
  }

  record(now: number, key: string): void {
    const level = this.level(now, key) + 1;
    // Re-insert so Map order is least-recently-failed first, then evict from the front.
    this.table.delete(key);
    this.table.set(key, { level, at: now });
    while (this.table.size > this.options.maxKeys) {
      const oldest = this.table.keys().next();
      if (oldest.done === true) break;
      this.table.delete(oldest.value);
    }
  }
}

export interface TokenBucketOptions {
  /** Requests a key may make at once. */
  readonly burst: number;
  /** Requests per second it may keep making. */
  readonly perSecond: number;
  /** The table never holds more keys than this (the least recently used go first: a full bucket again). */
  readonly maxKeys: number;
}

/**
 * Token buckets by key (a source prefix, a session): each request takes a token, tokens come back at `perSecond`
 * up to `burst`. Bounded: past `maxKeys` the least recently used key is forgotten, which only ever forgives it.
 */
export class TokenBuckets {
  private readonly table = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly options: TokenBucketOptions) {}

  get size(): number {
    return this.table.size;
  }

  /** Takes a token for `key` if it has one; false (and nothing taken) if it is out. */
  take(now: number, key: string): boolean {
    const o = this.options;
    const e = this.table.get(key);
    const tokens =
      e === undefined
        ? o.burst
        : Math.min(o.burst, e.tokens + (Math.max(0, now - e.at) * o.perSecond) / 1000);
    this.table.delete(key);
    if (tokens < 1) {
      this.table.set(key, { tokens, at: now });
      return false;
    }
    this.table.set(key, { tokens: tokens - 1, at: now });
    while (this.table.size > o.maxKeys) {
      const oldest = this.table.keys().next();
      if (oldest.done === true) break;
      this.table.delete(oldest.value);
    }
    return true;
  }
}
