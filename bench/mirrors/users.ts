// One site's users for the mirrors bench, in one process: each a Ghostboard peer (SessionRunner, its own UDP
// socket) joined to the host it is given, running the compare workload (pointer at 60 Hz, a drag of its own
// rectangle every 2 s, a chat line every 5 s) and timing what it sees of every other user of every site. Sends and
// sightings are stamped with CLOCK_MONOTONIC (one clock for every process on the machine), so a pointer's x, a
// drop's x and a chat's text carry their send time and the receiver, in whichever process, computes the latency.
// Speaks JSON lines (commands: run, quit). Knows nothing of the router, the other sites' processes or the hosts.
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { NewObject } from '../../shared/board';
import { machineClockMs } from '../../src-main/cli/script';
import { monotonicNow } from '../../src-main/net/transport';
import { parseSessionRate } from '../../src-main/session/connection-stack';
import { SessionRunner } from '../../src-main/session/runner';
import type { Histogram } from './histogram';
import { record, toJson } from './histogram';

export interface UsersConfig {
  readonly host: { readonly address: string; readonly port: number };
  readonly code: string;
  /** This process's site (0, 1, 2) and its users' global indexes: site · perSite + k. */
  readonly site: number;
  readonly perSite: number;
  /** Machine clock (ms) the encoded send times count from. */
  readonly epoch: number;
  /** The join's rate (a preset or packets/s, as `--rate`); absent: the sessions' default. */
  readonly rate?: string;
}

const cfg = JSON.parse(process.argv[2] ?? '{}') as UsersConfig;
const POINTER_HZ = 60;
const DRAG_EVERY_MS = 2000;
const DRAG_MS = 500;
const CHAT_EVERY_MS = 5000;
const TICK_MS = 4;
const WAVE = 8; // joins in flight at once: a host admits 16 pending handshakes per address
/** x of a pointer or a drop: its send time in 0.1 ms since the epoch (≤ 200 s inside the board's ±2,000,000). */
const X_PER_MS = 10;
/**
 * y: the sender's global index · 10 plus 0..8 (a pointer's sequence, a drop's number) or 9 (a drag step, the
 * rectangle's start): every pointer within 1,000 units of the others, so the host's distance priority
 * (presencePriority) treats them alike, as users working on one part of a board.
 */
const Y_PER_USER = 10;
const MOVING = 9;

const emit = (e: Record<string, unknown>): void => {
  process.stdout.write(JSON.stringify(e) + '\n');
};

type Kind = 'pointer' | 'edit' | 'chat';
/** `${kind}:${sender's site}>${receiver's site}` → latencies (so a report can tell every pair of sites apart). */
const hist = new Map<string, Histogram>();
/** Sent inside the window (what the sightings are owed against). */
const sent = { pointers: 0, drops: 0, chats: 0 };
/** Every board command issued, window or not (what rollbacks are counted against); drag steps are presence. */
const commands = { creates: 0, grabs: 0, drops: 0, chats: 0, dragSteps: 0 };
let window = { start: Infinity, end: -Infinity };

const siteOf = (g: number): number => Math.floor(g / cfg.perSite);

function see(kind: Kind, me: number, from: number, sentAt: number, at: number): void {
  if (from === me || !(sentAt >= window.start && sentAt <= window.end)) return;
  const key = `${kind}:${siteOf(from)}>${cfg.site}`;
  let h = hist.get(key);
  if (h === undefined) hist.set(key, (h = new Map<number, number>()));
  record(h, at - sentAt);
}

interface User {
  readonly g: number;
  readonly runner: SessionRunner;
  ready: boolean;
  ended: string | undefined;
  rect: number | undefined;
  /** Drops already timed (x,y): an object event and a dropped event both show one; the first counts. */
  readonly seenDrops: Set<string>;
  nextPointer: number;
  nextDrag: number;
  nextChat: number;
  seq: number;
  drops: number;
  dragFrom: number | undefined;
}

function onDrop(u: User, x: number, y: number, at: number): void {
  if (y % Y_PER_USER === MOVING || y < 0) return;
  const key = `${x},${y}`;
  if (u.seenDrops.has(key)) return;
  u.seenDrops.add(key);
  see('edit', u.g, Math.floor(y / Y_PER_USER), cfg.epoch + x / X_PER_MS, at);
}

async function startUser(g: number): Promise<User> {
  const rate = cfg.rate === undefined ? undefined : parseSessionRate(cfg.rate);
  const runner = await SessionRunner.join({
    name: `u${g}`,
    code: cfg.code,
    host: cfg.host,
    ...(rate === undefined ? {} : { rate }),
  });
  const u: User = {
    g,
    runner,
    ready: false,
    ended: undefined,
    rect: undefined,
    seenDrops: new Set(),
    nextPointer: 0,
    nextDrag: 0,
    nextChat: 0,
    seq: 0,
    drops: 0,
    dragFrom: undefined,
  };
  runner.controls.on((e) => {
    const at = machineClockMs();
    if (e.type === 'ready') u.ready = true;
    else if (e.type === 'ended') u.ended = e.reason;
    else if (e.type === 'pointer' && e.moved) {
      const from = Math.floor(e.pointer.y / Y_PER_USER);
      see('pointer', g, from, cfg.epoch + e.pointer.x / X_PER_MS, at);
    } else if (e.type === 'object') onDrop(u, e.object.x, e.object.y, at);
    else if (e.type === 'dropped') onDrop(u, e.x, e.y, at);
    else if (e.type === 'chat') {
      const m = /^m (\d+) ([\d.]+)$/.exec(e.text);
      if (m) see('chat', g, Number(m[1]), cfg.epoch + Number(m[2]), at);
    }
  });
  return u;
}

