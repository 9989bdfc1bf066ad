// Mirrors benchmark (issue 22): three sites 60 ms apart through the userspace router, each site's users 5 ms from
// it, one process of bots per site running the compare workload (pointers at 60 Hz, drags, chat). Side by side in
// one run: a single host at site a that everyone joins, and a mirror per site (`--mirrors` at a, `--mirror-of` at b
// and c) that each site's users join. Latency between users of one site and of different sites, rollbacks per
// 1,000 commands, the mirrors' repair stats, and each host's upstream as users grow from 12 to 96. Writes
// bench/results/mirrors.md and plots. Then failover: a site's host killed, its users timed to another host (three
// rounds); and a stall: a host stopped until its users failed over, then run again, their move back timed. The
// 1,000-user scale claim is the simulator's (`mirrors-scale`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { Sites, mirrorSites } from './router/sites';
import type { RunFigures } from './mirrors/figures';
import { runFigures } from './mirrors/figures';
import type { Mode } from './mirrors/run';
import { runOne } from './mirrors/run';
import {
  ACCESS_MS,
  CORE_MS,
  growthLatencyTable,
  latencyTable,
  mirrorCharts,
  mirrorTargets,
  repairTable,
  runsTable,
} from './mirrors/report';
import { renderCharts } from './plot';
import type { FailoverRound } from './mirrors/failover';
import { failoverRound } from './mirrors/failover';

const here = dirname(fileURLToPath(import.meta.url));
/** Issue 22: a killed host's users are on another within 3 s. */
const FAILOVER_LIMIT_MS = 3000;

/** Every round's users' failover times, their p50 and max (null: someone never moved), and whether all converged. */
function failoverFigures(rounds: readonly FailoverRound[]): {
  rounds: readonly FailoverRound[];
  users: number;
  moved: number;
  p50Ms: number | null;
  maxMs: number | null;
  converged: boolean;
  /** Users that joined another site's host than their own, over every round (each round starts afresh). */
  joinedAway: number;
  /** Of all users, those that moved to a nearer host once joined, and those still away when a host was killed. */
  movedNearer: number;
  awayAtKill: number;
} {
  const all = rounds.flatMap((r) => r.ms);
  const ms = all.flatMap((m) => (m === null ? [] : [m])).sort((a, b) => a - b);
  const stuck = ms.length < all.length;
  return {
    rounds,
    users: all.length,
    moved: ms.length,
    p50Ms: ms.length === 0 ? null : (ms[Math.floor((ms.length - 1) / 2)] ?? null),
    maxMs: stuck || ms.length === 0 ? null : (ms.at(-1) ?? null),
    converged: rounds.every((r) => r.converged),
    joinedAway: rounds.reduce((n, r) => n + r.joinedAway.length, 0),
    movedNearer: rounds.reduce((n, r) => n + r.movedNearer.length, 0),
    awayAtKill: rounds.reduce((n, r) => n + r.awayAtKill, 0),
  };
}
/**
 * The stall round: how long its users took to fail over (from the stop to `ready` elsewhere) and to come back once
 * their host ran again (to `ready` there), p50 and max (null: someone did not), and whether every board converged.
 */
function stallFigures(r: FailoverRound): {
  round: FailoverRound;
  users: number;
  failoverMaxMs: number | null;
  backP50Ms: number | null;
  backMaxMs: number | null;
  converged: boolean;
} {
  const back = r.backMs ?? [];
  const sorted = back.flatMap((m) => (m === null ? [] : [m])).sort((a, b) => a - b);
  const all = (xs: readonly (number | null)[]): boolean =>
    xs.length > 0 && xs.every((m) => m !== null);
  return {
    round: r,
    users: r.ms.length,
    failoverMaxMs: all(r.ms) ? Math.max(...r.ms.map(Number)) : null,
    backP50Ms: sorted.length === 0 ? null : (sorted[Math.floor((sorted.length - 1) / 2)] ?? null),
    backMaxMs: all(back) ? (sorted.at(-1) ?? null) : null,
    converged: r.converged,
  };
}
const LATENCY_PER_SITE = 4;
const WARMUP_MS = 3000;
const SETTLE_MS = 3000;

