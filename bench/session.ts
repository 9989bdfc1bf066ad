// Session benchmark over real processes: host + 3 joiners, each joiner behind its own proxy (40 ms one way, 0/5/10 % loss), every pointer moving at 60 Hz at 30 packets/s both ways (--rate 30); reports downstream kbit/s per client, bits per pointer update and pointer latency. Knows nothing of the session's internals.
import { loadavg } from 'node:os';
import type { GhostEvent, GhostProc, Session } from '../test/session/harness';
import { Lab, lossyImpairment, num, sleep } from '../test/session/harness';

const LOSSES = [0, 0.05, 0.1] as const;
const DELAY_MS = 40;
const MOUSE_HZ = 60;
const WARMUP_MS = 2000;
const MEASURE_MS = 10_000;
const STATS_EVERY_MS = 1000;
const WATCH_MS = 250;
const PACKETS_PER_SECOND = 30;
/** x = circle x * X_SCALE + tick: unique per (sender, tick), so a received pointer names the write it shows. */
const X_SCALE = 1000;
const TARGET_DOWN_KBPS = 20;
const TARGET_P95_LOSS5_MS = 130;

interface Sample {
  readonly ms: number;
  readonly route: 'relayed' | 'fromHost' | 'toHost';
}

/** Each participant's pointer circles its own centre; tick k is written to all four at once. */
function pointerAt(who: number, k: number): { x: number; y: number } {
  const a = (2 * Math.PI * k) / MOUSE_HZ + who;
  const cx = 300 + 200 * who;
  return {
    x: Math.round(cx + 150 * Math.cos(a)) * X_SCALE + k,
    y: Math.round(400 + 150 * Math.sin(a)),
  };
}

/** Writes pointer commands at 60 Hz (drift-free schedule) until `endAt`; returns each tick's write times. */
async function drive(all: readonly GhostProc[], endAt: number): Promise<number[][]> {
  const sentAt: number[][] = all.map(() => []);
  const start = performance.now();
  for (let k = 0; ; k++) {
    const due = start + (k * 1000) / MOUSE_HZ;
    if (due >= endAt) return sentAt;
    if (k >= X_SCALE) throw new Error('too many ticks for the x encoding');
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    all.forEach((p, who) => sentAt[who]?.push(p.send({ cmd: 'pointer', ...pointerAt(who, k) })));
  }
}

function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const v = sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
  return v === null ? null : Math.round(v * 10) / 10;
}

function summary(ms: readonly number[]): { p50: number | null; p95: number | null; n: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 0.5), p95: percentile(s, 0.95), n: s.length };
}

/** Latency of every pointer event received in the window, matched to the write it shows. */
function latencies(
  s: Session,
  peers: readonly number[],
  sentAt: number[][],
  from: number,
  to: number,
): Sample[] {
  const out: Sample[] = [];
  s.all.forEach((receiver, r) => {
    const seen = new Set<string>();
    for (const e of receiver.events) {
      if (e.ev !== 'pointer' || e.at < from || e.at > to) continue;
      const sender = peers.indexOf(num(e, 'peer'));
      const k = num(e, 'x') % X_SCALE;
      const at = sentAt[sender]?.[k];
      if (at === undefined || seen.has(`${sender}:${k}`)) continue;
      seen.add(`${sender}:${k}`);
      out.push({
        ms: e.at - at,
        route: r === 0 ? 'toHost' : sender === 0 ? 'fromHost' : 'relayed',
      });
    }
  });
  return out;
}

const kbps = (bytes: number, ms: number): number => Math.round(((bytes * 8) / ms) * 10) / 10;
const r1 = (x: number): number => Math.round(x * 10) / 10;
const mean = (xs: readonly number[]): number =>
  xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Per joiner's proxy: datagrams and on-wire bytes the host offered toward it, delivered to it, and sent up. */
