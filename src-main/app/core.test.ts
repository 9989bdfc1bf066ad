// App cores driven through the renderer API exactly as a window drives them, on simulated sessions in virtual
// time (app/testing/sim-sessions.ts): deterministic, no sockets, no sleeps. The same over real UDP on loopback
// is test/app-core.loopback.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ApiEvent, ApiReply, SessionStatus } from '../../shared/api';
import { parseCommand } from '../../shared/api-validate';
import { newRect } from '../../shared/testing/rect';
import { NO_IMPAIRMENT } from '../net/impairment';
import { directoriesFromArgs, directoriesFromEnv, JOINED_COPY_FILE } from './core';
import { SimSessions } from './testing/sim-sessions';
import type { TestCore } from './testing/test-core';
import { testCores } from './testing/test-core';
import { REJOIN_GIVE_UP_MS } from './rejoin';

const core = testCores('ghostboard-core-');

/** The latest status of one phase a core reported. */
function last<P extends SessionStatus['phase']>(
  c: TestCore,
  phase: P,
): Extract<SessionStatus, { phase: P }> | undefined {
  for (let i = c.events.length - 1; i >= 0; i--) {
    const e = c.events[i];
    if (e?.type === 'status' && e.status.phase === phase)
      return e.status as Extract<SessionStatus, { phase: P }>;
  }
  return undefined;
}

const phaseIs = (c: TestCore, phase: SessionStatus['phase']) => (): boolean =>
  c.events.some((e) => e.type === 'status' && e.status.phase === phase);

const rect = newRect({ x: 10, y: 20, h: 50, stroke: 0 });

