// The open file's dirty flag and autosave on a fake board and a hand-moved clock: a named file is written a few
// seconds after a change (and not before), an Untitled board never.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { fileDigest, journalPath, replayJournal } from '../files/journal';
import { Board } from '../session/board';
import { AUTOSAVE_AFTER_MS, JOURNAL_EVERY_MS, OpenFile } from './open-file';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface FakeBoard {
  content: string;
  objects: Map<ObjectId, BoardObject>;
}

function setUp(): { file: OpenFile; board: FakeBoard; events: ApiEvent[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ghostboard-open-file-'));
  dirs.push(dir);
  const board: FakeBoard = { content: 'one', objects: new Map() };
  const events: ApiEvent[] = [];
  const file = new OpenFile(
    {
      hash: () => board.content,
      text: () => `board ${board.content}`,
      objects: () => ({ objects: board.objects, nextId: 100 }),
      blob: () => undefined,
    },
    (e) => events.push(e),
  );
  return { file, board, events, dir };
}

describe('OpenFile', () => {
  it('autosaves a named file AUTOSAVE_AFTER_MS after its first change, not before', async () => {
    const { file, board, events, dir } = setUp();
    const path = join(dir, 'a.ghostboard');
    await file.save(path);
    board.content = 'two';
    file.touch();
    file.tick(1000);
    expect(events.at(-1)).toEqual({ type: 'file', name: 'a', path, dirty: true });
    file.tick(1000 + AUTOSAVE_AFTER_MS - 1);
    await file.settle();
    expect(readFileSync(path, 'utf8')).toBe('board one');
    file.tick(1000 + AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(readFileSync(path, 'utf8')).toBe('board two');
    file.tick(1000 + AUTOSAVE_AFTER_MS + 1);
    expect(events.at(-1)).toEqual({ type: 'file', name: 'a', path, dirty: false });
    // Back to what was saved: clean again with no save.
    board.content = 'three';
    file.touch();
    file.tick(9000);
    board.content = 'two';
    file.touch();
    file.tick(9001);
    expect(file.dirty).toBe(false);
  });

  it('never writes an Untitled board', async () => {
    const { file, board, dir } = setUp();
    board.content = 'two';
    file.touch();
    file.tick(0);
    file.tick(10 * AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(file.dirty).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    await expect(file.save()).rejects.toThrow('use Save As');
  });

  it('journals what changed at most once a second, afresh after each save', async () => {
    const { file, board, dir } = setUp();
    const path = join(dir, 'j.ghostboard');
    const made = new Board();
    const a = made.create(newRect({ x: 1 }));
    const b = made.create(newRect({ x: 2 }));
    if ('refused' in a || 'refused' in b) throw new Error('not made');
    board.objects.set(a.id, a);
    file.touch();
    await file.save(path);
    const replay = (): ReturnType<typeof replayJournal> =>
      replayJournal(new Board().state, fileDigest('board one'), readFileSync(journalPath(path)));
    expect(replay()).toMatchObject({ records: 0, torn: false });
    board.objects.set(b.id, b);
    file.touch();
    file.tick(0);
    await file.settle();
    board.objects.delete(a.id);
    file.touch();
    file.tick(JOURNAL_EVERY_MS - 1); // too soon: waits for the next second
    await file.settle();
    const first = replay();
    expect('state' in first && [...first.state.objects.keys()]).toEqual([b.id]);
    expect('state' in first && first.records).toBe(1);
    file.tick(JOURNAL_EVERY_MS);
    await file.settle();
    const second = replay();
    expect('state' in second && [second.records, [...second.state.objects.keys()]]).toEqual([
      2,
      [b.id],
    ]);
    // A save starts the journal afresh, for the new save.
    board.content = 'two';
    file.touch();
    await file.save();
    expect(
      replayJournal(new Board().state, fileDigest('board two'), readFileSync(journalPath(path))),
    ).toMatchObject({ records: 0 });
  });

  it('takes the board’s hash again only after a change', () => {
    let hashes = 0;
    const file = new OpenFile(
      {
        hash: () => {
          hashes++;
          return 'h';
        },
        text: () => '',
        objects: () => ({ objects: new Map(), nextId: 1 }),
        blob: () => undefined,
      },
      () => undefined,
    );
    for (let t = 0; t < 100; t++) file.tick(t * 250);
    expect(hashes).toBe(2); // the saved one, then the first look
    file.touch();
    file.tick(30_000);
    file.tick(30_250);
    expect(hashes).toBe(3);
  });
});
