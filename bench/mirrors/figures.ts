// The mirrors bench's figures from one raw run: latency percentiles by pair of sites, what was seen of what was
// sent, rollbacks per 1,000 commands, the mirrors' repair stats (whatever this build's CRIMP reports), and each
// host's upstream. Pure; knows nothing of processes or the network.
import type { JsonEvent } from '../router/json-proc';
import type { RouterLateness } from '../router/sites';
import type { Histogram } from './histogram';
import { count, percentileOf } from './histogram';
import type { Mode, RawRun } from './run';

export interface Lat {
  readonly p50: number | null;
  readonly p95: number | null;
  readonly n: number;
}

/** Sites by index: 0 is a (the single host's site), 1 and 2 are b and c. */
const GROUPS = {
  /** Sender and receiver at one site, any site. */
  sameSite: (f: number, t: number) => f === t,
  sameSiteAtA: (f: number, t: number) => f === 0 && t === 0,
  /** Both at b or both at c: for the single host, users a site-to-site crossing away from it. */
  sameSiteAtBC: (f: number, t: number) => f === t && f !== 0,
  crossSite: (f: number, t: number) => f !== t,
  crossSiteWithA: (f: number, t: number) => f !== t && (f === 0 || t === 0),
  /** Between b and c: for the single host, both users away from it. */
  crossSiteBC: (f: number, t: number) => f !== t && f !== 0 && t !== 0,
} as const;
export type Group = keyof typeof GROUPS;
export type Kind = 'pointer' | 'edit' | 'chat';
const KINDS: readonly Kind[] = ['pointer', 'edit', 'chat'];

export interface RepairFigures {
  readonly mirror: number | null;
  readonly gaps: number | null;
  readonly repairsSent: number | null;
  readonly deliveredRepaired: number | null;
  /** CRIMP's own repair-latency summary when this build reports one (`crimp.repairLatencyMs`), else null. */
  readonly latencyMs: unknown;
  /** Its samples, when this build reports them (`crimp.repairLatenciesMs`): the mirrors' pooled give the p95. */
  readonly latenciesMs: readonly number[];
  readonly tssRollbacks: number | null;
  /** CRIMP's smoothed round trip to each other mirror at the end (the one it scales repair timers by), ms. */
  readonly rttsMs: readonly number[];
}