function proxyCounts(
  s: Session,
): { dgrams: number; down: number; delivered: number; up: number }[] {
  return s.remotes.map((r) => {
    const t = r.proxy.stats().total;
    return {
      dgrams: t.down.offered.datagrams,
      down: t.down.offered.wireBytes,
      delivered: t.down.sent.wireBytes,
      up: t.up.offered.wireBytes,
    };
  });
}

/**
 * Samples the proxies every WATCH_MS until `to`. A window in which the host offered every joiner under half
 * its nominal packets is a host-side stall (a loaded CPU, not the network: loss happens after `offered`);
 * the lag of this process's own timer says whether the proxies themselves were late.
 */
async function watchProxies(s: Session, to: number) {
  const first = proxyCounts(s);
  let prev = first;
  let stallWindows = 0;
  let maxLagMs = 0;
  for (let due = performance.now() + WATCH_MS; due <= to; due += WATCH_MS) {
    await sleep(due - performance.now());
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    const cur = proxyCounts(s);
    const nominal = (PACKETS_PER_SECOND * WATCH_MS) / 1000;
    if (cur.every((c, i) => c.dgrams - (prev[i]?.dgrams ?? 0) < nominal / 2)) stallWindows++;
    prev = cur;
  }
  return { first, last: prev, stallWindows, maxLagMs: r1(maxLagMs) };
}

/** The presence ghost's received kbit/s at each joiner, from its own stats (one-second windows), until `to`. */
async function samplePresence(s: Session, to: number): Promise<number[][]> {
  const out: number[][] = s.remotes.map(() => []);
  while (performance.now() + STATS_EVERY_MS <= to) {
    await sleep(STATS_EVERY_MS);
    const stats = await Promise.all(
      s.remotes.map((r) => r.proc.request({ cmd: 'stats' }, 'stats')),
    );
    stats.forEach((e, i) => out[i]?.push(presenceKbps(e)));
  }
  return out;
}

function presenceKbps(e: GhostEvent): number {
  const conns = e.connections as { byKind?: Record<string, { recvKbps?: number }> }[] | undefined;
  return conns?.[0]?.byKind?.presence?.recvKbps ?? 0;
}

