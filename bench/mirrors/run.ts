// One run of the mirrors bench on an open sites network: a single host at site a that every user joins, or one
// mirror per site (`--mirrors` at a, `--mirror-of` at b and c) that each site's users join; then the workload in
// every site's users process, the router's counters over the window, the hosts' rollback events and mirror stats.
// Knows nothing of reports or targets.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineClockMs } from '../../src-main/cli/script';
import { generateJoinCode } from '../../src-main/net/join-code';
import { cpuSeconds } from '../proc-usage';
import type { JsonEvent, JsonProc } from '../router/json-proc';
import { routerLateness } from '../router/sites';
import type { RouterLateness, Sites, SitesStats } from '../router/sites';
import type { Histogram } from './histogram';
import { mergeJson } from './histogram';
import type { UsersConfig } from './users';

const here = dirname(fileURLToPath(import.meta.url));
const GHOSTBOARD = join(here, '..', '..', 'bin', 'ghostboard.js');
const USERS = join(here, 'users.ts');
export const SITES = ['a', 'b', 'c'] as const;
const START_MS = 30_000;
const JOIN_MS = 180_000;

export type Mode = 'single' | 'mirrors';

export interface RunOptions {
  readonly mode: Mode;
  readonly perSite: number;
  /** The session's port on every host (mirror links on the next one); distinct per run. */
  readonly port: number;
  readonly warmupMs: number;
  readonly windowMs: number;
  readonly settleMs: number;
  /** `--rate` of the hosts and the users' join rate (a preset or packets/s); undefined: the sessions' default. */
  readonly rate?: string;
}

export interface RawRun {
  readonly mode: Mode;
  readonly perSite: number;
  readonly hist: Map<string, Histogram>;
  /** Pointers, drops and chats sent inside the window, summed over the users. */
  readonly sent: Record<string, number>;
  /** Board commands issued over the whole run (creates, grabs, drops, chats) and drag steps (presence). */
  readonly commands: Record<string, number>;
  readonly users: number;
  readonly alive: number;
  readonly ended: string[];
  readonly failedJoins: number;
  readonly usersLoopDelayMs: { p50: number; p99: number }[];
  /** The hosts' `rollback` events over the whole run, and the effects they undid. */
  readonly rollbacks: number;
  readonly rollbackEffects: number;
  /** Per host node: bytes its node sent into the network (router "up") and received, over `seconds`. */
  readonly hostTraffic: { node: string; upBytes: number; downBytes: number }[];
  readonly coreBytes: number;
  readonly seconds: number;
  /** Per host node: its process's CPU time over the window (every thread), ms per second. */
  readonly hostCpuMsPerSecond: { node: string; ms: number }[];
  /** Each mirror's `mirror-stats` line at the end, whole (none for the single host). */
  readonly mirrorStats: JsonEvent[];
  readonly load1: number;
  /** How late the router itself released datagrams over the window (each pass: a datagram crosses it once). */
  readonly routerLateMs: RouterLateness;
}

const load1 = (): number => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

function hostArgs(sites: Sites, node: string, o: RunOptions, more: readonly string[]): string[] {
  return [
    ...[GHOSTBOARD, 'host', '--port', String(o.port), '--bind', sites.node(node).addr],
    ...['--name', node, '--script', '--quiet-pointers'],
    // A site's users all come from its users node: lift the per-address cap (a quarter of the session).
    ...['--max-per-address', '250', ...(o.rate === undefined ? [] : ['--rate', o.rate]), ...more],
  ];
}

/** Starts the hosts: one at a, or a mirror at every site (b and c from a's mirror link, one after another). */
async function startHosts(sites: Sites, o: RunOptions, code: string): Promise<JsonProc[]> {
  const hosts: JsonProc[] = [];
  const mirrors = o.mode === 'mirrors' ? ['--mirrors'] : [];
  const a = sites.run(
    'a-mirror',
    'host a',
    hostArgs(sites, 'a-mirror', o, ['--code', code, ...mirrors]),
  );
  hosts.push(a);
  const ready = await a.waitFor((e) => e.ev === 'ready', START_MS);
  if (o.mode === 'single') return hosts;
  const link = String(ready.mirrorLink);
  for (const s of SITES.slice(1)) {
    const node = `${s}-mirror`;
    const m = sites.run(node, `host ${s}`, hostArgs(sites, node, o, ['--mirror-of', link]));
    hosts.push(m);
    await m.waitFor((e) => e.ev === 'ready', START_MS);
  }
  return hosts;
}

function hostNodes(mode: Mode): string[] {
  return mode === 'single' ? ['a-mirror'] : SITES.map((s) => `${s}-mirror`);
}

/** Bytes each host node sent and received between two snapshots, and what crossed the core. */
function traffic(
  sites: Sites,
  mode: Mode,
  open: SitesStats,
  close: SitesStats,
): Pick<RawRun, 'hostTraffic' | 'coreBytes' | 'seconds'> {
  const hostTraffic = hostNodes(mode).map((node) => {
    const addr = sites.node(node).addr;
    const a = open.nodes.find((n) => n.addr === addr);
    const b = close.nodes.find((n) => n.addr === addr);
    return {
      node,
      upBytes: (b?.up.bytes ?? 0) - (a?.up.bytes ?? 0),
      downBytes: (b?.down.bytes ?? 0) - (a?.down.bytes ?? 0),
    };
  });
  const core = (s: SitesStats): number => s.core.reduce((n, c) => n + c.counts.bytes, 0);
  return {
    hostTraffic,
    coreBytes: core(close) - core(open),
    seconds: (close.atMs - open.atMs) / 1000,
  };
}

