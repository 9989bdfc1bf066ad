// A connection's entry in the endpoint's table (its path, how far its join got), and the host's caps counted over
// the table. Knows nothing of routing, handshakes or sockets.
import type { PeerAddress } from './address';
import type { Connection } from './connection';
import type { EndpointOptions } from './endpoint-types';

export interface Entry<R> {
  readonly conn: Connection<R>;
  peer: PeerAddress;
  ip: string;
  /** Host side: the client's CPace share and the ACCEPT, resent if the same RESPONSE arrives again. */
  readonly clientShare?: Uint8Array;
  readonly accept?: Uint8Array;
  /** Host side: the source whose failure it counts as if it ends without the client's first sealed packet. */
  readonly attemptFrom?: string;
  opened: boolean;
  announced: boolean;
  /** The local port its peer reaches us on (0 the main one; a fan port through a hard NAT): we answer from it. */
  via: number;
  /** Its cached deadline's version (see deadline-cache.ts). */
  version: number;
}

/** Whether the host's caps leave room for one more connection from `ip`, pending ones counted apart too. */
export function hasRoomFor<R>(
  entries: ReadonlyMap<string, Entry<R>>,
  ip: string,
  o: EndpointOptions,
): boolean {
  let total = 0;
  let perIp = 0;
  let pending = 0;
  let pendingPerIp = 0;
  for (const e of entries.values()) {
    total++;
    const isPending = e.conn.state === 'pending';
    if (isPending) pending++;
    if (e.ip === ip) {
      perIp++;
      if (isPending) pendingPerIp++;
    }
  }
  return (
    total < o.maxConnections &&
    perIp < o.maxConnectionsPerIp &&
    pending < o.maxPending &&
    pendingPerIp < o.maxPendingPerIp
  );
}
