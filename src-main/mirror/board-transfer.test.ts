import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import { emptyBoard, hashBoard } from '../board';
import type { BoardState } from '../board';
import type { BoardTransfer } from './board-transfer';
import {
  chunkTransfer,
  decodeTransfer,
  encodeTransfer,
  isTransferDecodeError,
  TransferIn,
} from './board-transfer';
import { GROUP_CHUNK_BYTES } from './group-wire';
import { TrailingStateSync } from './tss';
import { pickOp } from './testing/sim';
import type { MirrorCommand } from './command';
import { allocateObjectId } from './command';

/** A synchronizer that has run a few hundred random commands, some still held past its last trailing state. */
function busySync(seed: number): { tss: TrailingStateSync; commands: MirrorCommand[] } {
  const rng = new Rng(seed);
  const tss = new TrailingStateSync({ self: 0, delays: [100, 1000] });
  const commands: MirrorCommand[] = [];
  let last = 0;
  for (let i = 0; i < 300; i++) {
    const op = pickOp(rng, { tss }, 1 + rng.int(4), new Map(), () => {
      const id = allocateObjectId(0, tss.leading.nextId, last);
      if (id !== undefined) last = id;
      return id;
    });
    if (op === undefined) continue;
    const c: MirrorCommand = { origin: 0, seq: i, stamp: i * 10, client: 1, op };
    commands.push(c);
    tss.receive(i * 10, c);
  }
  return { tss, commands };
}

function transferOf(tss: TrailingStateSync): BoardTransfer {
  return {
    clock: -12.5,
    cut: tss.finalCut(),
    held: [
      { origin: 0, upTo: 300, above: [] },
      { origin: 3, upTo: 7, above: [9, 12] },
    ],
  };
}

describe('a board transfer', () => {
  it('round-trips a final cut, and a joiner started from it ends where the giver does (seeded)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { tss, commands } = busySync(seed);
      const t = transferOf(tss);
      expect(t.cut.commands.length, `seed ${seed}`).toBeGreaterThan(0);
      const back = decodeTransfer(encodeTransfer(t));
      if (isTransferDecodeError(back)) throw new Error(`seed ${seed}: ${back.detail}`);
      expect(hashBoard(back.cut.board), `seed ${seed}`).toBe(hashBoard(t.cut.board));
      expect(back.cut.commands, `seed ${seed}`).toEqual(t.cut.commands);
      expect({ ...back, cut: { ...back.cut, board: null } }).toEqual({
        ...t,
        cut: { ...t.cut, board: null },
      });
      const joiner = new TrailingStateSync(
        { self: 1, delays: [100, 1000], start: back.cut },
        back.cut.board,
      );
      // Everything the giver had is a duplicate to the joiner; time moves both past the last command.
      for (const c of commands) expect(joiner.receive(tss.finalCut().final + 1000, c)).toBe(false);
      tss.advance(1e6);
      joiner.advance(1e6);
      for (let j = 0; j < 3; j++) expect(joiner.hash(j), `seed ${seed}`).toBe(tss.hash(j));
    }
  });

  it('goes in chunks of a link packet and comes back in any order, repeats and all', () => {
    const board: BoardState = emptyBoard();
    const tss = new TrailingStateSync({ self: 0, delays: [100] }, board);
    for (let i = 0; i < 2000; i++)
      tss.receive(i, {
        origin: 0,
        seq: i,
        stamp: i,
        client: 1,
        op: {
          type: 'create',
          id: i * 16 + 16,
          fields: {
            kind: 'note',
            x: i,
            y: -i,
            w: 100,
            h: 50,
            rotation: 0,
            stroke: 0,
            fill: 0xffee00,
            strokeWidth: 1,
            text: `note ${i}`,
            points: [],
            blob: '',
          },
        },
      });
    const bytes = encodeTransfer(transferOf(tss));
    const chunks = chunkTransfer(bytes);
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(GROUP_CHUNK_BYTES);
    const rng = new Rng(5);
    const t = new TransferIn(bytes.length, chunks.length);
    const order = chunks.map((_, i) => i).sort(() => rng.next() - 0.5);
    for (const i of [...order, ...order.slice(0, 5)]) {
      const c = chunks[i];
      if (c !== undefined) expect(t.add(i, c)).toBe(true);
    }
    expect(t.complete).toBe(true);
    expect(t.result()).toEqual(bytes);
    // A chunk past the end, or of the wrong size, is refused.
    const fresh = new TransferIn(bytes.length, chunks.length);
    expect(fresh.add(chunks.length, new Uint8Array(GROUP_CHUNK_BYTES))).toBe(false);
    expect(fresh.add(0, new Uint8Array(3))).toBe(false);
    expect(() => new TransferIn(10, 2)).toThrow(RangeError);
  });

  it('never throws on random or cut-short bytes (seeded fuzz)', () => {
    const rng = new Rng(0x7a);
    const good = encodeTransfer(transferOf(busySync(3).tss));
    let errors = 0;
    for (let i = 0; i < 2_000; i++) {
      const bytes =
        i % 2 === 0 ? rng.bytes(rng.range(0, 200)) : good.slice(0, rng.range(0, good.length - 1));
      if (isTransferDecodeError(decodeTransfer(bytes))) errors++;
    }
    expect(errors).toBeGreaterThan(1_500);
  });
});
