// MSB-first bit packing of wire fields with bounds-checked reads; knows nothing of packets, sockets or what the fields mean.
import { huffmanBitLength, huffmanRead, huffmanWrite } from './huffman';

export type DecodeErrorCode = 'eof' | 'range' | 'varint' | 'utf8' | 'length' | 'invalid';

/** Untrusted input did not decode. Callers count it and drop the packet; it is never a bug here. */
export class DecodeError extends Error {
  readonly code: DecodeErrorCode;
  constructor(code: DecodeErrorCode, message: string) {
    super(message);
    this.name = 'DecodeError';
    this.code = code;
  }
}

/** Largest value writeVarUint accepts. */
export const VARUINT_MAX = Number.MAX_SAFE_INTEGER;
/** writeVarInt's range: zigzag doubles the magnitude, which must stay within VARUINT_MAX. */
export const VARINT_MIN = -(2 ** 52);
export const VARINT_MAX = 2 ** 52 - 1;
/** Default cap on a string's UTF-8 byte length in readString. */
export const STRING_MAX_BYTES_DEFAULT = 4096;

/**
 * Varuint layout: 4-bit groups, least significant first, each followed by a continuation bit.
 * 0..15 take 5 bits, ..255 10, ..4095 15, ..65535 20. 53 bits need 14 groups, the last holding
 * only bit 52.
 */
const VARUINT_GROUP_LIMIT = 14;

/** 2**i for i in 0..53; a variable `2 ** bits` costs V8 a slow Math.pow call per field. */
const POW2 = Float64Array.from({ length: 54 }, (_, i) => 2 ** i);
/** Widest field moved through one 32-bit window: up to 7 bits of in-byte offset + 24 bits fit. */
const WINDOW_BITS = 24;

const utf8Encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF instead of silently dropping it, so strings round-trip.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function assertBits(bits: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(bits) || bits < min || bits > max) {
    throw new RangeError(`${what}: bits must be an integer in ${min}..${max}, got ${bits}`);
  }
}

/** Bits needed for any integer in [min, max]: ceil(log2(max - min + 1)), 0 when min === max. */
export function bitsForRange(min: number, max: number): number {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
    throw new RangeError(`bitsForRange needs safe integers min <= max, got ${min}..${max}`);
  }
  const span = max - min;
  if (span > 0xffffffff) throw new RangeError(`bitsForRange: span ${span} exceeds 2**32-1`);
  return span === 0 ? 0 : 32 - Math.clz32(span);
}

function assertRanged(v: number, min: number, max: number): number {
  const bits = bitsForRange(min, max);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`writeRanged: ${v} is outside ${min}..${max}`);
  }
  return bits;
}

export class BitWriter {
  private buf: Uint8Array;
  private bitPos = 0;

  constructor(initialCapacityBytes = 64) {
    if (!Number.isInteger(initialCapacityBytes) || initialCapacityBytes < 0) {
      throw new RangeError(`BitWriter capacity must be a non-negative integer`);
    }
    this.buf = new Uint8Array(initialCapacityBytes);
  }

  get bitLength(): number {
    return this.bitPos;
  }

  get byteLength(): number {
    return (this.bitPos + 7) >>> 3;
  }

  /** Rolls back to an earlier bitLength, zeroing the dropped bits so later writes can OR in. */
  truncate(bitLength: number): void {
    if (!Number.isInteger(bitLength) || bitLength < 0 || bitLength > this.bitPos) {
      throw new RangeError(`truncate(${bitLength}) outside 0..${this.bitPos}`);
    }
    const end = this.byteLength;
    const partial = bitLength & 7;
    let clearFrom = bitLength >>> 3;
    if (partial !== 0) {
      this.buf[clearFrom] = (this.buf[clearFrom] ?? 0) & (0xff << (8 - partial));
      clearFrom++;
    }
    this.buf.fill(0, clearFrom, end);
    this.bitPos = bitLength;
  }

  writeBool(v: boolean): void {
    this.reserve(1);
    const pos = this.bitPos;
    if (v) this.buf[pos >>> 3] = (this.buf[pos >>> 3] ?? 0) | (0x80 >>> (pos & 7));
    this.bitPos = pos + 1;
  }

