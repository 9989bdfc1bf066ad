// Connections moved to a new path (a relayed one whose peer reached us directly): how often a source may make us
// try moving one, and their old addresses, still accepted a few seconds. Knows nothing of keys, packets or sockets.
import { sourcePrefix, TokenBuckets } from './rate-limiter';

/** A moved connection's old address is still accepted this long. */
const ALIAS_MS = 5_000;
const MAX_ALIASES = 256;

/** What it needs of an endpoint's entry: its connection's current key. */
interface Keyed {
  readonly conn: { readonly peer: string };
}

export class MovedConnections<E extends Keyed> {
  /** Old addresses of connections moved to a new path, kept for packets still on their way. */
  private readonly aliases = new Map<string, { readonly entry: E; readonly until: number }>();
  /** Trial decryptions for moving a connection, per source. */
  private readonly migrations = new TokenBuckets({ burst: 4, perSecond: 2, maxKeys: 1024 });

  /** `entries`: the endpoint's connections by current key; an alias of one no longer there is dropped. */
  constructor(private readonly entries: ReadonlyMap<string, E>) {}

  /** Takes a token for a trial decryption of a datagram from `address`; false if its source is out of them. */
  mayTry(now: number, address: string): boolean {
    return this.migrations.take(now, sourcePrefix(address));
  }

  /** `entry` moved from the key `old`: that address stays its alias for a few seconds. */
  moved(now: number, old: string, entry: E): void {
    this.aliases.set(old, { entry, until: now + ALIAS_MS });
    while (this.aliases.size > MAX_ALIASES) {
      const first = this.aliases.keys().next();
      if (first.done === true) break;
      this.aliases.delete(first.value);
    }
  }

  /** A moved connection's old address, for a few seconds. */
  aliasOf(now: number, key: string): E | undefined {
    const a = this.aliases.get(key);
    if (a === undefined) return undefined;
    if (a.until < now || this.entries.get(a.entry.conn.peer) !== a.entry) {
      this.aliases.delete(key);
      return undefined;
    }
    return a.entry;
  }
}
