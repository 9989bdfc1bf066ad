// Test kit: app cores on the simulator (testing/sim-sessions.ts), each with its own temp data folder and every
// event it emitted, closed and removed after each test. Knows nothing of what a test checks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { ApiEvent } from '../../../shared/api';
import type { BoardObject } from '../../../shared/board';
import { createAppCore } from '../core';
import type { AppCore } from '../core-api';
import type { SimSessions } from './sim-sessions';

export interface TestCore {
  readonly core: AppCore;
  /** Every event so far, in order. */
  readonly events: ApiEvent[];
  /** Its data folder. */
  readonly dir: string;
}

/**
 * Call at a test file's top level: returns the maker of test cores on a simulated world (data folders named
 * `prefix…`), and closes and removes them after each test.
 */
export function testCores(prefix: string): (world: SimSessions, dir?: string) => TestCore {
  const cores: AppCore[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(cores.splice(0).map((c) => c.close()));
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return (world, given) => {
    const dir = given ?? mkdtempSync(join(tmpdir(), prefix));
    if (given === undefined) dirs.push(dir);
    const c = createAppCore({ dataDir: dir, bind: '127.0.0.1', lan: false }, world.io);
    cores.push(c);
    const events: ApiEvent[] = [];
    c.subscribe((e) => events.push(e));
    return { core: c, events, dir };
  };
}

/** The board as the renderer has it from a test core's events so far. */
export function boardOf(c: TestCore): Map<number, BoardObject> {
  const m = new Map<number, BoardObject>();
  for (const e of c.events) {
    if (e.type === 'board') {
      m.clear();
      for (const o of e.objects) m.set(o.id, o);
    } else if (e.type === 'objects') {
      for (const o of e.upserts) m.set(o.id, o);
      for (const id of e.deletes) m.delete(id);
    }
  }
  return m;
}
