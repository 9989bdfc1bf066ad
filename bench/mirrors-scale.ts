// The mirrored hosts' scale claim, in the simulator (issue 22): one session of 1,000 users over 4 mirror-backed
// hosts (30 ms one way between mirrors, 5 ms from each user to its mirror), every user's pointer circling its home
// at 60 Hz in a cluster of about 25 that its view holds (pointers scoped by view), a trickle of edits (one per user
// a minute) and chat (one line per user every two minutes), every user accepting 30 packets/s x 238 B (64 kbit/s
// with IP/UDP); at 250 peers a host sends and asks each for 20 (session/host-packet-rates.ts). As the hostcpu
// bench does, it times each mirror's own calls (its host's endpoint and session ticks, its mirror's datagrams,
// timers and pumps) per simulated second: the share of one core that mirror's process needs (its wall time, scaled
// by the share of the window the simulation had a core: the machine is shared).
// Users are real PeerSessions; no sockets or system calls. Deterministic workload (seeded); times are this machine's.
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { UDP_IPV4_OVERHEAD } from '../src-main/net/stats';
import type { SimEndpoint } from '../src-main/net/testing/harness';
import type {
  Joiner,
  MirrorHostsConfig,
  ServedMirror,
  ServedMirrors,
} from '../src-main/mirrored/testing/mirror-hosts';
import {
  DEFAULT_MIRROR_HOSTS,
  joinMirror,
  serveMirrorHosts,
} from '../src-main/mirrored/testing/mirror-hosts';
import type { SessionRate } from '../src-main/session/connection-stack';
import type { HostClock } from './host-clock';
import { hostClock, timed, timedOncePerTurn, timedPoll } from './host-clock';
import type { MirrorsScaleFigures } from './mirrors-scale/figures';
import { summarize } from './mirrors-scale/figures';
import type { Layout } from './mirrors-scale/layout';
import { clusterSizeOf, homeOf, layout, viewOf } from './mirrors-scale/layout';
import { PointerWatch } from './mirrors-scale/pointer-watch';
import { Trickle } from './mirrors-scale/trickle';
import { userIds } from './mirrors-scale/user-ids';

export type { MirrorsScaleFigures } from './mirrors-scale/figures';

/** Pointer frames a second by default: the mirrors bench's 60 Hz (the scale bench's bots move theirs at 30). */
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