  writeUint(v: number, bits: number): void {
    assertBits(bits, 0, 32, 'writeUint');
    if (!Number.isInteger(v) || v < 0 || v >= (POW2[bits] ?? 0)) {
      throw new RangeError(`writeUint: ${v} does not fit in ${bits} unsigned bits`);
    }
    this.reserve(bits);
    if (bits > WINDOW_BITS) {
      this.put(v >>> 16, bits - 16);
      this.put(v & 0xffff, 16);
    } else {
      this.put(v, bits);
    }
  }

  /** Two's complement in `bits` bits (1..32). */
  writeInt(v: number, bits: number): void {
    assertBits(bits, 1, 32, 'writeInt');
    const half = POW2[bits - 1] ?? 0;
    if (!Number.isInteger(v) || v < -half || v >= half) {
      throw new RangeError(`writeInt: ${v} does not fit in ${bits} signed bits`);
    }
    this.writeUint(v < 0 ? v + 2 * half : v, bits);
  }

  writeRanged(v: number, min: number, max: number): void {
    this.writeUint(v - min, assertRanged(v, min, max));
  }

  /**
   * A value in min..max that is mostly in nearMin..nearMax (inside it): one flag bit, then the value in the near
   * range's bits when it is there, else in the whole range's.
   */
  writeNearRanged(v: number, nearMin: number, nearMax: number, min: number, max: number): void {
    const near = v >= nearMin && v <= nearMax;
    this.writeBool(near);
    if (near) this.writeRanged(v, nearMin, nearMax);
    else this.writeRanged(v, min, max);
  }

  writeVarUint(v: number): void {
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new RangeError(`writeVarUint: ${v} is not an integer in 0..${VARUINT_MAX}`);
    }
    let rest = v;
    for (;;) {
      const nibble = rest % 16;
      rest = (rest - nibble) / 16;
      const more = rest > 0 ? 1 : 0;
      this.writeUint((nibble << 1) | more, 5);
      if (more === 0) return;
    }
  }

  /** Zigzag (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...) then writeVarUint; v in VARINT_MIN..VARINT_MAX. */
  writeVarInt(v: number): void {
    if (!Number.isInteger(v) || v < VARINT_MIN || v > VARINT_MAX) {
      throw new RangeError(`writeVarInt: ${v} is not an integer in ${VARINT_MIN}..${VARINT_MAX}`);
    }
    this.writeVarUint(v < 0 ? -2 * v - 1 : 2 * v);
  }

  /** Clamps to [0, 1] and rounds to one of 2**bits - 1 steps; 0 and 1 are exact. */
  writeFloat01(v: number, bits: number): void {
    assertBits(bits, 1, 32, 'writeFloat01');
    if (Number.isNaN(v)) throw new RangeError('writeFloat01: NaN');
    const steps = (POW2[bits] ?? 0) - 1;
    this.writeUint(Math.round(Math.min(1, Math.max(0, v)) * steps), bits);
  }

  /**
   * Clamps to [-1, 1]; bits 2..32. Offset binary over 2 * (2**(bits-1) - 1) steps, so -1, 0 and
   * 1 are exact (the all-ones code is unused and rejected on read).
   */
  writeSignedFloat(v: number, bits: number): void {
    assertBits(bits, 2, 32, 'writeSignedFloat');
    if (Number.isNaN(v)) throw new RangeError('writeSignedFloat: NaN');
    const steps = (POW2[bits - 1] ?? 0) - 1;
    const q = Math.round(Math.min(1, Math.max(-1, v)) * steps);
    this.writeUint(q + steps, bits);
  }

  /** Raw bytes, no length. */
  writeBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length * 8);
    const buf = this.buf;
    const shift = this.bitPos & 7;
    let i = this.bitPos >>> 3;
    if (shift === 0) {
      buf.set(bytes, i);
    } else {
      for (const b of bytes) {
        buf[i] = (buf[i] ?? 0) | (b >>> shift);
        buf[++i] = (b << (8 - shift)) & 0xff;
      }
    }
    this.bitPos += bytes.length * 8;
  }

  /** writeVarUint(length) then the bytes. */
  writeByteArray(bytes: Uint8Array): void {
    this.writeVarUint(bytes.length);
    this.writeBytes(bytes);
  }

  /**
   * Flag bit (1 = Huffman, 0 = raw), varuint UTF-8 byte length, then the bytes Huffman-coded
   * only when strictly shorter. Lone surrogates become U+FFFD (TextEncoder's rule).
   */
  writeString(s: string): void {
    const bytes = utf8Encoder.encode(s);
    const huffman = huffmanBitLength(bytes) < bytes.length * 8;
    this.writeBool(huffman);
    this.writeVarUint(bytes.length);
    if (huffman) huffmanWrite(this, bytes);
    else this.writeBytes(bytes);
  }

  alignToByte(): void {
    this.reserve(7);
    this.bitPos = (this.bitPos + 7) & ~7;
  }

  /** A copy of the written bytes; the last byte's unused low bits are zero. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.byteLength);
  }

  /**
   * The written bytes without a copy, as finish() would return them: valid only until the writer is written to or
   * truncated again.
   */
  view(): Uint8Array {
    return this.buf.subarray(0, this.byteLength);
  }

  /**
   * Writes `bits` (0..24) bits as one 32-bit window over four bytes. Bytes past bitPos are
   * always zero, so the window can OR into the first byte and overwrite the other three.
   */
  private put(v: number, bits: number): void {
    const buf = this.buf;
    const pos = this.bitPos;
    const i = pos >>> 3;
    const word = v << (32 - (pos & 7) - bits);
    buf[i] = (buf[i] ?? 0) | (word >>> 24);
    buf[i + 1] = word >>> 16;
    buf[i + 2] = word >>> 8;
    buf[i + 3] = word;
    this.bitPos = pos + bits;
  }

  /** Grows the zero-filled buffer (doubling) so `bits` more fit, plus put()'s 3-byte overhang. */
  private reserve(bits: number): void {
    const needed = ((this.bitPos + bits) >>> 3) + 4;
    if (needed <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(needed, this.buf.length * 2));
    grown.set(this.buf);
    this.buf = grown;
  }
}

