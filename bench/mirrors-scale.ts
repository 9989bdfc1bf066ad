// The mirrored hosts' scale claim, in the simulator (issue 22): one session of 1,000 users over 4 mirror-backed
// hosts (30 ms one way between mirrors, 5 ms from each user to its mirror), every user's pointer circling its home
// at 60 Hz in a cluster of about 25 that its view holds (pointers scoped by view), a trickle of edits (one per user
// a minute) and chat (one line per user every two minutes), every user accepting 30 packets/s x 238 B (64 kbit/s
// with IP/UDP). As the hostcpu bench does, it times each mirror's own calls (its host's endpoint and session ticks,
// its mirror's datagrams, timers and pumps) per simulated second: the share of one core that mirror's process
// needs. Users are real PeerSessions; no sockets, system calls or shared CPU. Deterministic workload (seeded).
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { UDP_IPV4_OVERHEAD } from '../src-main/net/stats';
import type { SimEndpoint } from '../src-main/net/testing/harness';
import type { ServedMirror } from '../src-main/mirrored/testing/mirror-hosts';
import {
  DEFAULT_MIRROR_HOSTS,
  joinMirror,
  serveMirrorHosts,
} from '../src-main/mirrored/testing/mirror-hosts';
import type { SessionRate } from '../src-main/session/connection-stack';
import { percentile, round1 } from './compare/figures';
import type { HostClock } from './host-clock';
import { hostClock, timed, timedOncePerTurn } from './host-clock';
import type { Layout } from './mirrors-scale/layout';
import { clusterOf, clusterSizeOf, homeOf, layout, viewOf } from './mirrors-scale/layout';
import { Trickle } from './mirrors-scale/trickle';
import { userIds } from './mirrors-scale/user-ids';

const POINTER_HZ = 60;
const RADIUS = 100;
/** Pointer frames are spread over this many phases of a frame (one simulator ticker each). */
const PHASES = 16;
/** Each user's downstream: 30 packets/s x 238 B, 64 kbit/s with IP/UDP (as in the hostcpu and scale benches). */
const DOWN = { packetsPerSecond: 30, packetBytes: 238 };
/** Upstream packets/s by default: the sessions' own (66, a pointer leaves with its 60 Hz frame). */
const UP_PPS = 66;
/** Joiners let in at once per mirror (as the scale bench's drivers join in waves). */
const JOIN_WAVE = 16;
/** The claim's limits: one core per mirror, 64 kbit/s down per user. */
const CPU_LIMIT_MS = 1000;
const DOWN_LIMIT_KBPS = 64;

export interface MirrorsScaleOptions {
  readonly mirrors?: number;
  readonly usersPerMirror?: number;
  /** Simulated seconds measured, after the warm-up. */
  readonly seconds?: number;
  readonly warmupMs?: number;
  readonly seed?: number;
  /**
   * Packets/s a user sends its mirror (of 238 B; default 66, every frame's pointer). At 30, a pointer leaves with
   * every other frame: what a user receives at 30 packets/s holds no more than 30 updates/s of one pointer anyway.
   */
  readonly upPps?: number;
  /** Called as the measured window opens (true) and closes (false): a profiler can start and stop there. */
  readonly onWindow?: (open: boolean) => void;
  /** Progress lines (stderr in the bench). */
  readonly log?: (line: string) => void;
}

