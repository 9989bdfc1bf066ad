import { describe, it, expect } from 'vitest';
import {
  BitReader,
  BitWriter,
  DecodeError,
  VARINT_MAX,
  VARINT_MIN,
  bitsForRange,
  type DecodeErrorCode,
} from './bitstream';
import { huffmanWrite } from './huffman';
import { Rng } from './rng';

/** One field: how to write it, how to read it back, and what the read must return. */
interface Op {
  readonly name: string;
  write(w: BitWriter): void;
  read(r: BitReader): unknown;
  readonly expected: unknown;
}

const ENGLISH = ['the', 'Board', 'meet', 'at', '5pm,', "let's", 'draw', 'a', 'Box!', 'ok?', '(x)'];
const EXOTIC = ['日本語', '😀', 'é', 'Ω', '🎨🖌️', '中文字', '\n', '"', '\u0000', '\uffff'];

function randomString(rng: Rng): string {
  const words: string[] = [];
  const count = rng.int(12);
  for (let i = 0; i < count; i++) {
    if (rng.bool(0.7)) words.push(rng.pick(ENGLISH));
    else if (rng.bool(0.5)) words.push(rng.pick(EXOTIC));
    else {
      // Any code point except lone surrogates, which TextEncoder would replace.
      let cp = rng.int(0x110000);
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0x41;
      words.push(String.fromCodePoint(cp));
    }
  }
  return words.join(rng.bool() ? ' ' : '');
}

/** Widths and values biased toward the edges, where packing bugs live. */
function edgy(rng: Rng, max: number): number {
  const roll = rng.int(4);
  if (roll === 0) return 0;
  if (roll === 1) return max;
  return rng.int(max + 1);
}

function within(actual: number, target: number, tolerance: number): boolean {
  return Math.abs(actual - target) <= tolerance + 1e-12;
}

function randomOp(rng: Rng): Op {
  const kind = rng.int(12);
  switch (kind) {
    case 0: {
      const v = rng.bool();
      return {
        name: `bool ${v}`,
        write: (w) => {
          w.writeBool(v);
        },
        read: (r) => r.readBool(),
        expected: v,
      };
    }
    case 1: {
      const bits = rng.range(0, 32);
      const v = edgy(rng, 2 ** bits - 1);
      return {
        name: `uint ${v}/${bits}`,
        write: (w) => {
          w.writeUint(v, bits);
        },
        read: (r) => r.readUint(bits),
        expected: v,
      };
    }
    case 2: {
      const bits = rng.range(1, 32);
      const half = 2 ** (bits - 1);
      const v = edgy(rng, 2 * half - 1) - half;
      return {
        name: `int ${v}/${bits}`,
        write: (w) => {
          w.writeInt(v, bits);
        },
        read: (r) => r.readInt(bits),
        expected: v,
      };
    }
    case 3: {
      const min = rng.range(-(2 ** 40), 2 ** 40);
      const max = min + edgy(rng, 2 ** rng.range(0, 32) - 1);
      const v = min + edgy(rng, max - min);
      return {
        name: `ranged ${v} in ${min}..${max}`,
        write: (w) => {
          w.writeRanged(v, min, max);
        },
        read: (r) => r.readRanged(min, max),
        expected: v,
      };
    }
    case 4: {
      const v = edgy(rng, 2 ** rng.range(0, 53) - 1);
      return {
        name: `varuint ${v}`,
        write: (w) => {
          w.writeVarUint(v);
        },
        read: (r) => r.readVarUint(),
        expected: v,
      };
    }
    case 5: {
      const magnitude = 2 ** rng.range(0, 52);
      const v = Math.max(VARINT_MIN, Math.min(VARINT_MAX, rng.range(-magnitude, magnitude)));
      return {
        name: `varint ${v}`,
        write: (w) => {
          w.writeVarInt(v);
        },
        read: (r) => r.readVarInt(),
        expected: v,
      };
    }
    case 6: {
      const bits = rng.range(1, 32);
      const v = rng.pick([0, 1, -0.5, 1.5, rng.next()]);
      const target = Math.min(1, Math.max(0, v));
      const tolerance = 0.5 / (2 ** bits - 1);
      return {
        name: `float01 ${v}/${bits}`,
        write: (w) => {
          w.writeFloat01(v, bits);
        },
        read: (r) => within(r.readFloat01(bits), target, tolerance),
        expected: true,
      };
    }
    case 7: {
      const bits = rng.range(2, 32);
      const v = rng.pick([0, 1, -1, -2, 2, rng.next() * 2 - 1]);
      const target = Math.min(1, Math.max(-1, v));
      const tolerance = 0.5 / (2 ** (bits - 1) - 1);
      return {
        name: `signedFloat ${v}/${bits}`,
        write: (w) => {
          w.writeSignedFloat(v, bits);
        },
        read: (r) => within(r.readSignedFloat(bits), target, tolerance),
        expected: true,
      };
    }
    case 8: {
      const bytes = rng.bytes(rng.int(24));
      return {
        name: `bytes[${bytes.length}]`,
        write: (w) => {
          w.writeBytes(bytes);
        },
        read: (r) => r.readBytes(bytes.length),
        expected: bytes,
      };
    }
    case 9: {
      const bytes = rng.bytes(rng.int(24));
      const maxLength = bytes.length + rng.int(3);
      return {
        name: `byteArray[${bytes.length}]`,
        write: (w) => {
          w.writeByteArray(bytes);
        },
        read: (r) => r.readByteArray(maxLength),
        expected: bytes,
      };
    }
    case 10: {
      const s = randomString(rng);
      return {
        name: `string ${JSON.stringify(s)}`,
        write: (w) => {
          w.writeString(s);
        },
        read: (r) => r.readString(),
        expected: s,
      };
    }
    default:
      return {
        name: 'align',
        write: (w) => {
          w.alignToByte();
        },
        read: (r) => {
          r.alignToByte();
          return r.position % 8;
        },
        expected: 0,
      };
  }
}

