// Renderer benchmark: frame times of the built renderer in Debian's headless Chromium while (a) panning,
// (b) zooming, (c) dragging one object and (d) 3 remote pointers move at 60 Hz, on boards of 1,000 / 5,000 /
// 20,000 objects made from a seed (fake-large.ts: half freehand strokes of 50 points, the rest rectangles,
// ellipses, texts and notes) and held as a joined peer holds them (the dev bridge's `board` event, ?fake=1), the
// whole board in view. Excalidraw is measured side by side on the same board where it can be installed (see
// render/excalidraw.ts). Headless Chromium with --disable-gpu rasterises and composites on the CPU: the figures
// are a CPU-only floor, not what a desktop GPU gives.
import { chromium, type Browser, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boardBounds } from '../src-renderer/board/bounds';
import { fitCamera, toScreen } from '../src-renderer/board/camera';
import { largeBoard } from '../src-renderer/dev/fake-large';
import { CHROMIUM_ARGS, findChromium } from '../test/e2e/harness/chromium';
import { prepareExcalidraw, type ExcalidrawPage } from './render/excalidraw';
import {
  FRAME_RECORDER,
  framesDuring,
  serveDir,
  settle,
  type FrameFigures,
} from './render/measure';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = findChromium();
const VIEWPORT = { width: 1280, height: 800 };
const SEED = 20;
const SIZES = (process.env.GB_RENDER_SIZES ?? '1000,5000,20000').split(',').map(Number);
const SCENARIO_MS = Number(process.env.GB_RENDER_MS ?? 3000);
const ORIGIN = 'http://ghostboard.bench';

type Scenario = 'pan' | 'zoom' | 'drag' | 'pointers';
const ALL: readonly Scenario[] = ['pan', 'zoom', 'drag', 'pointers'];
/** GB_RENDER_SCENARIOS=zoom,drag for a quick look; the targets need all four. */
const SCENARIOS: readonly Scenario[] = (process.env.GB_RENDER_SCENARIOS ?? ALL.join(','))
  .split(',')
  .filter((s): s is Scenario => (ALL as readonly string[]).includes(s));

/** One app under test: how to open a board of `n` objects and where on screen an object to drag is. */
interface Subject {
  readonly name: string;
  open(page: Page, n: number, pointers: number): Promise<void>;
  /** A screen point on an object on top, and a check (after the drag) that the object moved. */
  dragTarget(
    page: Page,
    n: number,
  ): Promise<{ x: number; y: number; moved: () => Promise<boolean> }>;
}

const ghostboard: Subject = {
  name: 'ghostboard',
  async open(page, n, pointers) {
    await serveDir(page, ORIGIN, join(ROOT, 'dist', 'renderer'));
    await page.goto(`${ORIGIN}/?fake=1&objects=${n}&seed=${SEED}&pointers=${pointers}`);
    await page.getByTestId(`object-${n}`).waitFor({ state: 'attached', timeout: 120_000 });
  },
  async dragTarget(page, n) {
    const board = largeBoard(n, SEED);
    // The topmost note: nothing drawn over most of it.
    const note = [...board].reverse().find((o) => o.kind === 'note');
    if (!note) throw new Error('the board has no note');
    const stage = page.getByTestId('board-stage');
    const box = await stage.boundingBox();
    if (!box) throw new Error('no board stage');
    const camera = fitCamera(boardBounds(board), { width: box.width, height: box.height });
    const at = toScreen(camera, note.x + note.w / 2, note.y + note.h / 2);
    const mirror = page.getByTestId(`object-${note.id}`);
    const before = await mirror.getAttribute('data-x');
    return {
      x: box.x + at.x,
      y: box.y + at.y,
      moved: async () => (await mirror.getAttribute('data-x')) !== before,
    };
  },
};

async function scenario(
  page: Page,
  subject: Subject,
  n: number,
  which: Scenario,
): Promise<FrameFigures> {
  const vp = page.viewportSize() ?? VIEWPORT;
  const cx = vp.width / 2;
  const cy = vp.height / 2 + 20;
  await page.mouse.move(cx, cy);
  switch (which) {
    case 'pan':
      // A trackpad's two-finger pan: back and forth, 12 px a frame.
      return framesDuring(page, SCENARIO_MS, async (i) => {
        const dir = Math.floor(i / 45) % 2 === 0 ? 1 : -1;
        await page.mouse.wheel(12 * dir, 6 * dir);
      });
    case 'zoom': {
      // Ctrl+wheel (a pinch): in for a second, out for a second, about the view's centre.
      await page.keyboard.down('Control');
      try {
        return await framesDuring(page, SCENARIO_MS, async (i) => {
          const dir = Math.floor(i / 60) % 2 === 0 ? -1 : 1;
          await page.mouse.wheel(0, 7 * dir);
        });
      } finally {
        await page.keyboard.up('Control');
      }
    }
    case 'drag': {
      const t = await subject.dragTarget(page, n);
      await page.mouse.move(t.x, t.y);
      await page.mouse.down();
      const figures = await framesDuring(page, SCENARIO_MS, async (i) => {
        const a = i / 25;
        await page.mouse.move(t.x + Math.sin(a) * 120, t.y + (1 - Math.cos(a)) * 60);
      });
      await page.mouse.move(t.x + 40, t.y + 30);
      await page.mouse.up();
      await settle(page, 300);
      if (!(await t.moved()))
        throw new Error(`${subject.name} ${n}: the dragged object did not move`);
      return figures;
    }
    case 'pointers':
      // The page's own 60 Hz pointer feed does the work; no input.
      return framesDuring(page, SCENARIO_MS, () => Promise.resolve());
  }
}

