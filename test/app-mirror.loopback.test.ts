// An app's session gains a second host, as a user adds one: the app core hosts (always a mirror group of one), its
// hosting status carries the mirror link the share panel's "Add a mirror" shows, and `ghostboard host --mirror-of
// LINK` on another loopback address joins the group with the app's board. A joiner app (told of the mirror by its
// host, not by a link) keeps working when the app host stops: it goes on at the mirror with the board and the image
// the host had, and its edits reach the mirror. Real UDP, real processes for the mirror; the app cores in-process.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, SessionStatus } from '../shared/api';
import { newRect } from '../shared/testing/rect';
import type { AppCore } from '../src-main/app/core-api';
import { createAppCore } from '../src-main/app/core';
import { Lab, num, START_MS } from './session/harness';

const cores: AppCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function core(): { core: AppCore; events: ApiEvent[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ghostboard-mirror-core-'));
  dirs.push(dir);
  const c = createAppCore({ dataDir: dir, bind: '127.0.0.1' });
  cores.push(c);
  const events: ApiEvent[] = [];
  c.subscribe((e) => events.push(e));
  return { core: c, events };
}

async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function lastStatus(events: readonly ApiEvent[]): SessionStatus | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === 'status') return e.status;
  }
  return undefined;
}

const CODE = 'ABCDE-FGHJK';

describe('an app session with an added mirror', () => {
  it('a joiner goes on at the mirror when the app host stops, with its board and images', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const ana = core();
    expect(
      await ana.core.invoke({ cmd: 'host', options: { name: 'Ana', port: 0, code: CODE } }),
    ).toEqual({ ok: true });
    await until(() => {
      const s = lastStatus(ana.events);
      return s?.phase === 'hosting' && s.mirrorLink !== undefined;
    }, 'the mirror link');
    const hosting = lastStatus(ana.events);
    if (hosting?.phase !== 'hosting' || hosting.mirrorLink === undefined)
      throw new Error('hosting');
    const rect = await ana.core.invoke({
      cmd: 'create',
      object: { ...newRect({ x: 10, y: 20, h: 50, stroke: 0 }), points: [] },
    });
    if (!rect.ok || rect.id === undefined) throw new Error('no create');
    const png = randomBytes(30_000);
    png.set([0x89, 0x50, 0x4e, 0x47], 0);
    const hash = createHash('sha256').update(png).digest('hex');
    const image = await ana.core.invoke({
      cmd: 'image',
      type: 'image/png',
      data: png.toString('base64'),
      x: 100,
      y: 200,
      w: 60,
      h: 40,
    });
    expect(image).toMatchObject({ ok: true });

    // The command "Add a mirror" shows, run on another machine.
    const port = 20_000 + 2 * randomInt(10_000);
    const mirror = lab.spawn('mirror', [
      'host',
      '--mirror-of',
      hosting.mirrorLink,
      '--bind',
      '127.0.0.2',
      '--port',
      String(port),
      '--script',
      '--quiet-pointers',
    ]);
    await mirror.waitFor((e) => e.ev === 'ready', 'the mirror ready', START_MS);
    // The app host lists the session's hosts: itself first, then the mirror once its round trip is measured.
    await until(() => {
      const s = lastStatus(ana.events);
      return s?.phase === 'hosting' && typeof s.hosts?.[1]?.rttMs === 'number';
    }, 'the hosts in the app host’s status');
    const listed = lastStatus(ana.events);
    expect(listed?.phase === 'hosting' && listed.hosts?.map((h) => [h.address, h.self])).toEqual([
      [`127.0.0.1:${hosting.port}`, true],
      [`127.0.0.2:${port}`, false],
    ]);
    await mirror.waitFor(
      (e) => e.ev === 'image' && e.hash === hash,
      'the app host’s image at the mirror',
    );
    expect((await mirror.boardState()).objects).toBe(2);

    const ben = core();
    expect(
      await ben.core.invoke({
        cmd: 'join',
        options: { name: 'Ben', address: `127.0.0.1:${hosting.port}`, code: CODE },
      }),
    ).toEqual({ ok: true });
    await until(() => lastStatus(ben.events)?.phase === 'joined', 'Ben joined');
    await until(
      () => ben.events.some((e) => e.type === 'objects' && e.upserts.some((o) => o.id === rect.id)),
      'the rect at Ben',
    );

    // The app host stops: Ben is told it is reconnecting elsewhere, never that the session ended.
    await ana.core.invoke({ cmd: 'leave' });
    await until(() => {
      const s = lastStatus(ben.events);
      return (
        s?.phase === 'joined' && s.address === `127.0.0.2:${port}` && s.reconnecting === undefined
      );
    }, 'Ben on the mirror');
    const phases = ben.events.flatMap((e) => (e.type === 'status' ? [e.status] : []));
    expect(phases.some((s) => s.phase === 'ended')).toBe(false);
    expect(phases.some((s) => s.phase === 'joined' && s.reconnecting?.elsewhere === true)).toBe(
      true,
    );
    const moved = await ben.core.invoke({
      cmd: 'create',
      object: { ...newRect({ x: 400, y: 20, h: 50, stroke: 0 }), points: [] },
    });
    if (!moved.ok || moved.id === undefined) throw new Error('no create at the mirror');
    await mirror.waitFor(
      (e) => e.ev === 'object' && num(e, 'id') === moved.id,
      'Ben’s object at the mirror',
    );
    expect((await mirror.boardState()).objects).toBe(3);
  });
});
