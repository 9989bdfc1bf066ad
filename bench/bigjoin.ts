// Late-join benchmark (issue 20, point 3): how long a joiner takes to receive a board of 1,000 / 5,000 / 20,000
// objects (half 50-point freehand strokes, the rest rectangles, ellipses, texts and notes) over a 40 ms link.
//   sim:  the session stack alone, a host and a joiner in the simulator (40 ms each way, virtual time): from
//         the join to the last object, with what went on the wire.
//   real: the whole path: a headless host process with the board file on loopback UDP, an impairment proxy
//         adding 40 ms each way, and the web host (the app core) joining through it from Debian's Chromium, as a
//         person would (the Join form). From the click on Join to the progress bar reaching the total, and to
//         the frame after it (the board on screen); the bar's values on the way say whether it filled.
// Target: join5k_ms (real, else sim) under 3,000 ms. GB_BIGJOIN_REAL=0 skips the browser runs.
// Knows nothing of the session's internals beyond what the test kits expose.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { bigBoard } from '../src-main/session/testing/big-board';
import { makeSimSession } from '../src-main/session/testing/sim-session';
import { CHROMIUM_ARGS, findChromium } from '../test/e2e/harness/chromium';
import type { JoinWatch } from '../test/e2e/harness/join-watch';
import { watchJoinScript } from '../test/e2e/harness/join-watch';
import { ROOT, startWebHost } from '../test/e2e/harness/web-host';
import { CODE, Lab, num } from '../test/session/harness';

/** GB_BIGJOIN_SIZES=1000,5000 runs fewer. */
const SIZES = (process.env.GB_BIGJOIN_SIZES ?? '1000,5000,20000').split(',').map(Number);
const DELAY_MS = 40;
const TARGET_MS = 3000;
/** A join that has not completed by then is reported as not arrived (Infinity). */
const GIVE_UP_MS = 120_000;

interface SimJoin {
  readonly objects: number;
  /** Virtual ms from the join to the first object, and to the last. */
  readonly firstMs: number;
  readonly joinMs: number;
  readonly whole: boolean;
  /** Host to joiner, on the wire (IP/UDP included), and packets/s while the board came. */
  readonly downKB: number;
  readonly bytesPerObject: number;
  /** How long this process took to simulate it (CPU of both ends together). */
  readonly cpuMs: number;
}

function simJoin(objects: number): SimJoin {
  const s = makeSimSession({
    seed: 20_003,
    board: bigBoard(objects),
    conditions: { ...NO_IMPAIRMENT, delayMs: DELAY_MS },
  });
  s.sim.audit = false;
  s.sim.runUntil(100);
  const start = s.sim.now;
  const began = performance.now();
  const i = s.addPeer('Late');
  const peer = s.peers[i];
  if (peer === undefined) throw new Error('no joiner');
  let firstMs = Infinity;
  let joinMs = Infinity;
  while (s.sim.now - start < GIVE_UP_MS) {
    s.sim.runUntil(s.sim.now + 5);
    const p = peer.joinProgress;
    if (p.received > 0 && firstMs === Infinity) firstMs = s.sim.now - start;
    if (p.total > 0 && p.received >= p.total) {
      joinMs = s.sim.now - start;
      break;
    }
  }
  const cpuMs = performance.now() - began;
  let down = 0;
  for (const [key, c] of s.net.wireBytes) if (key.startsWith('127.0.0.1:')) down += c.delivered;
  return {
    objects,
    firstMs,
    joinMs,
    whole: peer.board.hash() === s.host.board.hash(),
    downKB: Math.round(down / 102.4) / 10,
    bytesPerObject: Math.round(down / objects),
    cpuMs: Math.round(cpuMs),
  };
}

interface RealJoin {
  readonly objects: number;
  /** From the click on Join: the joined status, the first progress step, the bar at the total, the frame after. */
  readonly joinedMs: number;
  readonly firstStepMs: number;
  readonly joinMs: number;
  readonly paintedMs: number;
  /** The bar's values (whole percent) in the order shown; whether they only rose, ending at 100. */
  readonly steps: number;
  readonly filled: boolean;
  readonly received: number;
  readonly total: number;
}

