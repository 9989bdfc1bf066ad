// Reach benchmark across real NATs: `ghostboard` processes in network namespaces (test/netlab's lab), 40 ms one way
// on every path between sites, the NAT cells users meet (cone ↔ cone, two users behind one NAT, one symmetric NAT
// on either side, symmetric ↔ symmetric, a network whose UDP only reaches the directory and the relay) and 20 joins
// per cell, each a fresh joiner process holding only the invite link, against a host whose board holds 200 objects.
// Figures per cell: process start-up, join time (the joiner's modules loaded → it holds the whole board), the path
// that won, the bytes on the joiner's wire before then, the link's round trip; and the relay's per-packet overhead.
// Then, with no relay at all, which pairs of router kinds open a direct path (traversal-matrix.ts).
// Needs root and namespaces (and coturn, python3); skips with one line otherwise.
//
// "Holds the whole board": the joiner has been welcomed (`ready`) and has printed an `object` event for 200
// distinct ids; the time is the `t` (CLOCK_MONOTONIC) on whichever of those lines came last. Each join is then
// checked with `hash`: 200 objects and the host's hash.
import { fileURLToPath } from 'node:url';
import type { Host, LabEvent, LabProcess, NatSite } from '../test/netlab/lab';
import { Lab, canMakeNamespaces, onPath } from '../test/netlab/lab';
import { delayCore } from './reach-netns/core-delay';
import type { RelayCounts, WireCount } from './reach-netns/counters';
import { RelayWatch, UdpCounter, minus } from './reach-netns/counters';
import type { MatrixSites, RouterKind } from './reach-netns/traversal-matrix';
import { natOf, ROUTER_KINDS, traversalMatrix } from './reach-netns/traversal-matrix';

const DELAY_MS = 40;
/** 20; fewer through GB_BENCH_JOINS for a quick look. */
const JOINS = Number(process.env.GB_BENCH_JOINS ?? 20);
/** Joins per pair of router kinds in the no-relay matrix; GB_BENCH_MATRIX_TRIALS=0 leaves the matrix out. */
const MATRIX_TRIALS = Number(process.env.GB_BENCH_MATRIX_TRIALS ?? 5);
const BOARD_OBJECTS = 200;
const DIRECTORY_PORT = 7340;
/** The matrix's directory has no relay (its reflector is on the next port). */
const MATRIX_DIRECTORY_PORT = DIRECTORY_PORT + 4;
const HOST_PORT = 7350;
const TURN_PORT = 3478;
const TURN_SECRET = 'bench-relay-secret';
/** Wide enough for every allocation of the run: each joiner allocates, and a quitting one leaves its own behind. */
const RELAY_PORTS: readonly [number, number] = [49160, 49999];
/** Hang guards only. */
const WAIT_MS = 30_000;
const QUIT_MS = 3_000;
/** How long a relayed join is watched for a move to a direct path (the spray takes about 4 s at most). */
const MOVE_WAIT_MS = 8_000;
/** The delay line and the relay capture exit by themselves after this, whatever happens to this process. */
const MAX_SECONDS = 1200;

const BIN = fileURLToPath(new URL('../bin/ghostboard.js', import.meta.url));
const JOINER = fileURLToPath(new URL('./reach-netns/joiner.ts', import.meta.url));

type Path = 'direct' | 'lan' | 'relayed';

interface Cell {
  readonly name: string;
  /** Where the cell's host runs: a fresh host per cell, so no cell inherits another's leftovers. */
  readonly host: Host;
  readonly joiner: Host;
  /** The path a working stack should end on here (a relayed start may move to it). */
  readonly expected: Path;
}

interface HostRun {
  readonly proc: LabProcess;
  readonly link: string;
  readonly hash: string;
}

interface JoinSample {
  readonly startupMs: number;
  readonly joinMs: number;
  readonly path: string;
  readonly joiner: WireCount;
  readonly rttMs: number | undefined;
  readonly boardOk: boolean;
  /** A join that won on the relay where a direct path should open: when it moved off (loaded → `path` event). */
  readonly movedDirectMs?: number;
}

/** One nftables counter table per joiner namespace, made by the first cell that uses it. */
const counters = new Map<string, UdpCounter>();

