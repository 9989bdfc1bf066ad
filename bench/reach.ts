// Reach benchmark. Two parts:
// 1. Joins through a directory in the simulator, 40 ms on every link (host, joiner and directory each 40 ms from
//    the others): time from "join" (the joiner asks the directory) to the first complete board frame (every object
//    the host announced is in), the bytes both sides spent before it, over 20 seeded joins; beside it the same
//    join by address (no directory). Deterministic, so it measures the protocol's round trips, not this machine.
// 2. A directory process under load: 10,000 sessions registered and heartbeating from 400 loopback source
//    addresses (25 each: a carrier NAT's worth), plus 200 lookups/s; its CPU (cores) and resident memory.
// NAT cells (cone, symmetric, same-NAT, relayed) need the namespace lab: test/netlab/reach.netns.test.ts checks
// them; their join times are not measured here yet.
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { fileURLToPath } from 'node:url';
import type { PeerAddress } from '../src-main/net/address';
import { addressKey } from '../src-main/net/address';
import type { RendezvousMessage } from '../src-main/net/rendezvous';
import {
  decodeRendezvous,
  encodeRendezvous,
  isRendezvousDecodeError,
} from '../src-main/net/rendezvous';
import { PRIME_LEAD_MS, RendezvousClient } from '../src-main/net/rendezvous-client';
import { Rng } from '../src-main/net/rng';
import { SimHarness } from '../src-main/net/testing/harness';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { SimNetwork } from '../src-main/net/testing/network';
import { Directory } from '../src-main/directory/directory';
import { HostSession } from '../src-main/session/host';
import { PeerSession } from '../src-main/session/peer';
import type { SessionEvent } from '../src-main/session/session-events';
import { PROTOCOL_VERSION } from '../shared/version';
import { cpuSeconds, rssMb } from './proc-usage';

const ONE_WAY_MS = 40;
const JOINS = 20;
const BOARD_OBJECTS = 200;
const CODE = '7-orbit-lantern';
const DIR: PeerAddress = { address: '203.0.113.1', port: 7340 };
const HOST: PeerAddress = { address: '198.51.100.10', port: 7350 };
const JOINER: PeerAddress = { address: '100.64.20.30', port: 50_000 };

const SESSIONS = 10_000;
const SOURCES = 400;
/** Lookups come from this many sources (a directory holds each source to 50 requests/s). */
const LOOKUP_SOURCES = 10;
const LOOKUPS_PER_SECOND = 200;
const WARMUP_MS = 6_000;
const MEASURE_MS = 20_000;

const randomFrom =
  (rng: Rng) =>
  (n: number): Uint8Array =>
    Uint8Array.from({ length: n }, () => rng.uint32() & 0xff);

interface JoinResult {
  readonly ms: number;
  readonly bytes: number;
}