async function measure(loss: number, seed: number): Promise<Record<string, unknown>> {
  const lab = new Lab();
  try {
    // Issue 5's contract: 30 packets/s both ways (the broadband preset now lets the host send more).
    const rate = String(PACKETS_PER_SECOND);
    const joiners = ['Bea', 'Cal', 'Dev'].map((name) => ({ name, rate }));
    const host = { name: 'Ana', rate };
    const s = await lab.session(seed, lossyImpairment(loss, DELAY_MS), joiners, host);
    const from = performance.now() + WARMUP_MS;
    const to = from + MEASURE_MS;
    const driving = drive(s.all, to);
    await sleep(from - performance.now());
    const [links, presence] = await Promise.all([watchProxies(s, to), samplePresence(s, to)]);
    const sentAt = await driving;
    const ms = performance.now() - from;
    await sleep(500); // the last writes' pointers may still be on the wire
    const peers = [0, ...s.remotes.map((r) => r.peer)];
    const samples = latencies(s, peers, sentAt, from, to + 500);
    const delta = (f: 'dgrams' | 'down' | 'delivered' | 'up') =>
      links.last.map((c, i) => c[f] - (links.first[i]?.[f] ?? 0));
    const downKbps = delta('down').map((b) => kbps(b, ms));
    const pointersPerSec = s.remotes
      .map(
        (r) => r.proc.events.filter((e) => e.ev === 'pointer' && e.at >= from && e.at <= to).length,
      )
      .map((n) => n / (ms / 1000));
    const per = (x: readonly number[]) => x.map((v, i) => v / Math.max(1, pointersPerSec[i] ?? 0));
    const route = (r: Sample['route']) =>
      summary(samples.filter((x) => x.route === r).map((x) => x.ms));
    return {
      downKbpsPerClient: r1(mean(downKbps)),
      downKbpsByClient: downKbps,
      deliveredDownKbpsByClient: delta('delivered').map((b) => kbps(b, ms)),
      upKbpsByClient: delta('up').map((b) => kbps(b, ms)),
      // Nominal is 30: more means packets beyond the rate policy (small ack-only ones, see payload bytes).
      downPacketsPerSecByClient: delta('dgrams').map((n) => r1(n / (ms / 1000))),
      downWireBytesPerPacketByClient: delta('down').map((b, i) =>
        Math.round(b / Math.max(1, delta('dgrams')[i] ?? 0)),
      ),
      pointerEventsPerSecPerClient: r1(mean(pointersPerSec)),
      presenceBitsPerUpdate: Math.round(mean(per(presence.map((k) => mean(k) * 1000)))),
      wireBitsPerPointerEvent: Math.round(mean(per(downKbps.map((k) => k * 1000)))),
      latencyMs: {
        relayed: route('relayed'),
        fromHost: route('fromHost'),
        toHost: route('toHost'),
      },
      /** WATCH_MS windows in which the host offered every joiner under half its packets. */
      hostStallWindows: links.stallWindows,
      harnessMaxLagMs: links.maxLagMs,
    };
  } finally {
    await lab.close();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const loadBefore = loadavg()[0] ?? 0;
  const perLoss: Record<string, Record<string, unknown>> = {};
  for (const [i, loss] of LOSSES.entries())
    perLoss[`loss${Math.round(loss * 100)}`] = await measure(loss, 900 + i);
  const field = (k: string, f: string): number => Number(perLoss[k]?.[f] ?? NaN);
  const relayed = (k: string) =>
    (perLoss[k]?.latencyMs as { relayed: { p50: number; p95: number } }).relayed;
  const keys = Object.keys(perLoss);
  const downKbpsPerClient = Math.max(...keys.map((k) => field(k, 'downKbpsPerClient')));
  const worstClient = Math.max(...keys.flatMap((k) => perLoss[k]?.downKbpsByClient as number[]));
  const p95Loss5 = relayed('loss5').p95;
  return {
    downKbpsPerClient,
    downKbpsWorstClient: worstClient,
    pointerUpdateBits: Math.round(mean(keys.map((k) => field(k, 'presenceBitsPerUpdate')))),
    latencyMs: Object.fromEntries(
      keys.map((k) => [k, { p50: relayed(k).p50, p95: relayed(k).p95 }]),
    ),
    targets: {
      downKbpsPerClient: {
        limit: TARGET_DOWN_KBPS,
        met: downKbpsPerClient <= TARGET_DOWN_KBPS,
        metByEveryClient: worstClient <= TARGET_DOWN_KBPS,
      },
      p95Loss5Ms: { limit: TARGET_P95_LOSS5_MS, met: p95Loss5 <= TARGET_P95_LOSS5_MS },
    },
    definitions: {
      downKbpsPerClient:
        'worst loss level: mean over the 3 joiners of what the host offers toward each (proxy down.offered, 28 B IPv4/UDP per datagram)',
      pointerUpdateBits:
        'presence-ghost bits received per pointer event received at a joiner (presence recvKbps sampled each second / pointer events per second), mean over loss levels',
      wireBitsPerPointerEvent: 'all downstream on-wire bits per pointer event received',
      latencyMs:
        'relayed pointers (joiner stdin write -> host -> other joiner pointer event, 2 x 40 ms emulated); fromHost / toHost cross one link',
    },
    config: {
      delayMs: DELAY_MS,
      mouseHz: MOUSE_HZ,
      rate: `--rate ${PACKETS_PER_SECOND} (packets/s both ways)`,
      measureMs: MEASURE_MS,
      warmupMs: WARMUP_MS,
    },
    // Other work on the machine stalls the processes and shows in the tails: read them with this beside them.
    loadAverage1m: { before: r1(loadBefore), after: r1(loadavg()[0] ?? 0) },
    perLoss,
  };
}
