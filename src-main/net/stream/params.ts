// Bit-packed RPC parameter schemas: typed fields with declared widths and ranges, written in declaration order
// with no names. Knows nothing of events, packets or which string table it writes through.
import type { BitReader, BitWriter } from '../bitstream';
import { DecodeError } from '../bitstream';

/** Where table strings go; the measuring pass uses a worst-case writer that changes nothing. */
export interface TableStringWriter {
  writeTableString(w: BitWriter, s: string): void;
}

export interface TableStringReader {
  readTableString(r: BitReader, maxBytes: number): string;
}

/** One parameter's codec. Writing an out-of-range value is a programmer error (RangeError); reading one throws DecodeError. */
export interface Field<T> {
  write(w: BitWriter, v: T, strings: TableStringWriter): void;
  read(r: BitReader, strings: TableStringReader): T;
}

export type Schema = Readonly<Record<string, Field<unknown>>>;

export type ParamsOf<S extends Schema> = {
  readonly [K in keyof S]: S[K] extends Field<infer T> ? T : never;
};

/** UTF-8 byte length without encoding (lone surrogates count 3, as TextEncoder's U+FFFD). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (
      c >= 0xd800 &&
      c <= 0xdbff &&
      i + 1 < s.length &&
      (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function checkStringBytes(s: string, maxBytes: number): void {
  const n = utf8Length(s);
  if (n > maxBytes) throw new RangeError(`string of ${n} bytes exceeds its declared ${maxBytes}`);
}

/** Unsigned integer in `bits` (0..32) bits. */
export function uint(bits: number): Field<number> {
  return {
    write: (w, v) => {
      w.writeUint(v, bits);
    },
    read: (r) => r.readUint(bits),
  };
}

/** Two's complement integer in `bits` (1..32) bits. */
export function int(bits: number): Field<number> {
  return {
    write: (w, v) => {
      w.writeInt(v, bits);
    },
    read: (r) => r.readInt(bits),
  };
}

/** Integer in [min, max] in the fewest bits; a received value above max is a DecodeError('range'). */
export function ranged(min: number, max: number): Field<number> {
  return {
    write: (w, v) => {
      w.writeRanged(v, min, max);
    },
    read: (r) => r.readRanged(min, max),
  };
}

/** A non-negative integer up to `max` (safe), in 5-bit groups: small values cheap. */
export function varUint(max = Number.MAX_SAFE_INTEGER): Field<number> {
  return {
    write: (w, v) => {
      if (v > max) throw new RangeError(`varUint ${v} above ${max}`);
      w.writeVarUint(v);
    },
    read: (r) => {
      const v = r.readVarUint();
      if (v > max) throw new DecodeError('range', `varUint ${v} above ${max}`);
      return v;
    },
  };
}

export function bool(): Field<boolean> {
  return {
    write: (w, v) => {
      w.writeBool(v);
    },
    read: (r) => r.readBool(),
  };
}

/** [0, 1] quantized to `bits` bits. */
export function float01(bits: number): Field<number> {
  return {
    write: (w, v) => {
      w.writeFloat01(v, bits);
    },
    read: (r) => r.readFloat01(bits),
  };
}

/** [-1, 1] quantized to `bits` bits. */
export function signedFloat(bits: number): Field<number> {
  return {
    write: (w, v) => {
      w.writeSignedFloat(v, bits);
    },
    read: (r) => r.readSignedFloat(bits),
  };
}

/** Raw bytes, at most maxLength: a length, then the bytes; a longer one received is a DecodeError('length'). */
export function bytes(maxLength: number): Field<Uint8Array> {
  return {
    write: (w, v) => {
      if (v.length > maxLength) throw new RangeError(`${v.length} bytes exceed ${maxLength}`);
      w.writeByteArray(v);
    },
    read: (r) => r.readByteArray(maxLength),
  };
}

/** A string of at most maxBytes UTF-8 bytes, Huffman-coded when shorter. */
export function string(maxBytes: number): Field<string> {
  return {
    write: (w, v) => {
      checkStringBytes(v, maxBytes);
      w.writeString(v);
    },
    read: (r) => r.readString(maxBytes),
  };
}

/** A string likely to repeat (names, fonts, tools): an id of the connection's string table once the peer has it. */
export function tableString(maxBytes: number): Field<string> {
  return {
    write: (w, v, strings) => {
      checkStringBytes(v, maxBytes);
      strings.writeTableString(w, v);
    },
    read: (r, strings) => strings.readTableString(r, maxBytes),
  };
}

/** Writes the params in the schema's declaration order. */
export function writeParams<S extends Schema>(
  w: BitWriter,
  schema: S,
  params: ParamsOf<S>,
  strings: TableStringWriter,
): void {
  for (const key of Object.keys(schema)) {
    const field = schema[key];
    if (field === undefined) continue;
    field.write(w, (params as Record<string, unknown>)[key], strings);
  }
}

export function readParams<S extends Schema>(
  r: BitReader,
  schema: S,
  strings: TableStringReader,
): ParamsOf<S> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    const field = schema[key];
    if (field !== undefined) out[key] = field.read(r, strings);
  }
  return out as ParamsOf<S>;
}