export class BitReader {
  private readonly bytes: Uint8Array;
  private pos: number;
  private readonly end: number;

  /** Reads bits [bitOffset, bitEnd) of `bytes`. */
  constructor(bytes: Uint8Array, bitOffset = 0, bitEnd = bytes.length * 8) {
    if (
      !Number.isInteger(bitOffset) ||
      !Number.isInteger(bitEnd) ||
      bitOffset < 0 ||
      bitOffset > bitEnd ||
      bitEnd > bytes.length * 8
    ) {
      throw new RangeError(`BitReader: bits ${bitOffset}..${bitEnd} outside ${bytes.length} bytes`);
    }
    this.bytes = bytes;
    this.pos = bitOffset;
    this.end = bitEnd;
  }

  /** Absolute bit position in the underlying bytes. */
  get position(): number {
    return this.pos;
  }

  get bitsLeft(): number {
    return this.end - this.pos;
  }

  /** Throws DecodeError('eof') unless `bits` more bits remain; consumes nothing. */
  requireBits(bits: number): void {
    if (bits > this.end - this.pos) {
      throw new DecodeError('eof', `need ${bits} bits at bit ${this.pos}, ${this.bitsLeft} left`);
    }
  }

  readBool(): boolean {
    this.requireBits(1);
    const pos = this.pos++;
    return ((this.bytes[pos >>> 3] ?? 0) & (0x80 >>> (pos & 7))) !== 0;
  }

  readUint(bits: number): number {
    assertBits(bits, 0, 32, 'readUint');
    this.requireBits(bits);
    const v = this.bitsAt(this.pos, bits);
    this.pos += bits;
    return v;
  }

  /**
   * The next `bits` (0..32) bits without consuming them, zero-padded past the end. For
   * table-driven decoders, which must then skip() only what they use (skip checks the bound).
   */
  peekUintPadded(bits: number): number {
    assertBits(bits, 0, 32, 'peekUintPadded');
    const avail = Math.min(bits, this.end - this.pos);
    return avail === bits
      ? this.bitsAt(this.pos, bits)
      : this.bitsAt(this.pos, avail) * (POW2[bits - avail] ?? 0);
  }

  readInt(bits: number): number {
    assertBits(bits, 1, 32, 'readInt');
    const u = this.readUint(bits);
    const half = POW2[bits - 1] ?? 0;
    return u >= half ? u - 2 * half : u;
  }

  readRanged(min: number, max: number): number {
    const u = this.readUint(bitsForRange(min, max));
    if (u > max - min) throw new DecodeError('range', `ranged value ${min + u} above ${max}`);
    return min + u;
  }

