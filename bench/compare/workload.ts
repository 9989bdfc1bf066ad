// The compare workload, identical for every stack: each user's pointer at a 60 Hz mouse rate, a drag of its own
// rectangle every 2 s, a chat line every 5 s; records what every other user sees and when. A command's time is
// when this process wrote it; an event's is when the user's process emitted it (its `t`, CLOCK_MONOTONIC, one
// clock for every process on the machine), so neither the event's pipe nor this process's own event loop counts
// as the stack's latency. The time each event was read here is kept too, to show what the harness adds.
// Knows nothing of the stacks or the router.
import type { JsonEvent, JsonProc } from '../router/json-proc';
import { machineClockMs } from '../../src-main/cli/script';

export const POINTER_HZ = 60;
const DRAG_EVERY_MS = 2000;
const DRAG_MS = 500;
/** A user's chat lines, every this many ms unless the condition says otherwise (badnet: every 0.5 s). */
export const CHAT_EVERY_MS = 5000;
const TICK_MS = 2;
/** The pointer's x carries its send time in 0.1 ms since the run's epoch; y carries sender and sequence. */
const X_UNITS_PER_MS = 10;
const Y_PER_SENDER = 100_000;

/** CLOCK_MONOTONIC (what the users' `t` stamps read) minus this process's performance.now(), ms: a constant. */
const CLOCK_OFFSET_MS = machineClockMs() - performance.now();

/** When the user's process emitted `e`, on this process's clock; when it was read here if it carries no stamp. */
function emittedAt(e: JsonEvent, readAt: number): number {
  return typeof e.t === 'number' ? e.t - CLOCK_OFFSET_MS : readAt;
}

export interface Drop {
  readonly owner: number;
  readonly id: number;
  readonly x: number;
  readonly y: number;
  readonly at: number;
  /** When each other user first saw the rectangle at (x, y). */
  readonly seenAt: (number | undefined)[];
}

export interface Samples {
  readonly windowStart: number;
  readonly windowEnd: number;
  /** [receiver][sender]: arrival times (ms) and latencies (ms) of pointer updates sent inside the window. */
  readonly pointerArrivals: number[][][];
  readonly pointerLatency: number[][][];
  /**
   * With a relay that reports pointers: for updates sent inside the window, sender → relay and relay → receiver
   * latencies (ms), each over one link, so where the time goes shows.
   */
  readonly hops: { readonly up: number[]; readonly down: number[] } | undefined;
  readonly pointersSent: number[];
  /** The same pointer updates timed when this process read them ([receiver][sender] arrivals; latencies). */
  readonly asRead: { readonly arrivals: number[][][]; readonly latency: number[] };
  /** [receiver]: chat latencies (ms) for lines sent inside the window. */
  readonly chatLatency: number[][];
  chatsSent: number;
  readonly drops: Drop[];
  /** [receiver][object index]: the last position seen. */
  readonly finalSeen: ({ x: number; y: number } | undefined)[][];
}

export interface WorkloadHooks {
  /** Runs when the measured window opens and closes (router snapshots). */
  windowOpened(): Promise<void>;
  windowClosed(): Promise<void>;
}

/** Drag k of a user's rectangle ends here (distinct for consecutive drags, integers, inside the world). */
function dropTarget(origin: { x: number; y: number }, k: number): { x: number; y: number } {
  return { x: origin.x + ((k * 37) % 400) + 1, y: origin.y + ((k * 23) % 300) + 1 };
}

