// Test kit: issue 23's starved-link workload in the simulator (the compare bench's `badnet` condition): four
// joiners whose pointers move at 60 Hz, each dragging its own rectangle every 2 s and chatting every 0.5 s over
// links of 16 kbit/s each way, 10 % loss and 40 ± 5 ms; records when each chat line, pointer update and drop
// reached every other user on the virtual clock. Knows nothing of what the test asserts.
import type { Impairment } from '../../net/impairment';
import { NO_IMPAIRMENT } from '../../net/impairment';
import { newRect } from '../../../shared/testing/rect';
import { isRefusal } from '../board';
import { addressKey } from '../../net/address';
import type { SimSession } from './sim-session';
import { makeSimSession, SIM_HOST_ADDRESS } from './sim-session';

/** 16 kbit/s each way, 10 % loss, 35 ms plus 0-10 ms of jitter, a 500 ms tail-drop queue (as the bench's badnet). */
export const BADNET: Impairment = {
  ...NO_IMPAIRMENT,
  loss: 0.1,
  delayMs: 35,
  jitterMs: 10,
  bandwidthBps: 16_000,
  maxQueueMs: 500,
};

const USERS = 4;
const POINTER_HZ = 60;
const CHAT_EVERY_MS = 500;
const DRAG_EVERY_MS = 2000;
const DRAG_MS = 500;
/** Pointers sit this far apart in x, so each user's nearest remote pointer is its neighbour's. */
const SPACING = 1000;

export interface BadnetRun {
  readonly s: SimSession;
  /** One-way times (ms) of the chat lines sent in the window, to each other user. */
  readonly chatLatency: number[];
  /** (line, receiver) pairs of the window's lines that never arrived. */
  readonly chatMissing: number;
  readonly chatSent: number;
  /** [receiver][sender]: moved-pointer updates seen per second over the window (0 for oneself). */
  readonly pointerHz: number[][];
  /** Users whose board ended with every other user's rectangle at that user's last drop. */
  readonly finalCorrect: number;
  /** Fraction of the window's bytes the links did not deliver (tail drops and random loss). */
  readonly undelivered: number;
  /** Bytes/s offered to the links in the window, per direction (each user's mean): against 2,000 B/s of link. */
  readonly upBytesPerSecond: number;
  readonly downBytesPerSecond: number;
}

const HOST_JOIN_MS = 3000;

/**
 * Runs the workload: joins, `warmupMs` of it unmeasured (the rate finds the link), `windowMs` measured, then
 * 5 s more for what is in flight to land (a drag under way finishes with its drop).
 */
