// The start screen's recent sessions: the last few joins (address or link without its code, and names),
// kept in browser storage, bounded. Pure functions plus a small observable holder; no React.
import { linkWithoutCode } from './reach-text';

export interface RecentSession {
  /** "host:port", or an invite link without its '#code' (a join code is never stored). */
  readonly address: string;
  /** The name this user joined under. */
  readonly name: string;
  /** The host's name, as the session showed it. */
  readonly host: string;
  /** When it was joined, ms since the epoch. */
  readonly at: number;
}

export const MAX_RECENT = 5;
export const RECENT_KEY = 'ghostboard.recent';
const MAX_FIELD = 600;

/** What may be remembered of a join address: a link loses its code; anything else is kept as typed. */
export function rememberedAddress(address: string): string {
  return linkWithoutCode(address) ?? address.trim();
}

/** Newest first, one entry per address, at most `max`. */
export function recentAdd(
  list: readonly RecentSession[],
  entry: RecentSession,
  max = MAX_RECENT,
): RecentSession[] {
  const e = { ...entry, address: rememberedAddress(entry.address) };
  return [e, ...list.filter((r) => r.address !== e.address)].slice(0, max);
}

export function recentRemove(list: readonly RecentSession[], address: string): RecentSession[] {
  return list.filter((r) => r.address !== address);
}

function isEntry(v: unknown): v is RecentSession {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  const str = (x: unknown): x is string => typeof x === 'string' && x.length <= MAX_FIELD;
  return (
    str(r.address) &&
    r.address !== '' &&
    str(r.name) &&
    str(r.host) &&
    typeof r.at === 'number' &&
    Number.isFinite(r.at)
  );
}

/** Reads what storage held; anything malformed (another version, a hand edit) is dropped, never thrown. */
export function recentParse(text: string | null): RecentSession[] {
  if (text === null) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  let list: RecentSession[] = [];
  // Oldest first, so recentAdd keeps the newest of duplicates and strips any code that slipped in.
  for (const e of [...(v as unknown[])].reverse()) {
    if (!isEntry(e)) continue;
    list = recentAdd(list, { address: e.address, name: e.name, host: e.host, at: e.at });
  }
  return list;
}

/** The part of Web Storage this needs (tests pass a Map-backed one). */
export interface StringStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The list, saved on each change; a storage that throws (private mode, quota) only loses the memory. */
export class RecentSessions {
  private list: readonly RecentSession[];
  /** The join under way: remembered once it succeeds (a typo that never connected is not worth keeping). */
  private attempt: { readonly address: string; readonly name: string } | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: StringStorage | null) {
    let text: string | null = null;
    try {
      text = storage?.getItem(RECENT_KEY) ?? null;
    } catch {
      /* unreadable: start empty */
    }
    this.list = recentParse(text);
  }

  readonly get = (): readonly RecentSession[] => this.list;

  readonly subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };

  attempting(address: string, name: string): void {
    this.attempt = { address, name };
  }

  /** The session was joined: the attempt (if any) becomes the newest entry. */
  joined(host: string, at: number): void {
    if (this.attempt === null) return;
    this.remember({ ...this.attempt, host, at });
    this.attempt = null;
  }

  remember(entry: RecentSession): void {
    this.set(recentAdd(this.list, entry));
  }

  remove(address: string): void {
    this.set(recentRemove(this.list, address));
  }

  private set(list: readonly RecentSession[]): void {
    this.list = list;
    try {
      this.storage?.setItem(RECENT_KEY, JSON.stringify(list));
    } catch {
      /* not saved: still shown this time */
    }
    for (const l of this.listeners) l();
  }
}