export async function runWorkload(
  users: readonly JsonProc[],
  objectIds: readonly number[],
  origins: readonly { x: number; y: number }[],
  o: { warmupMs: number; windowMs: number; settleMs: number; chatEveryMs?: number },
  hooks: WorkloadHooks,
  relay?: JsonProc,
): Promise<Samples> {
  const n = users.length;
  const epoch = performance.now();
  const windowStart = epoch + o.warmupMs;
  const windowEnd = windowStart + o.windowMs;
  const grid = <T>(f: () => T): T[][] =>
    Array.from({ length: n }, () => Array.from({ length: n }, f));
  const s: Samples = {
    windowStart,
    windowEnd,
    pointerArrivals: grid<number[]>(() => []),
    pointerLatency: grid<number[]>(() => []),
    hops: relay === undefined ? undefined : { up: [], down: [] },
    pointersSent: new Array<number>(n).fill(0),
    asRead: { arrivals: grid<number[]>(() => []), latency: [] },
    chatLatency: Array.from({ length: n }, () => []),
    chatsSent: 0,
    drops: [],
    finalSeen: grid<{ x: number; y: number } | undefined>(() => undefined),
  };
  const inWindow = (t: number): boolean => t >= windowStart && t <= windowEnd;
  const objectIndex = new Map(objectIds.map((id, i) => [id, i]));
  // When the relay reported each pointer update (by its x, the send time, and y, sender and sequence).
  const relayed = new Map<string, number>();
  if (relay !== undefined) {
    relay.onEvent = (e, readAt) => {
      if (e.ev !== 'pointer') return false;
      const sentAt = epoch + Number(e.x) / X_UNITS_PER_MS;
      if (inWindow(sentAt)) relayed.set(`${String(e.x)},${String(e.y)}`, emittedAt(e, readAt));
      return true;
    };
  }

  users.forEach((u, r) => {
    u.onEvent = (e, readAt) => {
      const at = emittedAt(e, readAt);
      if (e.ev === 'pointer') {
        const sentAt = epoch + Number(e.x) / X_UNITS_PER_MS;
        const from = Math.floor(Number(e.y) / Y_PER_SENDER);
        const lat = s.pointerLatency[r]?.[from];
        if (from !== r && lat && inWindow(sentAt)) {
          lat.push(at - sentAt);
          s.pointerArrivals[r]?.[from]?.push(at);
          s.asRead.latency.push(readAt - sentAt);
          s.asRead.arrivals[r]?.[from]?.push(readAt);
          const via = relayed.get(`${String(e.x)},${String(e.y)}`);
          if (via !== undefined && s.hops) {
            s.hops.up.push(via - sentAt);
            s.hops.down.push(at - via);
          }
        }
        return true;
      }
      if (e.ev === 'chat') {
        const m = /^chat (\d+) ([\d.]+) /.exec(String(e.text));
        const sentAt = epoch + Number(m?.[2]);
        if (m && Number(m[1]) !== r && inWindow(sentAt)) s.chatLatency[r]?.push(at - sentAt);
        return true;
      }
      if (e.ev === 'object' || e.ev === 'dropped') seeObject(r, e, at);
      return false;
    };
  });

  function seeObject(r: number, e: JsonEvent, at: number): void {
    const i = objectIndex.get(Number(e.id));
    const row = s.finalSeen[r];
    if (i === undefined || !row) return;
    const pos = { x: Number(e.x), y: Number(e.y) };
    row[i] = pos;
    for (const d of s.drops) {
      if (d.owner === i && d.x === pos.x && d.y === pos.y && d.seenAt[r] === undefined)
        d.seenAt[r] = at;
    }
  }

  const nextPointer = users.map((_, i) => epoch + (i * 1000) / POINTER_HZ / n);
  const seq = new Array<number>(n).fill(0);
  const dragCount = new Array<number>(n).fill(0);
  const dragging = new Array<{ from: { x: number; y: number }; k: number } | undefined>(n);
  const nextDrag = users.map((_, i) => epoch + 250 + (i * DRAG_EVERY_MS) / n);
  const chatEvery = o.chatEveryMs ?? CHAT_EVERY_MS;
  const nextChat = users.map((_, i) => epoch + 1000 + (i * chatEvery) / n);
  const position = origins.map((p) => ({ ...p }));
  let opened = false;
  let closed = false;
  let hookWork = Promise.resolve();

  const tick = (): void => {
    const now = performance.now();
    const sending = now < windowEnd;
    if (!opened && now >= windowStart) {
      opened = true;
      hookWork = hooks.windowOpened();
    }
    if (!closed && now >= windowEnd) {
      closed = true;
      hookWork = hookWork.then(() => hooks.windowClosed());
    }
    users.forEach((u, i) => {
      // After the window, only a drag in progress goes on (to its drop).
      if (!sending && dragging[i] === undefined) return;
      const id = objectIds[i] ?? 0;
      if (now >= (nextPointer[i] ?? Infinity)) {
        const x = Math.round((now - epoch) * X_UNITS_PER_MS);
        const k = (seq[i] ?? 0) + 1;
        seq[i] = k;
        u.send({ cmd: 'pointer', x, y: i * Y_PER_SENDER + (k % 99_999) });
        if (inWindow(now)) s.pointersSent[i] = (s.pointersSent[i] ?? 0) + 1;
        // A late timer sends once and re-phases: a mouse never bursts to catch up.
        const next = (nextPointer[i] ?? now) + 1000 / POINTER_HZ;
        nextPointer[i] = next < now ? now + 1000 / POINTER_HZ : next;
        const d = dragging[i];
        const start = (nextDrag[i] ?? 0) - DRAG_EVERY_MS;
        if (d) {
          const to = dropTarget(origins[i] ?? { x: 0, y: 0 }, d.k);
          const f = Math.min(1, (now - start) / DRAG_MS);
          const p = position[i] ?? { x: 0, y: 0 };
          if (f < 1) {
            // Steps stop short of the target, so only the drop ever puts the rectangle there.
            p.x = Math.round(d.from.x + (to.x - d.from.x) * f * 0.97);
            p.y = Math.round(d.from.y + (to.y - d.from.y) * f * 0.97);
            u.send({ cmd: 'drag', id, ...p });
          } else {
            dragging[i] = undefined;
            Object.assign(p, to);
            u.send({ cmd: 'drop', id, ...to });
            s.drops.push({
              owner: i,
              id,
              ...to,
              at: now,
              seenAt: new Array<number | undefined>(n).fill(undefined),
            });
          }
        }
      }
      if (sending && now >= (nextDrag[i] ?? Infinity) && dragging[i] === undefined) {
        nextDrag[i] = (nextDrag[i] ?? now) + DRAG_EVERY_MS;
        const k = (dragCount[i] = (dragCount[i] ?? 0) + 1);
        dragging[i] = { from: { ...(position[i] ?? { x: 0, y: 0 }) }, k };
        u.send({ cmd: 'grab', id });
      }
      if (sending && now >= (nextChat[i] ?? Infinity)) {
        nextChat[i] = (nextChat[i] ?? now) + chatEvery;
        u.send({ cmd: 'chat', text: `chat ${i} ${(now - epoch).toFixed(2)} hello from the bench` });
        if (inWindow(now)) s.chatsSent++;
      }
    });
  };

  const timer = setInterval(tick, TICK_MS);
  await new Promise((r) => setTimeout(r, windowEnd - performance.now()));
  // Finish any drag in progress so every rectangle ends at a known drop position.
  await new Promise((r) => setTimeout(r, DRAG_MS + 100));
  clearInterval(timer);
  await hookWork;
  await new Promise((r) => setTimeout(r, o.settleMs));
  for (const u of users) u.onEvent = undefined;
  if (relay !== undefined) relay.onEvent = undefined;
  return s;
}

/** Where user i's rectangle should end: its last drop. */
export function expectedFinal(s: Samples, owner: number): { x: number; y: number } | undefined {
  const mine = s.drops.filter((d) => d.owner === owner);
  const last = mine[mine.length - 1];
  return last ? { x: last.x, y: last.y } : undefined;
}
