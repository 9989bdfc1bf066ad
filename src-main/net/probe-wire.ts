// Byte codecs for RTT probes (nearest mirror): a joiner's PROBE and a host's PROBE-REPLY, under the handshake marker.
// Knows no keys, join codes, sockets or connection state.
import { HANDSHAKE_MARKER } from './handshake';

/** Handshake types 6 and 7 (1..5 are the join handshake's, handshake.ts). */
export const PROBE_TYPE = 6;
export const PROBE_REPLY_TYPE = 7;
export const PROBE_BYTE = HANDSHAKE_MARKER | PROBE_TYPE;
export const PROBE_REPLY_BYTE = HANDSHAKE_MARKER | PROBE_REPLY_TYPE;

/** The probe's nonce, 8 bytes: an off-path stranger must guess it to fake a reply (and a low RTT). */
export const PROBE_NONCE_SIZE = 8;
/**
 * PROBE: marker (1 B), protocol version (u16 BE), nonce (8 B), zero padding to 32 B. Padded past the reply so a
 * spoofed source never gets back more bytes than it sent (DESIGN.md §3); nothing in it comes from the join code.
 */
export const PROBE_SIZE = 32;
/** PROBE-REPLY: marker (1 B), the host's protocol version (u16 BE), the probe's nonce echoed (8 B). */
export const PROBE_REPLY_SIZE = 1 + 2 + PROBE_NONCE_SIZE;

export interface ProbePacket {
  readonly version: number;
  readonly nonce: Uint8Array;
}

export interface ProbeDecodeError {
  readonly error: 'short' | 'bad-length' | 'unknown-type';
}

export function isProbeDecodeError(r: ProbePacket | ProbeDecodeError): r is ProbeDecodeError {
  return 'error' in r;
}

function write(first: number, size: number, p: ProbePacket): Uint8Array {
  if (!Number.isInteger(p.version) || p.version < 0 || p.version > 0xffff)
    throw new RangeError(`probe version out of range: ${p.version}`);
  if (p.nonce.length !== PROBE_NONCE_SIZE)
    throw new RangeError(`probe nonce must be ${PROBE_NONCE_SIZE} bytes, got ${p.nonce.length}`);
  const b = new Uint8Array(size);
  b[0] = first;
  b[1] = p.version >>> 8;
  b[2] = p.version & 0xff;
  b.set(p.nonce, 3);
  return b;
}

export function encodeProbe(p: ProbePacket): Uint8Array {
  return write(PROBE_BYTE, PROBE_SIZE, p);
}

export function encodeProbeReply(p: ProbePacket): Uint8Array {
  return write(PROBE_REPLY_BYTE, PROBE_REPLY_SIZE, p);
}

/**
 * Hostile input returns a typed error and never throws. A PROBE shorter than PROBE_SIZE is refused (answering it
 * would amplify); longer is fine (more padding). A PROBE-REPLY is exact.
 */
export function decodeProbe(
  bytes: Uint8Array,
  kind: 'probe' | 'reply',
): ProbePacket | ProbeDecodeError {
  const first = bytes[0];
  if (first === undefined) return { error: 'short' };
  if (first !== (kind === 'probe' ? PROBE_BYTE : PROBE_REPLY_BYTE))
    return { error: 'unknown-type' };
  const size = kind === 'probe' ? PROBE_SIZE : PROBE_REPLY_SIZE;
  if (bytes.length < size) return { error: 'short' };
  if (kind === 'reply' && bytes.length > size) return { error: 'bad-length' };
  return {
    version: ((bytes[1] ?? 0) << 8) | (bytes[2] ?? 0),
    nonce: bytes.slice(3, 3 + PROBE_NONCE_SIZE),
  };
}

/** Whether a datagram's first byte says it is a probe or a probe's reply (it is still to be decoded). */
export function isProbeByte(first: number): boolean {
  return first === PROBE_BYTE || first === PROBE_REPLY_BYTE;
}
