// Host CPU in the simulator: one host and 16-256 peers over simulated 1 ms links, every peer's pointer circling
// its home at 30 Hz and each peer accepting 30 packets/s x 238 B downstream (64 kbit/s with IP/UDP), the scale
// bench's workload without sockets, processes or a shared CPU. Times only the host's own work (its endpoint's
// datagram, timer and transmit calls and its session ticks) per simulated second, so the figure is the share of
// one core the host needs for that load, repeatable enough to compare two versions of the code side by side
// (the scale bench adds the system calls and the bots' competition for the CPUs). Deterministic workload
// (seeded); the times are this machine's, so each size runs GB_HOSTCPU_RUNS times (3) and reports the median.
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { UDP_IPV4_OVERHEAD } from '../src-main/net/stats';
import type { SimEndpoint } from '../src-main/net/testing/harness';
import { makeSimSession } from '../src-main/session/testing/sim-session';
import { home, nearest } from './scale/layout';
import { percentile, round1 } from './compare/figures';
import { hostClock, timed, timedOncePerTurn, timedPoll } from './host-clock';

const POINTER_HZ = 30;
const RADIUS = 120;
const RATE = { packetsPerSecond: 30, packetBytes: 238 };
const WARMUP_MS = 3000;
const JOIN_WAVE = 8;

interface HostCpuRow {
  peers: number;
  joined: number;
  /** Host work per simulated second, ms (1000 = one core). */
  hostMsPerSecond: number;
  hostDatagramsPerSecond: number;
  hostUsPerDatagram: number;
  downKbpsPerPeer: number;
  nearHz: { mean: number; p5: number };
  restHz: { mean: number; p5: number };
  /** Wall time the whole simulation took per simulated second (host and peers), ms. */
  simMsPerSecond: number;
}

