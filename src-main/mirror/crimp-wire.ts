// CRIMP's datagram, bit-packed: the sender, an optional state block (clock stamps for the RTT and the per-origin
// "received up to" vector that makes payloads stable) and a run of DATA and NAK messages. Every read is bounded
// and a bad datagram is a typed error, never a throw. Knows nothing of timers, links or what payloads mean.
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import type { DecodeErrorCode } from '../net/bitstream';
import type { MirrorId } from './mirror-id';
import { MAX_MIRRORS, MIRROR_ID_BITS } from './mirror-id';

/** A payload's number within its origin's stream: 1, 2, 3… (0 means "nothing yet"); a safe integer, never wraps. */
export type CrimpSeq = number;

/** Largest datagram read at all, bytes (a link's or a socket's datagram never exceeds it). */
export const CRIMP_MAX_DATAGRAM_BYTES = 1400;
/** Largest run of sequence numbers one NAK asks for. */
export const CRIMP_MAX_NAK_RUN = 64;
/** Stamps are ms mod 2^16: an RTT sample (round trip plus hold) must stay below 65.5 s to be read right. */
export const CRIMP_STAMP_BITS = 16;
/** Largest hold time an echo reports, ms (a stamp held longer is useless for an RTT and is not echoed). */
export const CRIMP_MAX_HELD_MS = 30_000;
const STAMP_BITS = CRIMP_STAMP_BITS;
const STAMP_MASK = 2 ** STAMP_BITS - 1;
const MESSAGE_KIND_BITS = 2;
const MESSAGE_KINDS = ['data', 'nak'] as const;

/** One origin's entry in the state vector: what the sender holds of that origin's stream. */
export interface CrimpVectorEntry {
  readonly origin: MirrorId;
  /** The sender has every payload 1..upTo of this origin. */
  readonly upTo: CrimpSeq;
  /** The highest seq of this origin the sender knows exists (≥ upTo): a receiver missing the tail learns of it. */
  readonly maxSeen: CrimpSeq;
}

export interface CrimpState {
  /** The sender's clock when it sent this, ms mod 2^16. */
  readonly stamp: number;
  /** The newest stamp the sender heard from the receiver and how long it held it (ms): one RTT sample. */
  readonly echo?: { readonly stamp: number; readonly heldMs: number };
  readonly vector: readonly CrimpVectorEntry[];
}

export type CrimpMessage =
  | {
      readonly kind: 'data';
      readonly origin: MirrorId;
      readonly seq: CrimpSeq;
      /** A re-send answering a NAK (it also suppresses other mirrors' pending repairs of the same payload). */
      readonly repair: boolean;
      readonly payload: Uint8Array;
    }
  /** Asks for `first .. first + count - 1` of `origin`'s stream. */
  | {
      readonly kind: 'nak';
      readonly origin: MirrorId;
      readonly first: CrimpSeq;
      readonly count: number;
    };

export interface CrimpDatagram {
  readonly sender: MirrorId;
  readonly state?: CrimpState;
  readonly messages: readonly CrimpMessage[];
}

export type CrimpDecodeErrorCode = DecodeErrorCode | 'too-large' | 'bad-seq' | 'duplicate-origin';

export interface CrimpDecodeError {
  readonly error: CrimpDecodeErrorCode;
  readonly detail: string;
}

export function isCrimpDecodeError(d: CrimpDatagram | CrimpDecodeError): d is CrimpDecodeError {
  return 'error' in d;
}

export function writeCrimpHeader(w: BitWriter, sender: MirrorId, state?: CrimpState): void {
  w.writeUint(sender, MIRROR_ID_BITS);
  w.writeBool(state !== undefined);
  if (state === undefined) return;
  w.writeUint(state.stamp & STAMP_MASK, STAMP_BITS);
  w.writeBool(state.echo !== undefined);
  if (state.echo !== undefined) {
    w.writeUint(state.echo.stamp & STAMP_MASK, STAMP_BITS);
    w.writeVarUint(Math.min(CRIMP_MAX_HELD_MS, Math.max(0, Math.round(state.echo.heldMs))));
  }
  w.writeRanged(state.vector.length, 0, MAX_MIRRORS);
  for (const e of state.vector) {
    w.writeUint(e.origin, MIRROR_ID_BITS);
    w.writeVarUint(e.upTo);
    w.writeVarUint(e.maxSeen - e.upTo);
  }
}

/** One message, preceded by a "more follows" bit (the reader stops at the first 0). */
export function writeCrimpMessage(w: BitWriter, m: CrimpMessage): void {
  w.writeBool(true);
  w.writeUint(MESSAGE_KINDS.indexOf(m.kind), MESSAGE_KIND_BITS);
  w.writeUint(m.origin, MIRROR_ID_BITS);
  switch (m.kind) {
    case 'data':
      w.writeVarUint(m.seq);
      w.writeBool(m.repair);
      w.writeByteArray(m.payload);
      return;
    case 'nak':
      w.writeVarUint(m.first);
      w.writeRanged(m.count, 1, CRIMP_MAX_NAK_RUN);
      return;
  }
}

/** Closes the message run; the datagram's bytes follow from `w.finish()`. */
export function writeCrimpEnd(w: BitWriter): void {
  w.writeBool(false);
}

/**
 * Packs messages into as few datagrams of at most `maxBytes` as they fit, the state block (if any) in the first;
 * each datagram goes to `emit` with the (origin, seq) of the DATA it carries.
 */
