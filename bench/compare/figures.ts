// Turns one run's samples and router counters into the reported figures: per client and pooled. Pure; knows
// nothing of processes, namespaces or stacks.
import type { RouterStats } from '../router/testbed';
import { bucketQuantile, QUEUE_BUCKET_MS } from '../router/testbed';
import type { Samples } from './workload';
import { expectedFinal } from './workload';

export interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface ClientFigures {
  user: string;
  upKbps: number;
  downKbps: number;
  /** IP packets per second through the router. */
  upPps: number;
  downPps: number;
  /** Pointer updates received per second from each other user (mean over senders). */
  pointerHz: number;
  pointer: Latency;
  /** The same, minus the emulated path delay. */
  pointerExcess: Latency;
  maxGapMs: number;
  chatP95: number;
  /** Drops of others' rectangles this user saw at the dropped position; and the p95 of how long that took. */
  dropsSeen: string;
  dropSeenP95: number;
  finalCorrect: boolean;
}

export interface RunSummary {
  upKbps: number;
  downKbps: number;
  upPps: number;
  downPps: number;
  totalKbpsPerClient: number;
  pointerHz: number;
  pointer: Latency;
  pointerExcess: Latency;
  maxGapMs: number;
  /**
   * Each receiver's best-served remote pointer (updates/s), the lowest over receivers: with presence ranked by
   * distance, the nearest pointer is the one that keeps its rate when the link is short.
   */
  nearestPointerHz: number;
  chatP50: number;
  chatP95: number;
  /** Chat lines sent in the window that some other user never saw (of sent x (users - 1)). */
  chatMissing: number;
  /**
   * How long datagrams waited in the bottleneck's queue, p50 / p95 ms (to the bucket's upper edge), pooled over
   * clients; undefined without a bandwidth cap.
   */
  queueWait?: { up: { p50: number; p95: number }; down: { p50: number; p95: number } };
  dropsSeenPct: number;
  dropSeenP95: number;
  finalCorrect: string;
  /** With a relay that reports pointers: excess latency of each link, sender → relay and relay → receiver. */
  hops?: { up: Latency; down: Latency };
  /**
   * The same pointer updates timed when the bench read them instead of when the receiving process emitted them:
   * the difference is the harness (the event's pipe and the bench's own event loop), not the stack.
   */
  asRead: { pointerExcess: Latency; maxGapMs: number };
}

export interface RunResult {
  stack: string;
  condition: string;
  summary: RunSummary;
  clients: ClientFigures[];
  router: { lostUp: number; lostDown: number; queueDropsUp: number; queueDropsDown: number };
  /** The machine's 1-minute load average when the window closed (other work shares the CPUs). */
  load1: number;
  /** How late the bench's own event loop (which timestamps every event) ran in the window, ms. */
  benchLoopDelayMs?: { p99: number; max: number };
}

/** Nearest-rank percentile; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

export const round1 = (x: number): number => Math.round(x * 10) / 10;

function latency(values: readonly number[], minus = 0): Latency {
  const v = values.map((x) => x - minus).sort((a, b) => a - b);
  return {
    n: v.length,
    p50: round1(percentile(v, 50)),
    p95: round1(percentile(v, 95)),
    p99: round1(percentile(v, 99)),
  };
}

/** GB_COMPARE_GAPS: where receiver r's gaps over 60 ms fell (ms into the window), per sender, to stderr. */
function logGaps(all: readonly (readonly number[])[][], r: number, t0: number): void {
  (all[r] ?? []).forEach((a, from) => {
    const big: string[] = [];
    for (let i = 1; i < a.length; i++) {
      const g = (a[i] ?? 0) - (a[i - 1] ?? 0);
      if (g > 60) big.push(`${Math.round((a[i - 1] ?? 0) - t0)}+${Math.round(g)}`);
    }
    if (big.length > 0) console.error(`gaps u${from}->u${r}: ${big.join(' ')}`);
  });
}

function maxGap(arrivals: readonly number[]): number {
  let g = 0;
  for (let i = 1; i < arrivals.length; i++)
    g = Math.max(g, (arrivals[i] ?? 0) - (arrivals[i - 1] ?? 0));
  return g;
}

/** Pooled queue-wait percentiles between two snapshots, from router.py's histogram; undefined without one. */
function queueWait(
  a: RouterStats,
  b: RouterStats,
  dir: 'up' | 'down',
): { p50: number; p95: number } | undefined {
  const hist: number[] = [];
  b.clients.forEach((c, i) => {
    const after = c[dir].queueWaitMs;
    const before = a.clients[i]?.[dir].queueWaitMs;
    after?.forEach((n, k) => (hist[k] = (hist[k] ?? 0) + n - (before?.[k] ?? 0)));
  });
  const p50 = bucketQuantile(hist, QUEUE_BUCKET_MS, 0.5);
  const p95 = bucketQuantile(hist, QUEUE_BUCKET_MS, 0.95);
  return p50 === undefined || p95 === undefined ? undefined : { p50, p95 };
}