function expectDecodeError(fn: () => unknown, code?: DecodeErrorCode, message = ''): void {
  try {
    const value = fn();
    expect.fail(`${message}: expected DecodeError, returned ${String(value)}`);
  } catch (e) {
    expect(e, message).toBeInstanceOf(DecodeError);
    if (code !== undefined) expect((e as DecodeError).code, message).toBe(code);
  }
}

function encode(...ops: Op[]): BitWriter {
  const w = new BitWriter(1);
  for (const op of ops) op.write(w);
  return w;
}

describe('bitstream round trip', () => {
  it('reads back random op sequences in order, each op using exactly the bits it wrote', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new Rng(seed);
      const ops = Array.from({ length: 200 }, () => randomOp(rng));
      const w = new BitWriter(rng.int(4));
      const ends = ops.map((op) => {
        op.write(w);
        return w.bitLength;
      });
      const bytes = w.finish();
      expect(bytes.length, `seed ${seed}`).toBe(w.byteLength);
      const r = new BitReader(bytes);
      ops.forEach((op, i) => {
        expect(op.read(r), `seed ${seed} op ${i} ${op.name}`).toEqual(op.expected);
        expect(r.position, `seed ${seed} op ${i} ${op.name} position`).toBe(ends[i]);
      });
      expect(r.bitsLeft, `seed ${seed}`).toBeLessThan(8);
    }
  });

  it('near-ranged values take the near range’s bits inside it and the whole range’s outside, and read back', () => {
    const w = new BitWriter();
    for (const v of [0, -8192, 8191, 8192, -8193, 2_000_000])
      w.writeNearRanged(v, -8192, 8191, -2_097_152, 2_097_152);
    // 3 near (1 + 14 bits) and 3 far (1 + 23 bits).
    expect(w.bitLength).toBe(3 * 15 + 3 * 24);
    const r = new BitReader(w.finish());
    const back = Array.from({ length: 6 }, () =>
      r.readNearRanged(-8192, 8191, -2_097_152, 2_097_152),
    );
    expect(back).toEqual([0, -8192, 8191, 8192, -8193, 2_000_000]);
  });

  it('reads a sub-range [bitOffset, bitEnd) of a buffer', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const rng = new Rng(seed);
      const prefixBits = rng.int(33);
      const op = randomOp(rng);
      const w = new BitWriter();
      w.writeUint(0, prefixBits);
      op.write(w);
      const end = w.bitLength;
      w.writeUint(2 ** 20 - 1, 20); // trailing junk the reader must not see
      const r = new BitReader(w.finish(), prefixBits, end);
      expect(op.read(r), `seed ${seed} ${op.name}`).toEqual(op.expected);
      expect(r.bitsLeft, `seed ${seed}`).toBe(0);
    }
  });

  it('truncate() then writing again equals writing only the kept bits and the new part', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new Rng(seed);
      const kept = Array.from({ length: rng.int(20) }, () => randomOp(rng));
      const dropped = Array.from({ length: rng.int(20) }, () => randomOp(rng));
      const added = Array.from({ length: rng.int(20) }, () => randomOp(rng));
      const full = encode(...kept, ...dropped);
      const cut = rng.int(full.bitLength + 1); // anywhere, even inside a field
      const keptBits = full.finish();
      full.truncate(cut);
      for (const op of added) op.write(full);

      const expected = new BitWriter();
      const copy = new BitReader(keptBits, 0, cut);
      while (copy.bitsLeft > 0) {
        const n = Math.min(32, copy.bitsLeft);
        expected.writeUint(copy.readUint(n), n);
      }
      for (const op of added) op.write(expected);
      expect(full.finish(), `seed ${seed} cut ${cut}`).toEqual(expected.finish());
    }
  });

  it('a writer emptied with truncate(0) and written again views exactly what a new writer would finish', () => {
    // Connections keep their packet writers: each packet starts with truncate(0) and is sealed from view().
    const reused = new BitWriter(4);
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new Rng(seed);
      const ops = Array.from({ length: rng.int(30) }, () => randomOp(rng));
      reused.truncate(0);
      for (const op of ops) op.write(reused);
      expect(reused.view(), `seed ${seed}`).toEqual(encode(...ops).finish());
    }
  });
});

