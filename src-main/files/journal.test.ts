// The journal: seeded crashes at every byte (a journal cut anywhere replays to the board as of its last complete
// record), damage past the last record refused with a reason, a journal of an older save left alone, and the fs
// layer's reset, append and read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardObject, ObjectId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import type { BoardState } from '../board';
import { apply, emptyBoard } from '../board';
import {
  appendJournal,
  crc32,
  encodeJournalHeader,
  encodeJournalRecord,
  journalChange,
  journalPath,
  readJournal,
  replayJournal,
  resetJournal,
} from './journal';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The objects as a file keeps them (no locks), by id. */
const objectsOf = (s: BoardState): [ObjectId, BoardObject][] =>
  [...s.objects.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([id, o]) => [id, { ...o, lockedBy: null }]);

/** mulberry32: a small seeded PRNG (files/ imports nothing outside board/ and shared/, not even net/'s Rng). */
function rng(seed: number): (lo: number, hi: number) => number {
  let s = seed >>> 0;
  return (lo, hi) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return lo + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (hi - lo + 1));
  };
}

type Int = ReturnType<typeof rng>;

/** A few random creates, edits and deletes on `s`. */
function randomEdits(int: Int, s: BoardState): void {
  for (let n = int(1, 4); n > 0; n--) {
    const ids = [...s.objects.keys()];
    const pick = ids[int(0, ids.length - 1)];
    const roll = int(0, 9);
    if (pick === undefined || roll < 4)
      apply(s, {
        type: 'create',
        fields: newRect({ x: int(-500, 500), text: int(0, 1) === 1 ? 'é🙂' : '' }),
      });
    else if (roll < 8) apply(s, { type: 'patch', id: pick, patch: { x: int(-500, 500) } });
    else apply(s, { type: 'delete', id: pick });
  }
}

describe('board journal', () => {
  it('replays a journal cut at every byte to the board as of its last complete record (seeded)', () => {
    for (const seed of [1, 2, 3]) {
      const r = rng(seed);
      const board = emptyBoard();
      randomEdits(r, board);
      const base: BoardState = {
        objects: new Map(board.objects),
        nextId: board.nextId,
        topZ: board.topZ,
      };
      const parts = [encodeJournalHeader('digest-a')];
      const boundaries = [parts[0]?.length ?? 0];
      const expected = [objectsOf(base)];
      let before = new Map(board.objects);
      for (let i = 0; i < 10; i++) {
        randomEdits(r, board);
        const change = journalChange(before, board);
        before = new Map(board.objects);
        if (change === undefined) continue;
        const rec = encodeJournalRecord(change);
        parts.push(rec);
        boundaries.push((boundaries.at(-1) ?? 0) + rec.length);
        expected.push(objectsOf(board));
      }
      const all = Buffer.concat(parts);
      for (let cut = boundaries[0] ?? 0; cut <= all.length; cut++) {
        const got = replayJournal(base, 'digest-a', all.subarray(0, cut));
        const complete = boundaries.filter((b) => b <= cut).length - 1;
        const msg = `seed ${seed} cut at ${cut} of ${all.length}`;
        if (!('state' in got)) throw new Error(`${msg}: ${JSON.stringify(got)}`);
        expect(got.records, msg).toBe(complete);
        expect(got.torn, msg).toBe(!boundaries.includes(cut));
        expect(objectsOf(got.state), msg).toEqual(expected[complete]);
        expect(got.state.nextId, msg).toBeGreaterThanOrEqual(base.nextId);
      }
      // The base it was given is untouched.
      expect(objectsOf(base)).toEqual(expected[0]);
    }
  });

  it('refuses damage before the last record, ignores it in the last; leaves an older save’s journal alone', () => {
    const s = emptyBoard();
    apply(s, { type: 'create', fields: newRect() });
    const r1 = encodeJournalRecord({
      changed: [...s.objects.values()],
      deleted: [],
      nextId: s.nextId,
    });
    const r2 = encodeJournalRecord({ changed: [], deleted: [1], nextId: s.nextId });
    const head = encodeJournalHeader('d');
    const bytes = Buffer.concat([head, r1, r2]);
    const bad = Buffer.from(bytes);
    bad[head.length + 12] = (bad[head.length + 12] ?? 0) ^ 0xff; // inside record 1's payload
    expect(replayJournal(emptyBoard(), 'd', bad)).toEqual({
      refused: 'journal record 1 is damaged',
    });
    const lastBad = Buffer.from(bytes);
    lastBad[bytes.length - 2] = (lastBad[bytes.length - 2] ?? 0) ^ 0xff;
    const torn = replayJournal(emptyBoard(), 'd', lastBad);
    expect('state' in torn && [torn.records, torn.torn, torn.state.objects.size]).toEqual([
      1,
      true,
      1,
    ]);
    expect(replayJournal(emptyBoard(), 'other', bytes)).toEqual({ stale: true });
    expect(replayJournal(emptyBoard(), 'd', Buffer.from('{"format":"ghostboard-board"}'))).toEqual({
      refused: 'not a Ghostboard journal',
    });
    const huge = Buffer.concat([head, Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])]);
    expect(replayJournal(emptyBoard(), 'd', huge)).toEqual({
      refused: 'journal record 1 is too large',
    });
    const hostile = Buffer.concat([
      head,
      encodeJournalRecord({ changed: [], deleted: [], nextId: 1 }).subarray(0, 8),
    ]);
    // A record head with a crc but no payload yet: torn.
    expect('state' in replayJournal(emptyBoard(), 'd', hostile)).toBe(true);
  });

  it('refuses a well-framed record whose content is not a board', () => {
    const payload = Buffer.from(JSON.stringify({ deleted: [0], changed: '' }), 'utf8');
    const head = Buffer.alloc(8);
    head.writeUInt32LE(payload.length, 0);
    head.writeUInt32LE(crc32(payload), 4);
    const bytes = Buffer.concat([encodeJournalHeader('d'), head, payload, head, payload]);
    expect(replayJournal(emptyBoard(), 'd', bytes)).toEqual({
      refused: 'journal record 1: bad deleted id',
    });
  });

  it('checksums as zlib does', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it('writes afresh, appends and reads back on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ghostboard-journal-'));
    dirs.push(dir);
    const file = join(dir, 'a.ghostboard');
    expect(await readJournal(file)).toBeUndefined();
    await resetJournal(file, 'd1');
    const s = emptyBoard();
    apply(s, { type: 'create', fields: newRect() });
    await appendJournal(
      file,
      encodeJournalRecord({ changed: [...s.objects.values()], deleted: [], nextId: 2 }),
    );
    const bytes = await readJournal(file);
    if (bytes === undefined || 'refused' in bytes) throw new Error('no journal');
    const got = replayJournal(emptyBoard(), 'd1', bytes);
    expect('state' in got && got.state.objects.size).toBe(1);
    await resetJournal(file, 'd2');
    const fresh = await readJournal(file);
    expect(fresh).toEqual(Buffer.from(encodeJournalHeader('d2')));
    writeFileSync(journalPath(file), 'x');
    expect(replayJournal(emptyBoard(), 'd2', (await readJournal(file)) as Uint8Array)).toEqual({
      refused: 'the journal has no header',
    });
  });
});
