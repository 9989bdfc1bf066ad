// The open file's dirty flag and autosave on a fake board and a hand-moved clock: a named file is written a few
// seconds after a change (and not before), an Untitled board never.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { AUTOSAVE_AFTER_MS, OpenFile } from './open-file';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setUp(): { file: OpenFile; board: { content: string }; events: ApiEvent[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ghostboard-open-file-'));
  dirs.push(dir);
  const board = { content: 'one' };
  const events: ApiEvent[] = [];
  const file = new OpenFile(
    { hash: () => board.content, text: () => `board ${board.content}` },
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
    file.tick(9000);
    board.content = 'two';
    file.tick(9001);
    expect(file.dirty).toBe(false);
  });

  it('never writes an Untitled board', async () => {
    const { file, board, dir } = setUp();
    board.content = 'two';
    file.tick(0);
    file.tick(10 * AUTOSAVE_AFTER_MS);
    await file.settle();
    expect(file.dirty).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    await expect(file.save()).rejects.toThrow('use Save As');
  });
});