const load1 = (): number => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
const envNumber = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return process.env[name] === undefined || !Number.isFinite(v) ? fallback : v;
};

/** GB_MIRRORS_RATE: every host's `--rate` and every user's join rate (e.g. `lan`); unset: the default. */
const RATE = process.env.GB_MIRRORS_RATE || undefined;
let nextPort = 7400;

async function measure(
  sites: Sites,
  mode: Mode,
  perSite: number,
  windowMs: number,
): Promise<RunFigures> {
  const t0 = performance.now();
  nextPort += 10; // every run its own ports: a late datagram of the last run meets nothing
  const raw = await runOne(sites, {
    mode,
    perSite,
    port: nextPort,
    warmupMs: WARMUP_MS,
    windowMs,
    settleMs: SETTLE_MS,
    ...(RATE === undefined ? {} : { rate: RATE }),
  });
  const f = runFigures(raw);
  process.stderr.write(
    `mirrors ${mode} ${perSite * 3} users (${Math.round((performance.now() - t0) / 1000)} s): ` +
      `pointer same/cross p50 ${f.latencyMs.pointer.sameSite.p50}/${f.latencyMs.pointer.crossSite.p50} ms, ` +
      `edit ${f.latencyMs.edit.sameSite.p50}/${f.latencyMs.edit.crossSite.p50} ms, ` +
      `up ${JSON.stringify(f.upKbps)} kbit/s, CPU ${JSON.stringify(f.hostCpuMsPerSecond)} ms/s, ` +
      `rollbacks ${f.rollbacks}, load ${f.load1}, router late p50/p95 ${f.routerLateMs.p50}/${f.routerLateMs.p95} ms\n`,
  );
  return f;
}

