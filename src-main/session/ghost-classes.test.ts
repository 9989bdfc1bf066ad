import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { MAX_OBJECT_ID, MAX_SIZE, ROTATION_STEPS, WORLD_EXTENT } from '../../shared/board';
import { Rng } from '../net/rng';
import type { PresenceState } from './ghost-classes';
import { blankPresence, Presence } from './ghost-classes';

const pointer = Presence.groups.find((g) => g.name === 'pointer');
const drag = Presence.groups.find((g) => g.name === 'drag');

function roundTrip(x: number, y: number): { bits: number; x: number; y: number } {
  const w = new BitWriter();
  pointer?.pack(w, { ...blankPresence(1), x, y, visible: true });
  const bits = w.bitLength;
  const g = blankPresence();
  pointer?.unpack(new BitReader(w.finish()), g);
  return { bits, x: g.x, y: g.y };
}

describe('presence wire format', () => {
  it('pointer positions round-trip exactly across the compact and the full range', () => {
    for (const v of [0, 1, -1, 8191, -8192, 8192, -8193, 123_456, WORLD_EXTENT, -WORLD_EXTENT]) {
      expect(roundTrip(v, 0 - v || 0)).toMatchObject({ x: v, y: 0 - v || 0 });
    }
  });

  it('costs 31 bits near the origin and 47 far out', () => {
    expect(roundTrip(5000, -7000).bits).toBe(1 + 2 * 15);
    expect(roundTrip(9000, -7000).bits).toBe(1 + 23 + 15);
    expect(roundTrip(-WORLD_EXTENT, WORLD_EXTENT).bits).toBe(1 + 2 * 23);
  });

  it('a drag position uses the same code; a truncated one is a decode error, not a wrong value', () => {
    const w = new BitWriter();
    drag?.pack(w, { ...blankPresence(1), dragId: 7, dragX: -20, dragY: 30_000 });
    const bytes = w.finish();
    const g = blankPresence();
    drag?.unpack(new BitReader(bytes), g);
    expect([g.dragId, g.dragX, g.dragY]).toEqual([7, -20, 30_000]);
    expect(() => drag?.unpack(new BitReader(bytes.subarray(0, 3)), blankPresence())).toThrow(
      DecodeError,
    );
  });
});

/** Packs the drag group of `s` and reads it back into a blank ghost; the bit count and the ghost. */
function dragRoundTrip(s: PresenceState): { bits: number; bytes: Uint8Array; back: PresenceState } {
  const w = new BitWriter();
  drag?.pack(w, s);
  const bits = w.bitLength;
  const bytes = w.finish();
  const back = blankPresence();
  drag?.unpack(new BitReader(bytes), back);
  return { bits, bytes, back };
}

const shaped = (over: Partial<PresenceState>): PresenceState => ({
  ...blankPresence(1),
  dragId: 7,
  dragX: 10,
  dragY: 20,
  dragShaped: true,
  dragW: 120,
  dragH: 80,
  dragRotation: 450,
  ...over,
});

describe('live resize and rotate in the presence drag group (liveresize)', () => {
  it('keeps 4 mask bits: a pointer-only update costs what it did', () => {
    expect(Presence.maskBits).toBe(4);
    expect(roundTrip(5000, -7000).bits).toBe(31);
  });

  it('round-trips a live shape exactly (seeded)', () => {
    const seed = 0x11fe;
    const rng = new Rng(seed);
    for (let i = 0; i < 2000; i++) {
      const far = rng.int(4) === 0;
      const s = shaped({
        dragId: rng.range(1, MAX_OBJECT_ID),
        dragX: rng.range(-WORLD_EXTENT, WORLD_EXTENT),
        dragY: rng.range(-9000, 9000),
        dragW: far ? rng.range(0, MAX_SIZE) : rng.range(0, 4095),
        dragH: rng.pick([0, 4095, 4096, MAX_SIZE, rng.range(0, MAX_SIZE)]),
        dragRotation: rng.int(ROTATION_STEPS),
      });
      const { back } = dragRoundTrip(s);
      const keys = ['dragId', 'dragX', 'dragY', 'dragShaped', 'dragW', 'dragH', 'dragRotation'];
      const pick = (p: PresenceState) => keys.map((k) => p[k as keyof PresenceState]);
      expect(pick(back), `seed ${seed}, case ${i}`).toEqual(pick(s));
    }
  });

  it('a plain move costs one bit more and reads back unshaped; a shape costs 39 bits near the origin', () => {
    const move = { ...blankPresence(1), dragId: 7, dragX: -20, dragY: 30 };
    const ghost = { ...blankPresence(), dragShaped: true };
    const w = new BitWriter();
    drag?.pack(w, move);
    drag?.unpack(new BitReader(w.finish()), ghost);
    expect(w.bitLength).toBe(1 + 24 + 15 + 15 + 1);
    expect(ghost.dragShaped).toBe(false);
    expect(dragRoundTrip(shaped({ dragX: -20, dragY: 30 })).bits).toBe(w.bitLength + 13 + 13 + 12);
    // Letting go clears the shape too.
    const none = { ...blankPresence(), dragId: 3, dragShaped: true };
    drag?.unpack(new BitReader(new Uint8Array([0])), none);
    expect([none.dragId, none.dragShaped]).toEqual([0, false]);
  });

  it('hostile input: a truncated shape or a rotation past 3599 is a decode error, never a value', () => {
    const { bits, bytes } = dragRoundTrip(shaped({}));
    for (let cut = 1; cut < Math.ceil(bits / 8); cut++)
      expect(() => drag?.unpack(new BitReader(bytes.subarray(0, cut)), blankPresence())).toThrow(
        DecodeError,
      );
    // The rotation is the group's last 12 bits: set them all (4095).
    const w = new BitWriter();
    const s = shaped({});
    w.writeBool(true);
    w.writeRanged(s.dragId, 1, MAX_OBJECT_ID);
    for (const v of [s.dragX, s.dragY]) {
      w.writeBool(true);
      w.writeRanged(v, -8192, 8191);
    }
    w.writeBool(true);
    for (const v of [s.dragW, s.dragH]) {
      w.writeBool(true);
      w.writeRanged(v, 0, 4095);
    }
    w.writeUint(4095, 12);
    expect(() => drag?.unpack(new BitReader(w.finish()), blankPresence())).toThrow(DecodeError);
  });

  it('random bytes decode or fail with a DecodeError, and what decodes is in range (seeded)', () => {
    const seed = 0xbad5;
    const rng = new Rng(seed);
    for (let i = 0; i < 5000; i++) {
      const bytes = new Uint8Array(rng.int(16));
      for (let j = 0; j < bytes.length; j++) bytes[j] = rng.int(256);
      const g = blankPresence();
      try {
        drag?.unpack(new BitReader(bytes), g);
      } catch (e) {
        expect(e, `seed ${seed}, case ${i}`).toBeInstanceOf(DecodeError);
        continue;
      }
      const ok =
        g.dragId >= 0 &&
        g.dragId <= MAX_OBJECT_ID &&
        (!g.dragShaped ||
          (g.dragW <= MAX_SIZE &&
            g.dragH <= MAX_SIZE &&
            g.dragRotation >= 0 &&
            g.dragRotation < ROTATION_STEPS));
      expect(ok, `seed ${seed}, case ${i}`).toBe(true);
    }
  });
});
