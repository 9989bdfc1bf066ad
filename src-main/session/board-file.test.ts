import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BitWriter } from '../net/bitstream';
import { Board, isRefusal, MAX_BOARD_FILE_BYTES } from './board';
import { loadBoardFile, saveBoardFile } from './board-file';
import { BoardItem } from './ghost-classes';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gb-board-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function sample(n: number): Board {
  const b = new Board();
  for (let i = 0; i < n; i++) {
    b.create({
      kind: 'rect',
      x: i * 10,
      y: -i,
      w: 50,
      h: 20,
      rotation: 0,
      stroke: 0x112233,
      fill: null,
      strokeWidth: 2,
      text: `object ${i}`,
      points: [],
      blob: '',
    });
  }
  return b;
}

/** Every group of every object packs as the host would send it. */
function packsForTheWire(board: Board): void {
  const w = new BitWriter();
  for (const o of board.all()) for (const g of BoardItem.groups) g.pack(w, { o });
}

const FIXED = new Date('2026-11-25T10:20:30.456Z');

describe('board files', () => {
  it('a missing file is a new board; a saved one loads back', async () => {
    const file = join(dir, 'board.json');
    expect(await loadBoardFile(file)).toEqual({ board: undefined });
    const b = sample(3);
    await saveBoardFile(file, b.toFile(), true);
    const loaded = await loadBoardFile(file);
    expect(loaded.notice).toBeUndefined();
    expect(loaded.board?.hash()).toBe(b.hash());
    expect(await readdir(dir)).toEqual(['board.json']); // nothing to back up yet, no temp file left
  });

  it('refuses a stacking order the wire cannot carry (a z of 2^60 used to load, then break sending)', () => {
    const text = sample(2)
      .toFile()
      .replace(/"z":2/, `"z":${2 ** 60}`);
    const r = Board.fromFile(text);
    expect(isRefusal(r) ? r.refused : 'loaded').toMatch(/z/);
  });

  it('whatever a hostile file holds, a board that loads packs for the wire', () => {
    const base = JSON.parse(sample(1).toFile()) as { objects: Record<string, unknown>[] };
    const values = [
      2 ** 60,
      -(2 ** 60),
      2 ** 31,
      -1,
      1.5,
      1e300,
      0,
      3600,
      65,
      0x1000000,
      'x',
      null,
    ];
    const fields = ['id', 'x', 'y', 'w', 'h', 'rotation', 'stroke', 'fill', 'strokeWidth', 'z'];
    let loaded = 0;
    for (const f of fields) {
      for (const v of values) {
        const o = { ...base.objects[0], [f]: v };
        const b = Board.fromFile(JSON.stringify({ ...base, objects: [o] }));
        if (isRefusal(b)) continue;
        loaded++;
        expect(
          () => {
            packsForTheWire(b);
          },
          `${f}=${String(v)}`,
        ).not.toThrow();
      }
    }
    expect(loaded).toBeGreaterThan(10); // the in-range values did load
  });

  it('a damaged file is moved aside and the host starts empty, saying so', async () => {
    const file = join(dir, 'board.json');
    await writeFile(file, '{"format":"ghostboard-board","version":1,"objects":[{"id":');
    const r = await loadBoardFile(file, FIXED);
    expect(r.board).toBeUndefined();
    expect(r.notice).toMatchObject({
      status: 'moved-aside',
      reason: 'board file is not valid JSON',
      restoredFrom: undefined,
    });
    expect((await readdir(dir)).sort()).toEqual(['board.json.corrupt-2026-11-25T10-20-30-456Z']);
    // The damaged bytes are kept for whoever wants them back.
    expect(await readFile(r.notice?.movedTo ?? '', 'utf8')).toMatch(/^\{"format"/);
  });

  it('an oversized file is set aside by its size, before it is read', async () => {
    const file = join(dir, 'board.json');
    await writeFile(file, '');
    await truncate(file, MAX_BOARD_FILE_BYTES + 1); // sparse: costs no disk
    const r = await loadBoardFile(file, FIXED);
    expect(r.notice?.reason).toMatch(/over the/);
    expect(r.board).toBeUndefined();
  });

  it('keeps three rotating backups and restores the newest good one when the file is damaged', async () => {
    const file = join(dir, 'board.json');
    const boards = [1, 2, 3, 4, 5].map(sample);
    for (const b of boards) await saveBoardFile(file, b.toFile(), true);
    expect((await readdir(dir)).sort()).toEqual([
      'board.json',
      'board.json.1',
      'board.json.2',
      'board.json.3',
    ]);
    const sizes = async (f: string): Promise<number> => {
      const b = Board.fromFile(await readFile(f, 'utf8'));
      return isRefusal(b) ? -1 : b.size;
    };
    expect(await sizes(file)).toBe(5);
    expect(await sizes(`${file}.1`)).toBe(4);
    expect(await sizes(`${file}.3`)).toBe(2);
    // A save without a backup leaves the backups alone.
    await saveBoardFile(file, sample(6).toFile(), false);
    expect(await sizes(`${file}.1`)).toBe(4);
    // Damage the file and the newest backup: the next one is used.
    await writeFile(file, 'garbage');
    await writeFile(`${file}.1`, '{}');
    const r = await loadBoardFile(file, FIXED);
    expect(r.board?.size).toBe(3);
    expect(r.notice?.restoredFrom).toBe(`${file}.2`);
  });
});