export interface MirrorsScaleFigures {
  readonly setup: Record<string, unknown>;
  /** The same calls' wall time, ms per simulated second (what hostcpu reports; waits for a core included). */
  readonly mirrorWallMsPerSecond: number[];
  /** The simulation's CPU time over its wall time in the measured window (1: it never waited for a core). */
  readonly processOnCpuShare: number;
  /** Users that joined and were in every host's roster before the pointers started. */
  readonly joined: number;
  readonly rostersComplete: boolean;
  /**
   * Per mirror: its process's work (host and mirror), CPU ms per simulated second (1,000 = one core): the wall time
   * of its calls, times the share of the window the simulation was on a core.
   */
  readonly mirrorCpuMsPerSecond: {
    readonly p50: number;
    readonly max: number;
    readonly each: number[];
  };
  /** Per user: bytes its mirror sent it on the wire (with IP/UDP), kbit/s. */
  readonly userDownKbps: {
    readonly p50: number;
    readonly p95: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly userUpKbps: { readonly p50: number; readonly max: number };
  /** Updates/s each user saw of each other pointer in its cluster (its view), and of pointers elsewhere in all. */
  readonly inViewPointerHz: { readonly mean: number; readonly p5: number };
  readonly outOfViewPointerHz: { readonly mean: number; readonly max: number };
  readonly edits: number;
  readonly chats: number;
  /** Wall time the whole simulation took per simulated second (mirrors, hosts and every user), ms. */
  readonly simMsPerSecond: number;
  readonly targets: {
    readonly mirrorCpu: { readonly limit: number; readonly value: number; readonly met: boolean };
    readonly userDownKbps: {
      readonly limit: number;
      readonly value: number;
      readonly met: boolean;
    };
  };
}

/** Every call into a mirror's process, timed on its clock. */
function timeMirror(m: ServedMirror): HostClock {
  const clock = hostClock();
  const ep: SimEndpoint = m.host.endpoint;
  ep.handleDatagram = timed(clock, ep.handleDatagram.bind(ep));
  ep.handleTimeout = timed(clock, ep.handleTimeout.bind(ep));
  ep.pollTransmit = timed(clock, ep.pollTransmit.bind(ep));
  ep.nextTimeout = timedOncePerTurn(clock, ep.nextTimeout.bind(ep));
  m.host.tick = timed(clock, m.host.tick.bind(m.host));
  m.host.afterIo = timed(clock, m.host.afterIo.bind(m.host));
  const mirror = m.mirror;
  mirror.handleDatagram = timed(clock, mirror.handleDatagram.bind(mirror));
  mirror.handleTimeout = timed(clock, mirror.handleTimeout.bind(mirror));
  mirror.pollTransmit = timed(clock, mirror.pollTransmit.bind(mirror));
  mirror.nextTimeout = timedOncePerTurn(clock, mirror.nextTimeout.bind(mirror));
  m.executor.pump = timed(clock, m.executor.pump.bind(m.executor));
  const relay = m.presence;
  if (relay !== undefined) relay.pump = timed(clock, relay.pump.bind(relay));
  return clock;
}

const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);