describe('bitstream boundaries', () => {
  it('packs MSB first', () => {
    const w = new BitWriter();
    w.writeBool(true);
    w.writeUint(0b0110, 4);
    w.writeUint(0x1ff, 9);
    expect([...w.finish()]).toEqual([0b10110111, 0b11111100]);
  });

  it('round-trips 0 and the maximum of every unsigned width, and both ends of every signed width', () => {
    for (let bits = 0; bits <= 32; bits++) {
      const w = new BitWriter();
      w.writeUint(0, bits);
      w.writeUint(2 ** bits - 1, bits);
      if (bits > 0) {
        w.writeInt(-(2 ** (bits - 1)), bits);
        w.writeInt(2 ** (bits - 1) - 1, bits);
        w.writeInt(bits > 1 ? -1 : 0, bits);
      }
      const r = new BitReader(w.finish());
      expect(r.readUint(bits), `bits ${bits}`).toBe(0);
      expect(r.readUint(bits), `bits ${bits}`).toBe(2 ** bits - 1);
      if (bits > 0) {
        expect(r.readInt(bits), `bits ${bits}`).toBe(-(2 ** (bits - 1)));
        expect(r.readInt(bits), `bits ${bits}`).toBe(2 ** (bits - 1) - 1);
        expect(r.readInt(bits), `bits ${bits}`).toBe(bits > 1 ? -1 : 0);
      }
    }
  });

  it('sizes ranges', () => {
    expect(bitsForRange(5, 5)).toBe(0);
    expect(bitsForRange(0, 1)).toBe(1);
    expect(bitsForRange(-4, 3)).toBe(3);
    expect(bitsForRange(0, 8)).toBe(4);
    expect(bitsForRange(0, 2 ** 32 - 1)).toBe(32);
    expect(() => bitsForRange(0, 2 ** 32)).toThrow(RangeError);
    expect(() => bitsForRange(1, 0)).toThrow(RangeError);
    const w = new BitWriter();
    w.writeRanged(7, 7, 7);
    expect(w.bitLength).toBe(0);
    expect(new BitReader(new Uint8Array(0)).readRanged(7, 7)).toBe(7);
  });

  it('sizes varuints by 4-bit group and round-trips group boundaries', () => {
    const cases: [number, number][] = [
      [0, 5],
      [15, 5],
      [16, 10],
      [255, 10],
      [256, 15],
      [4095, 15],
      [4096, 20],
      [65535, 20],
      [2 ** 52 - 1, 65],
      [2 ** 52, 70],
      [Number.MAX_SAFE_INTEGER, 70],
    ];
    for (const [v, bits] of cases) {
      const w = new BitWriter();
      w.writeVarUint(v);
      expect(w.bitLength, `varuint ${v}`).toBe(bits);
      expect(new BitReader(w.finish()).readVarUint(), `varuint ${v}`).toBe(v);
    }
    for (const v of [0, -1, 1, -8, 7, -8, 8, VARINT_MIN, VARINT_MAX]) {
      const w = new BitWriter();
      w.writeVarInt(v);
      expect(new BitReader(w.finish()).readVarInt(), `varint ${v}`).toBe(v);
    }
    expect(() => {
      new BitWriter().writeVarUint(2 ** 53);
    }).toThrow(RangeError);
    expect(() => {
      new BitWriter().writeVarInt(VARINT_MAX + 1);
    }).toThrow(RangeError);
  });

  it('keeps float endpoints and zero exact', () => {
    for (let bits = 1; bits <= 32; bits++) {
      const w = new BitWriter();
      for (const v of [0, 1, -3, 7]) w.writeFloat01(v, bits);
      if (bits >= 2) for (const v of [0, -0, 1, -1, -5, 5]) w.writeSignedFloat(v, bits);
      const r = new BitReader(w.finish());
      expect(
        [0, 1, 2, 3].map(() => r.readFloat01(bits)),
        `bits ${bits}`,
      ).toEqual([0, 1, 0, 1]);
      if (bits >= 2) {
        const signed = [0, 1, 2, 3, 4, 5].map(() => r.readSignedFloat(bits));
        expect(signed, `bits ${bits}`).toEqual([0, 0, 1, -1, -1, 1]);
        expect(Object.is(signed[1], 0), `bits ${bits} -0 reads as +0`).toBe(true);
      }
    }
  });

  it('rejects programmer errors with RangeError, not DecodeError', () => {
    const w = new BitWriter();
    expect(() => {
      w.writeUint(16, 4);
    }).toThrow(RangeError);
    expect(() => {
      w.writeUint(-1, 4);
    }).toThrow(RangeError);
    expect(() => {
      w.writeUint(1.5, 4);
    }).toThrow(RangeError);
    expect(() => {
      w.writeUint(0, 33);
    }).toThrow(RangeError);
    expect(() => {
      w.writeInt(8, 4);
    }).toThrow(RangeError);
    expect(() => {
      w.writeInt(0, 0);
    }).toThrow(RangeError);
    expect(() => {
      w.writeRanged(11, 0, 10);
    }).toThrow(RangeError);
    expect(() => {
      w.writeFloat01(Number.NaN, 8);
    }).toThrow(RangeError);
    expect(() => {
      w.writeSignedFloat(0, 1);
    }).toThrow(RangeError);
    expect(() => {
      w.truncate(1);
    }).toThrow(RangeError);
    expect(() => new BitReader(new Uint8Array(1), 0, 9)).toThrow(RangeError);
    expect(w.bitLength).toBe(0);
  });

  it('writes unaligned and aligned raw bytes', () => {
    const payload = Uint8Array.from([0xff, 0x00, 0xa5, 0x5a]);
    for (let lead = 0; lead < 16; lead++) {
      const w = new BitWriter(0);
      w.writeUint(2 ** lead - 1, lead);
      w.writeBytes(payload);
      w.writeBool(true);
      const r = new BitReader(w.finish());
      expect(r.readUint(lead), `lead ${lead}`).toBe(2 ** lead - 1);
      expect(r.readBytes(payload.length), `lead ${lead}`).toEqual(payload);
      expect(r.readBool(), `lead ${lead}`).toBe(true);
    }
  });
});

