// Pointer benchmark in the simulator: a host and 4 users over simulated links (40 ms one way, 0/2/5/10 % loss
// on every user's link), each user's pointer at 60 Hz, for several session rates side by side. Deterministic
// (seeded), so rate and scheduling choices can be compared exactly; the compare bench checks the same workload
// over real sockets and a real router. Reports, per rate and loss: relayed pointer latency excess over the
// 80 ms path (p50/p95/p99), the largest gap between consecutive updates any user saw of another, updates seen
// per second, and on-wire kbit/s per user up and down.
import type { PeerAddress } from '../src-main/net/address';
import { addressKey } from '../src-main/net/address';
import type { Impairment } from '../src-main/net/impairment';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import type { SessionRate } from '../src-main/session/connection-stack';
import { parseSessionRate } from '../src-main/session/connection-stack';
import { makeSimSession, SIM_HOST_ADDRESS } from '../src-main/session/testing/sim-session';

const USERS = 4;
const MOUSE_HZ = 60;
const ONE_WAY_MS = 40;
const PATH_MS = 2 * ONE_WAY_MS;
const WARMUP_MS = 3000;
const MEASURE_MS = Number(process.env.GB_POINTERS_SECONDS ?? 20) * 1000;
const LOSSES = [0, 0.02, 0.05, 0.1];
const SEEDS = [1, 2, 3];
/** How late a mouse event may be handled after its frame. */
const MAX_EVENT_JITTER_MS = 2;

const RATES: Record<string, SessionRate> = Object.fromEntries(
  (process.env.GB_POINTERS_RATES ?? 'modem,30:30,broadband,45:90,60:60,60:75,60:90,lan')
    .split(',')
    .map((r): [string, SessionRate] => {
      const rate = parseSessionRate(r);
      if (rate === undefined) throw new Error(`GB_POINTERS_RATES: bad rate ${r}`);
      const pps = `${rate.toHost.packetsPerSecond}:${rate.toPeers.packetsPerSecond}`;
      return [r === pps ? r : `${r} ${pps}`, rate];
    }),
);

interface Row {
  readonly rate: string;
  readonly loss: number;
  readonly excessP50: number;
  readonly excessP95: number;
  readonly excessP99: number;
  readonly maxGapMs: number;
  readonly updatesPerSecond: number;
  readonly upKbps: number;
  readonly downKbps: number;
}

function pct(sorted: readonly number[], q: number): number {
  const v = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return Math.round((v ?? NaN) * 10) / 10;
}

function userAddress(i: number): PeerAddress {
  // makeSimSession's addresses for its peers, in join order.
  return { address: `127.0.1.${i + 1}`, port: 9000 + i };
}