export function runMirrorsScale(opts: MirrorsScaleOptions = {}): MirrorsScaleFigures {
  const log = opts.log ?? ((): void => undefined);
  const mirrorsN = opts.mirrors ?? 4;
  const perMirror = opts.usersPerMirror ?? 250;
  const measureMs = (opts.seconds ?? 5) * 1000;
  const warmupMs = opts.warmupMs ?? 3000;
  const rate: SessionRate = {
    toHost: { packetsPerSecond: opts.upPps ?? UP_PPS, packetBytes: DOWN.packetBytes },
    toPeers: DOWN,
  };
  const config = {
    ...DEFAULT_MIRROR_HOSTS,
    seed: opts.seed ?? 1,
    mirrors: mirrorsN,
    joinersPerMirror: perMirror,
    link: { ...NO_IMPAIRMENT, delayMs: 30 },
    access: { ...NO_IMPAIRMENT, delayMs: 5 },
    relay: 'presence' as const,
    rate,
    maxPeers: perMirror + 8,
    idSpan: mirrorsN,
  };
  const served = serveMirrorHosts(config);
  const { sim, rng, mirrors } = served;
  sim.audit = false;
  const clocks = mirrors.map(timeMirror);
  const lay: Layout = layout(mirrorsN * perMirror);
  // User u is mirror floor(u / perMirror)'s joiner u % perMirror.
  const users = joinAll(served, config, mirrors, perMirror, log);
  const joined = users.filter((j) => j.peer.peerId !== undefined).length;
  const everyone = mirrorsN * (perMirror + 1);
  const rostersComplete = sim.runUntilTrue(
    () => mirrors.every((m) => m.host.participants.length === everyone),
    sim.now + 30_000,
  );
  log(
    `mirrors-scale: ${joined} joined, rosters ${rostersComplete ? 'complete' : 'short'} at ${sim.now} ms`,
  );
  const ids = userIds(mirrors, users);
  // What each user sees, counted as it comes; the kit's event logs are emptied as they go (memory stays flat).
  const inView = new Array<number>(users.length).fill(0);
  const outOfView = new Array<number>(users.length).fill(0);
  let counting = false;
  users.forEach((j, u) => {
    const mine = clusterOf(lay, u);
    j.peer.on((e) => {
      if (!counting || e.type !== 'pointer' || !e.moved) return;
      const from = ids.userOf(j.mirror, e.pointer.peer);
      if (from === undefined) return;
      if (clusterOf(lay, from) === mine) inView[u] = (inView[u] ?? 0) + 1;
      else outOfView[u] = (outOfView[u] ?? 0) + 1;
    });
    const v = viewOf(lay, u);
    j.peer.viewport(v.x, v.y, v.w, v.h);
  });
  sim.every(100, () => {
    for (const m of mirrors) {
      m.hostEvents.length = 0;
      for (const j of m.joiners) j.events.length = 0;
    }
  });
  const start = sim.now;
  for (let phase = 0; phase < PHASES; phase++)
    sim.every(
      1000 / POINTER_HZ,
      (now) => {
        const a = ((now - start) / 1000) * 2;
        for (let u = phase; u < users.length; u += PHASES) {
          const h = homeOf(lay, u);
          users[u]?.peer.pointer(
            Math.round(h.x + RADIUS * Math.cos(a + u)),
            Math.round(h.y + RADIUS * Math.sin(a + u)),
          );
        }
      },
      start + (phase * 1000) / POINTER_HZ / PHASES,
    );
  const trickle = new Trickle(rng, lay, users);
  sim.every(100, (now) => trickle.tick(now));
  sim.runUntil(start + warmupMs);
  const traffic = (): { down: number[]; up: number[] } => ids.traffic(sim.now, UDP_IPV4_OVERHEAD);
  const t0 = traffic();
  const e0 = trickle.counts();
  for (const c of clocks) c.ms = 0;
  counting = true;
  opts.onWindow?.(true);
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  sim.runUntil(start + warmupMs + measureMs);
  const wall = performance.now() - wall0;
  const used = process.cpuUsage(cpu0);
  opts.onWindow?.(false);
  counting = false;
  const t1 = traffic();
  const e1 = trickle.counts();
  const seconds = measureMs / 1000;
  const kbps = (a: readonly number[], b: readonly number[]): number[] =>
    sorted(b.map((x, i) => ((x - (a[i] ?? 0)) * 8) / 1000 / seconds));
  const down = kbps(t0.down, t1.down);
  const up = kbps(t0.up, t1.up);
  // On a machine shared with other work, a call's wall time includes waits for a core: the process's CPU time over
  // the window, shared out in proportion to the wall time each mirror's calls took, leaves those out.
  const onCpu = Math.min(1, (used.user + used.system) / 1000 / Math.max(1, wall));
  const wallMs = clocks.map((c) => round1(c.ms / seconds));
  const cpu = clocks.map((c) => round1((c.ms * onCpu) / seconds));
  const inViewHz = sorted(
    inView.map((n, u) => n / seconds / Math.max(1, clusterSizeOf(lay, u) - 1)),
  );
  const outHz = sorted(outOfView.map((n) => n / seconds));
  const mean = (xs: readonly number[]): number =>
    xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const cpuMax = Math.max(...cpu);
  const downMax = round1(down.at(-1) ?? 0);
  return {
    setup: {
      simulator: true,
      mirrors: mirrorsN,
      usersPerMirror: perMirror,
      users: users.length,
      clusterSize: clusterSizeOf(lay, 0),
      pointerHz: POINTER_HZ,
      rate,
      interMirrorOneWayMs: config.link.delayMs,
      userOneWayMs: config.access.delayMs,
      warmupMs,
      measureSeconds: seconds,
      seed: config.seed,
    },
    joined,
    rostersComplete,
    mirrorCpuMsPerSecond: { p50: round1(percentile(sorted(cpu), 50)), max: cpuMax, each: cpu },
    mirrorWallMsPerSecond: wallMs,
    processOnCpuShare: round1(onCpu * 100) / 100,
    userDownKbps: {
      p50: round1(percentile(down, 50)),
      p95: round1(percentile(down, 95)),
      p99: round1(percentile(down, 99)),
      max: downMax,
    },
    userUpKbps: { p50: round1(percentile(up, 50)), max: round1(up.at(-1) ?? 0) },
    inViewPointerHz: { mean: round1(mean(inViewHz)), p5: round1(percentile(inViewHz, 5)) },
    outOfViewPointerHz: { mean: round1(mean(outHz)), max: round1(outHz.at(-1) ?? 0) },
    edits: e1.edits - e0.edits,
    chats: e1.chats - e0.chats,
    simMsPerSecond: round1(wall / seconds),
    targets: {
      mirrorCpu: { limit: CPU_LIMIT_MS, value: cpuMax, met: cpuMax <= CPU_LIMIT_MS },
      userDownKbps: { limit: DOWN_LIMIT_KBPS, value: downMax, met: downMax <= DOWN_LIMIT_KBPS },
    },
  };
}