function runOnce(peers: number, measureMs: number, seed: number): HostCpuRow {
  const s = makeSimSession({
    seed,
    rate: { toHost: RATE, toPeers: RATE },
    conditions: { ...NO_IMPAIRMENT, delayMs: 1 },
  });
  s.sim.audit = false;
  // The host's work: its endpoint's calls from the harness and its session ticks.
  const host = hostClock();
  const ep: SimEndpoint = s.host.endpoint;
  ep.handleDatagram = timed(host, ep.handleDatagram.bind(ep));
  ep.handleTimeout = timed(host, ep.handleTimeout.bind(ep));
  ep.pollTransmit = timedPoll(host, ep.pollTransmit.bind(ep));
  ep.nextTimeout = timedOncePerTurn(host, ep.nextTimeout.bind(ep));
  s.host.tick = timed(host, s.host.tick.bind(s.host));
  s.host.afterIo = timed(host, s.host.afterIo.bind(s.host));

  // Join in waves, as the scale bench's drivers do.
  const byPeer = new Map<number, number>();
  for (let first = 0; first < peers; first += JOIN_WAVE) {
    for (let i = first; i < Math.min(peers, first + JOIN_WAVE); i++) s.addPeer(`b${i}`);
    s.sim.runUntilTrue(
      () => s.peerEvents.every((ev) => ev.some((e) => e.type === 'ready')),
      s.sim.now + 10_000,
    );
  }
  s.peerEvents.forEach((ev, i) => {
    const r = ev.find((e) => e.type === 'ready');
    if (r?.type === 'ready') byPeer.set(r.you, i);
  });

  // Count what each peer sees; the fixture's event logs are emptied as they go (memory stays flat).
  const near = Array.from({ length: peers }, (_, i) => new Set(nearest(i, peers, 8)));
  const nearSeen = new Array<number>(peers).fill(0);
  const restSeen = new Array<number>(peers).fill(0);
  let counting = false;
  s.peers.forEach((p, i) =>
    p.on((e) => {
      if (!counting || e.type !== 'pointer' || !e.moved) return;
      const from = byPeer.get(e.pointer.peer);
      if (from === undefined) return;
      if (near[i]?.has(from) === true) nearSeen[i] = (nearSeen[i] ?? 0) + 1;
      else restSeen[i] = (restSeen[i] ?? 0) + 1;
    }),
  );
  s.sim.every(100, () => {
    for (const ev of s.peerEvents) ev.length = 0;
    s.hostEvents.length = 0;
  });
  const start = s.sim.now;
  s.peers.forEach((p, i) => {
    const h = home(i);
    s.sim.every(
      1000 / POINTER_HZ,
      (now) => {
        const a = ((now - start) / 1000) * 2 + i;
        p.pointer(Math.round(h.x + RADIUS * Math.cos(a)), Math.round(h.y + RADIUS * Math.sin(a)));
      },
      start + ((i % 32) * 1000) / POINTER_HZ / 32,
    );
  });

  s.sim.runUntil(start + WARMUP_MS);
  const hostCounters = (): { datagrams: number; bytesSent: number } => {
    let datagrams = 0;
    let bytesSent = 0;
    for (const { stack } of s.host.peerConnections()) {
      const c = stack.conn.stats(s.sim.now);
      datagrams += c.packetsSent + c.packetsReceived;
      bytesSent += c.bytesSent + UDP_IPV4_OVERHEAD * c.packetsSent;
    }
    return { datagrams, bytesSent };
  };
  const c0 = hostCounters();
  host.ms = 0;
  counting = true;
  const wall0 = performance.now();
  s.sim.runUntil(start + WARMUP_MS + measureMs);
  const wall = performance.now() - wall0;
  counting = false;
  const c1 = hostCounters();
  const seconds = measureMs / 1000;
  const datagrams = c1.datagrams - c0.datagrams;
  const sortedHz = (xs: number[]): number[] => xs.map((x) => x / seconds).sort((a, b) => a - b);
  const nearHz = sortedHz(nearSeen.map((n, i) => n / Math.max(1, near[i]?.size ?? 1)));
  const restHz = sortedHz(restSeen.map((n) => n / Math.max(1, peers - 1 - 8)));
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    peers,
    joined: byPeer.size,
    hostMsPerSecond: round1(host.ms / seconds),
    hostDatagramsPerSecond: Math.round(datagrams / seconds),
    hostUsPerDatagram: round1((host.ms * 1000) / Math.max(1, datagrams)),
    downKbpsPerPeer: round1(((c1.bytesSent - c0.bytesSent) * 8) / 1000 / seconds / peers),
    nearHz: { mean: round1(mean(nearHz)), p5: round1(percentile(nearHz, 5)) },
    restHz: { mean: round1(mean(restHz)), p5: round1(percentile(restHz, 5)) },
    simMsPerSecond: round1(wall / seconds),
  };
}

/**
 * `runs` runs of one size: the counts are the same in each (deterministic), so the row is the first run's with
 * the host times of all of them (median as the figure, and the spread).
 */
function runSize(
  peers: number,
  measureMs: number,
  runs: number,
): HostCpuRow & { runsMs: number[] } {
  const all = Array.from({ length: runs }, () => runOnce(peers, measureMs, 1));
  const first = all[0] as HostCpuRow;
  const times = all.map((r) => r.hostMsPerSecond);
  const median = percentile(
    [...times].sort((a, b) => a - b),
    50,
  );
  return {
    ...first,
    hostMsPerSecond: round1(median),
    hostUsPerDatagram: round1((median * 1000) / Math.max(1, first.hostDatagramsPerSecond)),
    runsMs: times,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  await Promise.resolve();
  const sizes = (process.env.GB_HOSTCPU_PEERS ?? '16,64,128,256').split(',').map(Number);
  const measureMs = Number(process.env.GB_HOSTCPU_SECONDS ?? 5) * 1000;
  const runs = Number(process.env.GB_HOSTCPU_RUNS ?? 3);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error('GB_HOSTCPU_RUNS wants a whole number >= 1');
  const rows: ReturnType<typeof runSize>[] = [];
  for (const n of sizes) {
    rows.push(runSize(n, measureMs, runs));
    process.stderr.write(`hostcpu ${n}: ${JSON.stringify(rows[rows.length - 1])}\n`);
  }
  return {
    setup: {
      pointerHz: POINTER_HZ,
      rate: RATE,
      linkDelayMs: 1,
      measureSeconds: measureMs / 1000,
      runsPerSize: runs,
    },
    rows,
  };
}
