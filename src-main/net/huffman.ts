// Static canonical Huffman code over byte values, tuned for whiteboard/chat text; knows nothing of packets, fields or string framing.
import type { BitReader, BitWriter } from './bitstream';

/** Longest code allowed; keeps the decoder's lookahead window within one 32-bit peek. */
const MAX_CODE_CAP = 24;
/** Codes up to this long decode with one table lookup; longer ones scan a per-length limit table. */
const PRIMARY_BITS = 10;

/**
 * Relative byte frequencies of typical whiteboard labels and chat lines. Only the ratios
 * matter. Every byte keeps a nonzero weight so the code is complete: any bit sequence decodes,
 * and the only possible decode failure is running out of bits.
 */
function textWeights(): number[] {
  const weights = new Array<number>(256).fill(1);
  // Printable ASCII not listed below still turns up now and then in typed text.
  for (let b = 0x21; b < 0x7f; b++) weights[b] = 4;
  // UTF-8 lead bytes of 2..4 byte sequences and continuation bytes (accents, CJK, emoji).
  for (let b = 0x80; b <= 0xbf; b++) weights[b] = 3;
  for (let b = 0xc2; b <= 0xf4; b++) weights[b] = 2;

  // English letter frequencies per 1000 letters, a..z (the usual published estimates).
  const letters = [
    82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24, 67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20,
    1,
  ];
  letters.forEach((perMille, i) => {
    weights[0x61 + i] = perMille * 10; // lower case dominates typed text
    weights[0x41 + i] = Math.max(6, perMille); // capitals: sentence starts, names, acronyms
  });
  weights[0x20] = 2000; // space: roughly one character in six
  const digits = [90, 80, 60, 45, 40, 45, 35, 30, 30, 35]; // '0'..'9'; 0 and 1 lead (Benford, round numbers)
  digits.forEach((w, i) => (weights[0x30 + i] = w));
  const punctuation: [string, number][] = [
    ['.', 150],
    [',', 140],
    ["'", 60],
    ['!', 40],
    ['?', 40],
    ['-', 40],
    ['\n', 40],
    ['"', 30],
    [':', 30],
    ['(', 15],
    [')', 15],
    ['/', 15],
    [';', 10],
    ['@', 10],
    ['#', 10],
    ['_', 10],
  ];
  for (const [ch, w] of punctuation) weights[ch.charCodeAt(0)] = w;
  return weights;
}

/** Huffman code lengths for `weights` (two-queue construction; ties broken by symbol). */
function huffmanLengths(weights: readonly number[]): number[] {
  const n = weights.length;
  const nodeWeight = [...weights];
  const parent = new Array<number>(2 * n - 1).fill(-1);
  const leaves = weights
    .map((_, i) => i)
    .sort((x, y) => (weights[x] ?? 0) - (weights[y] ?? 0) || x - y);
  let leafHead = 0;
  let innerHead = n; // internal nodes are created in non-decreasing weight order
  const takeSmallest = (innerEnd: number): number => {
    const leaf = leaves[leafHead];
    if (
      leaf !== undefined &&
      (innerHead >= innerEnd || (nodeWeight[leaf] ?? 0) <= (nodeWeight[innerHead] ?? 0))
    ) {
      leafHead++;
      return leaf;
    }
    return innerHead++;
  };
  for (let inner = n; inner < 2 * n - 1; inner++) {
    const first = takeSmallest(inner);
    const second = takeSmallest(inner);
    nodeWeight[inner] = (nodeWeight[first] ?? 0) + (nodeWeight[second] ?? 0);
    parent[first] = inner;
    parent[second] = inner;
  }
  // A parent is always created after its children, so one backwards pass fills every depth.
  const depth = new Array<number>(2 * n - 1).fill(0);
  for (let node = 2 * n - 3; node >= 0; node--) depth[node] = (depth[parent[node] ?? 0] ?? 0) + 1;
  return depth.slice(0, n);
}

/** Lengths capped at MAX_CODE_CAP by flattening the weights until the tree is shallow enough. */
function cappedLengths(weights: readonly number[]): number[] {
  let current = [...weights];
  for (;;) {
    const lengths = huffmanLengths(current);
    if (Math.max(...lengths) <= MAX_CODE_CAP) return lengths;
    current = current.map((w) => (w >>> 1) | 1);
  }
}