/** Every user joins its mirror, a wave at a time per mirror; returns them in user order. */
function joinAll(
  served: ReturnType<typeof serveMirrorHosts>,
  config: Parameters<typeof joinMirror>[1],
  mirrors: readonly ServedMirror[],
  perMirror: number,
  log: (line: string) => void,
): ReturnType<typeof joinMirror>[] {
  const { sim } = served;
  sim.runUntilTrue(
    () => mirrors.every((m) => m.mirror.node.links.linked().length === mirrors.length - 1),
    sim.now + 10_000,
  );
  for (let first = 0; first < perMirror; first += JOIN_WAVE) {
    const wave = mirrors.flatMap((m) =>
      Array.from({ length: Math.min(JOIN_WAVE, perMirror - first) }, (_, i) =>
        joinMirror(served, config, m, first + i),
      ),
    );
    sim.runUntilTrue(
      () => wave.every((j) => j.events.some((e) => e.type === 'ready')),
      sim.now + 20_000,
    );
    for (const m of mirrors) for (const j of m.joiners) j.events.length = 0;
    log(
      `mirrors-scale: ${Math.min(perMirror, first + JOIN_WAVE)} per mirror joined, at ${sim.now} ms`,
    );
  }
  return mirrors.flatMap((m) => m.joiners);
}

export async function run(): Promise<Record<string, unknown>> {
  await Promise.resolve();
  const figures = runMirrorsScale({
    mirrors: Number(process.env.GB_MIRRORS_SCALE_MIRRORS ?? 4),
    usersPerMirror: Number(process.env.GB_MIRRORS_SCALE_USERS ?? 250),
    seconds: Number(process.env.GB_MIRRORS_SCALE_SECONDS ?? 5),
    upPps: Number(process.env.GB_MIRRORS_SCALE_UP_PPS ?? UP_PPS),
    log: (line) => process.stderr.write(line + '\n'),
  });
  return { bench: 'mirrors-scale', ...figures };
}
