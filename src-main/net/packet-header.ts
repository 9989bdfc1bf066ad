// The clear, bit-packed notify header of a data-phase packet. Knows nothing of crypto or stream managers.
import type { BitReader, BitWriter } from './bitstream';
import { DecodeError } from './bitstream';
import { asSeq, seqExpand, seqLow } from './seq';

/**
 * Packet kinds in the first two bits. Handshake packets start with 0b11
 * (first byte >= 0xC0) and have their own byte layout (handshake.ts).
 */
export const PacketKind = { data: 0, ack: 1, close: 2 } as const;
export type PacketKind = (typeof PacketKind)[keyof typeof PacketKind];

/** Wire width of the send sequence and of the highest-received field, in bits. */
export const SEQ_WIRE_BITS = 8;
/**
 * Most packets one ack mask describes (below the highest received). The sender never has more than this
 * many packets in flight, so anything older than the mask is a packet the sender has already been told about.
 */
export const ACK_MASK_MAX = 96;
/** Ack delays above this (ms) are clamped; they only shave an RTT sample. */
const ACK_DELAY_MAX_MS = 4095;
/** Mask lengths 0..6 cost 3 bits; 7 escapes to 7 more bits (TRIBES' ack byte count idea, in bits). */
const MASK_LEN_SHORT_MAX = 6;
const MASK_LEN_LONG_BITS = 7;

export interface NotifyHeader {
  readonly kind: PacketKind;
  /** Full send sequence of this packet (only the low SEQ_WIRE_BITS travel). */
  readonly seq: number;
  /** Highest sequence received from the peer, full (0 = nothing received yet). */
  readonly ack: number;
  /** How many sequences just below `ack` the mask describes, 0..ACK_MASK_MAX. */
  readonly ackMaskLength: number;
  /** Bit (i % 32) of word (i >> 5) set = sequence ack-1-i was received, for i < ackMaskLength. */
  readonly ackMask: readonly number[];
  /** Time in ms between receiving `ack` and sending this packet, present only the first time an ack is sent. */
  readonly ackDelayMs: number | undefined;
}

export function writeNotifyHeader(w: BitWriter, h: NotifyHeader): void {
  w.writeUint(h.kind, 2);
  w.writeUint(seqLow(asSeq(h.seq), SEQ_WIRE_BITS), SEQ_WIRE_BITS);
  w.writeUint(seqLow(asSeq(h.ack), SEQ_WIRE_BITS), SEQ_WIRE_BITS);
  const len = h.ackMaskLength;
  if (len <= MASK_LEN_SHORT_MAX) {
    w.writeUint(len, 3);
  } else {
    w.writeUint(MASK_LEN_SHORT_MAX + 1, 3);
    w.writeUint(len - MASK_LEN_SHORT_MAX - 1, MASK_LEN_LONG_BITS);
  }
  for (let i = 0; i < len; i++) w.writeBool(maskBit(h.ackMask, i));
  w.writeBool(h.ackDelayMs !== undefined);
  if (h.ackDelayMs !== undefined) {
    w.writeVarUint(Math.min(ACK_DELAY_MAX_MS, Math.max(0, Math.round(h.ackDelayMs))));
  }
}

/** What the receiver already knows, to expand the wire's low bits. */
export interface HeaderContext {
  /** Next sequence expected from the peer (highest received + 1). */
  readonly expectedSeq: number;
  /** The last sequence this side sent (acks can't be above it). */
  readonly lastSentSeq: number;
}

/**
 * Reads the header; throws DecodeError on truncation or an impossible field.
 * The packet is not yet authenticated: callers must not act on these fields
 * until the AEAD tag checks out.
 */
export function readNotifyHeader(r: BitReader, ctx: HeaderContext): NotifyHeader {
  const kind = r.readUint(2);
  if (kind !== PacketKind.data && kind !== PacketKind.ack && kind !== PacketKind.close) {
    throw new DecodeError('invalid', `packet kind ${kind}`);
  }
  const seq = seqExpand(r.readUint(SEQ_WIRE_BITS), SEQ_WIRE_BITS, ctx.expectedSeq);
  const ackLow = r.readUint(SEQ_WIRE_BITS);
  // Acks name a packet we sent: expand just below our newest one.
  const ack = seqExpand(ackLow, SEQ_WIRE_BITS, ctx.lastSentSeq - 2 ** (SEQ_WIRE_BITS - 1) + 1);
  let ackMaskLength = r.readUint(3);
  if (ackMaskLength > MASK_LEN_SHORT_MAX) {
    ackMaskLength = r.readUint(MASK_LEN_LONG_BITS) + MASK_LEN_SHORT_MAX + 1;
  }
  if (ackMaskLength > ACK_MASK_MAX) throw new DecodeError('range', `ack mask ${ackMaskLength}`);
  const ackMask = new Array<number>(Math.ceil(ackMaskLength / 32)).fill(0);
  for (let i = 0; i < ackMaskLength; i++) {
    if (r.readBool()) setMaskBit(ackMask, i);
  }
  const ackDelayMs = r.readBool() ? r.readVarUint() : undefined;
  if (ackDelayMs !== undefined && ackDelayMs > ACK_DELAY_MAX_MS) {
    throw new DecodeError('range', `ack delay ${ackDelayMs}`);
  }
  return { kind, seq, ack, ackMaskLength, ackMask, ackDelayMs };
}

export function maskBit(mask: readonly number[], i: number): boolean {
  return (((mask[i >> 5] ?? 0) >>> (i & 31)) & 1) === 1;
}

export function setMaskBit(mask: number[], i: number): void {
  mask[i >> 5] = ((mask[i >> 5] ?? 0) | (1 << (i & 31))) >>> 0;
}
