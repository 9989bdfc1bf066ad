// Scale bench bot driver: many Ghostboard peers in one process (one SessionRunner and UDP socket each), every
// pointer circling its home on a grid at 30 Hz; counts, per bot, updates from its 8 nearest peers vs the rest and
// the bytes it receives. Speaks JSON lines (commands: window, stats, quit). Knows nothing of the host's process.
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { monotonicNow } from '../../src-main/net/transport';
import { SessionRunner } from '../../src-main/session/runner';
import { UDP_IPV4_OVERHEAD } from '../../src-main/net/stats';
import { home, nearest } from './layout';

const [hostAddr = '127.0.0.1', port = '0', code = '', first = '0', count = '0', total = '0'] =
  process.argv.slice(2);
const FIRST = Number(first);
const COUNT = Number(count);
const TOTAL = Number(total);
const POINTER_HZ = 30;
const RADIUS = 120;
const WAVE = 8; // joins in flight at once: the host allows 16 pending handshakes per IP
/** What each bot accepts downstream: 30 packets/s x 238 B + 28 B IP/UDP = 7,980 B/s, i.e. 64 kbit/s. */
const RATE = { packetsPerSecond: 30, packetBytes: 238 };

const emit = (e: Record<string, unknown>): void => {
  process.stdout.write(JSON.stringify(e) + '\n');
};

interface Bot {
  readonly index: number;
  readonly runner: SessionRunner;
  readonly near: Set<number>;
  /** Host peer id → bot index, learned from joined events. */
  readonly byPeer: Map<number, number>;
  nearUpdates: number;
  restUpdates: number;
  ready: boolean;
  ended: string | undefined;
}

async function startBot(index: number): Promise<Bot> {
  const runner = await SessionRunner.join({
    name: `b${index}`,
    code,
    host: { address: hostAddr, port: Number(port) },
    rate: { toHost: RATE, toPeers: RATE },
  });
  const bot: Bot = {
    index,
    runner,
    near: new Set(nearest(index, TOTAL, 8)),
    byPeer: new Map(),
    nearUpdates: 0,
    restUpdates: 0,
    ready: false,
    ended: undefined,
  };
  runner.controls.on((e) => {
    if (e.type === 'ready') bot.ready = true;
    else if (e.type === 'ended') bot.ended = e.reason;
    else if (e.type === 'joined') {
      const m = /^b(\d+)$/.exec(e.participant.name);
      if (m) bot.byPeer.set(e.participant.peer, Number(m[1]));
    } else if (e.type === 'pointer' && e.moved) {
      const from = bot.byPeer.get(e.pointer.peer);
      if (from === undefined) return;
      if (bot.near.has(from)) bot.nearUpdates++;
      else bot.restUpdates++;
    }
  });
  return bot;
}

async function waitUntil(pred: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!pred() && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
  return pred();
}

const bots: Bot[] = [];
for (let i = 0; i < COUNT; i += WAVE) {
  const wave = await Promise.all(
    Array.from({ length: Math.min(WAVE, COUNT - i) }, (_, k) => startBot(FIRST + i + k)),
  );
  bots.push(...wave);
  await waitUntil(() => wave.every((b) => b.ready || b.ended !== undefined), 10_000);
}
const failed = bots.filter((b) => !b.ready).map((b) => ({ bot: b.index, ended: b.ended }));
emit({ ev: 'ready', bots: bots.length, failed });

// Every bot's pointer circles its home; phases are staggered so the process doesn't send in bursts.
const start = performance.now();
const timer = setInterval(() => {
  const now = monotonicNow();
  const t = (performance.now() - start) / 1000;
  for (const b of bots) {
    const h = home(b.index);
    const a = t * 2 + b.index;
    b.runner.controls.pointer(
      now,
      Math.round(h.x + RADIUS * Math.cos(a)),
      Math.round(h.y + RADIUS * Math.sin(a)),
      true,
    );
    b.runner.flush();
  }
}, 1000 / POINTER_HZ);

interface Mark {
  at: number;
  near: number;
  rest: number;
  bytes: number;
}
let marks = new Map<Bot, Mark>();
const mark = (b: Bot): Mark => {
  const stack = b.runner.controls.connections()[0]?.stack;
  const s = stack?.conn.stats(monotonicNow());
  const bytes = s ? s.bytesReceived + UDP_IPV4_OVERHEAD * s.packetsReceived : 0;
  return { at: performance.now(), near: b.nearUpdates, rest: b.restUpdates, bytes };
};

// How late this process's event loop runs (queueing here delays every bot's acks: the host sees it as RTT).
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const cmd = (JSON.parse(line) as { cmd?: string }).cmd;
  if (cmd === 'window') {
    marks = new Map(bots.map((b) => [b, mark(b)]));
    loopDelay.reset();
    emit({ ev: 'window' });
  } else if (cmd === 'stats') {
    const per = bots.map((b) => {
      const a = marks.get(b) ?? mark(b);
      const z = mark(b);
      const sec = (z.at - a.at) / 1000;
      const nearN = b.near.size;
      const restN = Math.max(1, TOTAL - 1 - nearN);
      return {
        bot: b.index,
        downKbps: ((z.bytes - a.bytes) * 8) / 1000 / sec,
        nearHz: (z.near - a.near) / Math.max(1, nearN) / sec,
        restHz: (z.rest - a.rest) / restN / sec,
        alive: b.ended === undefined,
        known: b.byPeer.size,
        ended: b.ready ? b.ended : `never joined (${b.ended ?? 'no answer'})`,
      };
    });
    const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
    emit({
      ev: 'stats',
      bots: per,
      loopDelayMs: { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)) },
    });
  } else if (cmd === 'quit') rl.close();
});
rl.on('close', () => {
  clearInterval(timer);
  void Promise.all(bots.map((b) => b.runner.close())).then(() => process.exit(0));
});
process.once('SIGTERM', () => process.exit(0));
