// The vocabulary shared by the event manager's sender and receiver halves and the RPC layer above them: delivery
// policies, event kinds and the two interfaces the layer above implements. Knows nothing of packets or RPCs.
import type { BitReader, BitWriter } from '../bitstream';

/** Delivery policies (DESIGN.md §4, "Beyond the LAN" §4.2-4.3). */
export const POLICIES = [
  'unreliable', // never resent; processed on arrival
  'unreliableSequenced', // never resent; never processed after a newer one of its channel
  'reliableUnordered', // resent until delivered; processed on arrival
  'reliableOrdered', // resent until delivered; processed in order within its channel
  'reliableSequenced', // only the newest of its channel is resent; never processed after a newer one
  'quickest', // written into every packet until one carrying it is delivered; in order within its channel
] as const;
export type Policy = (typeof POLICIES)[number];

/** Channels carry no wire bits (an event's channel follows from its kind), so this bounds tables, not packets. */
export const MAX_CHANNELS = 256;
export const MAX_PRIORITY = 7;
export const MAX_COPIES = 3;

/** An event class as the event manager sees it; both ends derive it from the same registration. */
export interface EventKind {
  readonly id: number;
  readonly name: string;
  readonly policy: Policy;
  /** 0..MAX_CHANNELS-1. Reliable-ordered and quickest events of a channel share one ordered stream. */
  readonly channel: number;
  /** 0..MAX_PRIORITY, higher goes first when a packet is short of room. */
  readonly priority: number;
  /** Leaves at once when send credit allows instead of at the next tick (a pointer, a grab). */
  readonly urgent: boolean;
  /**
   * Reliable-ordered only: how many packets each send goes out in (1..MAX_COPIES). Copies after the first ride
   * the next packets that have room; the event is resent only when every copy in flight is lost. A lost packet
   * then costs a chat line nothing instead of a loss detection (about an RTT) per hop.
   */
  readonly copies: number;
}

/** One event queued to send. Its body is written at packet-build time, so table strings follow the table then. */
export interface OutgoingEvent {
  readonly kind: EventKind;
  /** Upper bound of writeBody's bits, measured when queued. */
  readonly maxBodyBits: number;
  writeBody(w: BitWriter): void;
}

/** What the receiving half needs from the layer above: kinds by id, and a body reader. */
export interface EventDecoder {
  /** Bits of the kind id on the wire. */
  readonly idBits: number;
  kindById(id: number): EventKind | undefined;
  /**
   * Reads an event's body (hostile input throws DecodeError/ProtocolError) and returns what delivers it. Bodies
   * are read even when the event turns out to be a duplicate: that is how the reader gets past them.
   */
  readBody(kind: EventKind, r: BitReader): (now: number) => void;
}

export function isOrderedStream(p: Policy): boolean {
  return p === 'reliableOrdered' || p === 'quickest';
}

export function isReliable(p: Policy): boolean {
  return p !== 'unreliable' && p !== 'unreliableSequenced';
}

/** Per-policy counters, one slot per policy. */
export type PerPolicy<T> = Record<Policy, T>;

export function perPolicy<T>(make: () => T): PerPolicy<T> {
  return {
    unreliable: make(),
    unreliableSequenced: make(),
    reliableUnordered: make(),
    reliableOrdered: make(),
    reliableSequenced: make(),
    quickest: make(),
  };
}
