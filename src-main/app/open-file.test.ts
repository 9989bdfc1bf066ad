// The open file's dirty flag and autosave on a fake board and a hand-moved clock: a named file is written a few
// seconds after a change (and not before), an Untitled board never to a file of its own: its unsaved store keeps it
// (filesleft), emptied once it is saved, downloaded or replaced; Save As leaves no journal of the old file.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { fileDigest, journalPath, replayJournal } from '../files/journal';
import { Board } from '../session/board';
import type { UnsavedStore } from './open-file';
import { AUTOSAVE_AFTER_MS, JOURNAL_EVERY_MS, OpenFile } from './open-file';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface FakeBoard {
  content: string;
  objects: Map<ObjectId, BoardObject>;
}

/** An unsaved store that records what it was told: each write's text, 'removed' for each removal. */
interface FakeStore extends UnsavedStore {
  readonly log: string[];
  /** What it holds now (undefined: nothing). */
  held: string | undefined;
}

function fakeStore(): FakeStore {
  const s: FakeStore = {
    log: [],
    held: undefined,
    write(text) {
      s.log.push(text);
      s.held = text;
      return Promise.resolve();
    },
    remove() {
      s.log.push('removed');
      s.held = undefined;
      return Promise.resolve();
    },
  };
  return s;
}

function setUp(store?: UnsavedStore): {
  file: OpenFile;
  board: FakeBoard;
  events: ApiEvent[];
  dir: string;
} {
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
    store,
  );
  return { file, board, events, dir };
}

/** A change to the fake board (with one object in it, so it is not empty). */
function change(file: OpenFile, board: FakeBoard, content: string): void {
  const o = new Board().create(newRect({ x: 1 }));
  if ('refused' in o) throw new Error(o.refused);
  board.objects.set(o.id, o);
  board.content = content;
  file.touch();
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

  it('never writes an Untitled board to a file of its own', async () => {
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

  it('keeps an Untitled board in its unsaved store a few seconds after a change, at most that often (filesleft)', async () => {
    const store = fakeStore();
    const { file, board, dir } = setUp(store);
    change(file, board, 'two');
    file.tick(1000);
    file.tick(1000 + AUTOSAVE_AFTER_MS - 1);
    await file.settle();
    expect(store.log).toEqual([]);
    file.tick(1000 + AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(store.log).toEqual(['board two']);
    // Changing on: written again only once AUTOSAVE_AFTER_MS has passed since the last write.
    change(file, board, 'three');
    file.tick(1000 + AUTOSAVE_AFTER_MS + 250);
    await file.settle();
    expect(store.log).toEqual(['board two']);
    file.tick(1000 + 2 * AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(store.log).toEqual(['board two', 'board three']);
    // Nothing new: nothing written.
    file.tick(1000 + 5 * AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(store.log).toHaveLength(2);
    // Back as it started (clean): the store is emptied.
    board.content = 'one';
    file.touch();
    file.tick(1000 + 6 * AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(store.log.at(-1)).toBe('removed');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('empties the unsaved store once the board is saved as a file, downloaded or replaced (filesleft)', async () => {
    for (const how of ['save-as', 'download', 'new'] as const) {
      const store = fakeStore();
      const { file, board, events, dir } = setUp(store);
      change(file, board, 'two');
      file.tick(0);
      file.tick(AUTOSAVE_AFTER_MS);
      await file.settle();
      expect(store.held).toBe('board two');
      if (how === 'save-as') await file.save(join(dir, 'kept.ghostboard'));
      else if (how === 'download') file.downloaded('two');
      else {
        board.content = 'one';
        board.objects.clear();
        file.touch();
        file.replaced(undefined, 'one');
      }
      await file.settle();
      expect([how, store.held]).toEqual([how, undefined]);
      if (how === 'download')
        expect(events.at(-1)).toEqual({ type: 'file', name: 'Untitled', dirty: false });
      // Ending clean: nothing is kept.
      await file.finish();
      expect(store.held).toBe(undefined);
    }
  });

  it('keeps unsaved changes of a board with no file when the session ends, and nothing when it ends clean (filesleft)', async () => {
    const store = fakeStore();
    const { file, board } = setUp(store);
    change(file, board, 'two');
    file.tick(0); // too soon for the store: ending writes it
    await file.finish();
    expect(store.log).toEqual(['board two']);
    const clean = fakeStore();
    const other = setUp(clean);
    other.file.tick(0);
    await other.file.finish();
    expect(clean.held).toBe(undefined);
  });

  it('a recovered board is the one its store holds: kept, not removed, and named as uploaded boards are (filesleft)', async () => {
    const store = fakeStore();
    store.held = 'board two';
    const { file, board, events } = setUp(store);
    change(file, board, 'two');
    file.replaced(undefined, 'one', { kept: true });
    expect(events.at(-1)).toEqual({ type: 'file', name: 'Untitled', dirty: true });
    file.tick(0);
    file.tick(10 * AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(store.log).toEqual([]);
    expect(store.held).toBe('board two');
    file.replaced(undefined, 'two', { name: 'C:\\boards\\plan.ghostboard' });
    await file.settle();
    expect(store.held).toBe(undefined);
    expect(events.at(-1)).toEqual({ type: 'file', name: 'plan', dirty: false });
  });

  it('after Save As from X to Y, X has no journal; Y has its own (filesleft)', async () => {
    const { file, board, dir } = setUp();
    const x = join(dir, 'x.ghostboard');
    const y = join(dir, 'y.ghostboard');
    await file.save(x);
    change(file, board, 'two');
    file.tick(0);
    await file.settle();
    expect(existsSync(journalPath(x))).toBe(true);
    // The header (magic, length, a sha-256 in hex) and a record.
    expect(readFileSync(journalPath(x)).length).toBeGreaterThan(4 + 2 + 64);
    await file.save(y);
    expect(existsSync(journalPath(x))).toBe(false);
    expect(
      replayJournal(new Board().state, fileDigest('board two'), readFileSync(journalPath(y))),
    ).toMatchObject({ records: 0 });
    // Edits after it go to Y's journal only.
    change(file, board, 'three');
    file.tick(10_000);
    await file.settle();
    expect(existsSync(journalPath(x))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(
      ['y.ghostboard', 'y.ghostboard.journal', 'x.ghostboard'].sort(),
    );
  });

  it('a file replaced by another board (its changes discarded) leaves no journal to bring them back (filesleft)', async () => {
    for (const next of ['other', 'new'] as const) {
      const { file, board, dir } = setUp();
      const x = join(dir, 'x.ghostboard');
      await file.save(x);
      change(file, board, 'two');
      file.tick(0);
      await file.settle();
      expect(existsSync(journalPath(x))).toBe(true);
      file.replaced(next === 'other' ? join(dir, 'y.ghostboard') : undefined, 'two');
      await file.settle();
      expect([next, existsSync(journalPath(x))]).toEqual([next, false]);
      expect(readFileSync(x, 'utf8')).toBe('board one');
    }
  });
});