async function measureSubject(
  browser: Browser,
  subject: Subject,
): Promise<Record<string, Record<Scenario, FrameFigures>>> {
  const out: Record<string, Record<Scenario, FrameFigures>> = {};
  for (const n of SIZES) {
    const row: Partial<Record<Scenario, FrameFigures>> = {};
    for (const which of SCENARIOS) {
      // A fresh page per scenario: each starts from the whole board in view; pointers only in their own.
      const context = await browser.newContext({ viewport: VIEWPORT, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.addInitScript(FRAME_RECORDER);
      try {
        await subject.open(page, n, which === 'pointers' ? 3 : 0);
        await settle(page);
        row[which] = await scenario(page, subject, n, which);
        console.error(`${subject.name} ${n} ${which}: ${JSON.stringify(row[which])}`);
      } finally {
        await context.close();
      }
    }
    out[String(n)] = row as Record<Scenario, FrameFigures>;
  }
  return out;
}

const worst = (r: Record<Scenario, FrameFigures> | undefined, f: (x: FrameFigures) => number) =>
  r ? Math.max(...SCENARIOS.map((s) => f(r[s]))) : NaN;
const least = (r: Record<Scenario, FrameFigures> | undefined, f: (x: FrameFigures) => number) =>
  r ? Math.min(...SCENARIOS.map((s) => f(r[s]))) : NaN;

export async function run(): Promise<Record<string, unknown>> {
  const built = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'build.js'), 'renderer', '--if-needed'],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (built.status !== 0) throw new Error('the renderer build failed');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  let excalidraw: ExcalidrawPage | { unavailable: string };
  try {
    const gb = await measureSubject(browser, ghostboard);
    excalidraw = await prepareExcalidraw();
    let ex: Record<string, unknown> = { unavailable: 'not measured' };
    if ('dir' in excalidraw) {
      const page = excalidraw;
      ex = await measureSubject(browser, {
        name: 'excalidraw',
        open: (p, n, pointers) => page.open(p, n, SEED, pointers),
        dragTarget: (p, n) => page.dragTarget(p, n, SEED),
      });
    } else ex = { unavailable: excalidraw.unavailable };
    const p95at5k = worst(gb['5000'], (f) => f.p95);
    const fpsAt20k = least(gb['20000'], (f) => f.fps);
    return {
      ghostboard: gb,
      excalidraw: ex,
      targets: {
        frame_p95_5k_ms: { limit: 20, value: p95at5k, met: p95at5k <= 20 },
        fps_20k: { limit: 30, value: fpsAt20k, met: fpsAt20k >= 30 },
      },
      definitions: {
        p50: 'median interval between animation frames (ms), from requestAnimationFrame timestamps',
        p95: '95th percentile of the same; 16.7 ms is every vsync drawn, 33 ms is every other',
        max: 'the longest interval seen during the scenario',
        fps: 'animation frames per second during the scenario',
        frame_p95_5k_ms: 'the worst p95 of the four scenarios at 5,000 objects',
        fps_20k: 'the lowest fps of the four scenarios at 20,000 objects',
        pan: 'wheel pan (trackpad), 12×6 px per event at 60 Hz, turning every 0.75 s',
        zoom: 'Ctrl+wheel at the view centre at 60 Hz: in 4× for a second, out for a second',
        drag: 'pointer down on the topmost note, then moved along a loop at 60 Hz',
        pointers: '3 remote pointers crossing the board, updated at 60 Hz; no local input',
      },
      config: {
        sizes: SIZES,
        seed: SEED,
        scenarioMs: SCENARIO_MS,
        viewport: VIEWPORT,
        chromium: `${CHROMIUM} ${browser.version()}`,
        flags: CHROMIUM_ARGS.join(' '),
        note: 'headless Chromium with --disable-gpu: rasterising and compositing on the CPU (2 shared cores)',
        board:
          'fake-large.ts: half strokes of 50 points, the rest rects/ellipses/texts/notes; whole board in view',
      },
    };
  } finally {
    await browser.close();
  }
}