export interface RunFigures {
  readonly mode: Mode;
  readonly perSite: number;
  readonly users: number;
  readonly alive: number;
  readonly failedJoins: number;
  readonly ended: Record<string, number>;
  /** ms, send (the sender's call) to sight (the receiver's event), both on CLOCK_MONOTONIC. */
  readonly latencyMs: Record<Kind, Record<Group, Lat>>;
  /** Sightings over what was owed (each update sent in the window × the other users), %. */
  readonly seenPct: Record<Kind, number>;
  /** Pointer updates each user actually sent per second in the window (60 asked: less when the CPUs are short). */
  readonly pointerHzSent: number;
  /**
   * The CPUs could not run this run's workload: its users sent under 90 % of their 60 Hz pointers or their process
   * ran over 50 ms late (p99). Its latencies then measure the machine, not the network; treat them so.
   */
  readonly starved: boolean;
  readonly commands: Record<string, number>;
  readonly rollbacks: number;
  readonly rollbacksPer1000Commands: number;
  readonly rollbackEffects: number;
  readonly repair: readonly RepairFigures[];
  /** Per host node: what it sent into the network (IP datagrams through the router), kbit/s. */
  readonly upKbps: Record<string, number>;
  readonly upKbpsPerHostMean: number;
  readonly downKbpsPerHostMean: number;
  /** Per host node: its process's CPU over the window, ms per second (1,000 is a core). */
  readonly hostCpuMsPerSecond: Record<string, number>;
  readonly coreKbps: number;
  readonly usersLoopDelayMsWorst: { p50: number; p99: number };
  readonly load1: number;
  /**
   * How late the router released datagrams past their due time, per pass (ms): the lab's own delay. A user's
   * datagram passes it twice within a site (to the mirror, on to the other user) and three times between sites.
   */
  readonly routerLateMs: RouterLateness;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

function latency(hist: Map<string, Histogram>, kind: Kind, group: Group): Lat {
  const merged: Histogram = new Map();
  for (const [key, h] of hist) {
    const m = /^(\w+):(\d+)>(\d+)$/.exec(key);
    if (m?.[1] !== kind || !GROUPS[group](Number(m[2]), Number(m[3]))) continue;
    for (const [i, n] of h) merged.set(i, (merged.get(i) ?? 0) + n);
  }
  const n = count(merged);
  return n === 0
    ? { p50: null, p95: null, n }
    : { p50: percentileOf(merged, 50), p95: percentileOf(merged, 95), n };
}

function sightings(hist: Map<string, Histogram>, kind: Kind): number {
  let n = 0;
  for (const [key, h] of hist) if (key.startsWith(`${kind}:`)) n += count(h);
  return n;
}

/** A field path in a stats line, or null where this build has no such field. */
function field(e: JsonEvent, path: readonly string[]): unknown {
  let v: unknown = e;
  for (const k of path) {
    if (typeof v !== 'object' || v === null) return null;
    v = (v as Record<string, unknown>)[k];
  }
  return v ?? null;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const numbers = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];

/** The measured round trips in a CRIMP stats `members` list, this mirror's own entry left out. */
function rttsOf(members: unknown, self: number | null): number[] {
  if (!Array.isArray(members)) return [];
  return members.flatMap((m: unknown) => {
    const { id, rttMs } = (m ?? {}) as { id?: unknown; rttMs?: unknown };
    return id !== self && typeof rttMs === 'number' ? [rttMs] : [];
  });
}

export function repairFigures(s: JsonEvent): RepairFigures {
  return {
    mirror: num(s.self),
    gaps: num(field(s, ['node', 'crimp', 'gaps'])),
    repairsSent: num(field(s, ['node', 'crimp', 'repairsSent'])),
    deliveredRepaired: num(field(s, ['node', 'crimp', 'deliveredRepaired'])),
    latencyMs: field(s, ['node', 'crimp', 'repairLatencyMs']),
    latenciesMs: numbers(field(s, ['node', 'crimp', 'repairLatenciesMs'])),
    tssRollbacks: num(field(s, ['tss', 'rollbacks'])),
    rttsMs: rttsOf(field(s, ['node', 'crimp', 'members']), num(s.self)),
  };
}

/** Sent pointer rate under this share of 60 Hz, or the users' loop delay p99 over this many ms: starved. */
const STARVED_HZ = 54;
const STARVED_LOOP_MS = 50;

export function runFigures(r: RawRun): RunFigures {
  const f = figuresOf(r);
  return {
    ...f,
    starved: f.pointerHzSent < STARVED_HZ || f.usersLoopDelayMsWorst.p99 > STARVED_LOOP_MS,
  };
}

function figuresOf(r: RawRun): RunFigures {
  const latencyMs = Object.fromEntries(
    KINDS.map((k) => [
      k,
      Object.fromEntries(Object.keys(GROUPS).map((g) => [g, latency(r.hist, k, g as Group)])),
    ]),
  ) as Record<Kind, Record<Group, Lat>>;
  const others = Math.max(1, r.users - 1);
  const pct = (seen: number, owed: number): number => round1((100 * seen) / Math.max(1, owed));
  const issued =
    (r.commands.creates ?? 0) +
    (r.commands.grabs ?? 0) +
    (r.commands.drops ?? 0) +
    (r.commands.chats ?? 0);
  const kbps = (bytes: number): number => round1((bytes * 8) / 1000 / Math.max(1e-9, r.seconds));
  const up = Object.fromEntries(r.hostTraffic.map((h) => [h.node, kbps(h.upBytes)]));
  const mean = (xs: readonly number[]): number =>
    round1(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
  return {
    mode: r.mode,
    perSite: r.perSite,
    users: r.users,
    alive: r.alive,
    failedJoins: r.failedJoins,
    ended: r.ended.reduce<Record<string, number>>(
      (acc, e) => ({ ...acc, [e]: (acc[e] ?? 0) + 1 }),
      {},
    ),
    latencyMs,
    seenPct: {
      pointer: pct(sightings(r.hist, 'pointer'), (r.sent.pointers ?? 0) * others),
      edit: pct(sightings(r.hist, 'edit'), (r.sent.drops ?? 0) * others),
      chat: pct(sightings(r.hist, 'chat'), (r.sent.chats ?? 0) * others),
    },
    starved: false,
    pointerHzSent: round1(
      (r.sent.pointers ?? 0) / Math.max(1, r.users) / Math.max(1e-9, r.seconds),
    ),
    commands: { ...r.commands, boardCommands: issued },
    rollbacks: r.rollbacks,
    rollbacksPer1000Commands: round1((1000 * r.rollbacks) / Math.max(1, issued)),
    rollbackEffects: r.rollbackEffects,
    repair: r.mirrorStats.map(repairFigures),
    upKbps: up,
    upKbpsPerHostMean: mean(Object.values(up)),
    downKbpsPerHostMean: mean(r.hostTraffic.map((h) => kbps(h.downBytes))),
    hostCpuMsPerSecond: Object.fromEntries(r.hostCpuMsPerSecond.map((h) => [h.node, h.ms])),
    coreKbps: kbps(r.coreBytes),
    usersLoopDelayMsWorst: {
      p50: Math.max(...r.usersLoopDelayMs.map((l) => l.p50)),
      p99: Math.max(...r.usersLoopDelayMs.map((l) => l.p99)),
    },
    load1: r.load1,
    routerLateMs: r.routerLateMs,
  };
}
