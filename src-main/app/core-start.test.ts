// What a hosted session starts with (filesleft), through the renderer API on simulated sessions with real files in
// a temp data folder: a new board unless the user picks one (a file, an upload, an unsaved board offered back);
// nothing brought back unasked (an older version's board.json included); an Untitled board left unsaved is offered,
// and goes once saved; the web host's upload and download.
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiEvent, StartBoard } from '../../shared/api';
import { newRect } from '../../shared/testing/rect';
import { decodeBoardFile } from '../files/board-codec';
import { Board } from '../session/board';
import { SimSessions } from './testing/sim-sessions';
import type { TestCore } from './testing/test-core';
import { boardOf, testCores } from './testing/test-core';
import { LEGACY_BOARD, UNSAVED_DIR } from './unsaved-boards';

const core = testCores('ghostboard-start-');
const rect = newRect({ x: 10, y: 20, h: 50, stroke: 0 });
const fixture = (name: string): string =>
  new URL(`../files/fixtures/${name}`, import.meta.url).pathname;

function lastOf<T extends ApiEvent['type']>(
  c: TestCore,
  type: T,
): Extract<ApiEvent, { type: T }> | undefined {
  return c.events.findLast((e): e is Extract<ApiEvent, { type: T }> => e.type === type);
}

const host = (c: TestCore, board?: StartBoard) =>
  c.core.invoke({
    cmd: 'host',
    options: { name: 'Ana', code: 'ABCDE-FGHJK', ...(board === undefined ? {} : { board }) },
  });

const leave = (c: TestCore) => c.core.invoke({ cmd: 'leave' });

/** The fixture's board (a canonical v2 file) and its content hash. */
function canonical(): { text: string; ids: number[]; hash: string } {
  const text = readFileSync(fixture('v2-canonical.ghostboard'), 'utf8');
  const state = decodeBoardFile(text);
  if ('refused' in state) throw new Error(state.refused);
  return {
    text,
    ids: [...state.objects.keys()].sort((a, b) => a - b),
    hash: new Board(state).hash(),
  };
}

const sortedIds = (c: TestCore): number[] => [...boardOf(c).keys()].sort((a, b) => a - b);

