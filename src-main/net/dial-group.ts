// A client's dials of one host at several addresses at once (its LAN address, its public one, a relayed path), and
// the reason a group of them reports if all fail. Knows nothing of packets, sockets or connections.
import type { PeerAddress } from './address';
import type { ConnectFailure } from './client-handshake';
import { ClientHandshake } from './client-handshake';
import type { EndpointOptions } from './endpoint-types';

export interface Dialing {
  readonly peer: PeerAddress;
  handshake: ClientHandshake;
  /** The local port the handshake speaks from (0 the main one; a fan port once the tenant routes the host there). */
  via: number;
  /** Dials to other addresses of the same host: the first to connect cancels the rest. */
  readonly group: Set<string>;
}

/** A new handshake of a dial under the endpoint's options, started at `now`. */
export function dialHandshake(o: EndpointOptions, now: number): ClientHandshake {
  return new ClientHandshake(
    {
      joinCode: o.joinCode,
      version: o.protocolVersion,
      channel: o.channel,
      retryMs: o.handshakeRetryMs,
      timeoutMs: o.handshakeTimeoutMs,
    },
    now,
  );
}

/** Reasons a dial failed, the most telling first: a group of dials reports the best any of them learnt. */
const FAILURE_RANK: readonly ConnectFailure[] = [
  'wrong-code',
  'banned',
  'code-locked',
  'version-mismatch',
  'full',
  'rate-limited',
  'unreachable',
];

/** Failures of a group's dials that ended before the rest, by group. */
export class GroupFailures {
  private readonly byGroup = new WeakMap<Set<string>, ConnectFailure>();

  /** One of the group's dials failed for `reason`: the most telling reason the group has learnt so far. */
  record(group: Set<string>, reason: ConnectFailure): ConnectFailure {
    const earlier = this.byGroup.get(group);
    const best =
      earlier !== undefined && FAILURE_RANK.indexOf(earlier) < FAILURE_RANK.indexOf(reason)
        ? earlier
        : reason;
    this.byGroup.set(group, best);
    return best;
  }
}
