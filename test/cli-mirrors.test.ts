// `ghostboard host --mirrors` and `ghostboard host --mirror-of LINK`, as a user runs them, over loopback UDP: the
// first host prints the mirror link, a second host on another loopback address joins its group through it and
// starts from the group's board; a joiner on each edits and chats; every board ends equal, the mirror events say
// who joined and left, a create or chat is answered only once both mirrors hold it, and an image pasted at one host
// reaches the other's joiners. A wrong mirror secret is refused with a message, not served.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMirrorLink } from '../shared/join-link';
import type { GhostEvent, GhostProc } from './session/harness';
import { CODE, Lab, num, settledBoards, START_MS, str } from './session/harness';

const objectAt =
  (x: number) =>
  (e: GhostEvent): boolean =>
    e.ev === 'object' && e.x === x;
const mirrorEvent =
  (event: string, more: (e: GhostEvent) => boolean = () => true) =>
  (e: GhostEvent): boolean =>
    e.ev === 'mirror' && e.event === event && more(e);

function hostArgs(address: string, port: number, more: readonly string[]): string[] {
  return [
    'host',
    '--bind',
    address,
    '--port',
    String(port),
    '--name',
    `Host ${address}`,
    '--script',
    '--quiet-pointers',
    ...more,
  ];
}

function joinArgs(address: string, port: number, name: string): string[] {
  return ['join', `${address}:${port}`, '--code', CODE, '--name', name, '--script'];
}