describe('app core (simulated sessions)', () => {
  it('hosts and joins: board, pointers, chat, drags, stats', async () => {
    const world = new SimSessions(1);
    const a = core(world);
    const b = core(world);
    expect(
      await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } }),
    ).toEqual({ ok: true });
    const port = last(a, 'hosting')?.port;
    expect(port).toBe(7350);
    // A lone host's first id: origin 0's (board/ids.ts).
    expect(await a.core.invoke({ cmd: 'create', object: { ...rect, points: [] } })).toEqual({
      ok: true,
      id: 16,
    });
    expect(
      await b.core.invoke({
        cmd: 'join',
        options: { name: 'Ben', address: `127.0.0.1:${port ?? 0}`, code: 'abcde-fghjk' },
      }),
    ).toEqual({ ok: true });
    await world.runUntil(phaseIs(b, 'joined'));
    await world.runUntil(() =>
      b.events.some((e) => e.type === 'objects' && e.upserts.some((o) => o.id === 16)),
    );
    // Pointers travel as presence ghosts and arrive as pointer events.
    await a.core.invoke({ cmd: 'pointer', x: 300, y: 400, visible: true });
    await world.runUntil(() =>
      b.events.some(
        (e) =>
          e.type === 'pointers' &&
          e.pointers.some((p) => p.peer === 0 && p.x === 300 && p.y === 400),
      ),
    );
    // Chat both ways, in one order.
    await b.core.invoke({ cmd: 'chat', text: 'hello from Ben' });
    await a.core.invoke({ cmd: 'chat', text: 'hi Ben' });
    const chats = (evs: ApiEvent[]) =>
      evs.flatMap((e) => (e.type === 'chat' ? [e.message.text] : []));
    await world.runUntil(() => chats(a.events).length === 2 && chats(b.events).length === 2);
    expect(chats(a.events)).toEqual(chats(b.events));
    // A drag by the joiner: grab, live drag seen by the host, drop lands exactly.
    expect(await b.core.invoke({ cmd: 'grab', id: 16 })).toEqual({ ok: true });
    await b.core.invoke({ cmd: 'drag', id: 16, x: 50, y: 60 });
    await world.runUntil(() =>
      a.events.some(
        (e) =>
          e.type === 'pointers' && e.pointers.some((p) => p.drag?.id === 16 && p.drag.x === 50),
      ),
    );
    await b.core.invoke({ cmd: 'drop', id: 16, x: 70, y: 80 });
    await world.runUntil(() =>
      a.events.some(
        (e) =>
          e.type === 'objects' &&
          e.upserts.some((o) => o.id === 16 && o.x === 70 && o.lockedBy === null),
      ),
    );
    // Stats flow at 4 Hz of virtual time with real figures.
    await world.runUntil(() =>
      b.events.some((e) => e.type === 'stats' && e.stats.peers.some((p) => p.kbpsIn > 0)),
    );
    const statsIn = async (ms: number): Promise<number> => {
      const before = b.events.filter((e) => e.type === 'stats').length;
      await world.run(ms);
      return b.events.filter((e) => e.type === 'stats').length - before;
    };
    expect(await statsIn(1000)).toBe(4);
    // Two participants on both sides.
    const participants = [...b.events].reverse().find((e) => e.type === 'participants');
    expect(
      participants?.type === 'participants' && participants.list.map((p) => p.name).sort(),
    ).toEqual(['Ana', 'Ben']);
    // Leaving stops the stats timer and goes back to idle.
    expect(await b.core.invoke({ cmd: 'leave' })).toEqual({ ok: true });
    expect(last(b, 'idle')).toEqual({ phase: 'idle' });
    expect(await statsIn(1000)).toBe(0);
  });

  it('undo and redo through the API: the joiner’s own steps only, a deleted selection as one step', async () => {
    const world = new SimSessions(19);
    const a = core(world);
    const b = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    const address = `127.0.0.1:${last(a, 'hosting')?.port ?? 0}`;
    for (const x of [0, 200]) await a.core.invoke({ cmd: 'create', object: { ...rect, x } });
    await b.core.invoke({ cmd: 'join', options: { name: 'Ben', address, code: 'ABCDE-FGHJK' } });
    await world.runUntil(phaseIs(b, 'joined'));
    const seen = (id: number, fits: (o: { x: number } | undefined) => boolean) => (): boolean => {
      let o: { x: number } | undefined;
      let gone = false;
      for (const e of a.events)
        if (e.type === 'objects') {
          const u = e.upserts.find((x) => x.id === id);
          if (u !== undefined) [o, gone] = [u, false];
          if (e.deletes.includes(id)) gone = true;
        }
      return fits(gone ? undefined : o);
    };
    await world.runUntil(() => b.events.some((e) => e.type === 'objects' && e.upserts.length > 0));
    expect(await b.core.invoke({ cmd: 'undo' })).toEqual({ ok: false, reason: 'nothing to undo' });
    // The host's two objects, under origin 0's ids (board/ids.ts).
    const [one, two] = [16, 32];
    await b.core.invoke({ cmd: 'grab', id: one });
    await b.core.invoke({ cmd: 'drop', id: one, x: 500, y: 20 });
    await world.runUntil(seen(one, (o) => o?.x === 500));
    await b.core.invoke({ cmd: 'delete', ids: [one, two] });
    await world.runUntil(seen(two, (o) => o === undefined));
    expect(await b.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    await world.runUntil(seen(one, (o) => o?.x === 500));
    await world.runUntil(seen(two, (o) => o?.x === 200));
    expect(await b.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    await world.runUntil(seen(one, (o) => o?.x === 0));
    expect(await b.core.invoke({ cmd: 'redo' })).toEqual({ ok: true });
    await world.runUntil(seen(one, (o) => o?.x === 500));
    // The host's creates are the host's to undo.
    expect(await b.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    expect(await b.core.invoke({ cmd: 'undo' })).toEqual({ ok: false, reason: 'nothing to undo' });
    expect(await a.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    await world.runUntil(seen(two, (o) => o === undefined));
  });

  it('a joiner whose host crashes says so at once, keeps the board (and a copy on disk), and rejoins when it is back', async () => {
    const world = new SimSessions(21);
    const a = core(world);
    const b = core(world);
    const code = 'ABCDE-FGHJK';
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code } });
    await a.core.invoke({ cmd: 'create', object: { ...rect, x: 111 } });
    await b.core.invoke({ cmd: 'join', options: { name: 'Ben', address: '127.0.0.1:7350', code } });
    await world.runUntil(() => last(b, 'joined')?.received === 1);
    const status = () => b.events.findLast((e) => e.type === 'status');
    const reconnecting = () => {
      const st = status();
      return st?.type === 'status' && st.status.phase === 'joined'
        ? st.status.reconnecting
        : undefined;
    };
    const from = b.events.length;
    const crashedAt = world.sim.now;
    world.handles[0]?.crash();
    // Silent well before the link's 10 s timeout: the board stays, read-only, and says so.
    await world.runUntil(() => reconnecting()?.attempt === 0, 5_000);
    expect(world.sim.now - crashedAt).toBeLessThan(4_000);
    await world.runUntil(() => (reconnecting()?.attempt ?? 0) >= 1, 15_000);
    expect(
      b.events.slice(from).some((e) => e.type === 'status' && e.status.phase !== 'joined'),
    ).toBe(false);
    // Nothing is lost: the board as it was saves as a copy, and one waits on disk.
    const copy = await b.core.invoke({ cmd: 'export', format: 'ghostboard' });
    expect(copy.ok && copy.text?.includes('"x":111')).toBe(true);
    // Written as the host went away (real file I/O: waited for in real time, bounded).
    await vi.waitFor(
      () => {
        expect(readFileSync(join(b.dir, JOINED_COPY_FILE), 'utf8')).toContain('"x":111');
      },
      { timeout: 10_000 },
    );
    await world.run(20_000);
    expect(reconnecting()?.attempt ?? 0).toBeGreaterThanOrEqual(2);

    // The host comes back on the same address with the same code (a restarted process).
    const a2 = core(world);
    await a2.core.invoke({ cmd: 'host', options: { name: 'Ana', code } });
    expect(last(a2, 'hosting')?.port).toBe(7350);
    await a2.core.invoke({ cmd: 'create', object: { ...rect, x: 222 } });
    await world.runUntil(() => status()?.type === 'status' && reconnecting() === undefined, 30_000);
    // The board shown is the host's again (the old one replaced whole, then the host's objects as they come).
    const board = b.events.findLastIndex((e) => e.type === 'board');
    expect(board).toBeGreaterThan(from);
    await world.runUntil(() =>
      b.events.slice(board).some((e) => e.type === 'objects' && e.upserts.some((o) => o.x === 222)),
    );
    expect(b.events.some((e) => e.type === 'notice' && /Ana is back/.test(e.text))).toBe(true);
    // Live again: B's edits reach the host.
    let made: ApiReply | undefined;
    void b.core.invoke({ cmd: 'create', object: { ...rect, x: 333 } }).then((r) => {
      made = r;
    });
    await world.runUntil(() => made !== undefined);
    expect(made).toMatchObject({ ok: true });
    await world.runUntil(() =>
      a2.events.some((e) => e.type === 'objects' && e.upserts.some((o) => o.x === 333)),
    );
  });

  it('a joiner stops trying when the host ended the session, and gives up on one gone for good', async () => {
    const world = new SimSessions(22);
    const a = core(world);
    const b = core(world);
    const c = core(world);
    const code = 'ABCDE-FGHJK';
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code } });
    await b.core.invoke({ cmd: 'join', options: { name: 'Ben', address: '127.0.0.1:7350', code } });
    await c.core.invoke({ cmd: 'join', options: { name: 'Cy', address: '127.0.0.1:7350', code } });
    await world.runUntil(() => last(b, 'joined') !== undefined && last(c, 'joined') !== undefined);
    // A leaves on purpose: that is the end, not a hiccup.
    await a.core.invoke({ cmd: 'leave' });
    await world.runUntil(() => last(b, 'ended') !== undefined);
    expect(last(b, 'ended')?.reason).toBe('host-left');
    await world.run(5_000);
    expect(
      b.events.filter(
        (e) =>
          e.type === 'status' && e.status.phase === 'joined' && e.status.reconnecting !== undefined,
      ),
    ).toEqual([]);
    // C's host (a new one) crashes and never returns: C tries for ten minutes, then says the host is gone.
    const a2 = core(world);
    await a2.core.invoke({ cmd: 'host', options: { name: 'Ana', code } });
    const d = core(world);
    await d.core.invoke({ cmd: 'join', options: { name: 'Di', address: '127.0.0.1:7350', code } });
    await world.runUntil(() => last(d, 'joined') !== undefined);
    world.handles.at(-2)?.crash();
    await world.runUntil(() => last(d, 'ended') !== undefined, REJOIN_GIVE_UP_MS + 60_000);
    expect(['timeout', 'unreachable']).toContain(last(d, 'ended')?.reason);
  });

  it('imports a board file as new objects, one undo step, and says what did not come', async () => {
    const world = new SimSessions(23);
    const a = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    await a.core.invoke({ cmd: 'create', object: rect });
    const scene = readFileSync(
      new URL('../files/fixtures/excalidraw-0.18.excalidraw', import.meta.url),
      'utf8',
    );
    expect(await a.core.invoke({ cmd: 'import', format: 'excalidraw', text: scene })).toEqual({
      ok: true,
    });
    const notice = a.events.findLast((e) => e.type === 'notice');
    expect(notice?.type === 'notice' && notice.text).toBe(
      'Imported 7 objects; 1 diamond elements skipped, 1 image elements skipped.',
    );
    const size = (): number => {
      const ids = new Set<number>();
      for (const e of a.events)
        if (e.type === 'objects') {
          for (const o of e.upserts) ids.add(o.id);
          for (const id of e.deletes) ids.delete(id);
        }
      return ids.size;
    };
    await world.runUntil(() => size() === 8);
    // One step: the import goes back whole, the rectangle drawn before it stays.
    expect(await a.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    await world.runUntil(() => size() === 1);
    expect(
      await a.core.invoke({ cmd: 'import', format: 'ghostboard', text: '{"format":1}' }),
    ).toEqual({
      ok: false,
      reason: 'not imported: not a Ghostboard board file (or a newer version)',
    });
  });

  it('tells the renderer whether there is anything to undo or redo, as it changes and on sync', async () => {
    const world = new SimSessions(20);
    const a = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    const shown = (): [boolean, boolean] | undefined => {
      const h = a.events.findLast((e) => e.type === 'history');
      return h?.type === 'history' ? [h.canUndo, h.canRedo] : undefined;
    };
    await a.core.invoke({ cmd: 'sync' });
    expect(shown()).toEqual([false, false]);
    await a.core.invoke({ cmd: 'create', object: rect });
    expect(shown()).toEqual([true, false]);
    const told = a.events.filter((e) => e.type === 'history').length;
    await a.core.invoke({ cmd: 'pointer', x: 1, y: 1, visible: true });
    expect(a.events.filter((e) => e.type === 'history')).toHaveLength(told);
    await a.core.invoke({ cmd: 'undo' });
    expect(shown()).toEqual([false, true]);
    await a.core.invoke({ cmd: 'redo' });
    expect(shown()).toEqual([true, false]);
  });

  it('a paste (creates under one step) and a locked selection through the API: one undo each', async () => {
    const world = new SimSessions(20);
    const a = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    const board = (): Map<number, { x: number; pinned: number }> => {
      const m = new Map<number, { x: number; pinned: number }>();
      for (const e of a.events)
        if (e.type === 'objects') {
          for (const o of e.upserts) m.set(o.id, o);
          for (const id of e.deletes) m.delete(id);
        }
      return m;
    };
    const ids: number[] = [];
    for (const x of [0, 200, 400]) {
      const r = await a.core.invoke({ cmd: 'create', object: { ...rect, x }, step: 9 });
      if (r.ok && r.id !== undefined) ids.push(r.id);
    }
    expect(await a.core.invoke({ cmd: 'pin', ids: ids.slice(0, 2), pinned: true })).toEqual({
      ok: true,
    });
    await world.runUntil(() => board().get(ids[1] ?? 0)?.pinned === 1);
    expect([...board().values()].map((o) => o.pinned)).toEqual([1, 1, 0]);
    await a.core.invoke({ cmd: 'delete', ids });
    await world.runUntil(() => board().size === 2);
    expect(await a.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    await world.runUntil(() => board().size === 3);
    expect(await a.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    await world.runUntil(() => [...board().values()].every((o) => o.pinned === 0));
    expect(await a.core.invoke({ cmd: 'undo' })).toEqual({ ok: true });
    await world.runUntil(() => board().size === 0);
    expect(await a.core.invoke({ cmd: 'undo' })).toEqual({ ok: false, reason: 'nothing to undo' });
  });

  it('host powers: a new code keeps joiners with the old one out; a kick ends the joiner and is noticed', async () => {
    const world = new SimSessions(2);
    const a = core(world);
    const b = core(world);
    const c = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    const address = `127.0.0.1:${last(a, 'hosting')?.port ?? 0}`;
    await b.core.invoke({ cmd: 'join', options: { name: 'Ben', address, code: 'ABCDE-FGHJK' } });
    await world.runUntil(phaseIs(b, 'joined'));
    expect(await a.core.invoke({ cmd: 'rotate-code' })).toEqual({ ok: true });
    const code = last(a, 'hosting')?.code ?? '';
    expect(code).not.toBe('ABCDE-FGHJK');
    expect(await b.core.invoke({ cmd: 'rotate-code' })).toEqual({
      ok: false,
      reason: 'only the host can change the code',
    });
    await c.core.invoke({ cmd: 'join', options: { name: 'Cy', address, code: 'ABCDE-FGHJK' } });
    await world.runUntil(phaseIs(c, 'ended'));
    expect(await a.core.invoke({ cmd: 'kick', peer: 1 })).toEqual({ ok: true });
    await world.runUntil(phaseIs(b, 'ended'));
    expect(last(b, 'ended')?.reason).toBe('kicked');
    expect(
      a.events.some(
        (e) => e.type === 'notice' && e.level === 'warn' && e.text.includes('consider a new code'),
      ),
    ).toBe(true);
  });

  it('hosts through a directory and is joined by its invite link alone, with the stages and the path shown', async () => {
    const world = new SimSessions(4);
    const a = core(world);
    const b = core(world);
    const directory = '127.0.0.1:7340';
    expect(
      await a.core.invoke({ cmd: 'settings', settings: { directories: [directory] } }),
    ).toEqual({ ok: true });
    // Saved for next time.
    expect(JSON.parse(readFileSync(join(a.dir, 'settings.json'), 'utf8'))).toEqual({
      directories: [directory],
    });
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: '3-amber-falcon' } });
    await world.runUntil(() => last(a, 'hosting')?.reach?.listedOn === 1);
    const status = last(a, 'hosting');
    expect(status?.reach).toMatchObject({ directories: 1, listedAs: null });
    expect(status?.reach?.publicAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    const link = status?.link ?? '';
    expect(link).toMatch(/^ghostboard:\/\/join\/127\.0\.0\.1:7340\/s-[0-9a-z]{10}#3-amber-falcon$/);

    expect(
      await b.core.invoke({ cmd: 'join', options: { name: 'Ben', address: link, code: '' } }),
    ).toEqual({ ok: true });
    await world.runUntil(phaseIs(b, 'joined'));
    const stages = b.events.flatMap((e) =>
      e.type === 'status' && e.status.phase === 'connecting' ? [e.status.stage] : [],
    );
    expect(stages[0]).toBe('looking-up');
    expect(stages).toContain('connecting');
    await world.runUntil(() => last(b, 'joined')?.path === 'lan');
    await world.runUntil(() =>
      b.events.some((e) => e.type === 'stats' && e.stats.peers[0]?.path === 'lan'),
    );

    // A new code changes the link with it.
    await a.core.invoke({ cmd: 'rotate-code' });
    const code = last(a, 'hosting')?.code ?? '';
    expect(code).not.toBe('3-amber-falcon');
    expect(last(a, 'hosting')?.link?.endsWith(`#${code}`)).toBe(true);
  });

  it('reports a wrong code as an ended session with its reason', async () => {
    const world = new SimSessions(5);
    const a = core(world);
    const b = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    const address = `127.0.0.1:${last(a, 'hosting')?.port ?? 0}`;
    await b.core.invoke({ cmd: 'join', options: { name: 'Mal', address, code: 'WRONG' } });
    await world.runUntil(phaseIs(b, 'ended'));
    expect(last(b, 'ended')?.reason).toBe('wrong-code');
  });

  it('hosts on any free port when the usual one is taken', async () => {
    const world = new SimSessions(6);
    const a = core(world);
    const b = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    await b.core.invoke({ cmd: 'host', options: { name: 'Bo', code: 'ABCDE-FGHJK' } });
    expect(last(a, 'hosting')?.port).toBe(7350);
    expect(last(b, 'hosting')?.port).not.toBe(7350);
  });

  it('says a join is trying the relay a second after the relay joined the race, not before', async () => {
    const world = new SimSessions(7);
    const b = core(world);
    // Nobody listens there: the join stays connecting.
    await b.core.invoke({
      cmd: 'join',
      options: { name: 'Ben', address: '127.0.0.1:7999', code: 'ABCDE-FGHJK' },
    });
    world.handles.at(-1)?.emitReach({ type: 'relay', state: 'allocated' });
    await world.run(999);
    expect(last(b, 'connecting')?.stage).toBe('connecting');
    await world.run(2);
    expect(last(b, 'connecting')?.stage).toBe('relaying');
  });

  it('turns the network-conditions control into an impairment of what the session sends', async () => {
    const world = new SimSessions(8);
    const a = core(world);
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: 'ABCDE-FGHJK' } });
    const handle = world.handles[0];
    const conditions = { lossPct: 5, delayMs: 40, kbps: 64 };
    expect(await a.core.invoke({ cmd: 'conditions', conditions })).toEqual({ ok: true });
    expect(handle?.conditions).toEqual({
      ...NO_IMPAIRMENT,
      loss: 0.05,
      delayMs: 40,
      bandwidthBps: 64_000,
      maxQueueMs: 500,
    });
    await world.run(250);
    const stats = [...a.events].reverse().find((e) => e.type === 'stats');
    expect(stats?.type === 'stats' && stats.stats.conditions).toEqual(conditions);
    await a.core.invoke({ cmd: 'conditions', conditions: { lossPct: 0, delayMs: 0, kbps: 0 } });
    expect(handle?.conditions).toBeUndefined();
  });

  it('offers a link opened from outside to the start screen, again on sync, and refuses a malformed one', async () => {
    const a = core(new SimSessions(9));
    const link = 'ghostboard://join/127.0.0.1:7340/s-abcdefghjk#4-maple-otter';
    expect(a.core.openLink('https://example.org/#x')).toBe(false);
    expect(a.core.openLink(link)).toBe(true);
    expect(a.events).toContainEqual({ type: 'open-link', link });
    a.events.length = 0;
    await a.core.invoke({ cmd: 'sync' });
    expect(a.events).toContainEqual({ type: 'open-link', link });
  });

  it('takes directories from the command line and the environment', () => {
    expect(
      directoriesFromArgs([
        'app',
        '--directory',
        'a.example:7340',
        '--directory=[2001:db8::1]:7340',
        '--x',
      ]),
    ).toEqual(['a.example:7340', '[2001:db8::1]:7340']);
    expect(directoriesFromArgs(['app', '--directory'])).toEqual([]);
    expect(directoriesFromEnv({ GHOSTBOARD_DIRECTORY: ' a:1, ,b:2 ' })).toEqual(['a:1', 'b:2']);
  });

  it('refuses to host through a directory when none is set, and checks the settings it is given', async () => {
    const a = core(new SimSessions(10));
    expect(
      await a.core.invoke({ cmd: 'host', options: { name: 'Ana', port: 0, reach: 'directory' } }),
    ).toMatchObject({ ok: false });
    expect(
      parseCommand({ cmd: 'settings', settings: { directories: ['not an address'] } }),
    ).toMatchObject({ error: 'a directory is HOST:PORT' });
    expect(
      parseCommand({
        cmd: 'settings',
        settings: { directories: ['a:1', 'b:2', 'c:3', 'd:4', 'e:5'] },
      }),
    ).toMatchObject({ error: 'at most 4 directories' });
  });
});
