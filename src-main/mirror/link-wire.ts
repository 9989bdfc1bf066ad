// What travels inside a mirror link's sealed packets, bit-packed: the HELLO that names the mirror, CRIMP
// datagrams, clock probes and answers, and membership messages (group-wire.ts), then maybe a stream's section (the
// participants' ghosts). Reads are bounded and a bad packet is a typed error. Knows nothing of connections, timers
// or what CRIMP, the group messages and the stream carry.
//
// Packet layout: (1 · kind (KIND_BITS) · the message)* · 0 · [1 · the stream's section]. The section's flag comes
// after the end bit and only when a section follows, so a packet without one reads as it always did: its padding
// (fewer than 8 zero bits) reads as no flag.
import type { BitReader, BitWriter } from '../net/bitstream';
import { DecodeError } from '../net/bitstream';
import type { DecodeErrorCode } from '../net/bitstream';
import { CRIMP_MAX_DATAGRAM_BYTES } from './crimp-wire';
import { GROUP_MAX_MESSAGE_BYTES } from './group-wire';
import type { MirrorId } from './mirror-id';
import { MIRROR_ID_BITS } from './mirror-id';

export type LinkMessage =
  /** Sent until the peer has it: this side's mirror id. */
  | { readonly kind: 'hello'; readonly id: MirrorId }
  | { readonly kind: 'crimp'; readonly bytes: Uint8Array }
  /** Our clock (ms) when the probe left. */
  | { readonly kind: 'probe'; readonly t0: number }
  /** The probe's t0 echoed, our clock when it arrived (t1) and when the answer left (t2). */
  | { readonly kind: 'answer'; readonly t0: number; readonly t1: number; readonly t2: number }
  // membership (joins, view changes, board transfer): one message of group-wire.ts, also on a link not yet named
  | { readonly kind: 'group'; readonly bytes: Uint8Array };

const KINDS = [
  'hello',
  'crimp',
  'probe',
  'answer',
  // membership
  'group',
] as const;
/** Wide enough for every kind: a kind added at the end widens it by itself. */
const KIND_BITS = Math.ceil(Math.log2(KINDS.length));
/** Messages one packet may hold (a CRIMP datagram fills one; the others are a few bytes). */
export const LINK_MAX_MESSAGES = 16;

export type LinkDecodeError = { readonly error: DecodeErrorCode; readonly detail: string };

/** A clock reading as a float64 (ms, exact): any finite value a clock can show. */
function writeTime(w: BitWriter, t: number): void {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, t);
  w.writeBytes(b);
}

function readTime(r: BitReader): number {
  const t = new DataView(r.readBytes(8).buffer).getFloat64(0);
  if (!Number.isFinite(t)) throw new DecodeError('range', 'time is not finite');
  return t;
}

export function writeLinkMessage(w: BitWriter, m: LinkMessage): void {
  w.writeBool(true);
  w.writeUint(KINDS.indexOf(m.kind), KIND_BITS);
  switch (m.kind) {
    case 'hello':
      w.writeUint(m.id, MIRROR_ID_BITS);
      return;
    case 'crimp':
    case 'group':
      w.writeByteArray(m.bytes);
      return;
    case 'probe':
      writeTime(w, m.t0);
      return;
    case 'answer':
      writeTime(w, m.t0);
      writeTime(w, m.t1);
      writeTime(w, m.t2);
      return;
  }
}

export function writeLinkEnd(w: BitWriter): void {
  w.writeBool(false);
}

/** After the end bit: a stream section follows. */
export function writeLinkSectionFlag(w: BitWriter): void {
  w.writeBool(true);
}

/** Whether a stream section follows the end bit (the packet's padding, or its end, says none). */
export function readLinkSectionFlag(r: BitReader): boolean {
  return r.bitsLeft > 0 && r.readBool();
}

/** The bits a message takes, to know whether it fits a packet's budget. */
export function linkMessageBits(m: LinkMessage): number {
  switch (m.kind) {
    case 'hello':
      return 1 + KIND_BITS + MIRROR_ID_BITS;
    case 'crimp':
    case 'group':
      // A varuint length takes 5 bits per 4 bits of value.
      return (
        1 +
        KIND_BITS +
        5 * Math.ceil(Math.max(1, Math.log2(m.bytes.length + 1)) / 4) +
        8 * m.bytes.length
      );
    case 'probe':
      return 1 + KIND_BITS + 64;
    case 'answer':
      return 1 + KIND_BITS + 3 * 64;
  }
}

export function readLinkMessages(r: BitReader): LinkMessage[] | LinkDecodeError {
  try {
    const out: LinkMessage[] = [];
    while (r.readBool()) {
      if (out.length >= LINK_MAX_MESSAGES) throw new DecodeError('length', 'too many messages');
      out.push(readMessage(r));
    }
    return out;
  } catch (e) {
    if (e instanceof DecodeError) return { error: e.code, detail: e.message };
    throw e;
  }
}

export function isLinkDecodeError(m: LinkMessage[] | LinkDecodeError): m is LinkDecodeError {
  return !Array.isArray(m);
}

function readMessage(r: BitReader): LinkMessage {
  const kind: LinkMessage['kind'] | undefined = KINDS[r.readUint(KIND_BITS)];
  if (kind === undefined) throw new DecodeError('invalid', 'unknown link message');
  switch (kind) {
    case 'hello':
      return { kind, id: r.readUint(MIRROR_ID_BITS) };
    case 'crimp':
      return { kind, bytes: r.readByteArray(CRIMP_MAX_DATAGRAM_BYTES) };
    case 'group':
      return { kind, bytes: r.readByteArray(GROUP_MAX_MESSAGE_BYTES) };
    case 'probe':
      return { kind, t0: readTime(r) };
    case 'answer':
      return { kind, t0: readTime(r), t1: readTime(r), t2: readTime(r) };
  }
}
