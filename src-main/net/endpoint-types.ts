// The endpoint's surface: its options, events, counters, and the other protocols that may share its socket (a
// rendezvous tenant, a TURN relay). Types and defaults only.
import type { PeerAddress } from './address';
import type { ConnectFailure } from './client-handshake';
import type { CloseInfo } from './close-reason';
import type { Connection, ConnectionOptions } from './connection';
import { DEFAULT_CONNECTION_OPTIONS } from './connection';
import { SESSION_CHANNEL } from './handshake';
import type { ProbeOutcome } from './nearest-probe';

export interface EndpointOptions {
  readonly joinCode: string;
  readonly protocolVersion: number;
  /**
   * CPace's channel label: the session's (`SESSION_CHANNEL`) by default; mirror links use their own, so a join
   * code and a mirror secret can never be confused.
   */
  readonly channel: string;
  readonly connection: ConnectionOptions;
  /** Host caps: established plus pending connections, globally and per source IP. */
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
  /** Host caps on connections accepted but not yet confirmed by the client's first sealed packet. */
  readonly maxPending: number;
  readonly maxPendingPerIp: number;
  /**
   * Failed attempts (a host reply that was never followed by a sealed packet: a wrong code, or a guesser) a source
   * may have outstanding before it is refused; one is forgiven every `failureRefillMs`. A source is an IPv4
   * address or an IPv6 /64.
   */
  readonly maxFailuresPerSource: number;
  readonly failureRefillMs: number;
  /**
   * After this many failed attempts in all, a weak code (under 40 bits: the speakable ones) is locked: every join
   * is refused with 'code-locked' until the host sets a new code. Bounds what guessers from many addresses can try.
   */
  readonly codeLockFailures: number;
  readonly handshakeRetryMs: number;
  readonly handshakeTimeoutMs: number;
}

export const DEFAULT_ENDPOINT_OPTIONS: Omit<EndpointOptions, 'joinCode' | 'protocolVersion'> = {
  channel: SESSION_CHANNEL,
  connection: DEFAULT_CONNECTION_OPTIONS,
  maxConnections: 512,
  maxConnectionsPerIp: 300,
  maxPending: 64,
  maxPendingPerIp: 16,
  maxFailuresPerSource: 8,
  failureRefillMs: 10_000,
  codeLockFailures: 30,
  handshakeRetryMs: 250,
  handshakeTimeoutMs: 10_000,
};

export type EndpointEvent<R> =
  | { readonly type: 'connected'; readonly conn: Connection<R> }
  | { readonly type: 'closed'; readonly conn: Connection<R>; readonly info: CloseInfo }
  | {
      readonly type: 'connect-failed';
      readonly peer: PeerAddress;
      readonly reason: ConnectFailure;
    }
  /** Host: the join code took too many failed attempts and is refused until `setJoinCode`. */
  | { readonly type: 'code-locked'; readonly failures: number }
  /** Client (connectNearest): what each of the session's hosts answered, and which is dialled. */
  | { readonly type: 'probed'; readonly outcome: ProbeOutcome }
  /** Joined through a probe, and probed again: `to` is clearly nearer than the joined host (nearest-join.ts). */
  | {
      readonly type: 'nearer';
      readonly to: PeerAddress;
      readonly outcome: ProbeOutcome;
    };

export interface Transmit {
  readonly to: PeerAddress;
  readonly bytes: Uint8Array;
  /** An IP TTL for this datagram only (NAT priming); the socket's default otherwise. */
  readonly ttl?: number;
  /** The local port to send from: absent or 0 the main one, 1..n the transport's extra ports (a hard NAT's fan). */
  readonly via?: number;
}

/**
 * A relay on the endpoint's socket (a TURN client): datagrams from its server are its own, whatever their first
 * byte (TURN's overlap ours); what it unwraps is handled as if it came from the peer, and what we send to a peer it
 * relays is wrapped for its server.
 */
export interface DatagramRelay {
  isServer(from: PeerAddress): boolean;
  handleDatagram(now: number, from: PeerAddress, bytes: Uint8Array): void;
  pollInbound(): { readonly from: PeerAddress; readonly bytes: Uint8Array } | undefined;
  isRelayed(to: PeerAddress): boolean;
  wrap(to: PeerAddress, bytes: Uint8Array): Transmit | undefined;
  /** Relays for this peer from now on (a joiner who reached us through the relay is answered through it). */
  permit(now: number, peer: PeerAddress): boolean;
  handleTimeout(now: number): void;
  nextTimeout(): number;
  pollTransmit(): Transmit | undefined;
}

/**
 * Another protocol on the endpoint's socket (rendezvous): it gets every datagram whose first byte is ≥ 0xE0, and
 * its datagrams and timer are the endpoint's own.
 */
export interface DatagramTenant {
  /** `via`: the local port it came in on (0 the main one), as in Transmit. */
  handleDatagram(now: number, from: PeerAddress, bytes: Uint8Array, via?: number): void;
  /**
   * The extra local port a peer is reached through, if any (a path opened through a hard NAT runs on the port that
   * opened it); `hasRoutes` false spares the lookup per datagram.
   */
  readonly hasRoutes?: boolean;
  routeOf?(to: PeerAddress): number | undefined;
  handleTimeout(now: number): void;
  nextTimeout(): number;
  pollTransmit(): Transmit | undefined;
}

/** Datagrams the endpoint threw away before any connection saw them, by cause. */
export interface EndpointCounters {
  empty: number;
  unknownSource: number;
  badHandshake: number;
  /** Handshake packets of the wrong kind for this side, or a HELLO too short to answer without amplification. */
  unexpectedHandshake: number;
  badCookie: number;
  /** A RESPONSE already answered whose connection is gone (a replay), or whose share was invalid. */
  replayed: number;
  badShare: number;
  /** Host replies never followed by a sealed packet: a wrong code or a guess (the host can't tell which). */
  failedAttempts: number;
  rateLimited: number;
  full: number;
  banned: number;
  codeLocked: number;
  /** Connections moved to a new path (a relayed one that found a direct path). */
  migrated: number;
  /** Host: RTT probes answered, and those dropped past a source's rate (nearest mirror). */
  probesAnswered: number;
  probesLimited: number;
}

/** Every counter at zero: a new endpoint's. */
export function newEndpointCounters(): EndpointCounters {
  return {
    empty: 0,
    unknownSource: 0,
    badHandshake: 0,
    unexpectedHandshake: 0,
    badCookie: 0,
    replayed: 0,
    badShare: 0,
    failedAttempts: 0,
    rateLimited: 0,
    full: 0,
    banned: 0,
    codeLocked: 0,
    migrated: 0,
    probesAnswered: 0,
    probesLimited: 0,
  };
}