const clockMs = (): number => Number(process.hrtime.bigint()) / 1e6;
const isEv =
  (ev: string) =>
  (e: LabEvent): boolean =>
    e.ev === ev;

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

function spread(values: readonly number[]): { p50: number; p95: number } {
  const s = [...values].sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 10) / 10;
  return { p50: round(percentile(s, 0.5)), p95: round(percentile(s, 0.95)) };
}

/** The event at which the joiner first held the whole board (welcomed, every object in), if it has. */
function completion(events: readonly LabEvent[]): LabEvent | undefined {
  const ids = new Set<unknown>();
  let welcomed = false;
  for (const e of events) {
    if (e.ev === 'ready') welcomed = true;
    else if (e.ev === 'object') ids.add(e.id);
    else continue;
    if (welcomed && ids.size >= BOARD_OBJECTS) return e;
  }
  return undefined;
}

/** Asks a process to quit (it closes its session and relay allocation), then makes sure it is gone. */
async function quit(p: LabProcess): Promise<void> {
  p.write(JSON.stringify({ cmd: 'quit' }));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.closed, new Promise((r) => (timer = setTimeout(r, QUIT_MS)))]);
  clearTimeout(timer);
  await p.kill();
}

/** The process's reply to a command, not counting replies to earlier ones. */
async function ask(p: LabProcess, cmd: Record<string, unknown>, reply: string): Promise<LabEvent> {
  const from = p.events.length;
  p.write(JSON.stringify(cmd));
  return p.waitFor((e) => e.ev === reply && p.events.indexOf(e) >= from, WAIT_MS);
}

function client(site: NatSite, i = 0): Host {
  const c = site.clients[i];
  if (c === undefined) throw new Error(`site has no client ${i}`);
  return c;
}

