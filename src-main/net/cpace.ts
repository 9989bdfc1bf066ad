// CPace (draft-irtf-cfrg-cpace), suite CPACE-RISTR255-SHA512, in the initiator/responder setting: both sides
// derive a generator from the join code and the session id, exchange one group element each and hash the
// Diffie-Hellman result with the transcript. Group arithmetic and hashes come from @noble/curves and
// @noble/hashes; nothing here knows packets, clocks or connections.
import { ristretto255, ristretto255_hasher } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { randomBytes } from 'node:crypto';

type Point = InstanceType<typeof ristretto255.Point>;

/** Encoded ristretto255 element, in bytes. */
export const CPACE_SHARE_SIZE = 32;
/** Intermediate session key (SHA-512 output), in bytes. */
export const CPACE_ISK_SIZE = 64;

const encoder = new TextEncoder();
const DSI = encoder.encode('CPaceRistretto255');
const DSI_ISK = encoder.encode('CPaceRistretto255_ISK');
/** SHA-512's input block: the padded generator string fills whole blocks whatever the code's length. */
const SHA512_BLOCK_BYTES = 128;
if (ristretto255_hasher.deriveToCurve === undefined)
  throw new Error('@noble/curves lacks ristretto255 element derivation');
const elementFromUniformBytes = (bytes: Uint8Array): Point => {
  const derived = ristretto255_hasher.deriveToCurve?.(bytes);
  if (derived === undefined) throw new Error('@noble/curves lacks ristretto255 element derivation');
  return derived;
};

/** The draft samples 32 bytes and clears the bits above the group's 252. */
const TOP_BYTE_MASK = 0x0f;

/** LEB128 length prefix followed by the bytes (the draft's prepend_len). */
export function prependLen(data: Uint8Array): Uint8Array {
  const prefix: number[] = [];
  let n = data.length;
  do {
    const low = n & 0x7f;
    n = Math.floor(n / 128);
    prefix.push(n > 0 ? low | 0x80 : low);
  } while (n > 0);
  return concat([Uint8Array.from(prefix), data]);
}

/** Each part with its length prepended, so no two different lists encode alike (prefix_free_cat). */
export function prefixFreeCat(...parts: readonly Uint8Array[]): Uint8Array {
  return concat(parts.map(prependLen));
}

/** The string hashed into the generator: DSI, the code, zero padding to a full block, the channel id, the session id. */
export function generatorString(prs: Uint8Array, ci: Uint8Array, sid: Uint8Array): Uint8Array {
  const zpad = Math.max(
    0,
    SHA512_BLOCK_BYTES - prependLen(prs).length - prependLen(DSI).length - 1,
  );
  return prefixFreeCat(DSI, prs, new Uint8Array(zpad), ci, sid);
}

/** RFC 9496's element derivation (its one-way map) from 64 uniform bytes. */
export function elementFromUniform(bytes: Uint8Array): Point {
  return elementFromUniformBytes(bytes);
}

/** The session's generator: no one can know its discrete log relative to another code's generator. */
export function calculateGenerator(prs: Uint8Array, ci: Uint8Array, sid: Uint8Array): Point {
  return elementFromUniformBytes(sha512(generatorString(prs, ci, sid)));
}

/** A fresh secret scalar in [1, 2^252), read little-endian from random bytes. */
export function sampleScalar(random: (n: number) => Uint8Array = defaultRandom): bigint {
  for (;;) {
    const bytes = random(32);
    if (bytes.length !== 32) throw new RangeError('sampleScalar: the source must return 32 bytes');
    bytes[31] = (bytes[31] ?? 0) & TOP_BYTE_MASK;
    const y = scalarFromBytes(bytes);
    if (y !== 0n) return y;
  }
}

/** A 32-byte little-endian scalar, as the draft's test vectors write them. */
export function scalarFromBytes(bytes: Uint8Array): bigint {
  let y = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) y = (y << 8n) | BigInt(bytes[i] ?? 0);
  return y;
}

/** Y = g^y, encoded. */
export function scalarMult(y: bigint, g: Point): Uint8Array {
  return g.multiply(y).toBytes();
}

/**
 * The peer's share raised to our scalar, encoded; null where the draft returns the neutral element: a share that
 * is not a canonical encoding, or whose result is the identity (the protocol must then abort). Untrusted input:
 * never throws.
 */
export function scalarMultVfy(y: bigint, share: Uint8Array): Uint8Array | null {
  if (share.length !== CPACE_SHARE_SIZE) return null;
  let k: Point;
  try {
    k = ristretto255.Point.fromBytes(share).multiply(y);
  } catch {
    return null;
  }
  return k.is0() ? null : k.toBytes();
}

/** One side's message: its share and associated data, each with its length. */
export function cpaceMessage(share: Uint8Array, ad: Uint8Array): Uint8Array {
  return prefixFreeCat(share, ad);
}

/** ISK = H(prefix_free_cat(DSI_ISK, sid, K) || MSGa || MSGb): initiator's message first. */
export function intermediateSessionKey(
  sid: Uint8Array,
  k: Uint8Array,
  msgA: Uint8Array,
  msgB: Uint8Array,
): Uint8Array {
  return sha512(concat([prefixFreeCat(DSI_ISK, sid, k), msgA, msgB]));
}

/** What one party needs to run CPace: the join code (PRS), a channel id and the session id both sides agreed. */
export interface CpaceInputs {
  readonly prs: Uint8Array;
  readonly ci: Uint8Array;
  readonly sid: Uint8Array;
}

export interface CpaceShare {
  readonly scalar: bigint;
  readonly share: Uint8Array;
}

/** One side's first step: a fresh scalar and the share to send. */
export function cpaceShare(inputs: CpaceInputs, scalar: bigint = sampleScalar()): CpaceShare {
  const g = calculateGenerator(inputs.prs, inputs.ci, inputs.sid);
  return { scalar, share: scalarMult(scalar, g) };
}

/**
 * The ISK from our scalar and both shares (initiator's first); null if the peer's share is invalid or leads to
 * the identity. The two sides' ISKs match only when their codes, channel ids, session ids and views of both
 * messages match; associated data is empty in this protocol.
 */
export function cpaceIsk(
  inputs: CpaceInputs,
  scalar: bigint,
  initiatorShare: Uint8Array,
  responderShare: Uint8Array,
  ownShareIsInitiator: boolean,
): Uint8Array | null {
  const peer = ownShareIsInitiator ? responderShare : initiatorShare;
  const k = scalarMultVfy(scalar, peer);
  if (k === null) return null;
  const none = new Uint8Array(0);
  return intermediateSessionKey(
    inputs.sid,
    k,
    cpaceMessage(initiatorShare, none),
    cpaceMessage(responderShare, none),
  );
}

function defaultRandom(n: number): Uint8Array {
  return new Uint8Array(randomBytes(n));
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
