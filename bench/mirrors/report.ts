// The mirrors bench's tables (markdown), charts and targets from its runs' figures. Pure; knows nothing of how
// the figures were measured.
import type { BarChart } from '../plot';
import type { Group, Kind, Lat, RunFigures } from './figures';

/** One way between sites, and from a user to its site's mirror, ms (the bench's topology). */
export const CORE_MS = 60;
export const ACCESS_MS = 5;

const cell = (l: Lat): string => (l.p50 === null ? '–' : `${l.p50} / ${l.p95}`);
const p50 = (r: RunFigures | undefined, k: Kind, g: Group): number | null =>
  r?.latencyMs[k][g].p50 ?? null;

export interface Target {
  readonly limit: number;
  readonly value: number | null;
  readonly met: boolean;
  /** The single host's figure in the same run: every user, and the users a site-to-site crossing from it. */
  readonly singleHost: { readonly all: number | null; readonly awayFromHost: number | null };
}

/** Every mirror's repairs pooled (CRIMP's samples): how many, and their p95 (ms, nearest rank; null: none). */
export function pooledRepairs(run: RunFigures | undefined): { n: number; p95: number | null } {
  const all = (run?.repair ?? []).flatMap((m) => m.latenciesMs).sort((a, b) => a - b);
  const rank = Math.ceil(0.95 * all.length);
  return { n: all.length, p95: all.length === 0 ? null : (all[rank - 1] ?? null) };
}

export function mirrorTargets(
  mirrors: RunFigures | undefined,
  single: RunFigures | undefined,
  lossy?: RunFigures,
): Record<string, Target | RepairTarget> {
  const t = (k: Kind, same: boolean, limit: number): Target => {
    const value = p50(mirrors, k, same ? 'sameSite' : 'crossSite');
    return {
      limit,
      value,
      met: value !== null && value <= limit,
      singleHost: {
        all: p50(single, k, same ? 'sameSite' : 'crossSite'),
        awayFromHost: p50(single, k, same ? 'sameSiteAtBC' : 'crossSiteBC'),
      },
    };
  };
  return {
    sameSitePointerP50: t('pointer', true, 15),
    sameSiteEditP50: t('edit', true, 15),
    crossSitePointerP50: t('pointer', false, CORE_MS + 15),
    crossSiteEditP50: t('edit', false, CORE_MS + 15),
    // Issue 22: one inter-mirror round trip + 10 ms, over every mirror's repairs on the lossy core (no loss: no
    // repairs). The round trip is the mirrors' own estimate (as the crimp bench's), which holds what the stack and
    // this machine's router add to the links' 2 x 60 ms; the nominal limit is reported beside it.
    repairP95: (() => {
      const { n, p95: value } = pooledRepairs(lossy);
      const rtt = meanRtt(lossy);
      const limit = Math.round(((rtt ?? 2 * CORE_MS) + REPAIR_SLACK_MS) * 10) / 10;
      return {
        limit,
        value,
        met: value !== null && value <= limit,
        samples: n,
        measuredRttMs: rtt,
        nominalLimit: 2 * CORE_MS + REPAIR_SLACK_MS,
        ...(value === null ? { note: 'no repair was measured' } : {}),
      };
    })(),
  };
}

export interface RepairTarget {
  /** The mirrors' mean measured round trip + 10 ms (the nominal 2 x 60 + 10 when none was reported). */
  readonly limit: number;
  readonly value: number | null;
  readonly met: boolean;
  /** Repairs pooled over the mirrors (a p95 of fewer than 20 is the largest of them). */
  readonly samples: number;
  readonly measuredRttMs: number | null;
  readonly nominalLimit: number;
  readonly note?: string;
}

/** Issue 22's repair goal: p95 within one inter-mirror round trip plus this, ms. */
const REPAIR_SLACK_MS = 10;

/** The mean of every mirror's measured round trip to the others at the end of the run, ms (null: none). */
function meanRtt(run: RunFigures | undefined): number | null {
  const rtts = (run?.repair ?? []).flatMap((m) => m.rttsMs);
  return rtts.length === 0
    ? null
    : Math.round((rtts.reduce((a, b) => a + b, 0) / rtts.length) * 10) / 10;
}

