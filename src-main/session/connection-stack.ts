// One connection's whiteboard stack: the event manager (RPCs), a presence ghost manager written before the
// events (pointers must never wait behind a board download) and a board ghost manager after them.
// Knows nothing of what the host or a peer does with what arrives.
import type { Connection } from '../net/connection';
import type { GhostEvents } from '../net/ghost/ghost-receiver';
import type { GhostScopeFn } from '../net/ghost/ghost-sender';
import { GhostManager } from '../net/ghost/ghost-manager';
import type { GhostDomain } from '../net/ghost/ghost-source';
import type { RatePolicy } from '../net/stream/rate';
import { isPacketRate } from '../net/stream/rate';
import type { PacketRecord } from '../net/stream/scheduler';
import type { EventStack } from '../net/stream/stack';
import { createEventStack } from '../net/stream/stack';
import type { CloseInfo } from '../net/close-reason';
import { BOARD_REGISTRY, PRESENCE_REGISTRY } from './ghost-classes';
import type { Protocol } from './protocol';

/** Session packets are full-size so one create or edit (up to ~1,100 B) always fits; rate adapts by packet count. */
export const SESSION_PACKET_BYTES = 1200;
export const SESSION_MAX_EVENT_BITS = 8800;
/**
 * Events of one channel in flight at once: a window sends at most this many per round trip, so 128 held a paste
 * of 1,000 creates to 8 round trips; 256 halves that (one more sequence bit per packet and channel) while a
 * hostile peer can still make the host hold at most 256 early events per channel.
 */
export const SESSION_EVENT_WINDOW = 256;
/**
 * What one connection may hold waiting to be sent before it is closed ('overflow'): room for a paste of a
 * thousand largest objects (~1.1 MB) from a peer, or minutes of chat to a slow one, while a host with 256
 * peers that all stopped reading holds at most 512 MB (the stall timeout closes them long before).
 */
export const SESSION_MAX_QUEUED_EVENTS = 4096;
export const SESSION_MAX_QUEUED_BYTES = 2 * 1024 * 1024;

/**
 * Packet rates to the host and to the peers, set apart as in TRIBES 2: the host relays every other
 * participant's pointer, so a peer accepts more packets than it sends, and a relayed pointer need not wait for
 * a slot shared with all the others. Each side tells the other what it accepts; each caps its own sending.
 */
export interface SessionRate {
  /** What a peer sends and the host accepts. */
  readonly toHost: RatePolicy;
  /** What the host sends and a peer accepts. */
  readonly toPeers: RatePolicy;
  /**
   * The most packets/s a peer accepts from a host a short round trip away (near-rate.ts); undefined: `toPeers`
   * whatever the path (a rate given by hand).
   */
  readonly nearToPeers?: number;
}

const pps = (packetsPerSecond: number): RatePolicy => ({
  packetsPerSecond,
  packetBytes: SESSION_PACKET_BYTES,
});

export function sessionRate(toHost: number, toPeers = toHost): SessionRate {
  return { toHost: pps(toHost), toPeers: pps(toPeers) };
}

/** A preset name, or packets/s to the host and, after a colon, to the peers (`60:90`; one number: both). */
export function parseSessionRate(s: string): SessionRate | undefined {
  if (Object.hasOwn(SESSION_RATES, s)) return SESSION_RATES[s as keyof typeof SESSION_RATES];
  if (!/^\d{1,3}(:\d{1,3})?$/.test(s)) return undefined;
  const [toHost = NaN, toPeers = toHost] = s.split(':').map(Number);
  return isPacketRate(toHost) && isPacketRate(toPeers) ? sessionRate(toHost, toPeers) : undefined;
}

/**
 * Receiver-set rates in the spirit of TRIBES, in full-size packets. Peers may send 66 packets/s, a tenth over a
 * 60 Hz mouse: a pointer leaves with its frame (at exactly the frame rate, any other packet would leave the
 * credit short and every pointer after it would wait), and other data rides the pointer's packets. The host
 * sends each peer up to 85 (broadband) or 120 (lan), so a relayed pointer waits for a free slot at most a few
 * milliseconds; a peer a short round trip from its host (a mirror at its site) accepts up to 195 or 240, so that
 * wait stays a fraction of the path (near-rate.ts). The host's own cap is the board download's rate (210 or 240).
 */
