// The host's open board file through the renderer API (files): Untitled and dirty, save refused with no file,
// save-as, open replacing the live board for every joiner, new, and the refusals (a corrupt, foreign or newer
// file; a joiner), on simulated sessions in virtual time with real files in a temp folder.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { decodeBoardFile } from '../files/board-codec';
import {
  encodeJournalHeader,
  encodeJournalRecord,
  fileDigest,
  journalPath,
} from '../files/journal';
import { Board } from '../session/board';
import { SimSessions } from './testing/sim-sessions';
import type { TestCore } from './testing/test-core';
import { boardOf, testCores } from './testing/test-core';

const core = testCores('ghostboard-files-');

function lastFile(c: TestCore): Extract<ApiEvent, { type: 'file' }> | undefined {
  const e = c.events.findLast((x) => x.type === 'file');
  return e?.type === 'file' ? e : undefined;
}

const rect = newRect({ x: 10, y: 20, h: 50, stroke: 0 });
const fixture = (name: string): string =>
  new URL(`../files/fixtures/${name}`, import.meta.url).pathname;

async function hostAndJoin(world: SimSessions): Promise<{ a: TestCore; b: TestCore }> {
  const a = core(world);
  const b = core(world);
  await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
  await b.core.invoke({
    cmd: 'join',
    options: { name: 'Ben', address: '127.0.0.1:7350', code: 'ABCDE-FGHJK' },
  });
  await world.runUntil(() =>
    b.events.some((e) => e.type === 'status' && e.status.phase === 'joined'),
  );
  return { a, b };
}