async function realJoin(browser: Browser, objects: number, seed: number): Promise<RealJoin> {
  const dir = mkdtempSync(join(tmpdir(), 'gb-bigjoin-'));
  const file = join(dir, `board-${objects}.ghostboard`);
  writeFileSync(file, bigBoard(objects).toFile());
  const lab = new Lab();
  const web = await startWebHost();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const host = lab.spawn('Host', [
      ...['host', '--port', '0', '--bind', '127.0.0.1', '--code', CODE, '--name', 'Host'],
      ...['--script', '--board', file],
    ]);
    const ready = await host.waitFor((e) => e.ev === 'ready', 'ready', 60_000);
    const delay = { ...NO_IMPAIRMENT, delayMs: DELAY_MS };
    const proxy = await lab.proxy(num(ready, 'port'), seed, delay, delay);
    const page = await context.newPage();
    await page.goto(web.url);
    const tab = page.getByTestId('join-tab');
    if (!(await page.getByTestId('join-name').isVisible())) await tab.click();
    await page.getByTestId('join-name').fill('Late');
    await page.getByTestId('join-address').fill(`127.0.0.1:${proxy.address.port}`);
    await page.getByTestId('join-code').fill(CODE);
    const r = await page.evaluate<JoinWatch>(watchJoinScript(GIVE_UP_MS));
    const pcts = r.values.map((v) => v.pct);
    const rising = pcts.every((p, k) => k === 0 || p >= (pcts[k - 1] ?? 0));
    const last = r.values.at(-1);
    const round = (ms: number): number => (Number.isFinite(ms) ? Math.round(ms) : ms);
    return {
      objects,
      joinedMs: round(r.joined),
      firstStepMs: round(r.values[0]?.t ?? Infinity),
      joinMs: round(r.done),
      paintedMs: round(r.painted),
      steps: new Set(pcts).size,
      filled: rising && pcts.at(-1) === 100 && new Set(pcts).size > 2,
      received: last?.received ?? 0,
      total: last?.total ?? 0,
    };
  } finally {
    await context.close();
    await lab.close();
    await web.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const sim = SIZES.map((n) => simJoin(n));
  for (const s of sim) console.error(`sim ${s.objects}: ${s.joinMs} ms`);
  const real: RealJoin[] = [];
  if (process.env.GB_BIGJOIN_REAL !== '0') {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.js'), 'renderer', '--if-needed'], {
      stdio: 'inherit',
    });
    const browser = await chromium.launch({
      executablePath: findChromium(),
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      for (const [k, n] of SIZES.entries()) {
        const r = await realJoin(browser, n, 20_010 + 2 * k);
        console.error(`real ${n}: ${r.joinMs} ms (bar ${r.steps} steps, filled ${r.filled})`);
        real.push(r);
      }
    } finally {
      await browser.close();
    }
  }
  const at = (
    list: readonly { objects: number; joinMs: number }[],
    n: number,
  ): number | undefined => list.find((x) => x.objects === n)?.joinMs;
  const join5k = at(real, 5000) ?? at(sim, 5000) ?? Infinity;
  return {
    bench: 'bigjoin',
    delayMs: DELAY_MS,
    // Real runs share the machine: its load (1-minute average, and cores) says how much CPU they had.
    load: { avg1: Math.round((loadavg()[0] ?? 0) * 10) / 10, cores: availableParallelism() },
    sim,
    real,
    join5kFrom: real.length > 0 ? 'real' : 'sim',
    targets: {
      join5k_ms: { limit: TARGET_MS, value: join5k, met: join5k < TARGET_MS },
      join5k_sim_ms: {
        limit: TARGET_MS,
        value: at(sim, 5000) ?? Infinity,
        met: (at(sim, 5000) ?? Infinity) < TARGET_MS,
      },
      ...(real.length > 0
        ? {
            bar_fills: {
              limit: 1,
              value: real.filter((r) => r.filled).length / real.length,
              met: real.every((r) => r.filled),
            },
          }
        : {}),
    },
  };
}