async function mirrorStats(hosts: readonly JsonProc[]): Promise<JsonEvent[]> {
  return Promise.all(
    hosts.map(async (h) => {
      const from = h.events.length;
      h.send({ cmd: 'mirror-stats' });
      return h.waitFor((e) => e.ev === 'mirror-stats', 10_000, from);
    }),
  );
}

export async function runOne(sites: Sites, o: RunOptions): Promise<RawRun> {
  const code = generateJoinCode();
  const procs: JsonProc[] = [];
  let rollbacks = 0;
  let rollbackEffects = 0;
  try {
    const hosts = await startHosts(sites, o, code);
    procs.push(...hosts);
    const rollback = (e: JsonEvent): void => {
      if (e.ev !== 'mirror' || e.event !== 'rollback') return;
      rollbacks++;
      rollbackEffects += typeof e.effects === 'number' ? e.effects : 0;
    };
    for (const h of hosts) {
      for (const e of h.events) rollback(e);
      // Hosts print every object and chat: only rollbacks matter here (and the kept events stay few).
      h.onEvent = (e) => {
        rollback(e);
        return e.ev !== 'ready' && e.ev !== 'mirror-stats' && e.ev !== 'mirror';
      };
    }
    const epoch = machineClockMs();
    const users = SITES.map((s, site) => {
      const hostNode = o.mode === 'single' ? 'a-mirror' : `${s}-mirror`;
      const cfg: UsersConfig = {
        host: { address: sites.node(hostNode).addr, port: o.port },
        code,
        site,
        perSite: o.perSite,
        epoch,
        ...(o.rate === undefined ? {} : { rate: o.rate }),
      };
      return sites.run(`${s}-users`, `users ${s}`, ['--import', 'tsx', USERS, JSON.stringify(cfg)]);
    });
    procs.push(...users);
    const ready = await Promise.all(users.map((u) => u.waitFor((e) => e.ev === 'ready', JOIN_MS)));
    const failedJoins = ready.reduce(
      (n, r) => n + (Array.isArray(r.failed) ? r.failed.length : 0),
      0,
    );
    const start = machineClockMs() + o.warmupMs;
    const end = start + o.windowMs;
    for (const u of users) u.send({ cmd: 'run', start, end, settleMs: o.settleMs });
    const at = (t: number): Promise<void> =>
      new Promise((r) => setTimeout(r, Math.max(0, t - machineClockMs())));
    await at(start);
    const open = await sites.snapshot();
    const cpu0 = hosts.map((h) => cpuSeconds(h.child.pid));
    await at(end);
    const close = await sites.snapshot();
    const cpu1 = hosts.map((h) => cpuSeconds(h.child.pid));
    const windowS = (close.atMs - open.atMs) / 1000;
    const hostCpuMsPerSecond = hostNodes(o.mode).map((node, i) => ({
      node,
      ms: Math.round((((cpu1[i] ?? NaN) - (cpu0[i] ?? NaN)) * 1000) / windowS),
    }));
    const done = await Promise.all(
      users.map((u) => u.waitFor((e) => e.ev === 'done', o.settleMs + 60_000)),
    );
    const hist = new Map<string, Histogram>();
    const sent: Record<string, number> = {};
    const commands: Record<string, number> = {};
    for (const d of done) {
      for (const [k, j] of Object.entries((d.hist ?? {}) as Record<string, unknown>)) {
        let h = hist.get(k);
        if (h === undefined) hist.set(k, (h = new Map<number, number>()));
        mergeJson(h, j);
      }
      for (const [k, v] of Object.entries((d.sent ?? {}) as Record<string, number>))
        sent[k] = (sent[k] ?? 0) + v;
      for (const [k, v] of Object.entries((d.commands ?? {}) as Record<string, number>))
        commands[k] = (commands[k] ?? 0) + v;
    }
    return {
      mode: o.mode,
      perSite: o.perSite,
      hist,
      sent,
      commands,
      users: done.reduce((n, d) => n + Number(d.users), 0),
      alive: done.reduce((n, d) => n + Number(d.alive), 0),
      ended: done.flatMap((d) => (Array.isArray(d.ended) ? (d.ended as string[]) : [])),
      failedJoins,
      usersLoopDelayMs: done.map((d) => d.loopDelayMs as { p50: number; p99: number }),
      rollbacks,
      rollbackEffects,
      ...traffic(sites, o.mode, open, close),
      hostCpuMsPerSecond,
      mirrorStats: o.mode === 'mirrors' ? await mirrorStats(hosts) : [],
      load1: load1(),
      routerLateMs: routerLateness(open, close),
    };
  } finally {
    for (const p of procs) p.send({ cmd: 'quit' });
    await Promise.all(procs.map((p) => p.stop(3000)));
  }
}
