// Joining by link through directories, as separate `ghostboard` processes on loopback: a directory, a host that
// registers with it (and with one that is down), joiners that hold only the link. NAT topologies are the network
// lab's tests; this checks the contract and the end-to-end handshake over the path the directory arranged.
import { afterAll, describe, expect, it } from 'vitest';
import { parseJoinLink } from '../../shared/join-link';
import type { GhostProc } from './harness';
import { Lab, killAll, num, settledBoards, str } from './harness';

afterAll(killAll);

async function directory(lab: Lab, label: string): Promise<{ proc: GhostProc; port: number }> {
  const proc = lab.spawn(label, ['directory', '--bind', '127.0.0.1', '--port', '0']);
  const ready = await proc.waitFor((e) => e.ev === 'ready', 'directory ready');
  return { proc, port: num(ready, 'port') };
}

describe('joining through a directory', () => {
  it('a joiner with only the link finds the host, joins end to end, and the session works', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const dir = await directory(lab, 'Directory');
    // A second directory that is down (nothing listens there): one directory is enough.
    const dead = '127.0.0.1:9';
    const host = lab.spawn('Host', [
      'host',
      '--port',
      '0',
      '--bind',
      '127.0.0.1',
      '--script',
      '--name',
      'Ana',
      '--directory',
      `127.0.0.1:${dir.port}`,
      '--directory',
      dead,
    ]);
    const ready = await host.waitFor((e) => e.ev === 'ready', 'host ready');
    const link = str(ready, 'link');
    const parsed = parseJoinLink(link);
    expect(parsed?.kind).toBe('directory');
    // Unlisted by default: a random name only the link holds; the code never reaches the directory.
    expect(str(ready, 'session')).toMatch(/^s-[0-9a-z]{10}$/);
    expect(ready.listed).toBe(false);
    expect(link.split('#')[0]).not.toContain(str(ready, 'code'));
    await host.waitFor(
      (e) => e.ev === 'listed' && e.directory === `127.0.0.1:${dir.port}`,
      'listed',
    );
    const registered = await dir.proc.waitFor((e) => e.ev === 'registered', 'registered');
    expect(registered).toMatchObject({ name: str(ready, 'session'), listed: false });
    expect(JSON.stringify(dir.proc.events)).not.toContain(str(ready, 'code'));

    const bea = lab.spawn('Bea', ['join', link, '--name', 'Bea', '--script']);
    const beaReady = await bea.waitFor((e) => e.ev === 'ready', 'Bea ready');
    expect(beaReady.path).toBe('lan');
    await host.waitFor((e) => e.ev === 'introduced', 'the host told of Bea');
    const joined = await host.waitFor((e) => e.ev === 'joined' && e.name === 'Bea', 'Bea joined');
    expect(joined.path).toBe('lan');
    await dir.proc.waitFor((e) => e.ev === 'introduced', 'introduction');

    host.send({ cmd: 'create', kind: 'rect', x: 10, y: 10, w: 50, h: 40 });
    bea.send({ cmd: 'chat', text: 'found you by link' });
    await host.waitFor((e) => e.ev === 'chat' && e.text === 'found you by link', 'chat');
    const { states } = await settledBoards([host, bea], 20_000);
    expect(states[1]?.hash).toBe(states[0]?.hash);
    expect(states[0]?.objects).toBe(1);

    // The host leaves: the directory forgets the session at once.
    await host.quit();
    await dir.proc.waitFor((e) => e.ev === 'deregistered', 'deregistered');
  });

  it('a listed session is found by its name; an unknown one ends as not-found', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const dir = await directory(lab, 'Directory');
    const host = lab.spawn('Host', [
      'host',
      '--port',
      '0',
      '--bind',
      '127.0.0.1',
      '--script',
      '--code',
      '4-maple-otter',
      '--directory',
      `127.0.0.1:${dir.port}`,
      '--list',
      'Design review',
    ]);
    await host.waitFor((e) => e.ev === 'listed', 'listed');
    const byName = `ghostboard://join/127.0.0.1:${dir.port}/design%20review#4-maple-otter`;
    const cal = lab.spawn('Cal', ['join', byName, '--name', 'Cal', '--script']);
    await cal.waitFor((e) => e.ev === 'ready', 'Cal ready');

    const lost = lab.spawn('Dee', [
      'join',
      `ghostboard://join/127.0.0.1:${dir.port}/no%20such%20board#4-maple-otter`,
      '--script',
    ]);
    const r = await lost.waitFor((e) => e.ev === 'rejected', 'rejected');
    expect(r.reason).toBe('not-found');
    expect(await lost.closed).not.toBe(0);
  });
});