describe('ghostboard host --mirrors / --mirror-of', () => {
  it('serves one session from two hosts that end with one board', async ({ onTestFinished }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    // Both hosts use the same port on two loopback addresses (the mirror links take the next one).
    const port = 20_000 + 2 * randomInt(10_000);
    const aSpawnedAt = performance.now();
    const a = lab.spawn('a', hostArgs('127.0.0.1', port, ['--code', CODE, '--mirrors']));
    const readyA = await a.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    const mirrorLink = str(readyA, 'mirrorLink');
    expect(mirrorLink).toMatch(/^ghostboard:\/\/mirror\/127\.0\.0\.1:\d+#/);
    expect(mirrorLink).toContain(CODE);
    await a.waitFor(
      mirrorEvent('member', (e) => e.id === 0),
      'a founds the group',
    );
    a.send({ cmd: 'create', kind: 'rect', x: 10, y: 10, w: 100, h: 60 });
    await a.waitFor(objectAt(10), 'a’s rect');

    const b = lab.spawn('b', hostArgs('127.0.0.2', port, ['--mirror-of', mirrorLink]));
    const readyB = await b.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    const bReadyAt = performance.now();
    // Its link names both hosts; its board came from the group.
    expect(str(readyB, 'link')).toContain(`127.0.0.1:${port}`);
    await b.waitFor(
      mirrorEvent('member', (e) => e.id === 1),
      'b is in',
    );
    await a.waitFor(
      mirrorEvent('joined', (e) => e.id === 1),
      'a sees b join',
    );
    expect((await b.boardState()).objects).toBe(1);

    const ann = lab.spawn('ann', joinArgs('127.0.0.1', port, 'Ann'));
    const bob = lab.spawn('bob', joinArgs('127.0.0.2', port, 'Bob'));
    const annReady = await ann.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    const bobReady = await bob.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    // Participant ids are split between the mirrors (≡ mirror id mod 16).
    expect(num(annReady, 'peer') % 16).toBe(0);
    expect(num(bobReady, 'peer') % 16).toBe(1);

    ann.send({ cmd: 'create', kind: 'note', x: 300, y: 10, w: 120, h: 120, text: 'ann', tag: 'n' });
    bob.send({ cmd: 'create', kind: 'ellipse', x: 500, y: 10, w: 40, h: 40, tag: 'e' });
    bob.send({ cmd: 'chat', text: 'from b' });
    const annCreated = await ann.waitFor(
      (e) => e.ev === 'created' && e.tag === 'n',
      'Ann’s answer',
    );
    await bob.waitFor((e) => e.ev === 'created' && e.tag === 'e', 'Bob’s answer');
    // Answered only once the other mirror held it: by then the other host shows it.
    expect(b.events.some(objectAt(300))).toBe(true);
    expect(num(annCreated, 'id') % 16).toBe(0);
    await ann.waitFor((e) => e.ev === 'chat' && e.text === 'from b', 'Bob’s chat at Ann');

    // An image Ann pastes at a reaches b over the mirror link, and Bob through b.
    const dir = await mkdtemp(join(tmpdir(), 'gb-mirror-image-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const png = randomBytes(40_000);
    png.set([0x89, 0x50, 0x4e, 0x47], 0);
    await writeFile(join(dir, 'photo.png'), png);
    const hash = createHash('sha256').update(png).digest('hex');
    ann.send({ cmd: 'image', file: join(dir, 'photo.png'), x: 10, y: 300, w: 200, h: 100 });
    await bob.waitFor(
      (e) => e.ev === 'image' && e.hash === hash && e.bytes === png.length,
      'the image at Bob',
    );

    const all: GhostProc[] = [a, b, ann, bob];
    const { states, settled } = await settledBoards(all, 20_000);
    expect(settled).toBe(true);
    expect(states.map((s) => s.objects)).toEqual([4, 4, 4, 4]);
    // A mirrored host's script reports its mirror's stats whole (the mirrors bench reads them).
    b.send({ cmd: 'mirror-stats' });
    const stats = await b.waitFor((e) => e.ev === 'mirror-stats', 'b’s mirror stats');
    expect(stats).toMatchObject({ ready: true, self: 1, group: { members: [0, 1] } });
    expect(stats.node).toHaveProperty('crimp.delivered');
    expect(stats.node).toHaveProperty('crimp.repairLatenciesMs');
    // a told b's clock offset. Each process's clock counts from its own start, so b's (started after a's) is
    // behind a's by the time between their starts: less than from a's spawn to b's ready, and more than nothing.
    const clock = await a.waitFor(
      mirrorEvent('clock', (e) => e.id === 1),
      'a tells b’s clock offset',
    );
    expect(num(clock, 'offset')).toBeLessThan(0);
    expect(-num(clock, 'offset')).toBeLessThan(bReadyAt - aSpawnedAt);
    expect(num(clock, 'error')).toBeLessThan(250); // loopback: its best round trip is far under this
    expect(stats.tss).toHaveProperty('rollbacks');

    // b stops: a hears it leave at once (its links closed), and goes on alone.
    expect(await b.quit()).toBe(0);
    await a.waitFor(
      mirrorEvent('left', (e) => e.id === 1 && e.reason === 'closed'),
      'b left',
    );
    a.send({ cmd: 'create', kind: 'rect', x: 700, y: 10, w: 10, h: 10 });
    await ann.waitFor(objectAt(700), 'a goes on');
  });

  it('releases the drags of a killed host’s users, once the other host has removed it', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const port = 20_000 + 2 * randomInt(10_000);
    const a = lab.spawn('a', hostArgs('127.0.0.1', port, ['--code', CODE, '--mirrors']));
    const mirrorLink = str(
      await a.waitFor((e) => e.ev === 'ready', 'ready', START_MS),
      'mirrorLink',
    );
    const b = lab.spawn('b', hostArgs('127.0.0.2', port, ['--mirror-of', mirrorLink]));
    await b.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    const bob = lab.spawn('bob', joinArgs('127.0.0.2', port, 'Bob'));
    const bobId = num(await bob.waitFor((e) => e.ev === 'ready', 'ready', START_MS), 'peer');
    a.send({ cmd: 'create', kind: 'rect', x: 10, y: 10, w: 100, h: 60 });
    const id = num(await bob.waitFor(objectAt(10), 'a’s rect at Bob'), 'id');
    bob.send({ cmd: 'grab', id });
    // Bob's id at a is his id in the group (a joiner's ids are the same everywhere).
    await a.waitFor(
      (e) => e.ev === 'grabbed' && e.id === id && e.peer === bobId,
      'Bob’s grab at a',
    );
    await b.kill();
    await a.waitFor(
      mirrorEvent('left', (e) => e.id === 1 && e.reason !== 'closed'),
      'b removed',
      30_000,
    );
    await a.waitFor(
      (e) => e.ev === 'object' && e.id === id && e.lockedBy === null,
      'the lock released',
    );
  });

  it('registers a mirror with its session’s directory, so a join link resolves to both hosts', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const dirProc = lab.spawn('dir', ['directory', '--bind', '127.0.0.1', '--port', '0']);
    const dir = `127.0.0.1:${num(await dirProc.waitFor((e) => e.ev === 'ready', 'directory'), 'port')}`;
    const port = 20_000 + 2 * randomInt(10_000);
    const a = lab.spawn(
      'a',
      hostArgs('127.0.0.1', port, ['--code', CODE, '--mirrors', '--directory', dir]),
    );
    const readyA = await a.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    const session = str(readyA, 'session');
    // The mirror link carries the registration (directory, name, key): the new host needs no --directory.
    const mirrorLink = readMirrorLink(str(readyA, 'mirrorLink'));
    if ('error' in mirrorLink) throw new Error(`mirror link: ${mirrorLink.error}`);
    expect(mirrorLink.directory).toMatchObject({ session, listed: false });
    await a.waitFor((e) => e.ev === 'listed', 'a listed');

    const b = lab.spawn(
      'b',
      hostArgs('127.0.0.2', port, ['--mirror-of', str(readyA, 'mirrorLink')]),
    );
    const readyB = await b.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    expect(readyB).toMatchObject({ session, listed: false });
    expect(str(readyB, 'link')).toBe(str(readyA, 'link'));
    await b.waitFor((e) => e.ev === 'listed', 'b listed');
    await dirProc.waitFor(
      (e) => e.ev === 'mirror' && e.name === session && String(e.host).startsWith('127.0.0.2:'),
      'the directory holds b as a host of the session',
    );

    // A joiner with only the directory link is told of both hosts, probes them and joins one.
    const cal = lab.spawn('cal', ['join', str(readyA, 'link'), '--name', 'Cal', '--script']);
    const probed = await cal.waitFor((e) => e.ev === 'probed', 'probed', START_MS);
    const hosts = (probed.hosts as { address: string }[]).map((h) => h.address).sort();
    expect(hosts).toEqual([`127.0.0.1:${port}`, `127.0.0.2:${port}`]);
    await cal.waitFor((e) => e.ev === 'ready', 'Cal ready', START_MS);
    cal.send({ cmd: 'create', kind: 'rect', x: 40, y: 40, w: 10, h: 10, tag: 'r' });
    await cal.waitFor((e) => e.ev === 'created' && e.tag === 'r', 'Cal’s create answered');

    // The host Cal chose stops; Cal goes on at the other.
    const chosen = String(probed.chosen);
    await (chosen.startsWith('127.0.0.1:') ? a : b).kill();
    const moved = await cal.waitFor((e) => e.ev === 'failover', 'failover', 30_000);
    expect(moved.to).not.toBe(chosen);
    await cal.waitFor(
      (e) => e.ev === 'ready',
      'Cal ready again',
      30_000,
      cal.events.indexOf(moved),
    );
    const survivor = chosen.startsWith('127.0.0.1:') ? b : a;
    const { states, settled } = await settledBoards([survivor, cal], 20_000);
    expect(settled).toBe(true);
    expect(states.map((x) => x.objects)).toEqual([1, 1]);
  });

  it('refuses a mirror link with the wrong secret', async ({ onTestFinished }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const port = 20_001 + 2 * randomInt(10_000);
    const a = lab.spawn('a', hostArgs('127.0.0.1', port, ['--code', CODE, '--mirrors']));
    const link = str(await a.waitFor((e) => e.ev === 'ready', 'ready', START_MS), 'mirrorLink');
    const forged = link.replace(/\/[^/]+$/, '/K7QX2M9TRDK7QX2M9TRDK7QX2M');
    const b = lab.spawn('b', hostArgs('127.0.0.2', port, ['--mirror-of', forged]));
    expect(await b.closed).toBe(2);
    expect(b.events.some((e) => e.ev === 'ready')).toBe(false);
    expect(a.events.some(mirrorEvent('joined'))).toBe(false);
  });
});
