// Scale benchmark: one headless Ghostboard host on loopback with 16, 64, 128 and 256 bot peers (64 per driver
// process) moving pointers at 30 Hz, each accepting 64 kbit/s downstream; reports the host's CPU seconds per
// second and RSS, per-bot downstream kbit/s, and the update rate of each bot's 8 nearest peers vs the rest.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJoinCode } from '../src-main/net/join-code';
import { percentile, round1 } from './compare/figures';
import { cpuSeconds, rssMb } from './proc-usage';
import type { JsonEvent } from './router/json-proc';
import { JsonProc } from './router/json-proc';
import type { BarChart } from './plot';
import { renderCharts } from './plot';

const here = dirname(fileURLToPath(import.meta.url));
const GHOSTBOARD = join(here, '..', 'bin', 'ghostboard.js');
const PER_DRIVER = 64;
const WARMUP_MS = 3000;
const JOIN_TIMEOUT_MS = 120_000;

interface BotFigures {
  bot: number;
  downKbps: number;
  nearHz: number;
  restHz: number;
  alive: boolean;
  /** Peers this bot has been told of (a join it never heard would leave its updates uncounted). */
  known: number;
  ended?: string;
}

/** Event-loop delay percentiles, ms (perf_hooks.monitorEventLoopDelay over the window). */
interface LoopDelay {
  p50: number;
  p99: number;
}

interface ScaleRun {
  peers: number;
  joined: number;
  alive: number;
  /** The fewest peers any bot knew of (all of them: peers - 1 + the host). */
  knownPeersMin: number;
  hostCpuSecondsPerSecond: number;
  /**
   * Datagrams the host sent and received per second in the window, and its CPU per datagram (µs): the host's
   * cost per unit of work, comparable between runs whose links settled at different rates.
   */
  hostDatagramsPerSecond: number;
  hostCpuUsPerDatagram: number;
  /** Presence (pointer) updates the host wrote per second, summed over its links. */
  hostPointerUpdatesPerSecond: number;
  hostRssMB: number;
  driverCpuSecondsPerSecond: number;
  /** How late the host's event loop ran (undefined: the host doesn't report it), and the worst driver's. */
  hostLoopDelayMs: LoopDelay | undefined;
  driverLoopDelayMs: LoopDelay;
  downKbps: { mean: number; p5: number; max: number };
  nearHz: { mean: number; p5: number };
  restHz: { mean: number; p5: number };
  load1: number;
  /** The host's view of its links at the end of the window: RTT, loss, the adaptive rate and sending. */
  hostLinks: {
    rttMs: { p50: number; p95: number };
    lossPctMean: number;
    allowedKbps: { mean: number; p5: number };
    sendKbpsMean: number;
    inFlightP95: number;
  };
  /** Why bots that are gone went, with counts. */
  ended: Record<string, number>;
}

const load1 = (): number => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
const mean = (xs: readonly number[]): number =>
  round1(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);

/**
 * GB_SCALE_CPUS=HOST:BOTS (taskset lists, e.g. `0:1`): the host on some CPUs, the bot drivers on others, so the
 * bots' work doesn't queue the host (or the other way round). Unset: both share every CPU.
 */
function cpuSets(): { host: string; bots: string } | undefined {
  const v = process.env.GB_SCALE_CPUS;
  if (v === undefined || v === '') return undefined;
  const [host, bots] = v.split(':');
  if (!host || !bots) throw new Error('GB_SCALE_CPUS wants HOST:BOTS, e.g. 0:1');
  return { host, bots };
}

/** A node child (JsonProc), under `taskset -c CPUS` when given: taskset execs node, so the pid is node's. */
function startNode(cpus: string | undefined, label: string, args: readonly string[]): JsonProc {
  return cpus === undefined
    ? JsonProc.start(label, process.execPath, args)
    : JsonProc.start(label, 'taskset', ['-c', cpus, process.execPath, ...args]);
}