/** One join in a fresh world; resolves when the joiner holds every object the host announced. */
function simJoin(seed: number, viaDirectory: boolean): JoinResult {
  const rng = new Rng(seed);
  // 40 ms one way between any two of the three (80 ms round trips).
  const net = new SimNetwork(rng, { ...NO_IMPAIRMENT, delayMs: ONE_WAY_MS });
  net.logging = false;
  const sim = new SimHarness(net);
  const directory = new Directory({ secret: randomFrom(rng)(32) });
  sim.add(DIR, directory);
  const host = new HostSession({ name: 'Host', joinCode: CODE }, 0);
  for (let i = 0; i < BOARD_OBJECTS; i++)
    host.create(
      {
        kind: 'rect',
        x: (i % 20) * 60,
        y: Math.floor(i / 20) * 60,
        w: 50,
        h: 40,
        rotation: 0,
        stroke: 0,
        fill: null,
        strokeWidth: 2,
        text: '',
        points: [],
        blob: '',
      },
      0,
    );
  const hostClient = new RendezvousClient({ directories: [DIR], random: randomFrom(rng) });
  host.endpoint.tenant = hostClient;
  sim.add(HOST, host.endpoint);
  hostClient.register(0, {
    name: 'Bench',
    listed: false,
    version: PROTOCOL_VERSION,
    users: 1,
    candidates: [],
  });
  sim.every(5, (now) => host.afterIo(now));
  sim.every(50, (now) => host.tick(now));
  sim.runUntil(2_000);

  const peer = new PeerSession({ name: 'Joiner', joinCode: CODE, viewer: false }, sim.now);
  const events: SessionEvent[] = [];
  peer.on((e) => events.push(e));
  const joinClient = new RendezvousClient({ directories: [DIR], random: randomFrom(rng) });
  peer.endpoint.tenant = joinClient;
  sim.add(JOINER, peer.endpoint);
  sim.every(5, (now) => {
    peer.afterIo(now);
    for (let e = joinClient.pollEvent(); e !== undefined; e = joinClient.pollEvent()) {
      if (e.type === 'intro') {
        const to = e.session.host;
        sim.after(PRIME_LEAD_MS, (t) => peer.connect(t, to));
      }
    }
  });
  sim.every(50, (now) => peer.tick(now));
  const start = sim.now;
  const bytesBefore = wire(net);
  if (viaDirectory) joinClient.introduce(start, 'Bench', []);
  else peer.connect(start, HOST);
  const done = (): boolean =>
    events.some((e) => e.type === 'ready') &&
    events.some((e) => e.type === 'progress' && e.total === BOARD_OBJECTS && e.received >= e.total);
  if (!sim.runUntilTrue(done, start + 30_000))
    throw new Error(`seed ${seed}: the join did not complete`);
  return { ms: sim.now - start, bytes: wire(net) - bytesBefore };
}

