// The renderer benchmark's measuring kit: a page served from a directory on disk (no server: Playwright answers
// the page's requests), a frame recorder (requestAnimationFrame timestamps, installed before the page's own
// scripts), input paced at 60 Hz through Chromium's input pipeline (CDP, as a mouse or trackpad would), and the
// figures of a run of frames. Knows nothing of which app is measured.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { Page } from '@playwright/test';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

/** Serves `dir` at `origin` for this page only (anything else is refused: the page reaches no network). */
export async function serveDir(page: Page, origin: string, dir: string): Promise<void> {
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== origin) return route.abort();
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, rel);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({
      status: 200,
      contentType: TYPES[extname(file)] ?? 'application/octet-stream',
      body: readFileSync(file),
    });
  });
}

/** Records every animation frame's timestamp while `window.__frames.on`; installed before the page's scripts. */
export const FRAME_RECORDER = `
window.__frames = { on: false, t: [] };
(function loop(t) {
  if (window.__frames.on) window.__frames.t.push(t);
  requestAnimationFrame(loop);
})(0);
`;

export interface FrameFigures {
  readonly frames: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly fps: number;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

const round1 = (v: number): number => Math.round(v * 10) / 10;

/** Frame intervals (ms) and frames per second of a run of rAF timestamps. */
export function figuresOf(stamps: readonly number[]): FrameFigures {
  const deltas: number[] = [];
  for (let i = 1; i < stamps.length; i++) deltas.push((stamps[i] ?? 0) - (stamps[i - 1] ?? 0));
  const sorted = [...deltas].sort((a, b) => a - b);
  const span = (stamps.at(-1) ?? 0) - (stamps[0] ?? 0);
  return {
    frames: deltas.length,
    p50: round1(quantile(sorted, 0.5)),
    p95: round1(quantile(sorted, 0.95)),
    max: round1(sorted.at(-1) ?? NaN),
    fps: span > 0 ? round1((deltas.length * 1000) / span) : 0,
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `step(i)` at 60 Hz for `ms` (each step awaited: a page that falls behind gets its input late, as from a
 * real device) and returns the frames drawn meanwhile, after `warmMs` of the same input unmeasured.
 */
export async function framesDuring(
  page: Page,
  ms: number,
  step: (i: number) => Promise<void>,
  warmMs = 400,
): Promise<FrameFigures> {
  const start = performance.now();
  let i = 0;
  let measuring = false;
  while (performance.now() - start < warmMs + ms) {
    if (!measuring && performance.now() - start >= warmMs) {
      measuring = true;
      await page.evaluate(() => {
        const f = (globalThis as unknown as { __frames: { on: boolean; t: number[] } }).__frames;
        f.t = [];
        f.on = true;
      });
    }
    await step(i++);
    const next = start + (i * 1000) / 60;
    await sleep(Math.max(0, next - performance.now()));
  }
  const stamps = await page.evaluate(() => {
    const f = (globalThis as unknown as { __frames: { on: boolean; t: number[] } }).__frames;
    f.on = false;
    return f.t;
  });
  return figuresOf(stamps);
}

/**
 * Waits until `ms` pass with no frame longer than 50 ms (the page has settled after a load or a gesture). A
 * string, not a function: the bench runs under tsx, whose helpers don't exist in the page.
 */
export async function settle(page: Page, ms = 800, limitMs = 60_000): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    const t0 = performance.now();
    let last = t0;
    let quietSince = t0;
    const tick = (t) => {
      if (t - last > 50) quietSince = t;
      last = t;
      if (t - quietSince >= ${ms} || t - t0 > ${limitMs}) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`);
}