describe('bitstream strings', () => {
  function stringBits(s: string): { bits: number; huffman: boolean } {
    const w = new BitWriter();
    w.writeString(s);
    return { bits: w.bitLength, huffman: new BitReader(w.finish()).readBool() };
  }

  function roundTrip(s: string, maxBytes?: number): string {
    const w = new BitWriter();
    w.writeString(s);
    return new BitReader(w.finish()).readString(maxBytes);
  }

  it('round-trips empty, multi-byte, BOM-led and long strings', () => {
    for (const s of [
      '',
      'a',
      '😀 emoji 🎨',
      '中文和日本語のテキスト',
      '\uFEFFbom',
      'ü'.repeat(3),
    ]) {
      expect(roundTrip(s), JSON.stringify(s)).toBe(s);
    }
    const long = 'x'.repeat(5000) + '字'.repeat(5000);
    expect(roundTrip(long, 100_000)).toBe(long);
    expectDecodeError(() => roundTrip(long), 'length', 'default cap is 4096 bytes');
  });

  it('replaces lone surrogates with U+FFFD', () => {
    expect(roundTrip('a\uD800b')).toBe('a\uFFFDb');
  });

  it('Huffman-codes English and sends binary-looking text raw', () => {
    const english = "hello world, let's meet at 5pm";
    const rawBits = 1 + 10 + 8 * english.length;
    const coded = stringBits(english);
    expect(coded.huffman).toBe(true);
    expect(coded.bits).toBeLessThan(rawBits);

    const cjk = stringBits('龘靐齉爩鱻麤䨻');
    expect(cjk.huffman).toBe(false);
    const bytes = new Rng(7).bytes(64);
    const binary = String.fromCharCode(...bytes.map((b) => 0x80 | b));
    expect(stringBits(binary).huffman).toBe(false);
  });
});

