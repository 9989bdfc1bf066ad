// Test kit: how long a pointer takes from one user through the host to another on short clean links (issue 22's
// same-site path: 5 ms each way to the host), in the simulator. Every user's mouse moves at 60 Hz on its own
// random phase; each relayed update is timed from the sender's call to the receiver's event and split into the
// sender's wait (call to the host's receipt, less the link) and the host's (receipt to the receiver's event, less
// the link). Knows nothing of what the test asserts.
import { NO_IMPAIRMENT } from '../../net/impairment';
import type { SessionRate } from '../connection-stack';
import type { SimSession } from './sim-session';
import { makeSimSession, SIM_HOST_ADDRESS } from './sim-session';
import { addressKey } from '../../net/address';
import { UDP_IPV4_OVERHEAD } from '../../net/stats';
import { columnOf, columnX, FRAMES, POINTER_HZ } from './columns';

/** Each user's pointer lives in its own column this wide; x within it says which frame the update is. */
const SPACING = 1000;
const JOIN_MS = 3000;

export interface RelayLatencyRun {
  readonly s: SimSession;
  /** Per relayed update seen in the window: call to the receiver's event, ms. */
  readonly total: number[];
  /** Call to the host's receipt, less the link (the sender's scheduler wait), ms. */
  readonly senderWait: number[];
  /** Host's receipt to the receiver's event, less the link (the host's relay and pacing wait), ms. */
  readonly hostWait: number[];
  /** Updates the host received in the window that a receiver never saw (replaced before they left). */
  readonly unseen: number;
  /** Packets/s the host sent each user in the window, and its bytes/s to each (the users' mean). */
  readonly hostPacketsPerSecond: number;
  readonly downBytesPerSecond: number;
}

export function runRelayLatency(o: {
  seed: number;
  users: number;
  /** One way, user to host and back (5 ms for a same-site mirror). */
  linkMs?: number;
  warmupMs?: number;
  windowMs?: number;
  rate?: SessionRate;
}): RelayLatencyRun {
  const linkMs = o.linkMs ?? 5;
  const s = makeSimSession({
    seed: o.seed,
    conditions: { ...NO_IMPAIRMENT, delayMs: linkMs },
    ...(o.rate === undefined ? {} : { rate: o.rate }),
  });
  const start = JOIN_MS + (o.warmupMs ?? 2000);
  const end = start + (o.windowMs ?? 5000);
  const sentAt: number[][] = [];
  /** When the host received each (user, frame): the host's own pointer event. */
  const hostAt: number[][] = [];
  const total: number[] = [];
  const senderWait: number[] = [];
  const hostWait: number[] = [];
  const seen = new Set<number>();
  s.host.on((e) => {
    if (e.type !== 'pointer' || !e.moved) return;
    const { from, frame } = columnOf(SPACING, e.pointer.x);
    const row = hostAt[from];
    if (row !== undefined && frame < FRAMES) row[frame] = s.sim.now;
  });
  for (let i = 0; i < o.users; i++) {
    sentAt.push(new Array<number>(FRAMES).fill(NaN));
    hostAt.push(new Array<number>(FRAMES).fill(NaN));
    s.addPeer(`u${i}`);
    s.peers[i]?.on((e) => {
      const now = s.sim.now;
      if (e.type !== 'pointer' || !e.moved) return;
      const { from, frame } = columnOf(SPACING, e.pointer.x);
      const sent = sentAt[from]?.[frame] ?? NaN;
      if (from === i || !(sent >= start && sent < end)) return;
      const atHost = hostAt[from]?.[frame] ?? NaN;
      total.push(now - sent);
      senderWait.push(atHost - sent - linkMs);
      hostWait.push(now - atHost - linkMs);
      seen.add((from * FRAMES + frame) * o.users + i);
    });
  }
  s.sim.runUntil(JOIN_MS);
  let received = 0;
  for (let i = 0; i < o.users; i++) {
    let frame = 0;
    const phase = s.rng.next() * (1000 / POINTER_HZ);
    s.sim.every(
      1000 / POINTER_HZ,
      (now) => {
        frame = (frame + 1) % FRAMES;
        if (now >= end) return;
        (sentAt[i] as number[])[frame] = now;
        if (now >= start) received += o.users - 1;
        s.peers[i]?.pointer(columnX(SPACING, i, frame), 1000);
      },
      JOIN_MS + phase,
    );
  }
  const sends = countHostSends(s);
  s.sim.runUntil(start);
  const before = { ...sends };
  s.sim.runUntil(end);
  const after = { ...sends };
  s.sim.runUntil(end + 200);
  const perUser = ((o.windowMs ?? 5000) / 1000) * o.users;
  return {
    s,
    total,
    senderWait,
    hostWait,
    unseen: received - seen.size,
    hostPacketsPerSecond: (after.packets - before.packets) / perUser,
    downBytesPerSecond: (after.bytes - before.bytes) / perUser,
  };
}

/** Counts what the host offers the network (packets, and bytes with 28 B of IP/UDP each). */
function countHostSends(s: SimSession): { packets: number; bytes: number } {
  const totals = { packets: 0, bytes: 0 };
  const send = s.net.send.bind(s.net);
  const host = addressKey(SIM_HOST_ADDRESS);
  s.net.send = (now, d) => {
    if (addressKey(d.from) === host) {
      totals.packets++;
      totals.bytes += d.bytes.length + UDP_IPV4_OVERHEAD;
    }
    send(now, d);
  };
  return totals;
}