function wire(net: SimNetwork): number {
  let total = 0;
  for (const [key, v] of net.wireBytes)
    if (key.includes(addressKey(JOINER)) || key.includes(addressKey(HOST))) total += v.offered;
  return total;
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

function joins(viaDirectory: boolean): { p50Ms: number; p95Ms: number; bytesP50: number } {
  const results = Array.from({ length: JOINS }, (_, i) => simJoin(1000 + i, viaDirectory));
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const bytes = results.map((r) => r.bytes).sort((a, b) => a - b);
  return {
    p50Ms: percentile(ms, 0.5),
    p95Ms: percentile(ms, 0.95),
    bytesP50: percentile(bytes, 0.5),
  };
}

async function directoryLoad(): Promise<Record<string, number>> {
  const bin = fileURLToPath(new URL('../bin/ghostboard.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'directory', '--bind', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        const m = /"ev":"ready".*?"port":(\d+)/.exec(chunk);
        if (m?.[1] !== undefined) resolve(Number(m[1]));
      });
      child.once('exit', () => reject(new Error('directory exited')));
    });
    const dir = { address: '127.0.0.1', port };
    const perSource = SESSIONS / SOURCES;
    let replies = 0;
    let registered = 0;
    let heartbeatMs = 2_000;
    let found = 0;
    const sources = await Promise.all(
      Array.from({ length: SOURCES + LOOKUP_SOURCES }, async (_, s) => {
        const socket = dgram.createSocket('udp4');
        // Each its own loopback address: a directory limits requests per source address.
        await new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.bind(0, `127.1.${(s + 1) >> 8}.${(s + 1) & 255}`, () => {
            socket.off('error', reject);
            resolve();
          });
        });
        const state = { socket, cookie: undefined as Uint8Array | undefined };
        socket.on('message', (msg) => {
          replies++;
          const m = decodeRendezvous(msg);
          if (isRendezvousDecodeError(m)) return;
          if (m.type === 'cookie') state.cookie = m.cookie;
          else if (m.type === 'registered') {
            registered++;
            // Hosts heartbeat as often as the directory asks (it spaces them out as sessions grow).
            heartbeatMs = m.heartbeatMs;
          } else if (m.type === 'session') found++;
        });
        return state;
      }),
    );
    const send = (s: (typeof sources)[number], m: RendezvousMessage): void => {
      s.socket.send(encodeRendezvous(m), dir.port, dir.address);
    };
    // Probes paced and repeated until every source holds a cookie: a burst of hundreds at once overflows the
    // directory's socket buffer (Linux's default is about 200 KB, some 270 small datagrams).
    for (let round = 0; round < 20 && sources.some((s) => s.cookie === undefined); round++) {
      for (const [i, s] of sources.entries()) {
        if (s.cookie !== undefined) continue;
        send(s, { type: 'probe', request: 1 });
        if (i % 50 === 49) await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const cookies = sources.filter((s) => s.cookie !== undefined).length;
    if (cookies < sources.length)
      throw new Error(`only ${cookies} of ${sources.length} sources got a cookie`);
    const ownerKeys = Array.from({ length: SESSIONS }, (_, i) => {
      const k = new Uint8Array(16);
      new DataView(k.buffer).setUint32(0, i + 1);
      return k;
    });
    const lookupSources = sources.slice(SOURCES);
    let request = 10;
    // Heartbeats every 2 s and lookups at their rate, spread evenly: each tick sends what is due by the clock.
    const TICK_MS = 10;
    const begin = performance.now();
    let last = begin;
    let owed = 0;
    let next = 0;
    let lookups = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      const elapsed = now - begin;
      // Every session registers over the first 2 s, then heartbeats once per interval the directory asks for.
      owed += ((now - last) * SESSIONS) / (next < SESSIONS ? 2_000 : heartbeatMs);
      last = now;
      for (; owed >= 1; owed--) {
        const i = next++ % SESSIONS;
        const s = sources[Math.floor(i / perSource)];
        const ownerKey = ownerKeys[i];
        if (s?.cookie === undefined || ownerKey === undefined) continue;
        send(s, {
          type: 'register',
          request: request++,
          cookie: s.cookie,
          ownerKey,
          version: PROTOCOL_VERSION,
          name: `bench session ${i}`,
          listed: i % 2 === 0,
          users: 1 + (i % 7),
          candidates: [{ address: '192.168.1.10', port: 7350 }],
        });
      }
      const dueLookups = Math.floor((elapsed * LOOKUPS_PER_SECOND) / 1000);
      for (; lookups < dueLookups; lookups++) {
        const lookupSource = lookupSources[lookups % LOOKUP_SOURCES];
        if (lookupSource?.cookie === undefined) continue;
        send(lookupSource, {
          type: 'lookup',
          request: request++,
          cookie: lookupSource.cookie,
          name: `bench session ${Math.floor(Math.random() * SESSIONS)}`,
        });
      }
    }, TICK_MS);
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    const a = { cpuS: cpuSeconds(child.pid), rssMb: rssMb(child.pid) };
    const t0 = performance.now();
    const r0 = { registered, found };
    await new Promise((r) => setTimeout(r, MEASURE_MS));
    const b = { cpuS: cpuSeconds(child.pid), rssMb: rssMb(child.pid) };
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(timer);
    for (const s of sources) s.socket.close();
    return {
      sessions: SESSIONS,
      heartbeatMs,
      heartbeatsPerSecond: Math.round((registered - r0.registered) / seconds),
      lookupsPerSecond: Math.round((found - r0.found) / seconds),
      cpuCores: Math.round(((b.cpuS - a.cpuS) / seconds) * 1000) / 1000,
      rssMb: b.rssMb,
      replies,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const viaDirectory = joins(true);
  const byAddress = joins(false);
  console.error(`sim joins (${ONE_WAY_MS} ms links, ${BOARD_OBJECTS} objects):`, {
    viaDirectory,
    byAddress,
  });
  const load = await directoryLoad();
  console.error('directory under load:', load);
  return {
    linkMs: ONE_WAY_MS,
    boardObjects: BOARD_OBJECTS,
    joins: JOINS,
    simulatedJoins: { viaDirectory, byAddress },
    directoryLoad: load,
    notMeasured: 'join times per NAT cell (namespaces with 40 ms links) and relayed joins',
    targets: {
      directJoinP95Ms: { limit: 1500, value: viaDirectory.p95Ms, met: viaDirectory.p95Ms <= 1500 },
      directoryCpuCores: { limit: 0.2, value: load.cpuCores, met: (load.cpuCores ?? 1) < 0.2 },
      directoryRssMb: { limit: 200, value: load.rssMb, met: (load.rssMb ?? 1e9) < 200 },
    },
  };
}