interface CanonicalCode {
  readonly codes: Uint32Array; // code of each byte, right-aligned in `lengths[b]` bits
  readonly lengths: Uint8Array; // code length of each byte, in bits
  readonly minLength: number;
  readonly maxLength: number;
  readonly sorted: Uint8Array; // bytes in canonical order (by length, then value)
  readonly firstCode: Uint32Array; // per length: numeric value of its first code
  readonly firstIndex: Uint16Array; // per length: index of its first byte in `sorted`
  readonly limit: Float64Array; // per length: end of its codes, left-aligned in maxLength bits
  readonly primary: Uint16Array; // PRIMARY_BITS prefix -> (length << 8 | byte), 0 when longer
  readonly primaryBits: number;
}

function buildCanonical(lengthOf: readonly number[]): CanonicalCode {
  const lengths = Uint8Array.from(lengthOf);
  const minLength = Math.min(...lengthOf);
  const maxLength = Math.max(...lengthOf);
  const sorted = Uint8Array.from(
    lengthOf.map((_, b) => b).sort((x, y) => (lengths[x] ?? 0) - (lengths[y] ?? 0) || x - y),
  );
  const codes = new Uint32Array(256);
  const firstCode = new Uint32Array(maxLength + 1);
  const firstIndex = new Uint16Array(maxLength + 1);
  const limit = new Float64Array(maxLength + 1);
  let code = 0;
  let index = 0;
  for (let len = 1; len <= maxLength; len++) {
    firstCode[len] = code;
    firstIndex[len] = index;
    while (index < 256 && lengths[sorted[index] ?? 0] === len) codes[sorted[index++] ?? 0] = code++;
    limit[len] = code * 2 ** (maxLength - len);
    code *= 2;
  }
  // Kraft equality: the code is complete, so every window below 2**maxLength decodes.
  if (limit[maxLength] !== 2 ** maxLength) throw new Error('huffman: code is not complete');

  const primaryBits = Math.min(PRIMARY_BITS, maxLength);
  const primary = new Uint16Array(1 << primaryBits);
  for (let b = 0; b < 256; b++) {
    const len = lengths[b] ?? 0;
    if (len > primaryBits) continue;
    const start = (codes[b] ?? 0) << (primaryBits - len);
    primary.fill((len << 8) | b, start, start + (1 << (primaryBits - len)));
  }
  return {
    codes,
    lengths,
    minLength,
    maxLength,
    sorted,
    firstCode,
    firstIndex,
    limit,
    primary,
    primaryBits,
  };
}

const CODE = buildCanonical(cappedLengths(textWeights()));

/** Shortest code length in bits; a reader can bound a byte count by bitsLeft / this. */
export const HUFFMAN_MIN_CODE_BITS = CODE.minLength;
/** Longest code length in bits. */
export const HUFFMAN_MAX_CODE_BITS = CODE.maxLength;

/** Code length in bits of one byte value. */
export function huffmanCodeLength(byte: number): number {
  return CODE.lengths[byte & 0xff] ?? 0;
}

/** Bits `huffmanWrite` would use for `bytes`. */
export function huffmanBitLength(bytes: Uint8Array): number {
  const { lengths } = CODE;
  let bits = 0;
  for (const b of bytes) bits += lengths[b] ?? 0;
  return bits;
}

export function huffmanWrite(w: BitWriter, bytes: Uint8Array): void {
  const { codes, lengths } = CODE;
  for (const b of bytes) w.writeUint(codes[b] ?? 0, lengths[b] ?? 0);
}

/** Decodes `byteCount` bytes; throws DecodeError('eof') (from the reader) when bits run out. */
export function huffmanRead(r: BitReader, byteCount: number): Uint8Array {
  const { sorted, firstCode, firstIndex, limit, primary, primaryBits, maxLength } = CODE;
  // Bound the allocation by what the stream can hold before trusting a hostile count.
  r.requireBits(byteCount * HUFFMAN_MIN_CODE_BITS);
  const out = new Uint8Array(byteCount);
  const primaryShift = maxLength - primaryBits;
  for (let i = 0; i < byteCount; i++) {
    // Past the end the window is zero-padded; skip() then rejects a code that needed those bits.
    const window = r.peekUintPadded(maxLength);
    const entry = primary[window >>> primaryShift] ?? 0;
    if (entry !== 0) {
      out[i] = entry & 0xff;
      r.skip(entry >>> 8);
      continue;
    }
    let len = primaryBits + 1;
    while (window >= (limit[len] ?? Infinity)) len++;
    const offset = (window >>> (maxLength - len)) - (firstCode[len] ?? 0);
    out[i] = sorted[(firstIndex[len] ?? 0) + offset] ?? 0;
    r.skip(len);
  }
  return out;
}