const ROWS: readonly [Group, string][] = [
  ['sameSite', 'same site, every site'],
  ['sameSiteAtA', 'same site, both at a'],
  ['sameSiteAtBC', 'same site, both at b or both at c'],
  ['crossSite', 'different sites, every pair'],
  ['crossSiteWithA', 'different sites, one at a'],
  ['crossSiteBC', 'different sites, b and c'],
];

/** Latency p50 / p95 (ms) by who sees whom, single host beside the mirrors. */
export function latencyTable(
  single: RunFigures | undefined,
  mirrors: RunFigures | undefined,
): string {
  const lines = [
    '| sender → receiver | pointer, single host | pointer, mirrors | edit (drop), single host | edit (drop), mirrors | chat, single host | chat, mirrors |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  const c = (r: RunFigures | undefined, k: Kind, g: Group): string =>
    r === undefined ? '–' : cell(r.latencyMs[k][g]);
  for (const [g, label] of ROWS)
    lines.push(
      `| ${label} | ${c(single, 'pointer', g)} | ${c(mirrors, 'pointer', g)} | ${c(single, 'edit', g)} | ` +
        `${c(mirrors, 'edit', g)} | ${c(single, 'chat', g)} | ${c(mirrors, 'chat', g)} |`,
    );
  return lines.join('\n') + '\n';
}

/** Latency p50 / p95 (ms) as users grow, every run. */
export function growthLatencyTable(runs: readonly RunFigures[]): string {
  const lines = [
    '| users | hosts | pointer same site | pointer other site | edit same site | edit other site | chat same site | chat other site |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of runs) {
    const c = (k: Kind, g: Group): string => cell(r.latencyMs[k][g]);
    lines.push(
      `| ${r.users}${r.starved ? ' ⚠' : ''} | ${r.mode} | ${c('pointer', 'sameSite')} | ${c('pointer', 'crossSite')} | ` +
        `${c('edit', 'sameSite')} | ${c('edit', 'crossSite')} | ${c('chat', 'sameSite')} | ${c('chat', 'crossSite')} |`,
    );
  }
  return lines.join('\n') + '\n';
}

/** A figure per host node, as "a 12.3, b 45.6". */
function byHost(o: Record<string, number>): string {
  return Object.entries(o)
    .map(([n, v]) => `${n.replace('-mirror', '')} ${v}`)
    .join(', ');
}

/** Per run: who joined, what was seen, rollbacks, each host's upstream, the core's traffic, the load. */
export function runsTable(runs: readonly RunFigures[]): string {
  const lines = [
    '| users | hosts | joined / alive | pointer Hz sent per user | seen % pointer · edit · chat | board commands | rollbacks (per 1,000) | upstream kbit/s per host | mean per host | core kbit/s | host CPU ms/s | users’ loop delay p99 ms | load1 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of runs) {
    const ups = byHost(r.upKbps);
    lines.push(
      `| ${r.users}${r.starved ? ' ⚠ starved' : ''} | ${r.mode === 'single' ? 'single host at a' : 'a mirror per site'} | ${r.users - r.failedJoins} / ${r.alive} | ${r.pointerHzSent} | ` +
        `${r.seenPct.pointer} · ${r.seenPct.edit} · ${r.seenPct.chat} | ${r.commands.boardCommands ?? 0} | ` +
        `${r.mode === 'single' ? '–' : `${r.rollbacks} (${r.rollbacksPer1000Commands})`} | ${ups} | ${r.upKbpsPerHostMean} | ` +
        `${r.coreKbps} | ${byHost(r.hostCpuMsPerSecond)} | ${r.usersLoopDelayMsWorst.p99} | ${r.load1} |`,
    );
  }
  if (runs.some((r) => r.starved))
    lines.push(
      '',
      '⚠ starved: the CPUs could not run the workload (users sent under 54 of their 60 pointers a second, or ' +
        'their process ran over 50 ms late): its latencies measure the machine, not the network.',
    );
  return lines.join('\n') + '\n';
}

/** CRIMP's repair-latency summary as n · p50 / p95 / max ms (to 0.1 ms), or "none". */
function summaryCell(l: unknown): string {
  const { n, p50, p95, max } = (l ?? {}) as Record<string, unknown>;
  const ms = (v: unknown): string =>
    typeof v === 'number' ? String(Math.round(v * 10) / 10) : '?';
  return typeof n === 'number' ? `${n} · ${ms(p50)} / ${ms(p95)} / ${ms(max)}` : 'none';
}

/** The mirrors' CRIMP repair figures, one row per mirror per run. */
export function repairTable(runs: readonly { label: string; run: RunFigures }[]): string {
  const lines = [
    '| run | mirror | gaps | repairs sent | delivered by repair | repairs · p50 / p95 / max ms (CRIMP’s) | RTT to the others, ms | TSS rollbacks |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const pooled: string[] = [];
  for (const { label, run } of runs) {
    for (const m of run.repair)
      lines.push(
        `| ${label} | ${m.mirror ?? '–'} | ${m.gaps ?? '–'} | ${m.repairsSent ?? '–'} | ${m.deliveredRepaired ?? '–'} | ` +
          `${summaryCell(m.latencyMs)} | ` +
          `${m.rttsMs.length === 0 ? '–' : m.rttsMs.map((r) => Math.round(r * 10) / 10).join(', ')} | ${m.tssRollbacks ?? '–'} |`,
      );
    const { n, p95 } = pooledRepairs(run);
    if (n > 0) pooled.push(`${label}: ${n} repairs over the mirrors, p95 ${p95} ms`);
  }
  return lines.join('\n') + '\n' + (pooled.length === 0 ? '' : `\n${pooled.join('; ')}.\n`);
}

export function mirrorCharts(
  single: RunFigures | undefined,
  mirrors: RunFigures | undefined,
  growth: readonly RunFigures[],
): BarChart[] {
  const pairs: [Kind, Group, string][] = [
    ['pointer', 'sameSite', 'pointer, same site'],
    ['pointer', 'crossSite', 'pointer, other site'],
    ['edit', 'sameSite', 'edit, same site'],
    ['edit', 'crossSite', 'edit, other site'],
  ];
  const sameGroup = (g: Group): Group => (g === 'sameSite' ? 'sameSiteAtBC' : 'crossSiteBC');
  const sizes = [...new Set(growth.map((r) => r.users))].sort((a, b) => a - b);
  const at = (mode: 'single' | 'mirrors', n: number): RunFigures | undefined =>
    growth.find((r) => r.mode === mode && r.users === n);
  return [
    {
      file: 'mirrors-latency',
      title: `p50 latency, ms (3 sites ${CORE_MS} ms apart, users ${ACCESS_MS} ms from their site)`,
      yLabel: 'ms',
      groups: pairs.map((p) => p[2]),
      series: [
        { name: 'mirrors', values: pairs.map(([k, g]) => p50(mirrors, k, g)) },
        { name: 'single host, all', values: pairs.map(([k, g]) => p50(single, k, g)) },
        {
          name: 'single host, b·c users',
          values: pairs.map(([k, g]) => p50(single, k, sameGroup(g))),
        },
      ],
      refs: [
        { value: 15, label: 'same-site goal' },
        { value: CORE_MS + 15, label: 'cross-site goal' },
      ],
    },
    {
      file: 'mirrors-kbps',
      title: 'Upstream kbit/s of each host as users grow',
      yLabel: 'kbit/s',
      groups: sizes.map((n) => `${n} users`),
      series: [
        {
          name: 'single host',
          values: sizes.map((n) => at('single', n)?.upKbpsPerHostMean ?? null),
        },
        {
          name: 'each mirror (mean of 3)',
          values: sizes.map((n) => at('mirrors', n)?.upKbpsPerHostMean ?? null),
        },
      ],
    },
  ];
}