describe('bitstream hostile input', () => {
  it('throws DecodeError when any single encoding loses one or more bits', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const op = randomOp(new Rng(seed));
      const w = encode(op);
      const bytes = w.finish();
      for (let end = 0; end < w.bitLength; end++) {
        expectDecodeError(
          () => op.read(new BitReader(bytes, 0, end)),
          undefined,
          `seed ${seed} ${op.name} end ${end}`,
        );
      }
    }
  });

  it('rejects a huge length prefix before allocating', () => {
    const w = new BitWriter();
    w.writeVarUint(Number.MAX_SAFE_INTEGER);
    w.writeUint(0, 32);
    expectDecodeError(
      () => new BitReader(w.finish()).readByteArray(Number.MAX_SAFE_INTEGER),
      'eof',
    );
    expectDecodeError(() => new BitReader(w.finish()).readByteArray(100), 'length');
    for (const flag of [false, true]) {
      const s = new BitWriter();
      s.writeBool(flag);
      s.writeVarUint(2 ** 40);
      expectDecodeError(
        () => new BitReader(s.finish()).readString(Infinity),
        'eof',
        `huffman ${flag}`,
      );
      expectDecodeError(() => new BitReader(s.finish()).readString(), 'length', `huffman ${flag}`);
    }
  });

  it('rejects invalid UTF-8 in both raw and Huffman form', () => {
    const raw = new BitWriter();
    raw.writeBool(false);
    raw.writeByteArray(Uint8Array.from([0xc3, 0x28]));
    expectDecodeError(() => new BitReader(raw.finish()).readString(), 'utf8');
    const coded = new BitWriter();
    coded.writeBool(true);
    coded.writeVarUint(2);
    huffmanWrite(coded, Uint8Array.from([0xff, 0xfe]));
    expectDecodeError(() => new BitReader(coded.finish()).readString(), 'utf8');
  });

  it('rejects out-of-range ranged values and unused signed float codes', () => {
    const w = new BitWriter();
    w.writeUint(7, 3);
    expectDecodeError(() => new BitReader(w.finish()).readRanged(10, 15), 'range');
    expectDecodeError(() => new BitReader(Uint8Array.of(0xff)).readSignedFloat(8), 'range');
  });

  it('rejects overlong and oversized varuints', () => {
    const groups = (...chunks: number[]): BitReader => {
      const w = new BitWriter();
      for (const c of chunks) w.writeUint(c, 5);
      return new BitReader(w.finish());
    };
    expectDecodeError(() => groups(0b00001, 0b00000).readVarUint(), 'varint', '0 in two groups');
    expectDecodeError(() => groups(0b00111, 0b00000).readVarUint(), 'varint', '3 in two groups');
    const fullGroups = Array.from({ length: 13 }, () => 0b11111);
    expect(groups(...fullGroups, 0b00010).readVarUint()).toBe(Number.MAX_SAFE_INTEGER);
    expectDecodeError(() => groups(...fullGroups, 0b00100).readVarUint(), 'varint', '2**53');
    expectDecodeError(
      () => groups(...fullGroups, 0b00011, 0b00010).readVarUint(),
      'varint',
      '15 groups',
    );
  });

  it('only ever throws DecodeError on random garbage', () => {
    for (let seed = 1; seed <= 20_000; seed++) {
      const rng = new Rng(seed);
      const r = new BitReader(rng.bytes(rng.int(48)));
      try {
        for (let i = 0; i < 16; i++) randomOp(rng).read(r);
      } catch (e) {
        if (!(e instanceof DecodeError)) expect.fail(`seed ${seed}: ${String(e)}`);
      }
    }
  });
});
