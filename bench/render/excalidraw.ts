// Excalidraw side by side in the renderer benchmark: installs @excalidraw/excalidraw (whatever version npm
// offers) with React into a temporary directory outside the repo — never a dependency of the app — builds the
// tiny page of excalidraw-page/ there with the repo's Vite, and opens it on the same seeded board. When npm or
// the build fails, says why instead (the bench reports it). Knows nothing of Ghostboard's renderer.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { largeBoard } from '../../src-renderer/dev/fake-large';
import { serveDir } from './measure';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..');
const WORK = join(tmpdir(), 'gb-bench-excalidraw');
const ORIGIN = 'http://excalidraw.bench';

export interface ExcalidrawPage {
  readonly dir: string;
  readonly version: string;
  open(page: Page, n: number, seed: number, pointers: number): Promise<void>;
  dragTarget(
    page: Page,
    n: number,
    seed: number,
  ): Promise<{ x: number; y: number; moved: () => Promise<boolean> }>;
}

function npm(args: string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 300_000 });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}`.trim() };
}

/** Installs (once per version) and builds the page; `unavailable` says why it could not. */
export async function prepareExcalidraw(): Promise<ExcalidrawPage | { unavailable: string }> {
  if (process.env.GB_RENDER_EXCALIDRAW === '0')
    return { unavailable: 'skipped (GB_RENDER_EXCALIDRAW=0)' };
  mkdirSync(WORK, { recursive: true });
  const view = npm(['view', '@excalidraw/excalidraw', 'version'], WORK);
  if (!view.ok)
    return { unavailable: `npm view @excalidraw/excalidraw failed: ${view.out.slice(-300)}` };
  const version = view.out.split('\n').at(-1) ?? '';
  const installed = join(WORK, 'node_modules', '@excalidraw', 'excalidraw', 'package.json');
  const has =
    existsSync(installed) &&
    (JSON.parse(readFileSync(installed, 'utf8')) as { version?: string }).version === version;
  if (!has) {
    writeFileSync(
      join(WORK, 'package.json'),
      '{ "name": "gb-bench-excalidraw", "private": true }\n',
    );
    const react = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies;
    const got = npm(
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `@excalidraw/excalidraw@${version}`,
        `react@${react.react ?? '19'}`,
        `react-dom@${react['react-dom'] ?? '19'}`,
      ],
      WORK,
    );
    if (!got.ok) return { unavailable: `npm install failed: ${got.out.slice(-300)}` };
  }
  const src = join(WORK, 'page');
  const out = join(WORK, 'dist');
  cpSync(join(here, 'excalidraw-page'), src, { recursive: true });
  try {
    const vite = await import('vite');
    await vite.build({
      root: src,
      configFile: false,
      logLevel: 'error',
      resolve: {
        alias: { '@gb/fake-large': join(ROOT, 'src-renderer', 'dev', 'fake-large.ts') },
        dedupe: ['react', 'react-dom'],
      },
      build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
    });
  } catch (e) {
    return { unavailable: `building the Excalidraw page failed: ${String(e).slice(0, 300)}` };
  }
  // Its fonts from the page's own origin (EXCALIDRAW_ASSET_PATH = '/'), not a CDN.
  const fonts = join(WORK, 'node_modules', '@excalidraw', 'excalidraw', 'dist', 'prod', 'fonts');
  if (existsSync(fonts)) cpSync(fonts, join(out, 'fonts'), { recursive: true });

  return {
    dir: out,
    version,
    async open(page, n, seed, pointers) {
      await serveDir(page, ORIGIN, out);
      await page.goto(`${ORIGIN}/?objects=${n}&seed=${seed}&pointers=${pointers}`);
      await page.waitForFunction(
        () => (globalThis as unknown as { __bench?: { ready: boolean } }).__bench?.ready,
        null,
        {
          timeout: 120_000,
        },
      );
    },
    async dragTarget(page, n, seed) {
      const note = [...largeBoard(n, seed)].reverse().find((o) => o.kind === 'note');
      if (!note) throw new Error('the board has no note');
      const read = (id: string) =>
        page.evaluate((id) => {
          type Api = {
            getAppState(): { scrollX: number; scrollY: number; zoom: { value: number } };
            getSceneElements(): readonly { id: string; x: number; y: number }[];
          };
          const api = (globalThis as unknown as { __bench: { api: Api } }).__bench.api;
          const s = api.getAppState();
          const el = api.getSceneElements().find((e) => e.id === id);
          return { scrollX: s.scrollX, scrollY: s.scrollY, zoom: s.zoom.value, x: el?.x ?? NaN };
        }, id);
      const s = await read(`o-${note.id}`);
      // Below the note's text (drawn over the rectangle's top): a press there takes the rectangle.
      const wx = note.x + note.w / 2;
      const wy = note.y + note.h * 0.75;
      return {
        x: (wx + s.scrollX) * s.zoom,
        y: (wy + s.scrollY) * s.zoom,
        moved: async () => (await read(`o-${note.id}`)).x !== s.x,
      };
    },
  };
}
