// The impairment proxy's counters and their JSON-ready snapshot shape; knows nothing of sockets or of how verdicts are made.
import { UDP_IPV4_OVERHEAD } from '../../src-main/net/stats';

/**
 * A count of datagrams with their payload bytes and on-wire bytes. On-wire bytes add 28 B (IPv4 + UDP
 * headers) per datagram even over IPv6 (where it would be 48 B), so figures match SimNetwork's and the
 * bandwidth cap means the same thing on both families.
 */
export interface Tally {
  datagrams: number;
  bytes: number;
  wireBytes: number;
}

/** What one direction (up: client to target; down: target to client) did with the datagrams offered. */
export interface DirectionStats {
  /** Received by the proxy for this direction. offered = forwarded + droppedLoss + droppedQueue. */
  readonly offered: Tally;
  /** Passed the impairment (each counted once; its extra copy is in `duplicates`). */
  readonly forwarded: Tally;
  /** Dropped by the loss probability. */
  readonly droppedLoss: Tally;
  /** Tail-dropped at the bottleneck queue, or past the proxy's in-flight byte cap. */
  readonly droppedQueue: Tally;
  /** Extra copies made by duplication. */
  readonly duplicates: Tally;
  /** Copies handed to the socket so far (lags forwarded + duplicates while they are delayed). */
  readonly sent: Tally;
}

export interface PathStats {
  readonly up: DirectionStats;
  readonly down: DirectionStats;
}

export interface ClientStats extends PathStats {
  /** The client's source address, "host:port". */
  readonly client: string;
}

export interface ProxyStats {
  readonly total: PathStats;
  /** Clients with a live entry (expired clients are only in `total`). */
  readonly clients: readonly ClientStats[];
  /** Datagrams from new clients turned away because maxClients entries were live. */
  readonly rejected: Tally;
  /** Datagrams reaching a client's upstream socket from anyone but the target. */
  readonly foreign: Tally;
  readonly clientsExpired: number;
  /** Socket error events and failed sends, counted instead of thrown. */
  readonly socketErrors: number;
  /** Copies waiting in the delivery queue. */
  readonly inFlight: number;
}

export function newTally(): Tally {
  return { datagrams: 0, bytes: 0, wireBytes: 0 };
}

export function newPathStats(): PathStats {
  const direction = (): DirectionStats => ({
    offered: newTally(),
    forwarded: newTally(),
    droppedLoss: newTally(),
    droppedQueue: newTally(),
    duplicates: newTally(),
    sent: newTally(),
  });
  return { up: direction(), down: direction() };
}

/** Counts one datagram of `payloadBytes` into each tally given. */
export function count(payloadBytes: number, ...tallies: Tally[]): void {
  for (const t of tallies) {
    t.datagrams++;
    t.bytes += payloadBytes;
    t.wireBytes += payloadBytes + UDP_IPV4_OVERHEAD;
  }
}