/** One run: every user moves; returns latencies, gaps and bytes for the measured window. */
function runOnce(rate: SessionRate, loss: number, seed: number) {
  const s = makeSimSession({ seed, rate });
  const link: Impairment = { ...NO_IMPAIRMENT, loss, delayMs: ONE_WAY_MS, maxQueueMs: 500 };
  for (let i = 0; i < USERS; i++) {
    s.net.setConditions(userAddress(i), SIM_HOST_ADDRESS, link);
    s.net.setConditions(SIM_HOST_ADDRESS, userAddress(i), link);
    s.addPeer(`u${i}`);
  }
  // Peer id -> user index, from each user's welcome (slow rates under loss take a few seconds to join).
  const ids = new Map<number, number>();
  const joined = (): boolean => {
    for (let i = 0; i < USERS; i++) {
      const you = s.peerEvents[i]?.find((e) => e.type === 'ready');
      if (you?.type === 'ready') ids.set(you.you, i);
    }
    return ids.size === USERS;
  };
  s.sim.runUntilTrue(joined, 15_000);
  if (ids.size !== USERS) throw new Error(`seed ${seed}: only ${ids.size} users joined`);
  const start = s.sim.now;
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + MEASURE_MS;
  const sentAt: number[][] = Array.from({ length: USERS }, () => []);
  // Each user's mouse has its own phase, and each event is a little late, as a real event loop delivers them.
  const frame = 1000 / MOUSE_HZ;
  for (let i = 0; i < USERS; i++) {
    const phase = s.rng.next() * frame;
    let k = 0;
    const move = (): void => {
      const now = s.sim.now;
      if (now >= end) return;
      // x names the tick, y the sender: a received pointer says which write it shows.
      s.peers[i]?.pointer(k, i);
      sentAt[i]?.push(now);
      k++;
    };
    s.sim.every(
      frame,
      () => {
        s.sim.after(s.rng.next() * MAX_EVENT_JITTER_MS, move);
      },
      start + phase,
    );
  }
  const excess: number[] = [];
  let maxGap = 0;
  let seen = 0;
  const lastSeen = new Map<string, number>();
  for (let r = 0; r < USERS; r++) {
    s.peers[r]?.on((e) => {
      if (e.type !== 'pointer' || !e.moved) return;
      const now = s.sim.now;
      if (now < measureFrom || now >= end) return;
      const from = ids.get(e.pointer.peer);
      if (from === undefined || from === r) return;
      const at = sentAt[from]?.[e.pointer.x];
      if (at !== undefined) excess.push(now - at - PATH_MS);
      seen++;
      const key = `${r}<${from}`;
      const last = lastSeen.get(key);
      if (last !== undefined) maxGap = Math.max(maxGap, now - last);
      lastSeen.set(key, now);
    });
  }
  s.sim.runUntil(measureFrom);
  const before = wire(s.net.wireBytes);
  s.sim.runUntil(end);
  const after = wire(s.net.wireBytes);
  const seconds = MEASURE_MS / 1000;
  return {
    excess,
    maxGap,
    seen,
    upKbps: ((after.up - before.up) * 8) / 1000 / seconds / USERS,
    downKbps: ((after.down - before.down) * 8) / 1000 / seconds / USERS,
  };
}

function wire(m: Map<string, { offered: number }>): { up: number; down: number } {
  const host = addressKey(SIM_HOST_ADDRESS);
  let up = 0;
  let down = 0;
  for (const [key, v] of m) {
    if (key.startsWith(`${host}>`)) down += v.offered;
    else if (key.endsWith(`>${host}`)) up += v.offered;
  }
  return { up, down };
}

export async function run(): Promise<Record<string, unknown>> {
  await Promise.resolve();
  const rows: Row[] = [];
  for (const [name, rate] of Object.entries(RATES)) {
    for (const loss of LOSSES) {
      const all: number[] = [];
      let maxGap = 0;
      let seen = 0;
      let up = 0;
      let down = 0;
      for (const seed of SEEDS) {
        const r = runOnce(rate, loss, seed);
        all.push(...r.excess);
        maxGap = Math.max(maxGap, r.maxGap);
        seen += r.seen;
        up += r.upKbps / SEEDS.length;
        down += r.downKbps / SEEDS.length;
      }
      all.sort((a, b) => a - b);
      const row: Row = {
        rate: name,
        loss,
        excessP50: pct(all, 0.5),
        excessP95: pct(all, 0.95),
        excessP99: pct(all, 0.99),
        maxGapMs: Math.round(maxGap * 10) / 10,
        updatesPerSecond:
          Math.round((seen / SEEDS.length / (MEASURE_MS / 1000) / (USERS * (USERS - 1))) * 10) / 10,
        upKbps: Math.round(up * 10) / 10,
        downKbps: Math.round(down * 10) / 10,
      };
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  }
  console.error(
    [
      '| rate (pkt/s to host:to peers) | loss | excess p50 / p95 / p99 ms | max gap ms | updates/s seen | up kbit/s | down kbit/s |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...rows.map(
        (r) =>
          `| ${r.rate} | ${r.loss * 100} % | ${r.excessP50} / ${r.excessP95} / ${r.excessP99} | ${r.maxGapMs} | ${r.updatesPerSecond} | ${r.upKbps} | ${r.downKbps} |`,
      ),
    ].join('\n'),
  );
  return {
    bench: 'pointers',
    users: USERS,
    mouseHz: MOUSE_HZ,
    oneWayMs: ONE_WAY_MS,
    seeds: SEEDS,
    measureSeconds: MEASURE_MS / 1000,
    rows,
  };
}
