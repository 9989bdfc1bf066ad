// A late joiner's app core receiving a 5,000-object board (issue 20, point 3) on simulated sessions over a 40 ms
// link with loss: the renderer's view (the board and object events folded) ends equal to the host's board, the
// join progress it is told only rises to the total, and the objects come in batches, not one event each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';
import { NO_IMPAIRMENT } from '../net/impairment';
import { bigBoard } from '../session/testing/big-board';
import { createAppCore } from './core';
import type { AppCore } from './core-api';
import { SimSessions } from './testing/sim-sessions';

const OBJECTS = 5000;
const cores: AppCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function core(world: SimSessions): { core: AppCore; events: ApiEvent[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ghostboard-bigjoin-'));
  dirs.push(dir);
  const c = createAppCore({ dataDir: dir, bind: '127.0.0.1', lan: false }, world.io);
  cores.push(c);
  const events: ApiEvent[] = [];
  c.subscribe((e) => events.push(e));
  return { core: c, events };
}

/** The board as a renderer folding these events sees it. */
function folded(events: readonly ApiEvent[]): Map<ObjectId, BoardObject> {
  let board = new Map<ObjectId, BoardObject>();
  for (const e of events) {
    if (e.type === 'board') board = new Map(e.objects.map((o) => [o.id, o]));
    if (e.type !== 'objects') continue;
    for (const id of e.deletes) board.delete(id);
    for (const o of e.upserts) board.set(o.id, o);
  }
  return board;
}

const sorted = (objects: Iterable<BoardObject>): BoardObject[] =>
  [...objects].sort((a, b) => a.id - b.id);

describe('app core: a late joiner of a 5,000-object board', () => {
  it('gets it whole, with progress that only rises to the total, in batches', async () => {
    const seed = 0x2005;
    const world = new SimSessions(seed, { ...NO_IMPAIRMENT, delayMs: 40, loss: 0.02 });
    const a = core(world);
    const b = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    const imported = await a.core.invoke({
      cmd: 'import',
      format: 'ghostboard',
      text: bigBoard(OBJECTS).toFile(),
    });
    expect(imported, `seed ${seed}`).toEqual({ ok: true });
    const hostBoard = sorted(folded(a.events).values());
    expect(hostBoard).toHaveLength(OBJECTS);
    await b.core.invoke({
      cmd: 'join',
      options: { name: 'Ben', address: '127.0.0.1:7350', code: 'ABCDE-FGHJK' },
    });
    const progress = (): { received: number; total: number }[] =>
      b.events.flatMap((e) =>
        e.type === 'status' && e.status.phase === 'joined'
          ? [{ received: e.status.received, total: e.status.total }]
          : [],
      );
    await world.runUntil(() => progress().at(-1)?.received === OBJECTS, 60_000);
    await world.run(500);
    expect(sorted(folded(b.events).values()), `seed ${seed}`).toEqual(hostBoard);
    // The first joined status comes with the welcome, before the count it carries is read (total 0: no bar).
    const steps = progress().filter((p) => p.total > 0);
    expect(steps.length).toBeGreaterThan(2);
    for (const p of steps) expect(p.total).toBe(OBJECTS);
    for (let i = 1; i < steps.length; i++)
      expect(steps[i]?.received).toBeGreaterThanOrEqual(steps[i - 1]?.received ?? 0);
    // A status at each 2 % step at most, not one per object; objects in batches.
    expect(steps.length).toBeLessThanOrEqual(60);
    const batches = b.events.filter((e) => e.type === 'objects').length;
    expect(batches).toBeLessThan(OBJECTS / 5);
  });
});