async function runScale(peers: number, windowMs: number): Promise<ScaleRun> {
  const cpus = cpuSets();
  const code = generateJoinCode();
  // GB_SCALE_HOST_PROF=DIR / GB_SCALE_BOT_PROF=DIR: V8 CPU profiles of the host / each bot driver, written
  // when it exits.
  const prof = process.env.GB_SCALE_HOST_PROF;
  const botProf = process.env.GB_SCALE_BOT_PROF;
  const host = startNode(cpus?.host, 'scale-host', [
    ...(prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : []),
    ...[GHOSTBOARD, 'host', '--port', '0', '--bind', '127.0.0.1'],
    // A dedicated host: its stdout would otherwise carry every bot's pointer, which costs the host CPU that
    // the app's host (drawing pointers in its own window) does not spend.
    ...['--code', code, '--name', 'Host', '--script', '--quiet-pointers'],
    // Every bot comes from 127.0.0.1: lift the per-address cap (a quarter of the session by default).
    ...['--max-per-address', '264'],
    // GB_SCALE_PACKETS=N: the host's packet budget fixed at N (default: it follows the host's load).
    ...(process.env.GB_SCALE_PACKETS ? ['--packets', process.env.GB_SCALE_PACKETS] : []),
  ]);
  const drivers: JsonProc[] = [];
  try {
    const ready = await host.waitFor((e) => e.ev === 'ready', 20_000);
    let joined = 0;
    // Drivers start one after another: the host admits 16 pending handshakes per IP.
    for (let first = 0; first < peers; first += PER_DRIVER) {
      const count = Math.min(PER_DRIVER, peers - first);
      const d = startNode(cpus?.bots, `bots-${first}`, [
        ...(botProf ? ['--cpu-prof', '--cpu-prof-dir', botProf] : []),
        ...['--import', 'tsx', join(here, 'scale', 'bots.ts')],
        ...['127.0.0.1', String(ready.port), code, String(first), String(count), String(peers)],
      ]);
      drivers.push(d);
      const r = await d.waitFor((e) => e.ev === 'ready', JOIN_TIMEOUT_MS);
      joined += Number(r.bots) - (Array.isArray(r.failed) ? r.failed.length : 0);
    }
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    // The host's counters at the window's start (this also resets its event-loop histogram to the window).
    const traffic0 = hostTraffic(await hostStats(host));
    const cpu0 = cpuSeconds(host.child.pid);
    const drv0 = drivers.reduce((a, d) => a + cpuSeconds(d.child.pid), 0);
    const t0 = performance.now();
    for (const d of drivers) d.send({ cmd: 'window' });
    await new Promise((r) => setTimeout(r, windowMs));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = (cpuSeconds(host.child.pid) - cpu0) / seconds;
    const drv = (drivers.reduce((a, d) => a + cpuSeconds(d.child.pid), 0) - drv0) / seconds;
    const rss = rssMb(host.child.pid);
    const end = await hostStats(host);
    const links = (end.connections ?? []) as HostLink[];
    const hostLoop = end.loopDelayMs as LoopDelay | undefined;
    const traffic1 = hostTraffic(end);
    const datagrams = traffic1.datagrams - traffic0.datagrams;
    const updates = traffic1.updates - traffic0.updates;

    const bots: BotFigures[] = [];
    const driverLoops: LoopDelay[] = [];
    for (const d of drivers) {
      const n = d.events.length;
      d.send({ cmd: 'stats' });
      const s = await d.waitFor((e) => e.ev === 'stats', 10_000, n);
      bots.push(...(s.bots as BotFigures[]));
      driverLoops.push(s.loopDelayMs as LoopDelay);
    }
    const down = sorted(bots.map((b) => b.downKbps));
    const near = sorted(bots.map((b) => b.nearHz));
    const rest = sorted(bots.map((b) => b.restHz));
    return {
      peers,
      joined,
      alive: bots.filter((b) => b.alive).length,
      knownPeersMin: Math.min(...bots.map((b) => b.known)),
      hostCpuSecondsPerSecond: Math.round(cpu * 1000) / 1000,
      hostDatagramsPerSecond: Math.round(datagrams / seconds),
      hostCpuUsPerDatagram: round1((cpu * seconds * 1e6) / Math.max(1, datagrams)),
      hostPointerUpdatesPerSecond: Math.round(updates / seconds),
      hostRssMB: rss,
      driverCpuSecondsPerSecond: Math.round(drv * 100) / 100,
      // How late the event loops ran in the window: the host's, and the worst of the bot drivers'.
      hostLoopDelayMs: hostLoop,
      driverLoopDelayMs: {
        p50: Math.max(...driverLoops.map((l) => l.p50)),
        p99: Math.max(...driverLoops.map((l) => l.p99)),
      },
      downKbps: {
        mean: mean(down),
        p5: round1(percentile(down, 5)),
        max: round1(Math.max(...down)),
      },
      nearHz: { mean: mean(near), p5: round1(percentile(near, 5)) },
      restHz: { mean: mean(rest), p5: round1(percentile(rest, 5)) },
      load1: load1(),
      hostLinks: summarizeLinks(links),
      ended: bots.reduce<Record<string, number>>((acc, b) => {
        if (b.ended !== undefined) acc[b.ended] = (acc[b.ended] ?? 0) + 1;
        return acc;
      }, {}),
    };
  } finally {
    for (const d of drivers) d.send({ cmd: 'quit' });
    await Promise.all(drivers.map((d) => d.stop(3000)));
    await host.stop(3000);
  }
}