describe('the open board file (app core, simulated sessions)', () => {
  it('starts Untitled, turns dirty on a change, refuses Save with no file, and saves as a file', async () => {
    const world = new SimSessions(41);
    const a = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    expect(lastFile(a)).toEqual({ type: 'file', name: 'Untitled', dirty: false });
    // A lone host's first id: origin 0's (board/ids.ts).
    expect(await a.core.invoke({ cmd: 'create', object: rect })).toEqual({ ok: true, id: 16 });
    await world.runUntil(() => lastFile(a)?.dirty === true);
    expect(await a.core.invoke({ cmd: 'save' })).toEqual({
      ok: false,
      reason: 'the board has no file yet: use Save As',
    });
    const path = join(a.dir, 'plan.ghostboard');
    expect(await a.core.invoke({ cmd: 'save-as', path })).toEqual({ ok: true });
    expect(lastFile(a)).toEqual({ type: 'file', name: 'plan', path, dirty: false });
    const saved = decodeBoardFile(readFileSync(path, 'utf8'));
    expect('refused' in saved ? saved.refused : [...saved.objects.keys()]).toEqual([16]);
    // A second change, saved to the same file.
    await a.core.invoke({ cmd: 'create', object: { ...rect, x: 300 } });
    await world.runUntil(() => lastFile(a)?.dirty === true);
    expect(await a.core.invoke({ cmd: 'save' })).toEqual({ ok: true });
    expect(lastFile(a)?.dirty).toBe(false);
    const again = decodeBoardFile(readFileSync(path, 'utf8'));
    expect('refused' in again ? again.refused : again.objects.size).toBe(2);
    // On sync the renderer is told again.
    a.events.length = 0;
    await a.core.invoke({ cmd: 'sync' });
    expect(lastFile(a)).toEqual({ type: 'file', name: 'plan', path, dirty: false });
  });

  it('opens a file into the live session (every joiner sees it) and starts a new board', async () => {
    const world = new SimSessions(42);
    const { a, b } = await hostAndJoin(world);
    await a.core.invoke({ cmd: 'create', object: rect });
    await world.runUntil(() => boardOf(b).size === 1);
    const path = join(a.dir, 'canonical.ghostboard');
    copyFileSync(fixture('v2-canonical.ghostboard'), path);
    const want = decodeBoardFile(readFileSync(path, 'utf8'));
    if ('refused' in want) throw new Error(want.refused);
    expect(await a.core.invoke({ cmd: 'open', path })).toEqual({ ok: true });
    expect(lastFile(a)).toEqual({ type: 'file', name: 'canonical', path, dirty: false });
    // The old board's steps are gone with it: nothing of the file's to undo.
    expect(a.events.findLast((e) => e.type === 'history')).toEqual({
      type: 'history',
      canUndo: false,
      canRedo: false,
    });
    expect(await a.core.invoke({ cmd: 'undo' })).toEqual({ ok: false, reason: 'nothing to undo' });
    const ids = [...want.objects.keys()].sort((x, y) => x - y);
    const sorted = (m: Map<number, BoardObject>): number[] => [...m.keys()].sort((x, y) => x - y);
    expect(sorted(boardOf(a))).toEqual(ids);
    await world.runUntil(() => sorted(boardOf(b)).join() === ids.join());
    for (const [id, o] of want.objects)
      expect(boardOf(b).get(id)).toEqual({ ...o, lockedBy: null });
    // The file is untouched by opening it.
    expect(readFileSync(path, 'utf8')).toBe(
      readFileSync(fixture('v2-canonical.ghostboard'), 'utf8'),
    );
    expect(await a.core.invoke({ cmd: 'new' })).toEqual({ ok: true });
    expect(lastFile(a)).toEqual({ type: 'file', name: 'Untitled', dirty: false });
    await world.runUntil(() => boardOf(b).size === 0);
    expect(boardOf(a).size).toBe(0);
  });

  it('refuses a corrupt, foreign or newer file with the reason, changing nothing; and a joiner', async () => {
    const world = new SimSessions(43);
    const { a, b } = await hostAndJoin(world);
    await a.core.invoke({ cmd: 'create', object: rect });
    const cases: [string, string, RegExp][] = [
      ['torn.ghostboard', '{"format":"ghostboard-board","version":2,"nex', /not valid JSON/],
      ['scene.ghostboard', '{"type":"excalidraw","elements":[]}', /not a Ghostboard board file/],
      [
        'future.ghostboard',
        '{"format":"ghostboard-board","version":99,"nextId":1,"objects":[]}',
        /newer version/,
      ],
    ];
    for (const [name, text, reason] of cases) {
      const path = join(a.dir, name);
      writeFileSync(path, text);
      const r = await a.core.invoke({ cmd: 'open', path });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.reason).toMatch(reason);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
    expect(await a.core.invoke({ cmd: 'open', path: join(a.dir, 'missing.ghostboard') })).toEqual({
      ok: false,
      reason: `cannot open ${join(a.dir, 'missing.ghostboard')}: no such file`,
    });
    expect(boardOf(a).size).toBe(1);
    expect(lastFile(a)?.name).toBe('Untitled');
    const refusal = {
      ok: false,
      reason: "only the host has the board's file: save a copy from the Export panel",
    };
    expect(await b.core.invoke({ cmd: 'save' })).toEqual(refusal);
    expect(await b.core.invoke({ cmd: 'new' })).toEqual(refusal);
    expect(await b.core.invoke({ cmd: 'open', path: fixture('v2-canonical.ghostboard') })).toEqual(
      refusal,
    );
    expect(b.events.some((e) => e.type === 'file')).toBe(false);
  });

  it('brings back from the journal what a crash left unsaved, until a save folds it in; a damaged one is set aside', async () => {
    const world = new SimSessions(44);
    const a = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    await a.core.invoke({ cmd: 'create', object: rect });
    const path = join(a.dir, 'crash.ghostboard');
    expect(await a.core.invoke({ cmd: 'save-as', path })).toEqual({ ok: true });
    // What the host journaled before it went down: a second object, then the first one moved.
    const text = readFileSync(path, 'utf8');
    const saved = decodeBoardFile(text);
    if ('refused' in saved) throw new Error(saved.refused);
    const live = new Board(saved);
    const made = live.create({ ...rect, x: 400 });
    const moved = live.update(16, { x: -50 });
    if ('refused' in made || 'refused' in moved) throw new Error('not made');
    const r1 = encodeJournalRecord({ changed: [made], deleted: [], nextId: 18 });
    const r2 = encodeJournalRecord({ changed: [moved], deleted: [], nextId: 18 });
    const journal = Buffer.concat([encodeJournalHeader(fileDigest(text)), r1, r2]);
    writeFileSync(journalPath(path), journal.subarray(0, journal.length - 3)); // the second one torn

    const b = core(world);
    await b.core.invoke({ cmd: 'host', options: { name: 'Ben', code: 'ABCDE-FGHJK' } });
    expect(await b.core.invoke({ cmd: 'open', path })).toEqual({ ok: true });
    expect([...boardOf(b).values()].map((o) => [o.id, o.x])).toEqual([
      [16, rect.x],
      [17, 400],
    ]);
    const notice = b.events.findLast((e) => e.type === 'notice');
    expect(notice?.type === 'notice' && notice.text).toMatch(
      /brought back from its journal \(1 record\)/,
    );
    expect(lastFile(b)?.dirty).toBe(true);
    // Opened again before any save (a second crash): the same edits come back.
    expect(await b.core.invoke({ cmd: 'open', path })).toEqual({ ok: true });
    expect(boardOf(b).size).toBe(2);
    expect(await b.core.invoke({ cmd: 'save' })).toEqual({ ok: true });
    expect(lastFile(b)?.dirty).toBe(false);
    const after = decodeBoardFile(readFileSync(path, 'utf8'));
    expect('refused' in after ? after.refused : after.objects.size).toBe(2);
    b.events.length = 0;
    expect(await b.core.invoke({ cmd: 'open', path })).toEqual({ ok: true });
    expect(b.events.some((e) => e.type === 'notice')).toBe(false);
    await b.core.invoke({ cmd: 'sync' });
    expect(lastFile(b)?.dirty).toBe(false);

    // Damage before the last record: the journal is refused and kept aside; the file opens as saved.
    const digest = fileDigest(readFileSync(path, 'utf8'));
    const bad = Buffer.concat([encodeJournalHeader(digest), r1, r2]);
    const at = encodeJournalHeader(digest).length + 10;
    bad[at] = (bad[at] ?? 0) ^ 0xff;
    writeFileSync(journalPath(path), bad);
    expect(await b.core.invoke({ cmd: 'open', path })).toEqual({ ok: true });
    const warn = b.events.findLast((e) => e.type === 'notice');
    expect(warn?.type === 'notice' && warn.text).toMatch(
      /journal could not be read \(journal record 1 is damaged\)/,
    );
    expect(existsSync(`${journalPath(path)}.damaged`)).toBe(true);
    expect(boardOf(b).size).toBe(2);
    expect(lastFile(b)?.dirty).toBe(false);
  });

  it('a new board takes nothing of the old one back: a joiner’s undo of a delete restores nothing', async () => {
    const world = new SimSessions(45);
    const { a, b } = await hostAndJoin(world);
    // A joiner's commands wait for the host: virtual time moves while they do.
    const settled = async <T>(p: Promise<T>): Promise<T> => {
      let done = false;
      void p.then(() => (done = true));
      await world.runUntil(() => done);
      return p;
    };
    const made = await settled(b.core.invoke({ cmd: 'create', object: rect }));
    if (!made.ok || made.id === undefined) throw new Error('not made');
    const id = made.id;
    await world.runUntil(() => boardOf(a).has(id));
    expect(await settled(b.core.invoke({ cmd: 'delete', ids: [id] }))).toEqual({ ok: true });
    await world.runUntil(() => !boardOf(a).has(id));
    expect(await a.core.invoke({ cmd: 'new' })).toEqual({ ok: true });
    await settled(b.core.invoke({ cmd: 'undo' }));
    await world.run(2_000);
    expect(boardOf(a).size).toBe(0);
    expect(boardOf(b).size).toBe(0);
  }, 20_000);
});