  /** What writeNearRanged wrote. */
  readNearRanged(nearMin: number, nearMax: number, min: number, max: number): number {
    return this.readBool() ? this.readRanged(nearMin, nearMax) : this.readRanged(min, max);
  }

  readVarUint(): number {
    let value = 0;
    let scale = 1;
    for (let group = 0; group < VARUINT_GROUP_LIMIT; group++) {
      const chunk = this.readUint(5);
      const nibble = chunk >>> 1;
      const more = (chunk & 1) === 1;
      if (group === VARUINT_GROUP_LIMIT - 1 && (nibble > 1 || more)) break;
      value += nibble * scale;
      if (!more) {
        // A zero top group means a shorter encoding existed; accept only the canonical one.
        if (nibble === 0 && group > 0) throw new DecodeError('varint', 'overlong varuint');
        return value;
      }
      scale *= 16;
    }
    throw new DecodeError('varint', `varuint above ${VARUINT_MAX}`);
  }

  readVarInt(): number {
    const zigzag = this.readVarUint();
    return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
  }

  readFloat01(bits: number): number {
    assertBits(bits, 1, 32, 'readFloat01');
    return this.readUint(bits) / ((POW2[bits] ?? 0) - 1);
  }

  readSignedFloat(bits: number): number {
    assertBits(bits, 2, 32, 'readSignedFloat');
    const steps = (POW2[bits - 1] ?? 0) - 1;
    const u = this.readUint(bits);
    if (u > 2 * steps) throw new DecodeError('range', `signed float code ${u} unused`);
    return (u - steps) / steps;
  }

  /** A copy of the next `n` bytes. */
  readBytes(n: number): Uint8Array {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`readBytes(${n})`);
    this.requireBits(n * 8);
    const src = this.bytes;
    const shift = this.pos & 7;
    const start = this.pos >>> 3;
    this.pos += n * 8;
    if (shift === 0) return src.slice(start, start + n);
    const out = new Uint8Array(n);
    for (let k = 0, i = start; k < n; k++, i++) {
      out[k] = ((src[i] ?? 0) << shift) | ((src[i + 1] ?? 0) >>> (8 - shift));
    }
    return out;
  }

  /** Length over maxLength -> DecodeError('length'); over what is left -> DecodeError('eof'). */
  readByteArray(maxLength: number): Uint8Array {
    const length = this.readVarUint();
    if (length > maxLength) {
      throw new DecodeError('length', `byte array of ${length} exceeds ${maxLength}`);
    }
    return this.readBytes(length);
  }

  readString(maxBytes = STRING_MAX_BYTES_DEFAULT): string {
    const huffman = this.readBool();
    const length = this.readVarUint();
    if (length > maxBytes)
      throw new DecodeError('length', `string of ${length} exceeds ${maxBytes}`);
    const bytes = huffman ? huffmanRead(this, length) : this.readBytes(length);
    try {
      return utf8Decoder.decode(bytes);
    } catch {
      throw new DecodeError('utf8', 'string is not valid UTF-8');
    }
  }

  /** Skips to the next byte boundary (padding bits are not checked). */
  alignToByte(): void {
    this.skip((8 - (this.pos & 7)) & 7);
  }

  skip(bits: number): void {
    if (!Number.isSafeInteger(bits) || bits < 0) throw new RangeError(`skip(${bits})`);
    this.requireBits(bits);
    this.pos += bits;
  }

  /** `bits` (0..32) bits at `pos`; the caller has bounds-checked. */
  private bitsAt(pos: number, bits: number): number {
    if (bits > WINDOW_BITS) {
      return this.window(pos, bits - 16) * 65536 + this.window(pos + bits - 16, 16);
    }
    return this.window(pos, bits);
  }

  /** `bits` (0..24) bits at `pos` from one 32-bit window; bytes past the array read as zero. */
  private window(pos: number, bits: number): number {
    if (bits === 0) return 0;
    const src = this.bytes;
    const i = pos >>> 3;
    const word =
      ((src[i] ?? 0) << 24) |
      ((src[i + 1] ?? 0) << 16) |
      ((src[i + 2] ?? 0) << 8) |
      (src[i + 3] ?? 0);
    return (word << (pos & 7)) >>> (32 - bits);
  }
}