export const SESSION_RATES = {
  modem: sessionRate(10, 10),
  broadband: { ...sessionRate(66, 85), nearToPeers: 195 },
  lan: { ...sessionRate(66, 120), nearToPeers: 240 },
} as const satisfies Record<string, SessionRate>;

/**
 * Board objects one connection can carry at once: room for a board at its object limit (20,000 from
 * participants; more from the host's own user or a file), where the ghost layer's default (16,384) stopped a
 * joiner of a full board short. Ids stay as wide as the ghosts live need (15 bits at most here); a peer of an
 * older build refuses ids past 14 bits, so only a board of over 16,384 objects tells it apart.
 */
export const BOARD_MAX_GHOSTS = 32_768;

export interface ConnectionStackOptions {
  readonly proto: Protocol;
  /** What this side accepts. */
  readonly rate: RatePolicy;
  /** The cap on this side's own sending. */
  readonly sendRate: RatePolicy;
  readonly presenceDomain: GhostDomain;
  readonly presenceScope?: GhostScopeFn;
  readonly presenceEvents: GhostEvents;
  /** Host: the board it ghosts. Peers only receive the board. */
  readonly boardDomain?: GhostDomain;
  readonly boardScope?: GhostScopeFn;
  readonly boardEvents?: GhostEvents;
  readonly onClosed: (now: number, info: CloseInfo) => void;
}

export interface ConnectionStack {
  readonly conn: Connection<PacketRecord>;
  readonly events: EventStack;
  readonly presence: GhostManager;
  readonly board: GhostManager;
}

export function buildConnectionStack(
  conn: Connection<PacketRecord>,
  o: ConnectionStackOptions,
): ConnectionStack {
  const presence = new GhostManager({
    name: 'presence',
    registry: PRESENCE_REGISTRY,
    domain: o.presenceDomain,
    ...(o.presenceScope === undefined ? {} : { scope: o.presenceScope }),
    events: o.presenceEvents,
    maxGhosts: 1024,
    // Priorities and views follow pointers that move all the time: ten scope passes a second are plenty, and
    // fewer with more than a hundred pointers in scope (a pass visits every pointer: 256 peers' hosts spent 8 % of
    // their time in passes at ten a second). Joins, leaves and a new viewport rescope at once; a far pointer in
    // scope is sent a few times a second anyway, and one out of the peer's view (presence-scope.ts) not at all.
    scopeIntervalMs: 100,
    scopeMsPerObject: 1,
    // Pointers go first, but with a hundred of them moving they would fill every packet: chat, joins and
    // edits waiting behind them get at least half.
    maxShare: 0.5,
  });
  const board = new GhostManager({
    name: 'board',
    registry: BOARD_REGISTRY,
    maxGhosts: BOARD_MAX_GHOSTS,
    // Every object is in scope (peers keep the whole board), so a periodic pass only refreshes priorities (distance
    // to the view, a change in the last 2 s); a pass visits every object. Four a second at most (the default 20
    // were a mirror's 250 peers' 5,000 passes a second over a board of a few hundred objects), and spaced by board
    // size like the pointers' (20 a second of a 5,000-object board was 100,000 visits a second per peer); an added
    // object is admitted and a new viewport rescopes at once.
    scopeIntervalMs: 250,
    scopeMsPerObject: 1,
    ...(o.boardDomain === undefined ? {} : { domain: o.boardDomain }),
    ...(o.boardScope === undefined ? {} : { scope: o.boardScope }),
    ...(o.boardEvents === undefined ? {} : { events: o.boardEvents }),
  });
  const stack = createEventStack(conn, {
    registry: o.proto.registry,
    rate: o.rate,
    sendRate: o.sendRate,
    maxEventBits: SESSION_MAX_EVENT_BITS,
    window: SESSION_EVENT_WINDOW,
    maxQueued: SESSION_MAX_QUEUED_EVENTS,
    maxQueuedBytes: SESSION_MAX_QUEUED_BYTES,
    minPacketBytes: SESSION_PACKET_BYTES,
    before: [presence],
    after: [board],
    onClosed: (now, info) => {
      presence.dispose();
      board.dispose();
      o.onClosed(now, info);
    },
  });
  return { conn, events: stack, presence, board };
}