async function hostStats(host: JsonProc): Promise<JsonEvent> {
  const n = host.events.length;
  host.send({ cmd: 'stats' });
  return host.waitFor((e) => e.ev === 'stats', 10_000, n);
}

/** Datagrams sent + received and presence updates written, over all the host's links (cumulative counters). */
function hostTraffic(stats: JsonEvent): { datagrams: number; updates: number } {
  let datagrams = 0;
  let updates = 0;
  for (const l of (stats.connections ?? []) as HostLink[]) {
    datagrams += l.packetsSent + l.packetsReceived;
    updates += l.presenceSent?.updates ?? 0;
  }
  return { datagrams, updates };
}

interface HostLink {
  packetsSent: number;
  packetsReceived: number;
  presenceSent?: { updates: number };
  rttMs: number;
  lossPct: number;
  sendKbps: number;
  allowedKbps: number | null;
  inFlight: number;
}

function summarizeLinks(links: readonly HostLink[]): ScaleRun['hostLinks'] {
  const rtt = sorted(links.map((l) => l.rttMs));
  const allowed = sorted(links.map((l) => l.allowedKbps ?? NaN).filter(Number.isFinite));
  return {
    rttMs: { p50: round1(percentile(rtt, 50)), p95: round1(percentile(rtt, 95)) },
    lossPctMean: mean(links.map((l) => l.lossPct)),
    allowedKbps: { mean: mean(allowed), p5: round1(percentile(allowed, 5)) },
    sendKbpsMean: mean(links.map((l) => l.sendKbps)),
    inFlightP95: round1(percentile(sorted(links.map((l) => l.inFlight)), 95)),
  };
}

export function scaleCharts(runs: readonly ScaleRun[]): BarChart[] {
  const groups = runs.map((r) => `${r.peers} peers`);
  return [
    {
      file: 'scale-cpu',
      title: 'Host CPU seconds per second (one host, bots at 30 Hz)',
      yLabel: 'CPU s/s',
      groups,
      series: [{ name: 'host', values: runs.map((r) => r.hostCpuSecondsPerSecond) }],
      refs: [{ value: 1, label: 'one core' }],
    },
    {
      file: 'scale-rate',
      title: 'Pointer updates/s each bot sees per peer (sent at 30 Hz)',
      yLabel: 'updates/s per peer',
      groups,
      series: [
        { name: '8 nearest', values: runs.map((r) => r.nearHz.mean) },
        { name: 'the rest', values: runs.map((r) => r.restHz.mean) },
      ],
    },
  ];
}

const loopCell = (l: LoopDelay | undefined): string => (l ? `${l.p50} / ${l.p99}` : '–');

export function scaleTable(runs: readonly ScaleRun[]): string {
  const lines = [
    '| peers | joined / alive | host CPU s/s | host datagrams/s · CPU µs each | host RSS MB | bots CPU s/s | event-loop delay p50 / p99 ms, host · worst driver | down kbit/s per bot mean / p5 / max | nearest-8 Hz mean / p5 | rest Hz mean / p5 | load1 | bots gone (why) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of runs) {
    lines.push(
      `| ${r.peers} | ${r.joined} / ${r.alive} | ${r.hostCpuSecondsPerSecond} | ${r.hostDatagramsPerSecond} · ${r.hostCpuUsPerDatagram} | ${r.hostRssMB} | ` +
        `${r.driverCpuSecondsPerSecond} | ${loopCell(r.hostLoopDelayMs)} · ${loopCell(r.driverLoopDelayMs)} | ${r.downKbps.mean} / ${r.downKbps.p5} / ${r.downKbps.max} | ` +
        `${r.nearHz.mean} / ${r.nearHz.p5} | ${r.restHz.mean} / ${r.restHz.p5} | ${r.load1} | ` +
        `${
          Object.entries(r.ended)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ') || 'none'
        } |`,
    );
  }
  return lines.join('\n') + '\n';
}

export async function run(): Promise<Record<string, unknown>> {
  const windowMs = Number(process.env.GB_SCALE_SECONDS ?? 15) * 1000;
  const sizes = (process.env.GB_SCALE_PEERS ?? '16,64,128,256').split(',').map(Number);
  const runs: ScaleRun[] = [];
  for (const n of sizes) {
    runs.push(await runScale(n, windowMs));
    process.stderr.write(`scale ${n}: ${JSON.stringify(runs[runs.length - 1])}\n`);
  }
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'scale.md'), scaleTable(runs));
  const plots = await renderCharts(join(here, 'plots'), scaleCharts(runs));
  return {
    setup: { pointerHz: 30, downstreamKbps: 64, windowSeconds: windowMs / 1000 },
    runs,
    plots,
  };
}
