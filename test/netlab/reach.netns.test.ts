// Reach across NATs, as users meet them: a directory on a public host, a host behind a home router, and joiners
// behind their own routers (or the host's), all `ghostboard` processes in network namespaces holding only the
// invite link. Each cell must end in a working session over the path the NATs allow; this file covers the cells a
// direct path opens (cone routers with and without the unsolicited-drop rule, two users behind one NAT, one hard
// NAT on either side, opened by spray and fan), the relayed ones, and a relayed path that turns direct. Needs root
// and namespaces; skips with one line otherwise.
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Host, LabEvent, LabProcess, NatSite } from './lab';
import { Lab, canMakeNamespaces } from './lab';

const support = canMakeNamespaces();
if (!support.ok) console.warn(`reach netns tests skipped: ${support.reason}`);

const BIN = fileURLToPath(new URL('../../bin/ghostboard.js', import.meta.url));
const DIRECTORY_PORT = 7340;
const WAIT_MS = 30_000;
const TURN_PORT = 3478;
const TURN_SECRET = 'netlab-relay-secret';

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
  /** The relay's public host (coturn). */
  let relayHost: Host;
  /** A host and joiners behind symmetric NATs (a new random public port per destination). */
  let symHome: NatSite;
  let sym: NatSite;
  /** A joiner and a host behind NATs that give each destination the next port up (predictable). */
  let seq: NatSite;
  let seqHome: NatSite;
  /** A joiner on a network that lets UDP out only to the directory and the relay. */
  let blocked: NatSite;
  /** Another such network, whose firewall later opens (a relayed connection then moves to a direct path). */
  let opening: NatSite;

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
    relayHost = await lab.addPublicHost();
    symHome = await lab.addNatSite({ kind: 'symmetric', dropUnsolicited: true });
    sym = await lab.addNatSite({ kind: 'symmetric', dropUnsolicited: true });
    seq = await lab.addNatSite({ kind: 'sequential', dropUnsolicited: true });
    seqHome = await lab.addNatSite({ kind: 'sequential', dropUnsolicited: true });
    blocked = await lab.addNatSite({
      kind: 'cone',
      dropUnsolicited: true,
      udpAllowOnly: [
        { address: pub.address, port: DIRECTORY_PORT + 1 },
        { address: relayHost.address, port: TURN_PORT },
      ],
    });
    opening = await lab.addNatSite({
      kind: 'cone',
      dropUnsolicited: true,
      udpAllowOnly: [
        { address: pub.address, port: DIRECTORY_PORT + 1 },
        { address: relayHost.address, port: TURN_PORT },
      ],
    });
  });
  afterEach(async () => {
    await lab?.stopProcesses();
  });
  afterAll(async () => {
    await lab?.destroy();
  });

  /** A directory on the public host (with the relay when given), ready. */
  async function directory(port: number, relay?: Host): Promise<LabProcess> {
    const args = ['directory', '--bind', pub.address, '--port', String(port)];
    if (relay !== undefined)
      args.push('--turn', `${relay.address}:${TURN_PORT}`, '--turn-secret', TURN_SECRET);
    const dir = ghostboard(pub, `directory:${port}`, args);
    await dir.waitFor(isEv('ready'), WAIT_MS);
    return dir;
  }

  /** A host at `at` registered with the directory; its ready event (with the link) once a directory lists it. */
  async function host(
    at: Host,
    port: number,
  ): Promise<{ proc: LabProcess; link: string; listed: LabEvent }> {
    const proc = ghostboard(at, 'host', [
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
      `${pub.address}:${port}`,
    ]);
    const ready = await proc.waitFor(isEv('ready'), WAIT_MS);
    const listed = await proc.waitFor(isEv('listed'), WAIT_MS);
    return { proc, link: String(ready.link), listed };
  }

  /** Joiners in turn, each checked for the path it reports and announced by the host. */
  async function join(
    hostProc: LabProcess,
    link: string,
    joiners: readonly { name: string; at: Host; path: string | readonly string[] }[],
  ): Promise<LabProcess[]> {
    const procs: LabProcess[] = [];
    for (const j of joiners) {
      const p = ghostboard(j.at, j.name, ['join', link, '--name', j.name, '--script']);
      procs.push(p);
      const r = await p.waitFor(isEv('ready'), WAIT_MS);
      const paths = typeof j.path === 'string' ? [j.path] : j.path;
      expect(paths, `${j.name}'s path`).toContain(r.path);
      const joined = await hostProc.waitFor(
        isEv('joined', (e) => e.name === j.name),
        WAIT_MS,
      );
      expect(joined.path, `the host's path to ${j.name}`).toBe(r.path);
    }
    return procs;
  }

  /** A joiner ends on a direct path: at once, or by moving off the relay when the spray or fan opens one. */
  async function endsDirect(p: LabProcess): Promise<void> {
    const ready = p.events.find(isEv('ready'));
    if (ready?.path === 'direct') return;
    const moved = await p.waitFor(
      isEv('path', (e) => e.path === 'direct'),
      WAIT_MS,
    );
    expect(moved.path).toBe('direct');
  }

  /** The usual guarantees: chat everyone to everyone, an edit everywhere with equal boards, a live pointer. */
  async function works(all: readonly LabProcess[]): Promise<void> {
    for (const [i, p] of all.entries())
      p.write(JSON.stringify({ cmd: 'chat', text: `hello ${i}` }));
    for (const p of all)
      for (let i = 0; i < all.length; i++)
        await p.waitFor(
          isEv('chat', (e) => e.text === `hello ${i}`),
          WAIT_MS,
        );
    all[1]?.write(JSON.stringify({ cmd: 'create', kind: 'rect', x: 5, y: 5, w: 40, h: 30 }));
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
    all[0]?.write(JSON.stringify({ cmd: 'pointer', x: 321, y: 123 }));
    for (const p of all.slice(1))
      await p.waitFor(
        isEv('pointer', (e) => e.x === 321 && e.y === 123),
        WAIT_MS,
      );
  }

  it('direct and LAN cells: joiners behind two other NATs and one on the host LAN, a four-user session', async () => {
    const dir = await directory(DIRECTORY_PORT);
    const h = await host(client(home, 0), DIRECTORY_PORT);
    // The directory sees the host at its router's public address, not its LAN one.
    expect(String(h.listed.public).startsWith(`${home.router.address}:`)).toBe(true);
    const procs = await join(h.proc, h.link, [
      { name: 'Bea', at: client(cone), path: 'direct' },
      { name: 'Cal', at: client(lax), path: 'direct' },
      // Linux NATs do not hairpin: the host's LAN address, from the directory, is the only way.
      { name: 'Dev', at: client(home, 1), path: 'lan' },
    ]);
    await works([h.proc, ...procs]);
    expect(dir.events.filter((e) => e.ev === 'introduced')).toHaveLength(3);
  });

  it('hard NAT cells, no relay: a symmetric host with cone joiners (strict and lax), a cone host with symmetric and sequential joiners', async () => {
    const dir = await directory(DIRECTORY_PORT + 2);
    const hard = await host(client(symHome), DIRECTORY_PORT + 2);
    const hardNat = await hard.proc.waitFor(isEv('nat'), WAIT_MS);
    expect(hardNat.mapping).toBe('dependent');
    const toHard = await join(hard.proc, hard.link, [
      { name: 'Con', at: client(cone), path: 'direct' },
      { name: 'Lax', at: client(lax), path: 'direct' },
    ]);
    for (const j of toHard) {
      expect(j.events.find(isEv('nat'))?.mapping).toBe('independent');
      // The host answered from one of its fan ports: a public port the directory never saw.
      const opened = await j.waitFor(isEv('opened'), WAIT_MS);
      expect(String(opened.address)).not.toBe(String(hard.listed.public));
    }
    await works([hard.proc, ...toHard]);
    await theLab().stopProcesses();

    await directory(DIRECTORY_PORT + 2);
    const easy = await host(client(home), DIRECTORY_PORT + 2);
    const toEasy = await join(easy.proc, easy.link, [
      { name: 'Sam', at: client(sym), path: 'direct' },
      { name: 'Seq', at: client(seq), path: 'direct' },
    ]);
    const [sam, sq] = toEasy;
    expect(sam?.events.find(isEv('nat'))?.mapping).toBe('dependent');
    // The sequential NAT measured a step of one port, so the host's first sprayed ports were the right ones.
    expect(sq?.events.find(isEv('nat'))).toMatchObject({ mapping: 'dependent', step: 1 });
    await works([easy.proc, ...toEasy]);
    expect(dir.events.filter((e) => e.ev === 'introduced').length).toBeGreaterThanOrEqual(2);
  });

  it('hard NAT cells, no relay: a lax cone host with a symmetric joiner, a sequential host with a cone joiner', async () => {
    // The lax router takes a fan's datagrams into its connection tracking if any reach it, which would spoil the
    // very ports the spray must find: the fan's primes must die first (TTL 2 from the first datagram of each port).
    await directory(DIRECTORY_PORT + 2);
    const laxHost = await host(client(lax), DIRECTORY_PORT + 2);
    const [sam] = await join(laxHost.proc, laxHost.link, [
      { name: 'Sam', at: client(sym), path: 'direct' },
    ]);
    if (sam === undefined) throw new Error('no Sam');
    await works([laxHost.proc, sam]);
    await theLab().stopProcesses();

    // The joiner's spray finds the host's main port as well as its fan ports: the host answers each on the port it
    // heard it on, and a handshake begun on one port is not finished on another.
    await directory(DIRECTORY_PORT + 2);
    const seqHost = await host(client(seqHome), DIRECTORY_PORT + 2);
    expect((await seqHost.proc.waitFor(isEv('nat'), WAIT_MS)).step).toBe(1);
    const joiners = await join(seqHost.proc, seqHost.link, [
      { name: 'Con', at: client(cone), path: 'direct' },
      { name: 'Cal', at: client(lax), path: 'direct' },
    ]);
    await works([seqHost.proc, ...joiners]);
  });

  it('relayed cells: symmetric to symmetric, a cone joiner racing relay and spray to a symmetric host (it ends direct), and a joiner whose UDP only reaches the relay', async () => {
    await theLab().startTurn(relayHost, { secret: TURN_SECRET, port: TURN_PORT });
    await directory(DIRECTORY_PORT + 1, relayHost);
    const h = await host(client(symHome), DIRECTORY_PORT + 1);
    const relay = await h.proc.waitFor(isEv('relay'), WAIT_MS);
    expect(relay.state).toBe('allocated');
    expect(String(relay.relayed).startsWith(`${relayHost.address}:`)).toBe(true);
    const procs = await join(h.proc, h.link, [
      { name: 'Sam', at: client(sym), path: 'relayed' },
      // One hard NAT: the relay and the spray race; a relayed start moves to the direct path the spray opens.
      { name: 'Con', at: client(cone), path: ['relayed', 'direct'] },
      { name: 'Bo', at: client(blocked), path: 'relayed' },
    ]);
    await works([h.proc, ...procs]);
    const con = procs[1];
    if (con === undefined) throw new Error('no Con');
    await endsDirect(con);
    // A relayed joiner's goodbye goes through the relay too: the host sees it leave, not time out.
    const bo = procs[2];
    if (bo === undefined) throw new Error('no Bo');
    bo.write(JSON.stringify({ cmd: 'quit' }));
    const left = await h.proc.waitFor(isEv('left'), WAIT_MS);
    expect(left.reason).toBe('left');
  });

  it('a relayed connection moves to a direct path that opens later, and the session carries on', async () => {
    await theLab().startTurn(relayHost, { secret: TURN_SECRET, port: TURN_PORT });
    await directory(DIRECTORY_PORT + 1, relayHost);
    const h = await host(client(home), DIRECTORY_PORT + 1);
    await h.proc.waitFor(
      isEv('relay', (e) => e.state === 'allocated'),
      WAIT_MS,
    );
    const [eve] = await join(h.proc, h.link, [
      { name: 'Eve', at: client(opening), path: 'relayed' },
    ]);
    if (eve === undefined) throw new Error('no joiner');
    // Eve's firewall opens: her probes of the host's public address now get through, and both sides move the
    // connection (the host's punch at the introduction left its router expecting her).
    await theLab().setNatRules(opening, { kind: 'cone', dropUnsolicited: true });
    const moved = await eve.waitFor(isEv('path'), WAIT_MS);
    expect(moved.path).toBe('direct');
    expect(String(moved.address).startsWith(`${home.router.address}:`)).toBe(true);
    // The same session, never rejoined: chat and edits go on over the new path.
    expect(eve.events.filter((e) => e.ev === 'ready')).toHaveLength(1);
    await works([h.proc, eve]);
  });
});