export function packCrimpDatagrams(
  w: BitWriter,
  sender: MirrorId,
  state: CrimpState | undefined,
  messages: readonly CrimpMessage[],
  maxBytes: number,
  emit: (bytes: Uint8Array, carried: readonly (readonly [MirrorId, CrimpSeq])[]) => void,
): void {
  const limitBits = maxBytes * 8 - 1;
  let carried: (readonly [MirrorId, CrimpSeq])[] = [];
  /** What the datagram being built holds besides its header: messages, or a state block. */
  let count = 0;
  const start = (withState: CrimpState | undefined): void => {
    w.truncate(0);
    writeCrimpHeader(w, sender, withState);
    carried = [];
    count = withState === undefined ? 0 : 1;
  };
  const finish = (): void => {
    writeCrimpEnd(w);
    emit(w.finish(), carried);
  };
  start(state);
  for (const m of messages) {
    const before = w.bitLength;
    writeCrimpMessage(w, m);
    if (w.bitLength > limitBits && count > 0) {
      w.truncate(before);
      finish();
      start(undefined);
      writeCrimpMessage(w, m);
    }
    count++;
    if (m.kind === 'data') carried.push([m.origin, m.seq]);
  }
  if (count > 0) finish();
}

export function encodeCrimpDatagram(d: CrimpDatagram): Uint8Array {
  const w = new BitWriter(64);
  writeCrimpHeader(w, d.sender, d.state);
  for (const m of d.messages) writeCrimpMessage(w, m);
  writeCrimpEnd(w);
  return w.finish();
}

/** Reads a datagram from anyone: payloads above `maxPayloadBytes` and any malformed field are typed errors. */
export function decodeCrimpDatagram(
  bytes: Uint8Array,
  maxPayloadBytes: number,
): CrimpDatagram | CrimpDecodeError {
  if (bytes.length > CRIMP_MAX_DATAGRAM_BYTES)
    return { error: 'too-large', detail: `${bytes.length} bytes` };
  try {
    return readDatagram(new BitReader(bytes), maxPayloadBytes);
  } catch (e) {
    if (e instanceof DecodeError) return { error: e.code, detail: e.message };
    if (e instanceof CrimpFieldError) return { error: e.code, detail: e.message };
    throw e;
  }
}

class CrimpFieldError extends Error {
  constructor(
    readonly code: 'bad-seq' | 'duplicate-origin',
    message: string,
  ) {
    super(message);
  }
}

function readSeq(r: BitReader, allowZero: boolean): CrimpSeq {
  const seq = r.readVarUint();
  if (seq === 0 && !allowZero) throw new CrimpFieldError('bad-seq', 'sequence 0');
  return seq;
}

function readDatagram(r: BitReader, maxPayloadBytes: number): CrimpDatagram {
  const sender = r.readUint(MIRROR_ID_BITS);
  const state = r.readBool() ? readState(r) : undefined;
  const messages: CrimpMessage[] = [];
  // Each message takes at least 11 bits, so the datagram's size bounds the run.
  while (r.readBool()) messages.push(readMessage(r, maxPayloadBytes));
  if (r.bitsLeft >= 8)
    throw new DecodeError('invalid', `${r.bitsLeft} bits after the last message`);
  return state === undefined ? { sender, messages } : { sender, state, messages };
}

function readState(r: BitReader): CrimpState {
  const stamp = r.readUint(STAMP_BITS);
  let echo: CrimpState['echo'];
  if (r.readBool()) {
    const echoed = r.readUint(STAMP_BITS);
    const heldMs = r.readVarUint();
    if (heldMs > CRIMP_MAX_HELD_MS) throw new DecodeError('range', `held ${heldMs} ms`);
    echo = { stamp: echoed, heldMs };
  }
  const n = r.readRanged(0, MAX_MIRRORS);
  const vector: CrimpVectorEntry[] = [];
  // Origins seen, as two 32-bit masks (ids are 6 bits).
  const seen = [0, 0];
  for (let i = 0; i < n; i++) {
    const origin = r.readUint(MIRROR_ID_BITS);
    const word = origin >>> 5;
    const bit = 1 << (origin & 31);
    if (((seen[word] ?? 0) & bit) !== 0)
      throw new CrimpFieldError('duplicate-origin', `origin ${origin}`);
    seen[word] = (seen[word] ?? 0) | bit;
    const upTo = readSeq(r, true);
    const ahead = r.readVarUint();
    const maxSeen = upTo + ahead;
    if (!Number.isSafeInteger(maxSeen)) throw new CrimpFieldError('bad-seq', 'maxSeen overflows');
    vector.push({ origin, upTo, maxSeen });
  }
  return echo === undefined ? { stamp, vector } : { stamp, echo, vector };
}

function readMessage(r: BitReader, maxPayloadBytes: number): CrimpMessage {
  const kind = MESSAGE_KINDS[r.readUint(MESSAGE_KIND_BITS)];
  if (kind === undefined) throw new DecodeError('invalid', 'unknown message kind');
  const origin = r.readUint(MIRROR_ID_BITS);
  switch (kind) {
    case 'data': {
      const seq = readSeq(r, false);
      const repair = r.readBool();
      const payload = r.readByteArray(maxPayloadBytes);
      return { kind, origin, seq, repair, payload };
    }
    case 'nak': {
      const first = readSeq(r, false);
      const count = r.readRanged(1, CRIMP_MAX_NAK_RUN);
      if (!Number.isSafeInteger(first + count))
        throw new CrimpFieldError('bad-seq', 'run overflows');
      return { kind, origin, first, count };
    }
  }
}
