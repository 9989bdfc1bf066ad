// Mirror commands on the wire: every kind round-trips exactly at the edges of its fields (seeded), and hostile
// bytes (random, truncated at every bit's byte, bit-flipped, padded) decode to a command or a typed error, never
// an exception. The per-origin id scheme never lets two mirrors pick one id.
import { describe, expect, it } from 'vitest';
import { MAX_PEER_ID } from '../../shared/board';
import { BitWriter } from '../net/bitstream';
import { Rng } from '../net/rng';
import { allocateObjectId, MAX_MIRROR_ID } from './command';
import type { CommandDecodeError } from './command-codec';
import { decodeCommand, encodeCommand, isCommand, MAX_COMMAND_BYTES } from './command-codec';
import type { MirrorCommand } from './command';
import { randomCommand } from './testing/random-command';

const SEED = 0xc0de;

function decodes(bytes: Uint8Array): MirrorCommand | CommandDecodeError {
  const d = decodeCommand(bytes);
  if (!isCommand(d)) expect(['too-long', 'malformed', 'trailing']).toContain(d.type);
  return d;
}

describe('mirror command codec', () => {
  it(`round-trips every kind of command exactly (seed ${SEED})`, () => {
    const rng = new Rng(SEED);
    const kinds = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const c = randomCommand(rng);
      kinds.add(c.op.type);
      const bytes = encodeCommand(c);
      expect(bytes.length, `seed ${SEED} command ${i}`).toBeLessThanOrEqual(MAX_COMMAND_BYTES);
      expect(decodeCommand(bytes), `seed ${SEED} command ${i}`).toEqual(c);
    }
    expect(kinds.size).toBe(10);
  });

  it('is bit-packed: a grab is a few bytes', () => {
    const bytes = encodeCommand({
      origin: 2,
      seq: 1000,
      stamp: 1_700_000_000_000,
      client: 7,
      op: { type: 'grab', id: 4242 },
    });
    // 4 origin + 20 seq + 55 stamp + 12 client + 4 op + 24 id bits.
    expect(bytes.length).toBeLessThanOrEqual(15);
  });

  it(`never throws on hostile bytes: random, cut short, bit-flipped, padded (seed ${SEED})`, () => {
    const rng = new Rng(SEED + 1);
    let refused = 0;
    for (let i = 0; i < 500; i++) {
      const good = encodeCommand(randomCommand(rng));
      for (let cut = 0; cut < Math.min(good.length, 40); cut++) {
        const d = decodes(good.subarray(0, cut));
        if (!isCommand(d)) refused++;
      }
      const flipped = good.slice();
      const bit = rng.int(flipped.length * 8);
      flipped[bit >>> 3] = (flipped[bit >>> 3] ?? 0) ^ (0x80 >>> (bit & 7));
      decodes(flipped);
      decodes(rng.bytes(rng.int(64)));
      const padded = new Uint8Array(good.length + 1 + rng.int(4));
      padded.set(good);
      padded[padded.length - 1] = 1;
      expect(decodes(padded), `seed ${SEED + 1} padded ${i}`).toMatchObject({ type: 'trailing' });
    }
    expect(refused).toBeGreaterThan(0);
    expect(decodes(new Uint8Array(MAX_COMMAND_BYTES + 1))).toEqual({
      type: 'too-long',
      bytes: MAX_COMMAND_BYTES + 1,
    });
  });

  it('refuses an unknown op, a field out of its range and text over its limit with typed errors', () => {
    const head = (w: BitWriter): void => {
      w.writeRanged(1, 0, MAX_MIRROR_ID);
      w.writeVarUint(3);
      w.writeVarUint(100);
      w.writeRanged(5, 0, MAX_PEER_ID);
    };
    const unknownOp = new BitWriter();
    head(unknownOp);
    unknownOp.writeUint(15, 4);
    expect(decodeCommand(unknownOp.finish())).toMatchObject({ type: 'malformed', code: 'range' });
    const pastLastId = new BitWriter();
    head(pastLastId);
    pastLastId.writeRanged(2, 0, 9);
    pastLastId.writeUint(2 ** 24 - 1, 24); // id 2^24: one past the last
    expect(decodeCommand(pastLastId.finish())).toMatchObject({ type: 'malformed', code: 'range' });
    const longChat = new BitWriter();
    head(longChat);
    longChat.writeRanged(9, 0, 9);
    longChat.writeString('x'.repeat(1001));
    expect(decodeCommand(longChat.finish())).toMatchObject({ type: 'malformed', code: 'length' });
  });

  it('refuses to write what no reader would take', () => {
    const c: MirrorCommand = {
      origin: 0,
      seq: 0,
      stamp: 0,
      client: 1,
      op: { type: 'chat', text: 'x'.repeat(1001) },
    };
    expect(() => encodeCommand(c)).toThrow(RangeError);
    expect(() =>
      encodeCommand({ ...c, op: { type: 'patch', id: 1, patch: { text: 'é'.repeat(501) } } }),
    ).toThrow(RangeError);
  });
});

describe('per-origin object ids', () => {
  it('never gives two mirrors one id, never reuses one, and stays above the board’s next id', () => {
    const rng = new Rng(SEED + 2);
    const taken = new Set<number>();
    const last = new Map<number, number>();
    let floor = 1;
    for (let i = 0; i < 5000; i++) {
      const origin = rng.int(MAX_MIRROR_ID + 1);
      // A mirror sees the board's counter some way behind: other mirrors' creates have not reached it.
      const seen = Math.max(1, floor - rng.int(40));
      const id = allocateObjectId(origin, seen, last.get(origin) ?? 0);
      if (id === undefined) throw new Error('ran out of ids');
      expect(id % (MAX_MIRROR_ID + 1), `seed ${SEED + 2}`).toBe(origin);
      expect(id).toBeGreaterThanOrEqual(seen);
      expect(taken.has(id), `seed ${SEED + 2} id ${id} twice`).toBe(false);
      taken.add(id);
      last.set(origin, id);
      floor = Math.max(floor, id + 1);
    }
    expect(allocateObjectId(3, 2 ** 24 - 2, 0)).toBeUndefined();
  });
});