export interface MirrorsScaleOptions {
  readonly mirrors?: number;
  readonly usersPerMirror?: number;
  /** Simulated seconds measured, after the warm-up. */
  readonly seconds?: number;
  readonly warmupMs?: number;
  readonly seed?: number;
  /** Pointer frames a second per user (default 60; the scale and hostcpu benches' bots use 30). */
  readonly pointerHz?: number;
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

/** Every call into a mirror's process, timed on its clock. */
function timeMirror(m: ServedMirror): HostClock {
  const clock = hostClock();
  const ep: SimEndpoint = m.host.endpoint;
  ep.handleDatagram = timed(clock, ep.handleDatagram.bind(ep));
  ep.handleTimeout = timed(clock, ep.handleTimeout.bind(ep));
  ep.pollTransmit = timedPoll(clock, ep.pollTransmit.bind(ep));
  ep.nextTimeout = timedOncePerTurn(clock, ep.nextTimeout.bind(ep));
  m.host.tick = timed(clock, m.host.tick.bind(m.host));
  m.host.afterIo = timed(clock, m.host.afterIo.bind(m.host));
  const mirror = m.mirror;
  mirror.handleDatagram = timed(clock, mirror.handleDatagram.bind(mirror));
  mirror.handleTimeout = timed(clock, mirror.handleTimeout.bind(mirror));
  mirror.pollTransmit = timedPoll(clock, mirror.pollTransmit.bind(mirror));
  mirror.nextTimeout = timedOncePerTurn(clock, mirror.nextTimeout.bind(mirror));
  m.executor.pump = timed(clock, m.executor.pump.bind(m.executor));
  const relay = m.presence;
  if (relay !== undefined) relay.pump = timed(clock, relay.pump.bind(relay));
  return clock;
}

/** The session's users' pointers, circling their homes `hz` times a second from `start`, in PHASES tickers. */
function drivePointers(
  sim: ServedMirrors['sim'],
  lay: Layout,
  users: readonly Joiner[],
  start: number,
  hz: number,
): void {
  for (let phase = 0; phase < PHASES; phase++)
    sim.every(
      1000 / hz,
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
      start + (phase * 1000) / hz / PHASES,
    );
}

function configOf(opts: MirrorsScaleOptions): MirrorHostsConfig & { rate: SessionRate } {
  const mirrors = opts.mirrors ?? 4;
  const perMirror = opts.usersPerMirror ?? 250;
  return {
    ...DEFAULT_MIRROR_HOSTS,
    seed: opts.seed ?? 1,
    mirrors,
    joinersPerMirror: perMirror,
    link: { ...NO_IMPAIRMENT, delayMs: 30 },
    access: { ...NO_IMPAIRMENT, delayMs: 5 },
    relay: 'presence',
    rate: {
      toHost: { packetsPerSecond: opts.upPps ?? UP_PPS, packetBytes: DOWN.packetBytes },
      toPeers: DOWN,
    },
    maxPeers: perMirror + 8,
  };
}

export function runMirrorsScale(opts: MirrorsScaleOptions = {}): MirrorsScaleFigures {
  const log = opts.log ?? ((): void => undefined);
  const measureMs = (opts.seconds ?? 5) * 1000;
  const warmupMs = opts.warmupMs ?? 3000;
  const config = configOf(opts);
  const served = serveMirrorHosts(config);
  const { sim, rng, mirrors } = served;
  sim.audit = false;
  const clocks = mirrors.map(timeMirror);
  // User u is mirror floor(u / joinersPerMirror)'s joiner u % joinersPerMirror.
  const users = joinAll(served, config, log);
  const lay: Layout = layout(users.length);
  const joined = users.filter((j) => j.peer.peerId !== undefined).length;
  const everyone = config.mirrors * (config.joinersPerMirror + 1);
  const rostersComplete = sim.runUntilTrue(
    () => mirrors.every((m) => m.host.participants.length === everyone),
    sim.now + 30_000,
  );
  log(`mirrors-scale: ${joined} joined, rosters complete: ${rostersComplete}, at ${sim.now} ms`);
  emptyLogs(served);
  const rosterDrainMs = untilUsersKnowEveryone(sim, users, everyone);
  log(
    `mirrors-scale: every user's roster complete after ${rosterDrainMs ?? 'more than the bound of'} ms`,
  );
  const ids = userIds(mirrors, users);
  const watch = new PointerWatch(lay, users, ids);
  users.forEach((j, u) => {
    const v = viewOf(lay, u);
    j.peer.viewport(v.x, v.y, v.w, v.h);
  });
  const start = sim.now;
  const pointerHz = opts.pointerHz ?? POINTER_HZ;
  drivePointers(sim, lay, users, start, pointerHz);
  const trickle = new Trickle(rng, lay, users);
  sim.every(100, (now) => trickle.tick(now));
  sim.runUntil(start + warmupMs);
  const t0 = ids.traffic(sim.now, UDP_IPV4_OVERHEAD);
  const e0 = trickle.counts();
  for (const c of clocks) c.ms = 0;
  watch.start();
  opts.onWindow?.(true);
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  // A second at a time, so the figures show whether a window's time was even or came in bursts.
  const eachSecond: { mirrorMs: number[]; wallMs: number }[] = [];
  for (let t = 0; t < measureMs; t += 1000) {
    const before = clocks.map((c) => c.ms);
    const wallBefore = performance.now();
    sim.runUntil(start + warmupMs + Math.min(measureMs, t + 1000));
    eachSecond.push({
      mirrorMs: clocks.map((c, i) => c.ms - (before[i] ?? 0)),
      wallMs: performance.now() - wallBefore,
    });
  }
  const wallMs = performance.now() - wall0;
  const used = process.cpuUsage(cpu0);
  opts.onWindow?.(false);
  watch.counting = false;
  const t1 = ids.traffic(sim.now, UDP_IPV4_OVERHEAD);
  const e1 = trickle.counts();
  const minus = (b: readonly number[], a: readonly number[]): number[] =>
    b.map((x, i) => x - (a[i] ?? 0));
  return summarize(
    setupOf(config, lay, pointerHz, warmupMs, measureMs),
    joined,
    rostersComplete,
    rosterDrainMs,
    {
      seconds: measureMs / 1000,
      mirrorMs: clocks.map((c) => c.ms),
      eachSecond,
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      down: minus(t1.down, t0.down),
      up: minus(t1.up, t0.up),
      downPackets: minus(t1.downPackets, t0.downPackets),
      upPackets: minus(t1.upPackets, t0.upPackets),
      inView: watch.inView,
      othersInView: users.map((_, u) => clusterSizeOf(lay, u) - 1),
      outOfView: watch.outOfView,
      edits: e1.edits - e0.edits,
      chats: e1.chats - e0.chats,
    },
  );
}

function setupOf(
  config: ReturnType<typeof configOf>,
  lay: Layout,
  pointerHz: number,
  warmupMs: number,
  measureMs: number,
): Record<string, unknown> {
  return {
    simulator: true,
    mirrors: config.mirrors,
    usersPerMirror: config.joinersPerMirror,
    users: lay.users,
    clusterSize: clusterSizeOf(lay, 0),
    pointerHz,
    rate: config.rate,
    interMirrorOneWayMs: config.link.delayMs,
    userOneWayMs: config.access.delayMs,
    warmupMs,
    measureSeconds: measureMs / 1000,
    seed: config.seed,
  };
}

/** How long a user's roster may take to fill after the hosts' are complete (simulated ms). */
const ROSTER_DRAIN_BOUND_MS = 120_000;
const ROSTER_CHECK_MS = 250;

/**
 * Runs until every user's roster holds everyone (each has had a `peerJoined` for each of the session's
 * participants); returns how long that took, or undefined past the bound. At 1,000 users each of a mirror's
 * connections owes 999 of them, several seconds at 30 packets/s: a window opened before they drain measures the
 * joins, not the session they make.
 */
function untilUsersKnowEveryone(
  sim: ServedMirrors['sim'],
  users: readonly Joiner[],
  everyone: number,
): number | undefined {
  const from = sim.now;
  const done = (): boolean => users.every((j) => j.peer.participants.length >= everyone);
  while (!done()) {
    if (sim.now - from >= ROSTER_DRAIN_BOUND_MS) return undefined;
    sim.runUntil(sim.now + ROSTER_CHECK_MS);
  }
  return sim.now - from;
}

/** The kit's event logs, emptied every 100 ms: the bench counts as events come, and memory stays flat. */
function emptyLogs({ sim, mirrors }: ServedMirrors): void {
  sim.every(100, () => {
    for (const m of mirrors) {
      m.hostEvents.length = 0;
      for (const j of m.joiners) j.events.length = 0;
    }
  });
}

/** Every user joins its mirror, a wave at a time per mirror; returns them in user order. */
function joinAll(
  served: ServedMirrors,
  config: MirrorHostsConfig,
  log: (line: string) => void,
): Joiner[] {
  const { sim, mirrors } = served;
  const perMirror = config.joinersPerMirror;
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
    pointerHz: Number(process.env.GB_MIRRORS_SCALE_POINTER_HZ ?? POINTER_HZ),
    log: (line) => process.stderr.write(line + '\n'),
  });
  return { bench: 'mirrors-scale', ...figures };
}
