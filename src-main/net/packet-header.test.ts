// The notify header round-trips through its writer and reader (seeded, the seed in every failure), its wire
// layout is pinned, and hostile bytes only ever raise a DecodeError with every field in range.
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, DecodeError } from './bitstream';
import type { HeaderContext, NotifyHeader, PacketKind } from './packet-header';
import {
  ACK_MASK_MAX,
  maskBit,
  PacketKind as Kind,
  readNotifyHeader,
  SEQ_WIRE_BITS,
  setMaskBit,
  writeNotifyHeader,
} from './packet-header';
import { Rng } from './rng';

const KINDS: readonly PacketKind[] = [Kind.data, Kind.ack, Kind.close];
const HALF = 2 ** (SEQ_WIRE_BITS - 1);

function encode(h: NotifyHeader): Uint8Array {
  const w = new BitWriter();
  writeNotifyHeader(w, h);
  return w.finish();
}

/** A header a peer could send to a receiver in `ctx`: its seq in the receiver's window, its ack one we sent. */
function randomHeader(rng: Rng, ctx: HeaderContext): NotifyHeader {
  const seq = Math.max(1, ctx.expectedSeq + rng.range(-HALF, HALF - 1));
  const ack = Math.max(0, ctx.lastSentSeq - rng.range(0, 2 * HALF - 1));
  const ackMaskLength = rng.bool(0.3) ? rng.range(0, 6) : rng.range(0, ACK_MASK_MAX);
  const ackMask = new Array<number>(Math.ceil(ackMaskLength / 32)).fill(0);
  for (let i = 0; i < ackMaskLength; i++) if (rng.bool()) setMaskBit(ackMask, i);
  const ackDelayMs = rng.bool() ? rng.range(0, 4095) : undefined;
  return { kind: rng.pick(KINDS), seq, ack, ackMaskLength, ackMask, ackDelayMs };
}

function randomContext(rng: Rng): HeaderContext {
  // Near zero (the first packets) and far past the first wraps of the 8-bit wire fields.
  const far = rng.bool() ? rng.range(0, 2 ** 40) : 0;
  return { expectedSeq: 1 + far + rng.range(0, 600), lastSentSeq: far + rng.range(0, 600) };
}