/** A host registered with the directory, its board filled by script `create` commands. */
async function startHost(
  lab: Lab,
  at: Host,
  port: number,
  directory: Host,
  name: string,
): Promise<HostRun> {
  const proc = lab.spawn(
    at.ns,
    process.execPath,
    [
      BIN,
      'host',
      '--bind',
      '0.0.0.0',
      '--port',
      String(port),
      '--script',
      '--quiet-pointers',
      '--name',
      name,
      '--directory',
      `${directory.address}:${DIRECTORY_PORT}`,
    ],
    `host:${name}`,
  );
  const ready = await proc.waitFor(isEv('ready'), WAIT_MS);
  await proc.waitFor(isEv('listed'), WAIT_MS);
  const relay = await proc.waitFor(isEv('relay'), WAIT_MS);
  if (relay.state !== 'allocated')
    throw new Error(`host ${name}: no relay (${JSON.stringify(relay)})`);
  for (let i = 0; i < BOARD_OBJECTS; i++) {
    const kind = ['rect', 'ellipse', 'note', 'text'][i % 4];
    proc.write(
      JSON.stringify({
        cmd: 'create',
        kind,
        x: (i % 20) * 60,
        y: Math.floor(i / 20) * 60,
        w: 50,
        h: 40,
        text: kind === 'note' || kind === 'text' ? `item ${i}` : '',
      }),
    );
  }
  const hash = await (async (): Promise<LabEvent> => {
    for (;;) {
      const h = await ask(proc, { cmd: 'hash' }, 'hash');
      if (h.objects === BOARD_OBJECTS) return h;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return { proc, link: String(ready.link), hash: String(hash.hash) };
}

async function oneJoin(
  lab: Lab,
  cell: Cell,
  host: HostRun,
  joinerWire: UdpCounter,
  i: number,
): Promise<JoinSample> {
  const joinerBefore = await joinerWire.read();
  const spawnedAt = clockMs();
  const p = lab.spawn(
    cell.joiner.ns,
    process.execPath,
    ['--import', 'tsx', JOINER, 'join', host.link, '--name', `J${i}`, '--script'],
    `${cell.name}#${i}`,
  );
  try {
    const loaded = await p.waitFor(isEv('loaded'), WAIT_MS);
    await p.waitFor(() => completion(p.events) !== undefined, WAIT_MS);
    const joiner = minus(await joinerWire.read(), joinerBefore);
    const done = completion(p.events);
    const ready = p.events.find(isEv('ready'));
    const hash = await ask(p, { cmd: 'hash' }, 'hash');
    const stats = await ask(p, { cmd: 'stats' }, 'stats');
    const conn = (stats.connections as { rttMs?: number }[] | undefined)?.[0];
    let movedDirectMs: number | undefined;
    if (ready?.path === 'relayed' && cell.expected === 'direct') {
      const moved = await p
        .waitFor((e) => e.ev === 'path' && e.path === 'direct', MOVE_WAIT_MS)
        .catch(() => undefined);
      if (moved !== undefined) movedDirectMs = Number(moved.t) - Number(loaded.t);
    }
    return {
      ...(movedDirectMs === undefined ? {} : { movedDirectMs }),
      startupMs: Number(loaded.t) - spawnedAt,
      joinMs: Number(done?.t) - Number(loaded.t),
      path: String(ready?.path),
      joiner,
      rttMs: conn?.rttMs,
      boardOk: hash.objects === BOARD_OBJECTS && hash.hash === host.hash,
    };
  } finally {
    await quit(p);
  }
}

async function runCell(
  lab: Lab,
  cell: Cell,
  index: number,
  directory: Host,
  relay: RelayWatch,
): Promise<Record<string, unknown>> {
  // Each cell's host on a port of its own: a new 5-tuple at the relay, whatever the last host left allocated there.
  const host = await startHost(lab, cell.host, HOST_PORT + index, directory, cell.name);
  try {
    return await measureCell(lab, cell, host, relay);
  } finally {
    await quit(host.proc);
  }
}

async function measureCell(
  lab: Lab,
  cell: Cell,
  host: HostRun,
  relay: RelayWatch,
): Promise<Record<string, unknown>> {
  const joinerWire =
    counters.get(cell.joiner.ns) ?? (await UdpCounter.open(lab, cell.joiner.ns, 'eth0'));
  counters.set(cell.joiner.ns, joinerWire);
  await relay.take();
  const samples: JoinSample[] = [];
  const failures: string[] = [];
  const hostFrom = host.proc.events.length;
  for (let i = 0; i < JOINS; i++) {
    try {
      samples.push(await oneJoin(lab, cell, host, joinerWire, i));
    } catch (err) {
      failures.push(err instanceof Error ? err.message.slice(0, 300) : String(err));
    }
  }
  const relayed = await relay.take();
  const hostEvents = host.proc.events.slice(hostFrom);
  const leaves: Record<string, number> = {};
  for (const e of hostEvents.filter(isEv('left')))
    leaves[String(e.reason)] = (leaves[String(e.reason)] ?? 0) + 1;
  const paths: Record<string, number> = {};
  for (const s of samples) paths[s.path] = (paths[s.path] ?? 0) + 1;
  const rtts = samples.map((s) => s.rttMs).filter((r): r is number => typeof r === 'number');
  const joinMsByPath: Record<string, { n: number; p50: number; p95: number }> = {};
  for (const path of Object.keys(paths)) {
    const of = samples.filter((s) => s.path === path).map((s) => s.joinMs);
    joinMsByPath[path] = { n: of.length, ...spread(of) };
  }
  const figures = {
    joins: samples.length,
    failed: failures.length,
    expectedPath: cell.expected,
    paths,
    joinMs: spread(samples.map((s) => s.joinMs)),
    joinMsByPath,
    ...(cell.expected === 'direct'
      ? {
          endedDirect: samples.filter((s) => s.path !== 'relayed' || s.movedDirectMs !== undefined)
            .length,
          movedDirectMs: spread(
            samples.flatMap((s) => (s.movedDirectMs === undefined ? [] : [s.movedDirectMs])),
          ),
        }
      : {}),
    startupMs: spread(samples.map((s) => s.startupMs)),
    spawnToBoardMs: spread(samples.map((s) => s.startupMs + s.joinMs)),
    joinerBytes: spread(samples.map((s) => s.joiner.bytes)),
    joinerPackets: spread(samples.map((s) => s.joiner.packets)),
    rttMs: rtts.length > 0 ? spread(rtts) : undefined,
    boardsMatching: samples.filter((s) => s.boardOk).length,
    hostSaw: { joined: hostEvents.filter(isEv('joined')).length, left: leaves },
    relay: relayFigures(relayed),
    ...(failures.length > 0 ? { failures: failures.slice(0, 3) } : {}),
  };
  console.error(`reach-netns ${cell.name}:`, JSON.stringify(figures));
  return figures;
}

/** What the relay wrapped around each datagram it carried during the cell (undefined if it carried none). */
function relayFigures(r: RelayCounts): Record<string, unknown> | undefined {
  if (r.channelData === 0 && r.indications === 0) return undefined;
  const mean = (sum: number, n: number): number | undefined =>
    n === 0 ? undefined : Math.round((sum / n) * 100) / 100;
  return {
    channelData: r.channelData,
    channelDataOverheadBytes: mean(r.overheadBytes, r.channelData),
    overheadHistogram: r.overheads,
    indications: r.indications,
    indicationOverheadBytes: mean(r.indicationOverheadBytes, r.indications),
  };
}

function missingTool(): string | undefined {
  for (const [tool, pkg] of [
    ['turnserver', 'coturn'],
    ['python3', 'python3'],
  ] as const)
    if (!onPath(tool)) return `\`${tool}\` (Debian package ${pkg}) is missing`;
  return undefined;
}

export async function run(): Promise<Record<string, unknown>> {
  const support = canMakeNamespaces();
  const reason = support.ok ? missingTool() : support.reason;
  if (reason !== undefined) {
    console.error(`reach-netns skipped: ${reason}`);
    return { skipped: reason };
  }
  const began = clockMs();
  const lab = await Lab.create();
  try {
    await delayCore(lab, DELAY_MS, MAX_SECONDS);
    const pub = await lab.addPublicHost();
    const relayHost = await lab.addPublicHost();
    const home = await lab.addNatSite({ kind: 'cone', dropUnsolicited: true, clients: 2 });
    const cone = await lab.addNatSite({ kind: 'cone', dropUnsolicited: true });
    const symHome = await lab.addNatSite({ kind: 'symmetric', dropUnsolicited: true });
    const sym = await lab.addNatSite({ kind: 'symmetric', dropUnsolicited: true });
    const blocked = await lab.addNatSite({
      kind: 'cone',
      dropUnsolicited: true,
      udpAllowOnly: [
        { address: pub.address, port: DIRECTORY_PORT },
        { address: relayHost.address, port: TURN_PORT },
      ],
    });
    await lab.startTurn(relayHost, {
      secret: TURN_SECRET,
      port: TURN_PORT,
      relayPorts: RELAY_PORTS,
    });
    const relay = await RelayWatch.open(lab, relayHost.ns, 'eth0', TURN_PORT, MAX_SECONDS);
    const directory = lab.spawn(
      pub.ns,
      process.execPath,
      [
        BIN,
        'directory',
        '--bind',
        pub.address,
        '--port',
        String(DIRECTORY_PORT),
        '--turn',
        `${relayHost.address}:${TURN_PORT}`,
        '--turn-secret',
        TURN_SECRET,
      ],
      'directory',
    );
    await directory.waitFor(isEv('ready'), WAIT_MS);
    const coneHost = client(home, 0);
    const symHost = client(symHome);
    const cells: Cell[] = [
      { name: 'cone-cone', host: coneHost, joiner: client(cone), expected: 'direct' },
      { name: 'same-nat', host: coneHost, joiner: client(home, 1), expected: 'lan' },
      // One hard NAT: the relay and the spray/fan race; either may win the join, the session ends direct.
      { name: 'cone-symmetric', host: coneHost, joiner: client(sym), expected: 'direct' },
      { name: 'symmetric-cone', host: symHost, joiner: client(cone), expected: 'direct' },
      { name: 'symmetric-symmetric', host: symHost, joiner: client(sym), expected: 'relayed' },
      { name: 'udp-blocked', host: coneHost, joiner: client(blocked), expected: 'relayed' },
    ];
    const results: Record<string, Record<string, unknown>> = {};
    const only = process.env.GB_BENCH_CELLS?.split(',');
    for (const [index, cell] of cells.entries())
      if (only === undefined || only.includes(cell.name))
        results[cell.name] = await runCell(lab, cell, index, pub, relay);
    const matrix = MATRIX_TRIALS > 0 ? await matrixRun(lab, pub) : undefined;
    return summary(results, matrix, (clockMs() - began) / 1000);
  } finally {
    await lab.destroy();
  }
}

/** The no-relay matrix: a directory without a relay, and a host and a joiner site behind each kind of router. */
async function matrixRun(lab: Lab, pub: Host): Promise<Record<string, Record<string, unknown>>> {
  const dir = lab.spawn(
    pub.ns,
    process.execPath,
    [BIN, 'directory', '--bind', pub.address, '--port', String(MATRIX_DIRECTORY_PORT)],
    'matrix-directory',
  );
  await dir.waitFor(isEv('ready'), WAIT_MS);
  const sitesOf = async (): Promise<Record<RouterKind, Host>> => {
    const out: Partial<Record<RouterKind, Host>> = {};
    for (const kind of ROUTER_KINDS) out[kind] = client(await lab.addNatSite(natOf(kind)));
    return out as Record<RouterKind, Host>;
  };
  const sites: MatrixSites = { host: await sitesOf(), joiner: await sitesOf() };
  try {
    return await traversalMatrix(lab, sites, {
      bin: BIN,
      joinerScript: JOINER,
      directory: `${pub.address}:${MATRIX_DIRECTORY_PORT}`,
      trials: MATRIX_TRIALS,
      waitMs: 15_000,
      firstPort: HOST_PORT + 20,
    });
  } finally {
    await quit(dir);
  }
}

function summary(
  cells: Record<string, Record<string, unknown>>,
  matrix: Record<string, Record<string, unknown>> | undefined,
  seconds: number,
): Record<string, unknown> {
  // By the path each join won, over every cell (the largest p95 of any cell: no pooling across cells).
  const p95 = (paths: readonly string[]): number =>
    Math.max(
      ...Object.values(cells).flatMap((c) =>
        paths.flatMap((p) => {
          const of = (c.joinMsByPath as Record<string, { p95: number }> | undefined)?.[p];
          return of === undefined ? [] : [of.p95];
        }),
      ),
    );
  const direct = p95(['direct', 'lan']);
  const relayed = p95(['relayed']);
  const overhead = Object.values(cells)
    .map(
      (c) =>
        (c.relay as { channelDataOverheadBytes?: number } | undefined)?.channelDataOverheadBytes,
    )
    .filter((x): x is number => x !== undefined);
  return {
    delayMsOneWay: DELAY_MS,
    delayHow:
      'userspace TUN delay line in the lab core router (policy routing), every crossing of the core',
    boardObjects: BOARD_OBJECTS,
    joinsPerCell: JOINS,
    criterion:
      'joinMs: joiner modules loaded → welcomed and 200 distinct objects printed (joiner clock); startupMs: spawn → modules loaded',
    bytes:
      'joinerBytes: IP bytes of the UDP the joiner namespace sent on eth0 and received there for a live socket (directory, relay and host alike), spawn → read just after the board was whole',
    cells,
    channelDataOverheadBytesPerPacket: overhead,
    ...(matrix === undefined
      ? {}
      : {
          traversalMatrix: {
            how: `no relay; ${MATRIX_TRIALS} joins per pair of router kinds (host-joiner); cone: a home router dropping unsolicited datagrams, lax: one letting them in, symmetric: fully-random ports, sequential: the next port up per destination`,
            cells: matrix,
          },
        }),
    notMeasured: [
      'host-side bytes: a joiner that quits is only dropped by the host after its 10 s timeout, so the host keeps sending to it through the next joins',
      'bytes cut exactly at the completing frame: the counters are read ~10 ms after the joiner prints it (a few acknowledgements more)',
      'loss, jitter and bandwidth limits: the delay line only delays',
    ],
    runSeconds: Math.round(seconds),
    targets: {
      directJoinP95Ms: { limit: 1500, value: direct, met: direct <= 1500 },
      relayedJoinP95Ms: { limit: 2500, value: relayed, met: relayed <= 2500 },
    },
  };
}
