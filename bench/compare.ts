// Compare benchmark: the same 4-user whiteboard workload over Ghostboard, Yjs (y-websocket awareness) and
// socket.io (Excalidraw's relay), each user in its own network namespace behind the TUN impairment router,
// at 0/2/5/10 % loss with 40 ms one way, under a 64 kbit/s cap, and on a starved link (badnet: 16 kbit/s, 10 %
// loss, 40 ± 5 ms, a chat line every 0.5 s). Writes bench/results/compare.md and plots.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import type { Impairment } from '../src-main/net/impairment';
import type { RouterStats } from './router/testbed';
import { Testbed } from './router/testbed';
import type { RunResult } from './compare/figures';
import { percentile, round1, runFigures } from './compare/figures';
import { linkReport, linkTotals } from './compare/link-stats';
import { JsonProc } from './router/json-proc';
import { compareCharts, compareTables, compareTargets } from './compare/report';
import type { StackName } from './compare/stacks';
import { STACKS, startStack } from './compare/stacks';
import { runWorkload } from './compare/workload';
import { renderCharts } from './plot';

const here = dirname(fileURLToPath(import.meta.url));
const USERS = 4;
const ONE_WAY_MS = 40;

export interface Condition {
  readonly name: string;
  readonly impairment: Impairment;
  /** Each user's chat interval, ms, when not the workload's default. */
  readonly chatEveryMs?: number;
}

const lossy = (loss: number): Condition => ({
  name: `loss${loss * 100}`,
  impairment: { ...NO_IMPAIRMENT, loss, delayMs: ONE_WAY_MS },
});
/** 64 kbit/s each way per client; a datagram that would queue past 500 ms (4 KB) is tail-dropped. */
const CAP: Condition = {
  name: 'cap64',
  impairment: { ...NO_IMPAIRMENT, delayMs: ONE_WAY_MS, bandwidthBps: 64_000, maxQueueMs: 500 },
};
/**
 * Issue 23's starved link: 16 kbit/s each way per client, 10 % loss, 40 ± 5 ms one way (35 ms plus 0-10 ms
 * of jitter), the same 500 ms tail-drop queue, and every user chatting every 0.5 s while pointers move at 60 Hz.
 */
export const BADNET: Condition = {
  name: 'badnet',
  impairment: {
    ...NO_IMPAIRMENT,
    loss: 0.1,
    delayMs: ONE_WAY_MS - 5,
    jitterMs: 10,
    bandwidthBps: 16_000,
    maxQueueMs: 500,
  },
  chatEveryMs: 500,
};
export const CONDITIONS: readonly Condition[] = [
  lossy(0),
  lossy(0.02),
  lossy(0.05),
  lossy(0.1),
  CAP,
  BADNET,
];

const envList = (v: string | undefined): string[] | undefined =>
  v === undefined || v === '' ? undefined : v.split(',');