async function waitUntil(pred: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!pred() && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
  return pred();
}

function rectangle(g: number): NewObject {
  return {
    kind: 'rect',
    ...{ x: 0, y: g * Y_PER_USER + MOVING, w: 40, h: 30, rotation: 0 },
    ...{ stroke: 0x1e1e1e, fill: null, strokeWidth: 2, text: '', points: [], blob: '' },
  };
}

const users: User[] = [];
for (let k = 0; k < cfg.perSite; k += WAVE) {
  const n = Math.min(WAVE, cfg.perSite - k);
  const first = cfg.site * cfg.perSite + k;
  const wave = await Promise.all(Array.from({ length: n }, (_, i) => startUser(first + i)));
  users.push(...wave);
  await waitUntil(() => wave.every((u) => u.ready || u.ended !== undefined), 20_000);
}
// Each user's own rectangle, created once it is in (answered once the host holds it; with mirrors, once another
// mirror does too).
await Promise.all(
  users
    .filter((u) => u.ready)
    .map(async (u) => {
      const r = await u.runner.controls.create(monotonicNow(), rectangle(u.g));
      u.runner.flush();
      commands.creates++;
      if (typeof r === 'number') u.rect = r;
    }),
);
emit({
  ev: 'ready',
  users: users.length,
  failed: users.filter((u) => !u.ready || u.rect === undefined).map((u) => u.g),
});

/** One user's step at `now` (machine ms): its pointer, its drag, its chat, as the compare workload paces them. */
function step(u: User, now: number, sending: boolean): boolean {
  const c = u.runner.controls;
  const t = monotonicNow();
  const x = Math.round((now - cfg.epoch) * X_PER_MS);
  const inWindow = now >= window.start && now <= window.end;
  let wrote = false;
  if (now >= u.nextPointer && (sending || u.dragFrom !== undefined)) {
    u.seq = (u.seq + 1) % MOVING;
    c.pointer(t, x, u.g * Y_PER_USER + u.seq, true);
    if (inWindow) sent.pointers++;
    // A late timer sends once and re-phases: a mouse never bursts to catch up.
    u.nextPointer = Math.max(u.nextPointer + 1000 / POINTER_HZ, now);
    wrote = true;
    if (u.dragFrom !== undefined && u.rect !== undefined) {
      if (now - u.dragFrom < DRAG_MS) {
        c.drag(t, u.rect, x, u.g * Y_PER_USER + MOVING);
        commands.dragSteps++;
      } else {
        u.dragFrom = undefined;
        u.drops++;
        c.drop(t, u.rect, x, u.g * Y_PER_USER + (u.drops % MOVING));
        commands.drops++;
        if (inWindow) sent.drops++;
      }
    }
  }
  if (sending && now >= u.nextDrag && u.dragFrom === undefined && u.rect !== undefined) {
    u.nextDrag += DRAG_EVERY_MS;
    u.dragFrom = now;
    c.grab(t, u.rect);
    commands.grabs++;
    wrote = true;
  }
  if (sending && now >= u.nextChat) {
    u.nextChat += CHAT_EVERY_MS;
    c.chat(t, `m ${u.g} ${(now - cfg.epoch).toFixed(2)}`);
    commands.chats++;
    if (inWindow) sent.chats++;
    wrote = true;
  }
  return wrote;
}

const loopDelay = monitorEventLoopDelay({ resolution: 1 });

async function runWorkload(start: number, end: number, settleMs: number): Promise<void> {
  window = { start, end };
  const now0 = machineClockMs();
  const n = users.length;
  users.forEach((u, i) => {
    // Phases spread over the users, as the compare workload does, so a process never sends in bursts.
    u.nextPointer = now0 + (i * 1000) / POINTER_HZ / n;
    u.nextDrag = now0 + 250 + (i * DRAG_EVERY_MS) / n;
    u.nextChat = now0 + 1000 + (i * CHAT_EVERY_MS) / n;
  });
  loopDelay.enable();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = machineClockMs();
      const sending = now < end;
      let busy = false;
      for (const u of users) {
        // A user its host dropped (an overloaded run) is out of the workload, a drag it had begun with it.
        if (!u.ready || u.ended !== undefined) continue;
        if (step(u, now, sending)) u.runner.flush();
        busy ||= u.dragFrom !== undefined;
      }
      // After the window, only drags in progress go on (to their drops).
      if (!sending && !busy) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  loopDelay.disable();
  await new Promise((r) => setTimeout(r, settleMs));
  const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
  emit({
    ev: 'done',
    hist: Object.fromEntries([...hist].map(([k, h]) => [k, toJson(h)])),
    sent,
    commands,
    users: users.length,
    alive: users.filter((u) => u.ready && u.ended === undefined).length,
    ended: users.flatMap((u) => (u.ended === undefined ? [] : [u.ended])),
    loopDelayMs: { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)) },
  });
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  if (c.cmd === 'run') void runWorkload(Number(c.start), Number(c.end), Number(c.settleMs ?? 3000));
  else if (c.cmd === 'quit') rl.close();
});
rl.on('close', () => {
  void Promise.all(users.map((u) => u.runner.close())).then(() => process.exit(0));
});
process.once('SIGTERM', () => process.exit(0));