export function runBadnet(o: {
  seed: number;
  warmupMs: number;
  windowMs: number;
  conditions?: Impairment;
}): BadnetRun {
  const s = makeSimSession({ seed: o.seed, conditions: o.conditions ?? BADNET });
  const start = HOST_JOIN_MS + o.warmupMs;
  const end = start + o.windowMs;
  const inWindow = (t: number): boolean => t >= start && t < end;
  const rects: number[] = [];
  for (let i = 0; i < USERS; i++) {
    const r = s.host.create(newRect({ x: SPACING * (i + 1), y: 1000, w: 200, h: 100 }), 0);
    if (isRefusal(r)) throw new Error(`create refused: ${JSON.stringify(r)}`);
    rects.push(r.id);
  }
  const chatAt = new Map<string, number>();
  const chatLatency: number[] = [];
  const arrived = new Set<string>();
  const moves: number[][] = [];
  for (let i = 0; i < USERS; i++) {
    s.addPeer(`u${i}`);
    const seen = new Array<number>(USERS).fill(0);
    moves.push(seen);
    s.peers[i]?.on((e) => {
      const now = s.sim.now;
      if (e.type === 'chat') {
        const sentAt = chatAt.get(e.text);
        const key = `${i} ${e.text}`;
        const own = e.text.startsWith(`chat ${i} `);
        if (own || sentAt === undefined || !inWindow(sentAt) || arrived.has(key)) return;
        arrived.add(key);
        chatLatency.push(now - sentAt);
      } else if (e.type === 'pointer' && e.moved && inWindow(now)) {
        const sender = Math.floor(e.pointer.x / SPACING) - 1;
        if (sender !== i && sender >= 0 && sender < USERS) seen[sender] = (seen[sender] ?? 0) + 1;
      }
    });
  }
  s.sim.runUntil(HOST_JOIN_MS);

  let chatSent = 0;
  const lastDrop = new Array<{ x: number; y: number } | undefined>(USERS).fill(undefined);
  /** The drag under way: its number and when it started. */
  const dragging = new Array<{ k: number; at: number } | undefined>(USERS).fill(undefined);
  const dragCount = new Array<number>(USERS).fill(0);
  // Each user's mouse on its own phase, a quarter of a frame apart (as the compare bench's users): pointers
  // reach the host one at a time, not four to a tick.
  for (let i = 0; i < USERS; i++) {
    let frame = 0;
    s.sim.every(
      1000 / POINTER_HZ,
      (now) => {
        frame++;
        const sending = now < end;
        const p = s.peers[i];
        if (!p || (!sending && dragging[i] === undefined)) return;
        // The pointer wanders within its own column; the column tells receivers whose it is.
        p.pointer(SPACING * (i + 1) + ((frame * 13 + i * 29) % 97), 1000 + ((frame * 7) % 89));
        const id = rects[i] ?? 0;
        const d = dragging[i];
        if (d !== undefined) {
          const to = dropTarget(i, d.k);
          if (now - d.at < DRAG_MS) {
            const f = ((now - d.at) / DRAG_MS) * 0.97;
            p.drag(
              id,
              Math.round(SPACING * (i + 1) + (to.x - SPACING * (i + 1)) * f),
              Math.round(1000 + (to.y - 1000) * f),
            );
          } else {
            p.drop(id, to.x, to.y);
            lastDrop[i] = to;
            dragging[i] = undefined;
          }
        } else if (
          sending &&
          (now - HOST_JOIN_MS + (i * DRAG_EVERY_MS) / USERS) % DRAG_EVERY_MS < 1000 / POINTER_HZ
        ) {
          const k = (dragCount[i] = (dragCount[i] ?? 0) + 1);
          dragging[i] = { k, at: now };
          p.grab(id);
        }
      },
      HOST_JOIN_MS + (i * 1000) / POINTER_HZ / USERS,
    );
  }
  for (let i = 0; i < USERS; i++) {
    s.sim.every(
      CHAT_EVERY_MS,
      (now) => {
        if (now >= end) return;
        const text = `chat ${i} ${now.toFixed(1)}`;
        chatAt.set(text, now);
        s.peers[i]?.chat(text);
        if (inWindow(now)) chatSent++;
      },
      HOST_JOIN_MS + (i * CHAT_EVERY_MS) / USERS,
    );
  }
  s.sim.runUntil(start);
  const before = wireTotals(s);
  s.sim.runUntil(end);
  const after = wireTotals(s);
  s.sim.runUntil(end + DRAG_MS + 5000);

  let finalCorrect = 0;
  for (let r = 0; r < USERS; r++) {
    const ok = rects.every((id, owner) => {
      const want = lastDrop[owner];
      const got = s.peers[r]?.board.get(id);
      return owner === r || want === undefined || (got?.x === want.x && got.y === want.y);
    });
    if (ok) finalCorrect++;
  }
  const windowS = o.windowMs / 1000;
  return {
    s,
    chatLatency,
    chatMissing: chatSent * (USERS - 1) - chatLatency.length,
    chatSent,
    pointerHz: moves.map((row) => row.map((n) => n / windowS)),
    finalCorrect,
    undelivered:
      1 - (after.delivered - before.delivered) / Math.max(1, after.offered - before.offered),
    upBytesPerSecond: (after.up - before.up) / windowS / USERS,
    downBytesPerSecond: (after.down - before.down) / windowS / USERS,
  };
}

function dropTarget(i: number, k: number): { x: number; y: number } {
  return { x: SPACING * (i + 1) + ((k * 37) % 400) + 1, y: 1000 + ((k * 23) % 300) + 1 };
}

interface WireTotals {
  offered: number;
  delivered: number;
  /** Offered from the host (down) and to it (up). */
  down: number;
  up: number;
}

function wireTotals(s: SimSession): WireTotals {
  const t: WireTotals = { offered: 0, delivered: 0, down: 0, up: 0 };
  const host = addressKey(SIM_HOST_ADDRESS);
  for (const [path, b] of s.net.wireBytes) {
    t.offered += b.offered;
    t.delivered += b.delivered;
    if (path.startsWith(`${host}>`)) t.down += b.offered;
    else if (path.endsWith(`>${host}`)) t.up += b.offered;
  }
  return t;
}
