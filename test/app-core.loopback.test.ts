// Two app cores in one process, one hosting and one joining over real UDP on loopback, driven through the
// renderer API exactly as a window would drive them: the real SessionRunner, sockets, timers and board files
// under the core (src-main/app/core.test.ts drives the same core on the simulator).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../shared/api';
import { newRect } from '../shared/testing/rect';
import type { AppCore } from '../src-main/app/core-api';
import { createAppCore } from '../src-main/app/core';
import { DirectoryRunner } from '../src-main/directory/runner';
import { readFileSync } from 'node:fs';

const cores: AppCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function core(): { core: AppCore; events: ApiEvent[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ghostboard-core-'));
  dirs.push(dir);
  const c = createAppCore({ dataDir: dir, bind: '127.0.0.1' });
  cores.push(c);
  const events: ApiEvent[] = [];
  c.subscribe((e) => events.push(e));
  return { core: c, events, dir };
}

async function until(cond: () => boolean, ms = 8000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const rect = newRect({ x: 10, y: 20, h: 50, stroke: 0 });

describe('app core', () => {
  it('hosts and joins over loopback: board, pointers, chat, drags, stats', async () => {
    const a = core();
    const b = core();
    expect(
      await a.core.invoke({ cmd: 'host', options: { name: 'Ana', port: 0, code: 'ABCDE-FGHJK' } }),
    ).toEqual({ ok: true });
    const hosting = a.events.find((e) => e.type === 'status' && e.status.phase === 'hosting');
    if (hosting?.type !== 'status' || hosting.status.phase !== 'hosting')
      throw new Error('not hosting');
    const created = await a.core.invoke({ cmd: 'create', object: { ...rect, points: [] } });
    // A lone host's first id: origin 0's (board/ids.ts).
    expect(created).toEqual({ ok: true, id: 16 });
    const port = hosting.status.port;
    expect(
      await b.core.invoke({
        cmd: 'join',
        options: { name: 'Ben', address: `127.0.0.1:${port}`, code: 'abcde-fghjk' },
      }),
    ).toEqual({ ok: true });
    await until(() => b.events.some((e) => e.type === 'status' && e.status.phase === 'joined'));
    await until(() =>
      b.events.some((e) => e.type === 'objects' && e.upserts.some((o) => o.id === 16)),
    );
    // Pointers travel as presence ghosts and arrive as pointer events.
    await a.core.invoke({ cmd: 'pointer', x: 300, y: 400, visible: true });
    await until(() =>
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
    await until(() => chats(a.events).length === 2 && chats(b.events).length === 2);
    expect(chats(a.events)).toEqual(chats(b.events));
    // A drag by the joiner: grab, live drag seen by the host, drop lands exactly.
    expect(await b.core.invoke({ cmd: 'grab', id: 16 })).toEqual({ ok: true });
    await b.core.invoke({ cmd: 'drag', id: 16, x: 50, y: 60 });
    await until(() =>
      a.events.some(
        (e) =>
          e.type === 'pointers' && e.pointers.some((p) => p.drag?.id === 16 && p.drag.x === 50),
      ),
    );
    await b.core.invoke({ cmd: 'drop', id: 16, x: 70, y: 80 });
    await until(() =>
      a.events.some(
        (e) =>
          e.type === 'objects' &&
          e.upserts.some((o) => o.id === 16 && o.x === 70 && o.lockedBy === null),
      ),
    );
    // Stats flow at ~4 Hz with real figures.
    await until(() =>
      b.events.some((e) => e.type === 'stats' && e.stats.peers.some((p) => p.kbpsIn > 0)),
    );
    // Two participants on both sides.
    const last = [...b.events].reverse().find((e) => e.type === 'participants');
    expect(last?.type === 'participants' && last.list.map((p) => p.name).sort()).toEqual([
      'Ana',
      'Ben',
    ]);
  });

  it('host powers: a new code keeps joiners with the old one out; a kick ends the joiner and is noticed', async () => {
    const a = core();
    const b = core();
    const c = core();
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', port: 0, code: 'ABCDE-FGHJK' } });
    const hosting = () =>
      [...a.events]
        .reverse()
        .flatMap((e) => (e.type === 'status' && e.status.phase === 'hosting' ? [e.status] : []))[0];
    const port = hosting()?.port ?? 0;
    await b.core.invoke({
      cmd: 'join',
      options: { name: 'Ben', address: `127.0.0.1:${port}`, code: 'ABCDE-FGHJK' },
    });
    await until(() => b.events.some((e) => e.type === 'status' && e.status.phase === 'joined'));
    expect(await a.core.invoke({ cmd: 'rotate-code' })).toEqual({ ok: true });
    const code = hosting()?.code ?? '';
    expect(code).not.toBe('ABCDE-FGHJK');
    expect(await b.core.invoke({ cmd: 'rotate-code' })).toEqual({
      ok: false,
      reason: 'only the host can change the code',
    });
    await c.core.invoke({
      cmd: 'join',
      options: { name: 'Cy', address: `127.0.0.1:${port}`, code: 'ABCDE-FGHJK' },
    });
    await until(() => c.events.some((e) => e.type === 'status' && e.status.phase === 'ended'));
    // Ben's participant id, as the host gave it (a host's joiners' ids follow its mirror group's rule).
    const ben = b.events.flatMap((e) =>
      e.type === 'status' && e.status.phase === 'joined' ? [e.status.you] : [],
    )[0];
    expect(await a.core.invoke({ cmd: 'kick', peer: ben ?? -1 })).toEqual({ ok: true });
    await until(() => b.events.some((e) => e.type === 'status' && e.status.phase === 'ended'));
    const ended = b.events.find((e) => e.type === 'status' && e.status.phase === 'ended');
    expect(ended?.type === 'status' && ended.status.phase === 'ended' && ended.status.reason).toBe(
      'kicked',
    );
    expect(
      a.events.some(
        (e) => e.type === 'notice' && e.level === 'warn' && e.text.includes('consider a new code'),
      ),
    ).toBe(true);
  });

  it('hosts an empty board whatever the data folder holds: an old board.json is not brought back unasked', async () => {
    const a = core();
    writeFileSync(join(a.dir, 'board.json'), '{"version":1,"objects":[{"id":');
    expect(
      await a.core.invoke({ cmd: 'host', options: { name: 'Ana', port: 0, code: 'ABCDE-FGHJK' } }),
    ).toEqual({ ok: true });
    expect(a.events.some((e) => e.type === 'notice' && e.level === 'warn')).toBe(false);
    expect(a.events.some((e) => e.type === 'board' && e.objects.length === 0)).toBe(true);
    // A damaged one is not offered to recover either (the start screen's list, once the session is over).
    await a.core.invoke({ cmd: 'leave' });
    expect(a.events.findLast((e) => e.type === 'recoveries')).toEqual({
      type: 'recoveries',
      boards: [],
    });
  });

  it('hosts through a directory and is joined by its invite link alone, with the stages and the path shown', async () => {
    const dir = await DirectoryRunner.open({ bind: '127.0.0.1', port: 0 });
    try {
      const a = core();
      const b = core();
      const directory = `127.0.0.1:${dir.address.port}`;
      expect(
        await a.core.invoke({ cmd: 'settings', settings: { directories: [directory] } }),
      ).toEqual({
        ok: true,
      });
      // Saved for next time.
      expect(JSON.parse(readFileSync(join(a.dir, 'settings.json'), 'utf8'))).toEqual({
        directories: [directory],
      });
      await a.core.invoke({
        cmd: 'host',
        options: { name: 'Ana', port: 0, code: '3-amber-falcon' },
      });
      const hosting = () =>
        [...a.events]
          .reverse()
          .flatMap((e) =>
            e.type === 'status' && e.status.phase === 'hosting' ? [e.status] : [],
          )[0];
      await until(() => hosting()?.reach?.listedOn === 1);
      const status = hosting();
      expect(status?.reach).toMatchObject({ directories: 1, listedAs: null });
      expect(status?.reach?.publicAddress).toMatch(/^127\.0\.0\.1:\d+$/);
      const link = status?.link ?? '';
      expect(link).toMatch(
        /^ghostboard:\/\/join\/127\.0\.0\.1:\d+\/s-[0-9a-z]{10}#3-amber-falcon$/,
      );

      expect(
        await b.core.invoke({ cmd: 'join', options: { name: 'Ben', address: link, code: '' } }),
      ).toEqual({ ok: true });
      await until(() => b.events.some((e) => e.type === 'status' && e.status.phase === 'joined'));
      const stages = b.events.flatMap((e) =>
        e.type === 'status' && e.status.phase === 'connecting' ? [e.status.stage] : [],
      );
      expect(stages[0]).toBe('looking-up');
      expect(stages).toContain('connecting');
      await until(() =>
        b.events.some(
          (e) => e.type === 'status' && e.status.phase === 'joined' && e.status.path === 'lan',
        ),
      );
      await until(() =>
        b.events.some((e) => e.type === 'stats' && e.stats.peers[0]?.path === 'lan'),
      );

      // A new code changes the link with it.
      await a.core.invoke({ cmd: 'rotate-code' });
      await until(() => hosting()?.code !== '3-amber-falcon');
      expect(hosting()?.link?.endsWith(`#${hosting()?.code ?? ''}`)).toBe(true);
    } finally {
      await dir.close();
    }
  });

  it('reports a wrong code as an ended session with its reason', async () => {
    const a = core();
    const b = core();
    await a.core.invoke({ cmd: 'host', options: { name: 'Ana', port: 0, code: 'ABCDE-FGHJK' } });
    const s = a.events.find((e) => e.type === 'status' && e.status.phase === 'hosting');
    const port = s?.type === 'status' && s.status.phase === 'hosting' ? s.status.port : 0;
    await b.core.invoke({
      cmd: 'join',
      options: { name: 'Mal', address: `127.0.0.1:${port}`, code: 'WRONG' },
    });
    await until(() => b.events.some((e) => e.type === 'status' && e.status.phase === 'ended'));
    const ended = b.events.find((e) => e.type === 'status' && e.status.phase === 'ended');
    expect(ended?.type === 'status' && ended.status.phase === 'ended' && ended.status.reason).toBe(
      'wrong-code',
    );
  });
});
