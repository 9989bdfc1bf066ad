// Packet sequence numbers: full 53-bit counters locally, a few low bits on the wire. Knows nothing of packets.

/**
 * A packet sequence number. Locally it is the full counter (a safe integer; at
 * 10,000 packets/s it would take 28,000 years to overflow), used as the AEAD
 * nonce. On the wire only its low bits travel and the receiver expands them
 * against a reference it already knows.
 */
export type Seq = number & { readonly __seq: unique symbol };

export function asSeq(n: number): Seq {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`bad sequence ${n}`);
  return n as Seq;
}

/** The low `bits` bits of a sequence number, as written on the wire. */
export function seqLow(seq: Seq, bits: number): number {
  return seq % 2 ** bits;
}

/**
 * The full sequence whose low bits are `low` and that lies nearest `reference`
 * (in the half-open window [reference - 2^(bits-1), reference + 2^(bits-1))).
 * This is the wrap-aware comparison: the receiver never needs more than the
 * window's width of context. Returns -1 if the nearest candidate is negative.
 */
export function seqExpand(low: number, bits: number, reference: number): number {
  const span = 2 ** bits;
  const half = span / 2;
  const base = reference - (reference % span);
  let candidate = base + low;
  if (candidate < reference - half) candidate += span;
  else if (candidate >= reference + half) candidate -= span;
  return candidate;
}