async function runOne(stack: StackName, c: Condition, seed: number): Promise<RunResult> {
  const windowMs = Number(process.env.GB_COMPARE_SECONDS ?? 20) * 1000;
  const bed = await Testbed.open({
    clients: USERS,
    up: c.impairment,
    down: c.impairment,
    seed,
    maxSeconds: windowMs / 1000 + 120,
  });
  try {
    const started = await startStack(stack, bed);
    let open: RouterStats | undefined;
    let close: RouterStats | undefined;
    const links =
      process.env.GB_COMPARE_LINKS && started.relay ? [started.relay, ...started.users] : undefined;
    let linksOpen: Awaited<ReturnType<typeof linkTotals>> | undefined;
    // How late this process's own event loop ran in the window: it timestamps every event of every stack, so
    // a stall here shows up as latency and gaps for all of them at once.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    const samples = await runWorkload(
      started.users,
      started.objectIds,
      started.origins,
      {
        warmupMs: 3000,
        windowMs,
        settleMs: 3000,
        ...(c.chatEveryMs === undefined ? {} : { chatEveryMs: c.chatEveryMs }),
      },
      {
        windowOpened: async () => {
          open = await bed.snapshot();
          if (links) linksOpen = await linkTotals(links);
          loop.enable();
        },
        windowClosed: async () => {
          loop.disable();
          close = await bed.snapshot();
          if (links && linksOpen)
            process.stderr.write(
              `${linkReport(linksOpen, await linkTotals(links), windowMs / 1000)}\n`,
            );
        },
      },
      started.relay,
    );
    if (!open || !close) throw new Error('router snapshots missing');
    const f = runFigures(samples, open, close, 2 * ONE_WAY_MS);
    const sum = (k: 'lost' | 'queueDrops', dir: 'up' | 'down'): number =>
      (close?.clients ?? []).reduce(
        (a, x, i) => a + x[dir][k] - (open?.clients[i]?.[dir][k] ?? 0),
        0,
      );
    return {
      stack,
      condition: c.name,
      ...f,
      router: {
        lostUp: sum('lost', 'up'),
        lostDown: sum('lost', 'down'),
        queueDropsUp: sum('queueDrops', 'up'),
        queueDropsDown: sum('queueDrops', 'down'),
      },
      load1: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
      benchLoopDelayMs: {
        p99: round1(loop.percentile(99) / 1e6),
        max: round1(loop.max / 1e6),
      },
    };
  } finally {
    await bed.close();
  }
}

/** One echo round trip through a child's stdin and stdout: the floor under every latency reported here. */
async function calibrate(): Promise<{ p50: number; p99: number }> {
  const echo = JsonProc.start('echo', process.execPath, [
    ...['--import', 'tsx', join(here, 'compare', 'echo.ts')],
  ]);
  const rtts: number[] = [];
  echo.onEvent = (e, at) => {
    rtts.push(at - Number(e.x));
    return true;
  };
  try {
    await new Promise((r) => setTimeout(r, 1500)); // tsx start-up
    for (let i = 0; i < 600; i++) {
      echo.send({ cmd: 'pointer', x: performance.now(), y: i });
      await new Promise((r) => setTimeout(r, 1000 / 60));
    }
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    await echo.stop(1000);
  }
  const sorted = rtts.sort((a, b) => a - b);
  return { p50: round1(percentile(sorted, 50)), p99: round1(percentile(sorted, 99)) };
}

export async function run(): Promise<Record<string, unknown>> {
  const harness = await calibrate();
  const stacks = envList(process.env.GB_COMPARE_STACKS) ?? STACKS;
  const conds = envList(process.env.GB_COMPARE_CONDITIONS);
  const results: RunResult[] = [];
  for (const [ci, c] of CONDITIONS.entries()) {
    if (conds && !conds.includes(c.name)) continue;
    for (const stack of stacks as StackName[]) {
      const t0 = performance.now();
      try {
        results.push(await runOne(stack, c, 1000 + ci));
      } catch (e) {
        process.stderr.write(`compare ${stack} ${c.name}: ${String(e)}\n`);
        throw e;
      }
      const r = results[results.length - 1];
      process.stderr.write(
        `compare ${stack} ${c.name} (${Math.round((performance.now() - t0) / 1000)} s): ` +
          `${JSON.stringify(r?.summary)}\n`,
      );
    }
  }
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(
    join(here, 'results', 'compare.md'),
    `Harness pipes (one stdin→stdout echo round trip, 60 Hz): p50 ${harness.p50} ms, p99 ${harness.p99} ms.\n\n` +
      compareTables(results),
  );
  const plots = await renderCharts(join(here, 'plots'), compareCharts(results));
  return {
    harnessEchoMs: harness,
    setup: {
      users: USERS,
      oneWayMs: ONE_WAY_MS,
      windowSeconds: Number(process.env.GB_COMPARE_SECONDS ?? 20),
      conditions: CONDITIONS.map((c) => ({ name: c.name, ...c.impairment })),
    },
    plots,
    runs: results,
    targets: compareTargets(results),
  };
}
