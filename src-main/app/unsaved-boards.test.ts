// The unsaved boards in a data folder (filesleft), on real files in a temp folder: a slot written and removed, the
// list newest first with object counts, an unreadable or empty one not offered, the oldest past UNSAVED_KEEP
// removed, an older version's board.json adopted, and ids that could name any other file refused.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Board } from '../session/board';
import {
  LEGACY_BOARD,
  listUnsaved,
  readUnsaved,
  UNSAVED_DIR,
  UNSAVED_KEEP,
  unsavedId,
  unsavedPath,
  UnsavedSlot,
} from './unsaved-boards';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ghostboard-unsaved-'));
  dirs.push(d);
  return d;
}

const fixture = (name: string): string =>
  new URL(`../files/fixtures/${name}`, import.meta.url).pathname;

/** A slot holding the canonical fixture (4 objects), written at `ms` since the epoch (its mtime). */
async function slotAt(dir: string, ms: number): Promise<UnsavedSlot> {
  const slot = new UnsavedSlot(dir, unsavedId(ms));
  await slot.write(new Board().toFile());
  copyFileSync(fixture('v2-canonical.ghostboard'), slot.file);
  utimesSync(slot.file, ms / 1000, ms / 1000);
  return slot;
}

describe('unsaved boards', () => {
  it('writes, lists (newest first, with their objects), reads and removes a slot', async () => {
    const dir = dataDir();
    expect(await listUnsaved(dir)).toEqual([]);
    await slotAt(dir, 1_000_000);
    const newer = await slotAt(dir, 2_000_000);
    expect(await listUnsaved(dir)).toEqual([
      { id: 'untitled-2000000', savedAt: 2_000_000, objects: 4 },
      { id: 'untitled-1000000', savedAt: 1_000_000, objects: 4 },
    ]);
    const r = await readUnsaved(dir, newer.id);
    expect('state' in r && r.state.objects.size).toBe(4);
    await newer.remove();
    await newer.remove(); // gone already: no error
    expect((await listUnsaved(dir)).map((b) => b.id)).toEqual(['untitled-1000000']);
  });

  it('offers no damaged or empty board, and keeps only the newest UNSAVED_KEEP', async () => {
    const dir = dataDir();
    const torn = new UnsavedSlot(dir, unsavedId(50));
    await torn.write('{"format":"ghostboard-board","version":2,"nex');
    const empty = new UnsavedSlot(dir, unsavedId(60));
    await empty.write(new Board().toFile());
    writeFileSync(join(dir, UNSAVED_DIR, 'notes.txt'), 'not a board');
    expect(await listUnsaved(dir)).toEqual([]);
    expect(readdirSync(join(dir, UNSAVED_DIR))).not.toContain(`${empty.id}.ghostboard`);
    for (let i = 1; i <= UNSAVED_KEEP + 2; i++) await slotAt(dir, i * 1_000_000);
    const listed = await listUnsaved(dir);
    expect(listed.map((b) => b.savedAt)).toEqual(
      Array.from({ length: UNSAVED_KEEP }, (_, i) => (UNSAVED_KEEP + 2 - i) * 1_000_000),
    );
    // The oldest and the empty one went; the damaged one is kept (not offered), and what is not a slot stays.
    expect(readdirSync(join(dir, UNSAVED_DIR)).sort()).toEqual(
      [...listed.map((b) => `${b.id}.ghostboard`), `${torn.id}.ghostboard`, 'notes.txt'].sort(),
    );
  });

  it('adopts an older version’s board.json among them, never hosting it', async () => {
    const dir = dataDir();
    copyFileSync(fixture('v2-canonical.ghostboard'), join(dir, LEGACY_BOARD));
    utimesSync(join(dir, LEGACY_BOARD), 1234, 1234);
    expect(await listUnsaved(dir)).toEqual([
      { id: 'untitled-1234000', savedAt: 1_234_000, objects: 4 },
    ]);
    expect(readdirSync(dir).sort()).toEqual([UNSAVED_DIR]);
  });

  it('refuses an id that is not one (a path elsewhere)', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, UNSAVED_DIR));
    for (const id of ['../settings', 'untitled-1/../../x', 'untitled-', 'board'])
      expect(() => unsavedPath(dir, id)).toThrow('not an unsaved board');
    const missing = await readUnsaved(dir, 'untitled-7');
    expect(missing).toEqual({ refused: 'no such file' });
  });
});