/** kbit/s between two router snapshots, per client, up (client → server) and down. */
function kbps(
  a: RouterStats,
  b: RouterStats,
): { up: number; down: number; upPps: number; downPps: number }[] {
  const seconds = (b.atMs - a.atMs) / 1000;
  return b.clients.map((c, i) => {
    const before = a.clients[i];
    const up = c.up.bytes - (before?.up.bytes ?? 0);
    const down = c.down.bytes - (before?.down.bytes ?? 0);
    return {
      up: round1((up * 8) / 1000 / seconds),
      down: round1((down * 8) / 1000 / seconds),
      upPps: round1((c.up.packets - (before?.up.packets ?? 0)) / seconds),
      downPps: round1((c.down.packets - (before?.down.packets ?? 0)) / seconds),
    };
  });
}

export function runFigures(
  s: Samples,
  open: RouterStats,
  close: RouterStats,
  pathDelayMs: number,
): { clients: ClientFigures[]; summary: RunSummary } {
  const n = s.pointerLatency.length;
  const rates = kbps(open, close);
  const windowS = (s.windowEnd - s.windowStart) / 1000;
  const allLat: number[] = [];
  const allChat: number[] = [];
  const allDropLat: number[] = [];
  let seen = 0;
  let owed = 0;
  let correct = 0;
  let nearestHz = Infinity;
  const clients = Array.from({ length: n }, (_, r): ClientFigures => {
    const lat = (s.pointerLatency[r] ?? []).flat();
    allLat.push(...lat);
    const gaps = (s.pointerArrivals[r] ?? []).map((a, from) => (from === r ? 0 : maxGap(a)));
    if (process.env.GB_COMPARE_GAPS) logGaps(s.pointerArrivals, r, s.windowStart);
    const counts = (s.pointerArrivals[r] ?? [])
      .filter((_, from) => from !== r)
      .map((a) => a.length);
    nearestHz = Math.min(nearestHz, Math.max(0, ...counts) / windowS);
    const chat = s.chatLatency[r] ?? [];
    allChat.push(...chat);
    const others = s.drops.filter((d) => d.owner !== r);
    const dropLat = others.flatMap((d) => {
      const t = d.seenAt[r];
      return t === undefined ? [] : [t - d.at];
    });
    allDropLat.push(...dropLat);
    seen += dropLat.length;
    owed += others.length;
    const finalOk = (s.finalSeen[r] ?? []).every((p, owner) => {
      if (owner === r) return true;
      const want = expectedFinal(s, owner);
      return want === undefined || (p?.x === want.x && p.y === want.y);
    });
    if (finalOk) correct++;
    return {
      user: `u${r}`,
      upKbps: rates[r]?.up ?? NaN,
      downKbps: rates[r]?.down ?? NaN,
      upPps: rates[r]?.upPps ?? NaN,
      downPps: rates[r]?.downPps ?? NaN,
      pointerHz: round1(counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length) / windowS),
      pointer: latency(lat),
      pointerExcess: latency(lat, pathDelayMs),
      maxGapMs: round1(Math.max(...gaps)),
      chatP95: round1(
        percentile(
          [...chat].sort((a, b) => a - b),
          95,
        ),
      ),
      dropsSeen: `${dropLat.length}/${others.length}`,
      dropSeenP95: round1(
        percentile(
          [...dropLat].sort((a, b) => a - b),
          95,
        ),
      ),
      finalCorrect: finalOk,
    };
  });
  const up = queueWait(open, close, 'up');
  const down = queueWait(open, close, 'down');
  const mean = (f: (c: ClientFigures) => number): number =>
    round1(clients.reduce((a, c) => a + f(c), 0) / Math.max(1, clients.length));
  return {
    clients,
    summary: {
      upKbps: mean((c) => c.upKbps),
      downKbps: mean((c) => c.downKbps),
      upPps: mean((c) => c.upPps),
      downPps: mean((c) => c.downPps),
      totalKbpsPerClient: mean((c) => c.upKbps + c.downKbps),
      pointerHz: mean((c) => c.pointerHz),
      pointer: latency(allLat),
      pointerExcess: latency(allLat, pathDelayMs),
      maxGapMs: Math.max(...clients.map((c) => c.maxGapMs)),
      nearestPointerHz: round1(Number.isFinite(nearestHz) ? nearestHz : 0),
      chatP50: round1(
        percentile(
          [...allChat].sort((a, b) => a - b),
          50,
        ),
      ),
      chatMissing: s.chatsSent * Math.max(0, n - 1) - allChat.length,
      ...(up && down ? { queueWait: { up, down } } : {}),
      chatP95: round1(
        percentile(
          allChat.sort((a, b) => a - b),
          95,
        ),
      ),
      dropsSeenPct: round1((100 * seen) / Math.max(1, owed)),
      dropSeenP95: round1(
        percentile(
          allDropLat.sort((a, b) => a - b),
          95,
        ),
      ),
      finalCorrect: `${correct}/${n}`,
      asRead: {
        pointerExcess: latency(s.asRead.latency, pathDelayMs),
        maxGapMs: round1(
          Math.max(
            0,
            ...s.asRead.arrivals.flatMap((row, r) =>
              row.map((a, from) => (from === r ? 0 : maxGap(a))),
            ),
          ),
        ),
      },
      ...(s.hops
        ? {
            hops: {
              up: latency(s.hops.up, pathDelayMs / 2),
              down: latency(s.hops.down, pathDelayMs / 2),
            },
          }
        : {}),
    },
  };
}
