// Reach across NATs, as users meet them: a directory on a public host, a host behind a home router, and joiners
// behind their own routers (or the host's), all `ghostboard` processes in network namespaces holding only the
// invite link. Each cell must end in a working session over the path the NATs allow; this file covers the cells a
// direct path opens (cone routers with and without the unsolicited-drop rule, two users behind one NAT). Needs
// root and namespaces; skips with one line otherwise.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host, LabEvent, LabProcess, NatSite } from './lab';
import { Lab, canMakeNamespaces } from './lab';

const support = canMakeNamespaces();
if (!support.ok) console.warn(`reach netns tests skipped: ${support.reason}`);

const BIN = fileURLToPath(new URL('../../bin/ghostboard.js', import.meta.url));
const DIRECTORY_PORT = 7340;
const WAIT_MS = 30_000;

const isEv =
  (ev: string, extra: (e: LabEvent) => boolean = () => true) =>
  (e: LabEvent): boolean =>
    e.ev === ev && extra(e);

describe.skipIf(!support.ok)('joining by link across NATs (namespaces)', () => {
  let lab: Lab | undefined;
  let pub: Host;
  /** The host's home: a cone NAT that drops unsolicited datagrams, with a second user on the same LAN. */
  let home: NatSite;
  /** A joiner's home router of the same kind. */
  let cone: NatSite;
  /** A router that lets unsolicited datagrams into its connection tracking (priming matters there). */
  let lax: NatSite;

  const theLab = (): Lab => {
    if (lab === undefined) throw new Error('lab not built');
    return lab;
  };
  const client = (site: NatSite, i = 0): Host => {
    const c = site.clients[i];
    if (c === undefined) throw new Error(`site has no client ${i}`);
    return c;
  };
  const ghostboard = (host: Host, label: string, args: readonly string[]): LabProcess =>
    theLab().spawn(host.ns, process.execPath, [BIN, ...args], label);

  beforeAll(async () => {
    lab = await Lab.create();
    pub = await lab.addPublicHost();
    home = await lab.addNatSite({ kind: 'cone', dropUnsolicited: true, clients: 2 });
    cone = await lab.addNatSite({ kind: 'cone', dropUnsolicited: true });
    lax = await lab.addNatSite({ kind: 'cone' });
  });
  afterAll(async () => {
    await lab?.destroy();
  });

  it('a four-user session: joiners behind two other NATs and one on the host LAN, each on the path it should use', async () => {
    const dir = ghostboard(pub, 'directory', [
      'directory',
      '--bind',
      pub.address,
      '--port',
      String(DIRECTORY_PORT),
    ]);
    await dir.waitFor(isEv('ready'), WAIT_MS);
    const host = ghostboard(client(home, 0), 'host', [
      'host',
      '--bind',
      '0.0.0.0',
      '--port',
      '7350',
      '--script',
      '--quiet-pointers',
      '--name',
      'Ana',
      '--directory',
      `${pub.address}:${DIRECTORY_PORT}`,
    ]);
    const ready = await host.waitFor(isEv('ready'), WAIT_MS);
    const link = String(ready.link);
    const listed = await host.waitFor(isEv('listed'), WAIT_MS);
    // The directory sees the host at its router's public address, not its LAN one.
    expect(String(listed.public).startsWith(`${home.router.address}:`)).toBe(true);

    const joiners = [
      { name: 'Bea', at: client(cone), path: 'direct' },
      { name: 'Cal', at: client(lax), path: 'direct' },
      // Linux NATs do not hairpin: the host's LAN address, from the directory, is the only way.
      { name: 'Dev', at: client(home, 1), path: 'lan' },
    ];
    const procs: LabProcess[] = [];
    for (const j of joiners) {
      const p = ghostboard(j.at, j.name, ['join', link, '--name', j.name, '--script']);
      procs.push(p);
      const r = await p.waitFor(isEv('ready'), WAIT_MS);
      expect(r.path, `${j.name}'s path`).toBe(j.path);
      await host.waitFor(
        isEv('joined', (e) => e.name === j.name),
        WAIT_MS,
      );
    }
    const all = [host, ...procs];
    // Chat in order and exactly once, everyone to everyone.
    for (const [i, p] of all.entries())
      p.write(JSON.stringify({ cmd: 'chat', text: `hello ${i}` }));
    for (const p of all)
      for (let i = 0; i < all.length; i++)
        await p.waitFor(
          isEv('chat', (e) => e.text === `hello ${i}`),
          WAIT_MS,
        );
    // An edit from behind one NAT reaches everyone, and the boards agree.
    procs[0]?.write(JSON.stringify({ cmd: 'create', kind: 'rect', x: 5, y: 5, w: 40, h: 30 }));
    for (const p of all) await p.waitFor(isEv('object'), WAIT_MS);
    const hashes: string[] = [];
    for (const p of all) {
      const from = p.events.length;
      p.write(JSON.stringify({ cmd: 'hash' }));
      const h = await p.waitFor(
        (e) => e.ev === 'hash' && p.events.indexOf(e) >= from && e.objects === 1,
        WAIT_MS,
      );
      hashes.push(String(h.hash));
    }
    expect(new Set(hashes).size).toBe(1);
    // Live pointers: the host's pointer reaches the joiner behind the other NAT.
    host.write(JSON.stringify({ cmd: 'pointer', x: 321, y: 123 }));
    await procs[0]?.waitFor(
      isEv('pointer', (e) => e.x === 321 && e.y === 123),
      WAIT_MS,
    );
    // The directory introduced the two outside joiners (the LAN one too: it asked it like anyone).
    expect(dir.events.filter((e) => e.ev === 'introduced')).toHaveLength(3);
  });
});