async function onSites<T>(
  coreLoss: number,
  seconds: number,
  f: (s: Sites) => Promise<T>,
): Promise<T> {
  const { nodes, core } = mirrorSites({ accessMs: ACCESS_MS, coreMs: CORE_MS, perSite: ['users'] });
  const sites = await Sites.open({
    nodes,
    core: { ...NO_IMPAIRMENT, ...core, loss: coreLoss },
    seed: 22,
    maxSeconds: seconds,
    realtime: process.env.GB_ROUTER_REALTIME !== '0',
  });
  process.stderr.write(`mirrors: the router runs at ${sites.routerPriority} priority\n`);
  try {
    return await f(sites);
  } finally {
    await sites.close();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const startedAt = new Date().toISOString();
  const loadAtStart = load1();
  const t0 = performance.now();
  const latencyWindowMs = envNumber('GB_MIRRORS_SECONDS', 20) * 1000;
  const growthWindowMs = envNumber('GB_MIRRORS_GROWTH_SECONDS', 10) * 1000;
  const growthPerSite = (process.env.GB_MIRRORS_PER_SITE ?? '8,16,32').split(',').map(Number);
  // Loss on the core for the repair run, and how long it measures: at 2 % for 20 s the three mirrors had 11 gaps
  // between them, too few for a p95 (it was the largest); 5 % for 60 s gives them about a hundred.
  const repairLoss = envNumber('GB_MIRRORS_REPAIR_LOSS', 0.05);
  const repairWindowMs = envNumber('GB_MIRRORS_REPAIR_SECONDS', 60) * 1000;

  const { single, mirrors, growth } = await onSites(0, 900, async (sites) => {
    const s = await measure(sites, 'single', LATENCY_PER_SITE, latencyWindowMs);
    const m = await measure(sites, 'mirrors', LATENCY_PER_SITE, latencyWindowMs);
    const g: RunFigures[] = [s, m];
    for (const n of growthPerSite.filter((x) => x > 0 && x !== LATENCY_PER_SITE)) {
      g.push(await measure(sites, 'single', n, growthWindowMs));
      g.push(await measure(sites, 'mirrors', n, growthWindowMs));
    }
    return { single: s, mirrors: m, growth: g };
  });
  // The same mirrors with loss on the core, so CRIMP has something to repair (at 0 % it has nothing).
  const lossy =
    repairLoss > 0
      ? await onSites(repairLoss, 300, (sites) =>
          measure(sites, 'mirrors', LATENCY_PER_SITE, repairWindowMs),
        )
      : undefined;
  // Failover: a mirror per site, 4 `ghostboard join` users a site; each round kills another site's host.
  // Then a stall: c's host stopped until its users failed over, then run again; they should come back to it.
  const { failoverRounds, stallRound } = await onSites(0, 600, async (sites) => {
    const rounds: FailoverRound[] = [];
    for (const victim of ['b', 'c', 'a']) {
      nextPort += 10;
      rounds.push(await failoverRound(sites, nextPort, victim));
      process.stderr.write(
        `mirrors failover, ${victim} killed: ${JSON.stringify(rounds.at(-1))}\n`,
      );
    }
    nextPort += 10;
    const stalled = await failoverRound(sites, nextPort, 'c', 'stall');
    process.stderr.write(`mirrors stall, c stopped: ${JSON.stringify(stalled)}\n`);
    return { failoverRounds: rounds, stallRound: stalled };
  });
  const failover = failoverFigures(failoverRounds);
  const stall = stallFigures(stallRound);
  const loadAtEnd = load1();

  const repairRuns = [
    { label: 'no loss', run: mirrors },
    ...(lossy ? [{ label: `${repairLoss * 100} % core loss`, run: lossy }] : []),
  ];
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(
    join(here, 'results', 'mirrors.md'),
    `Run ${startedAt}, load1 ${loadAtStart} at the start and ${loadAtEnd} at the end.\n\n` +
      `Latency p50 / p95, ms, ${LATENCY_PER_SITE} users per site:\n\n${latencyTable(single, mirrors)}\n` +
      `Latency p50 / p95, ms, as users grow:\n\n${growthLatencyTable(growth)}\n` +
      `Runs:\n\n${runsTable(growth)}\n` +
      (lossy
        ? `With ${repairLoss * 100} % loss on the core:\n\n${latencyTable(undefined, lossy)}\n${runsTable([lossy])}\n`
        : '') +
      `Repairs:\n\n${repairTable(repairRuns)}\n` +
      `Failover (ms from SIGKILL to ready at another host): ${JSON.stringify(failover)}\n\n` +
      `Stall (c's host stopped until its users failed over; ms from its run again to their ready back there): ` +
      `${JSON.stringify(stall)}\n`,
  );
  const plots = await renderCharts(join(here, 'plots'), mirrorCharts(single, mirrors, growth));
  return {
    setup: {
      sites: 3,
      coreOneWayMs: CORE_MS,
      accessOneWayMs: ACCESS_MS,
      latencyUsersPerSite: LATENCY_PER_SITE,
      growthUsersPerSite: [LATENCY_PER_SITE, ...growthPerSite],
      windowSeconds: {
        latency: latencyWindowMs / 1000,
        growth: growthWindowMs / 1000,
        repair: repairWindowMs / 1000,
      },
      repairCoreLoss: repairLoss,
      rate: RATE ?? 'default (broadband: 66 packets/s to the host, 85 to each peer)',
      clock: 'CLOCK_MONOTONIC (process.hrtime) in every process: one clock on one machine',
    },
    startedAt,
    load1: { start: loadAtStart, end: loadAtEnd },
    durationSeconds: Math.round((performance.now() - t0) / 1000),
    latency: { single, mirrors },
    growth,
    lossyCore: lossy ?? null,
    plots,
    targets: {
      ...mirrorTargets(mirrors, single, lossy),
      failoverMaxMs: {
        limit: FAILOVER_LIMIT_MS,
        value: failover.maxMs,
        met: failover.maxMs !== null && failover.maxMs <= FAILOVER_LIMIT_MS && failover.converged,
      },
    },
    failover,
    stall,
    // The 1,000-user claim is simulated: `npm run bench -- mirrors-scale` (BENCHMARKS.md).
    scale: 'npm run bench -- mirrors-scale (simulated; not run here)',
  };
}
