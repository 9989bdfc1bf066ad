// Dev only (?fake=1): moves the simulated participants' pointers (20 Hz, with jitter), drags an object now and
// then, and makes up link statistics. Never used by the real app path.
import type {
  ConnectionStats,
  NearestHosts,
  NetworkConditions,
  RemotePointer,
  StatsSnapshot,
} from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import { ADA, LINUS } from './fake-seed';

/** Where Ada's and Linus's pointers are at time t (s). */
export function fakePointers(t: number, board: ReadonlyMap<number, BoardObject>): RemotePointer[] {
  const ada: RemotePointer = {
    peer: ADA,
    x: Math.round(520 + Math.sin(t * 0.9) * 260),
    y: Math.round(420 + Math.sin(t * 1.7) * 110),
    tool: 'pen',
    visible: true,
    drag: null,
  };
  return [ada, linusPointer(t, board)];
}

/** Linus drags the pink note back and forth: 3 s of drag, then 3 s of wandering. */
function linusPointer(t: number, board: ReadonlyMap<number, BoardObject>): RemotePointer {
  const note = [...board.values()].find((o) => o.kind === 'note' && o.fill === 0xffc9c9);
  const phase = t % 6;
  if (note && phase < 3) {
    const f = phase / 3;
    const x = Math.round(700 + Math.sin(f * Math.PI) * 260);
    const y = Math.round(320 + Math.sin(f * Math.PI * 2) * 60);
    return {
      peer: LINUS,
      x: x + 60,
      y: y + 30,
      tool: 'select',
      visible: true,
      drag: { id: note.id, x, y },
    };
  }
  const x = Math.round(900 + Math.cos(t * 1.3) * 120);
  const y = Math.round(200 + Math.sin(t * 0.8) * 90);
  return { peer: LINUS, x, y, tool: 'select', visible: true, drag: null };
}

/** Where Linus drops the note at the end of each drag. */
export function linusDropped(t: number): boolean {
  return t % 6 >= 3;
}

function link(
  peer: number,
  name: string,
  t: number,
  c: NetworkConditions,
  baseRtt: number,
  path: ConnectionStats['path'],
): ConnectionStats {
  const wobble = (k: number): number => 1 + 0.25 * Math.sin(t * k + peer);
  const capped = (k: number): number => (c.kbps > 0 ? Math.min(k, c.kbps) : k);
  const ghostsIn = capped(14 * wobble(1.1));
  const eventsIn = capped(3 * wobble(0.7));
  const headers = 2.5 * wobble(0.5);
  const out = capped(9 * wobble(0.9));
  const rate = c.kbps > 0 && c.kbps < 40 ? 10 : 30;
  return {
    peer,
    name,
    ...(path === undefined ? {} : { path }),
    rttMs: Math.round((baseRtt + 2 * c.delayMs) * wobble(2.3)),
    lossPct: Math.max(0, c.lossPct + Math.sin(t * 3 + peer) * 0.4),
    kbpsIn: ghostsIn + eventsIn + headers,
    kbpsOut: out + headers,
    packetsPerSecondIn: Math.round(rate * wobble(1.9)),
    packetsPerSecondOut: Math.round(rate * wobble(1.2)),
    inFlight: Math.min(32, Math.round(4 + (baseRtt + c.delayMs) / 20 + Math.abs(Math.sin(t)) * 6)),
    windowSize: 32,
    packetsPerSecond: rate,
    packetBytes: rate === 10 ? 200 : 1200,
    allowedKbps: c.kbps > 0 ? c.kbps : 480 + Math.round(Math.sin(t / 5) * 60),
    estimatedKbps: t > 3 ? Math.round(2400 * wobble(0.2)) : null,
    byKind: [
      { kind: 'headers + crypto', kbpsIn: headers, kbpsOut: headers },
      { kind: 'ghosts: presence', kbpsIn: ghostsIn * 0.7, kbpsOut: out * 0.8 },
      { kind: 'ghosts: board', kbpsIn: ghostsIn * 0.3, kbpsOut: out * 0.1 },
      { kind: 'events: drawing', kbpsIn: eventsIn * 0.8, kbpsOut: out * 0.08 },
      { kind: 'events: chat', kbpsIn: eventsIn * 0.2, kbpsOut: out * 0.02 },
    ],
  };
}

export function fakeStats(t: number, c: NetworkConditions): StatsSnapshot {
  const peers = [link(ADA, 'Ada', t, c, 38, 'direct'), link(LINUS, 'Linus', t, c, 112, 'relayed')];
  return {
    at: Math.round(t * 1000),
    totalKbpsIn: peers.reduce((a, p) => a + p.kbpsIn, 0),
    totalKbpsOut: peers.reduce((a, p) => a + p.kbpsOut, 0),
    peers,
    conditions: c,
  };
}

/** Pretend RTTs of a session's hosts, in link order (null: silent). */
const FAKE_RTTS: readonly (number | null)[] = [118.4, 11.6, null, 64.2, 35.1, null, 88, 23.5];

/** A session's hosts (mirrors) as a joiner's probes might find them: the second nearest, the third silent. */
export function fakeNearest(addresses: readonly string[]): NearestHosts {
  const hosts = addresses.map((address, i) => ({
    address,
    rttMs: FAKE_RTTS[i % FAKE_RTTS.length] ?? null,
    incompatible: false,
  }));
  let chosen: number | null = null;
  hosts.forEach((h, i) => {
    const best = chosen === null ? null : (hosts[chosen]?.rttMs ?? null);
    if (h.rttMs !== null && (best === null || h.rttMs < best)) chosen = i;
  });
  return { hosts, chosen };
}