describe('starting to host (app core, simulated sessions)', () => {
  it('never hosts an older version’s board.json unasked: it is offered, and recovered only when picked', async () => {
    const world = new SimSessions(61);
    const a = core(world);
    const { ids } = canonical();
    copyFileSync(fixture('v2-canonical.ghostboard'), join(a.dir, LEGACY_BOARD));
    await a.core.invoke({ cmd: 'sync' });
    const offered = lastOf(a, 'recoveries')?.boards ?? [];
    expect(offered.map((b) => b.objects)).toEqual([ids.length]);
    expect(existsSync(join(a.dir, LEGACY_BOARD))).toBe(false);
    expect(await host(a)).toEqual({ ok: true });
    expect(boardOf(a).size).toBe(0);
    expect(lastOf(a, 'file')).toEqual({ type: 'file', name: 'Untitled', dirty: false });
    await leave(a);
    // Still offered after a session that did not take it.
    const again = lastOf(a, 'recoveries')?.boards ?? [];
    expect(again.map((b) => b.id)).toEqual(offered.map((b) => b.id));
    const id = offered[0]?.id ?? '';
    expect(await host(a, { kind: 'recovered', id })).toEqual({ ok: true });
    expect(sortedIds(a)).toEqual(ids);
    // Unsaved until saved: Save As takes it out of the unsaved boards.
    expect(lastOf(a, 'file')).toEqual({ type: 'file', name: 'Untitled', dirty: true });
    const path = join(a.dir, 'kept.ghostboard');
    expect(await a.core.invoke({ cmd: 'save-as', path })).toEqual({ ok: true });
    await leave(a);
    expect(lastOf(a, 'recoveries')?.boards).toEqual([]);
    expect(readdirSync(join(a.dir, UNSAVED_DIR))).toEqual([]);
  });

  it('offers an Untitled board left unsaved when its session ended, and hosts a new one when asked to', async () => {
    const world = new SimSessions(62);
    const a = core(world);
    expect(await host(a)).toEqual({ ok: true });
    await a.core.invoke({ cmd: 'create', object: rect });
    await a.core.invoke({ cmd: 'create', object: { ...rect, x: 300 } });
    // (Kept a few seconds after each change too, so a crash loses no more: open-file.test.ts.)
    await leave(a);
    const offered = lastOf(a, 'recoveries')?.boards ?? [];
    expect(offered.map((b) => b.objects)).toEqual([2]);
    expect(offered[0]?.savedAt).toBeGreaterThan(0);
    // A new board is new: nothing of the old one.
    expect(await host(a, { kind: 'new' })).toEqual({ ok: true });
    expect(boardOf(a).size).toBe(0);
    await leave(a);
    // The empty board left nothing; the unsaved one is still offered.
    expect(lastOf(a, 'recoveries')?.boards.map((b) => b.id)).toEqual(offered.map((b) => b.id));
    expect(await host(a, { kind: 'recovered', id: offered[0]?.id ?? '' })).toEqual({ ok: true });
    expect(boardOf(a).size).toBe(2);
    // Discarded for a new board (the renderer confirmed): no longer offered.
    expect(await a.core.invoke({ cmd: 'new' })).toEqual({ ok: true });
    await leave(a);
    expect(lastOf(a, 'recoveries')?.boards).toEqual([]);
    expect(await host(a, { kind: 'recovered', id: offered[0]?.id ?? '' }).then((r) => r.ok)).toBe(
      false,
    );
    expect(lastOf(a, 'status')?.status.phase).toBe('idle');
  });

  it('hosts a board file by its path, and refuses to host one that cannot be opened', async () => {
    const world = new SimSessions(63);
    const a = core(world);
    const { ids } = canonical();
    const path = join(a.dir, 'plan.ghostboard');
    copyFileSync(fixture('v2-canonical.ghostboard'), path);
    expect(await host(a, { kind: 'file', path })).toEqual({ ok: true });
    expect(sortedIds(a)).toEqual(ids);
    expect(lastOf(a, 'file')).toEqual({ type: 'file', name: 'plan', path, dirty: false });
    await leave(a);
    const future = join(a.dir, 'future.ghostboard');
    const text = '{"format":"ghostboard-board","version":99,"nextId":1,"objects":[]}';
    writeFileSync(future, text);
    a.events.length = 0;
    const r = await host(a, { kind: 'file', path: future });
    expect(!r.ok && r.reason).toMatch(/newer version/);
    expect(a.events.some((e) => e.type === 'status' && e.status.phase === 'hosting')).toBe(false);
    expect(readFileSync(future, 'utf8')).toBe(text);
  });

  it('web host: hosts an upload, replaces the board by an upload (refusing a bad one, nothing changed) and downloads it', async () => {
    const world = new SimSessions(64);
    const a = core(world);
    const { text, ids, hash } = canonical();
    expect(await host(a, { kind: 'upload', name: 'plan.ghostboard', text })).toEqual({ ok: true });
    expect(sortedIds(a)).toEqual(ids);
    expect(lastOf(a, 'file')).toEqual({ type: 'file', name: 'plan', dirty: false });
    await a.core.invoke({ cmd: 'create', object: rect });
    await world.runUntil(() => lastOf(a, 'file')?.dirty === true);
    const before = sortedIds(a);
    for (const [bad, why] of [
      ['{"format":"ghostboard-board","version":2,"nex', /not valid JSON/],
      ['{"type":"excalidraw","elements":[]}', /not a Ghostboard board file/],
      ['{"format":"ghostboard-board","version":99,"nextId":1,"objects":[]}', /newer version/],
    ] as const) {
      const r = await a.core.invoke({ cmd: 'open-text', name: 'x.ghostboard', text: bad });
      expect(!r.ok && r.reason).toMatch(why);
      expect(sortedIds(a)).toEqual(before);
    }
    expect(lastOf(a, 'file')).toEqual({ type: 'file', name: 'plan', dirty: true });
    // Download: the board as a file, which then has no unsaved changes.
    const d = await a.core.invoke({ cmd: 'download' });
    const saved = d.ok && d.text !== undefined ? decodeBoardFile(d.text) : undefined;
    if (saved === undefined || 'refused' in saved) throw new Error('no board downloaded');
    expect([...saved.objects.keys()].sort((x, y) => x - y)).toEqual(before);
    expect(lastOf(a, 'file')).toEqual({ type: 'file', name: 'plan', dirty: false });
    // Upload: the file replaces the board.
    expect(await a.core.invoke({ cmd: 'open-text', name: 'again.ghostboard', text })).toEqual({
      ok: true,
    });
    expect(sortedIds(a)).toEqual(ids);
    expect(lastOf(a, 'file')).toEqual({ type: 'file', name: 'again', dirty: false });
    const d2 = await a.core.invoke({ cmd: 'download' });
    const back = d2.ok && d2.text !== undefined ? decodeBoardFile(d2.text) : undefined;
    if (back === undefined || 'refused' in back) throw new Error('no board downloaded');
    expect(new Board(back).hash()).toBe(hash);
  });

  it('desktop: offers a double-clicked board file and the recent files to the start screen, again on sync', async () => {
    const world = new SimSessions(65);
    const a = core(world);
    a.core.setRecentFiles?.(['/b/plan.ghostboard']);
    a.core.offerBoardFile?.('/b/x.ghostboard');
    expect(lastOf(a, 'open-board')).toEqual({ type: 'open-board', path: '/b/x.ghostboard' });
    a.events.length = 0;
    await a.core.invoke({ cmd: 'sync' });
    expect(lastOf(a, 'open-board')?.path).toBe('/b/x.ghostboard');
    expect(lastOf(a, 'recent-files')?.paths).toEqual(['/b/plan.ghostboard']);
    // Once a session started it is no longer offered; the recent files still are.
    expect(await host(a)).toEqual({ ok: true });
    await leave(a);
    a.events.length = 0;
    await a.core.invoke({ cmd: 'sync' });
    expect(lastOf(a, 'open-board')).toBe(undefined);
    expect(lastOf(a, 'recent-files')?.paths).toEqual(['/b/plan.ghostboard']);
  });
});
