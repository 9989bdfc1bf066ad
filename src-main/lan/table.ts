// The sessions seen on the LAN: a bounded table with expiry on an injected clock. Pure: no sockets, no timers;
// knows nothing of mDNS packets (records.ts turns those into sightings).
import type { Advert } from './txt';

/** One session as the start screen lists it. */
export interface LanSession {
  /** The DNS-SD instance name, lowercased: what a goodbye names. */
  readonly key: string;
  readonly name: string;
  /** IPv4 first; at most MAX_ADDRESSES. */
  readonly addresses: readonly string[];
  readonly port: number;
  readonly version: number;
  readonly id: string;
  readonly users: number | null;
  /** ms on the table's clock when it was last heard. */
  readonly lastSeen: number;
}

/** One complete description of a session heard in one mDNS response. */
export interface Sighting {
  readonly key: string;
  readonly advert: Advert;
  readonly port: number;
  readonly addresses: readonly string[];
  /** The smallest TTL of its records, seconds (> 0: goodbyes are not sightings). */
  readonly ttlS: number;
}

export interface TableLimits {
  readonly maxSessions: number;
  /**
   * An entry lives min(TTL, this) after it was last heard. bonjour-service gives its PTR record 8 hours, so
   * TTL alone would list a crashed host all day; the browser re-queries well within this bound.
   */
  readonly maxAgeMs: number;
}

export const DEFAULT_LIMITS: TableLimits = { maxSessions: 64, maxAgeMs: 75_000 };
export const MAX_ADDRESSES = 8;
/** RFC 6762 §10.1: a goodbye (TTL 0) is kept one more second, so a quick re-announcement doesn't flicker. */
const GOODBYE_GRACE_MS = 1000;

interface Entry {
  session: LanSession;
  expiresAt: number;
}

export type ObserveResult = 'added' | 'changed' | 'refreshed' | 'full';

export class SessionTable {
  private readonly entries = new Map<string, Entry>();
  /** Sightings refused because the table was full (a flood, or a very busy network). */
  refusedFull = 0;

  constructor(private readonly limits: TableLimits = DEFAULT_LIMITS) {}

  observe(now: number, s: Sighting): ObserveResult {
    const old = this.entries.get(s.key);
    if (old === undefined && this.entries.size >= this.limits.maxSessions) {
      this.refusedFull++;
      return 'full';
    }
    const addresses = mergeAddresses(s.addresses, old?.session.addresses ?? []);
    const session: LanSession = {
      key: s.key,
      name: s.advert.name,
      addresses,
      port: s.port,
      version: s.advert.version,
      id: s.advert.id,
      users: s.advert.users,
      lastSeen: now,
    };
    const expiresAt = now + Math.min(s.ttlS * 1000, this.limits.maxAgeMs);
    this.entries.set(s.key, { session, expiresAt });
    if (old === undefined) return 'added';
    return sameShown(old.session, session) ? 'refreshed' : 'changed';
  }

  /** A goodbye for `key`: it goes one second from now unless it is announced again. */
  goodbye(now: number, key: string): void {
    const e = this.entries.get(key);
    if (e !== undefined) e.expiresAt = Math.min(e.expiresAt, now + GOODBYE_GRACE_MS);
  }

  /** Drops what has expired; true if anything went. */
  expire(now: number): boolean {
    let gone = false;
    for (const [k, e] of this.entries) {
      if (e.expiresAt <= now) {
        this.entries.delete(k);
        gone = true;
      }
    }
    return gone;
  }

  /** When the next entry expires, if any. */
  nextExpiry(): number | undefined {
    let next: number | undefined;
    for (const e of this.entries.values())
      if (next === undefined || e.expiresAt < next) next = e.expiresAt;
    return next;
  }

  /** By name, then id: a stable order for a list on screen. */
  list(): LanSession[] {
    return [...this.entries.values()]
      .map((e) => e.session)
      .sort((a, b) => (a.name === b.name ? cmp(a.id, b.id) : cmp(a.name, b.name)));
  }

  get size(): number {
    return this.entries.size;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A response without address records keeps the addresses heard before. */
function mergeAddresses(fresh: readonly string[], old: readonly string[]): readonly string[] {
  return fresh.length > 0 ? fresh.slice(0, MAX_ADDRESSES) : old;
}

function sameShown(a: LanSession, b: LanSession): boolean {
  return (
    a.name === b.name &&
    a.port === b.port &&
    a.version === b.version &&
    a.id === b.id &&
    a.users === b.users &&
    a.addresses.length === b.addresses.length &&
    a.addresses.every((x, i) => x === b.addresses[i])
  );
}