describe('notify header', () => {
  it('round-trips through write and read (seeded)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = new Rng(seed);
      for (let i = 0; i < 500; i++) {
        const ctx = randomContext(rng);
        const h = randomHeader(rng, ctx);
        const bytes = encode(h);
        const r = new BitReader(bytes);
        expect(readNotifyHeader(r, ctx), `seed ${seed} i ${i}`).toEqual(h);
        expect(r.bitsLeft, `seed ${seed} i ${i}`).toBeLessThan(8);
      }
    }
  });

  it('keeps its wire layout: 2-bit kind, 8-bit seq and ack, 3-bit mask length, mask, delay flag', () => {
    const h: NotifyHeader = {
      kind: Kind.ack,
      seq: 0x1_05,
      ack: 0x2_0a,
      ackMaskLength: 3,
      ackMask: [0b101],
      ackDelayMs: undefined,
    };
    // kind 01, seq 00000101, ack 00001010, mask length 011, mask 1 0 1, no delay 0: 25 bits
    expect([...encode(h)]).toEqual([0b01000001, 0b01000010, 0b10011101, 0b00000000]);
    const long = encode({ ...h, ackMaskLength: ACK_MASK_MAX, ackMask: [0, 0, 0], ackDelayMs: 9 });
    // 2 + 8 + 8 + 3 + 7 (escape) + 96 mask bits + 1 + 8 (varuint 9)
    expect(long.length).toBe(Math.ceil((2 + 8 + 8 + 3 + 7 + 96 + 1 + 8) / 8));
  });

  it('clamps an ack delay to what the reader accepts', () => {
    const ctx = { expectedSeq: 1, lastSentSeq: 1 };
    const h: NotifyHeader = {
      kind: Kind.data,
      seq: 1,
      ack: 1,
      ackMaskLength: 0,
      ackMask: [],
      ackDelayMs: 1e9,
    };
    expect(readNotifyHeader(new BitReader(encode(h)), ctx).ackDelayMs).toBe(4095);
    const negative = readNotifyHeader(new BitReader(encode({ ...h, ackDelayMs: -5 })), ctx);
    expect(negative.ackDelayMs).toBe(0);
  });

  it('refuses a sequence it cannot put on the wire', () => {
    const h: NotifyHeader = {
      kind: Kind.data,
      seq: -1,
      ack: 0,
      ackMaskLength: 0,
      ackMask: [],
      ackDelayMs: undefined,
    };
    expect(() => encode(h)).toThrow(RangeError);
    expect(() => encode({ ...h, seq: 1, ack: 0.5 })).toThrow(RangeError);
  });

  it('raises a DecodeError for every truncation of a valid header (seeded)', () => {
    const seed = 7;
    const rng = new Rng(seed);
    for (let i = 0; i < 200; i++) {
      const ctx = randomContext(rng);
      const h = randomHeader(rng, ctx);
      const full = encode(h);
      const r = new BitReader(full);
      readNotifyHeader(r, ctx);
      const needed = r.position;
      for (let end = 0; end < needed; end++) {
        expect(
          () => readNotifyHeader(new BitReader(full, 0, end), ctx),
          `seed ${seed} i ${i} end ${end}`,
        ).toThrow(DecodeError);
      }
      // Cutting only the last byte's zero padding loses nothing.
      expect(readNotifyHeader(new BitReader(full, 0, needed), ctx), `seed ${seed} i ${i}`).toEqual(
        h,
      );
    }
  });

  it('refuses an invalid kind, an oversized mask and an oversized ack delay', () => {
    const ctx = { expectedSeq: 1, lastSentSeq: 1 };
    const read = (bits: [number, number][]): unknown => {
      const w = new BitWriter();
      for (const [v, n] of bits) w.writeUint(v, n);
      try {
        return readNotifyHeader(new BitReader(w.finish()), ctx);
      } catch (e) {
        return e instanceof DecodeError ? e.code : e;
      }
    };
    expect(read([[3, 2]])).toBe('invalid');
    // Mask length escape: 7 + 90 = 97 > ACK_MASK_MAX.
    expect(
      read([
        [0, 2],
        [1, 8],
        [0, 8],
        [7, 3],
        [90, 7],
      ]),
    ).toBe('range');
    const w = new BitWriter();
    w.writeUint(0, 2 + 8 + 8 + 3);
    w.writeBool(true);
    w.writeVarUint(4096);
    expect(() => readNotifyHeader(new BitReader(w.finish()), ctx)).toThrow(DecodeError);
  });

  it('turns random bytes into a DecodeError or a header with every field in range (seeded)', () => {
    const seed = 18;
    const rng = new Rng(seed);
    for (let i = 0; i < 2000; i++) {
      const bytes = rng.bytes(rng.range(0, 24));
      const ctx = randomContext(rng);
      try {
        const h = readNotifyHeader(new BitReader(bytes), ctx);
        expect(KINDS, `seed ${seed} i ${i}`).toContain(h.kind);
        expect(Math.abs(h.seq - ctx.expectedSeq), `seed ${seed} i ${i}`).toBeLessThanOrEqual(HALF);
        expect(h.ack, `seed ${seed} i ${i}`).toBeLessThanOrEqual(ctx.lastSentSeq);
        expect(h.ackMaskLength, `seed ${seed} i ${i}`).toBeLessThanOrEqual(ACK_MASK_MAX);
        expect(h.ackDelayMs ?? 0, `seed ${seed} i ${i}`).toBeLessThanOrEqual(4095);
        for (let b = h.ackMaskLength; b < h.ackMask.length * 32; b++)
          expect(maskBit(h.ackMask, b), `seed ${seed} i ${i}`).toBe(false);
      } catch (e) {
        expect(e, `seed ${seed} i ${i}`).toBeInstanceOf(DecodeError);
      }
    }
  });
});
