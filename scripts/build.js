#!/usr/bin/env node
// Builds the renderer (Vite → dist/renderer) and the Electron main + preload (esbuild → dist/main).
// usage: node scripts/build.js [renderer] [main] [--if-needed]   (no target: both)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const RENDERER_INDEX = join(ROOT, 'dist', 'renderer', 'index.html');
export const MAIN_ENTRY = join(ROOT, 'dist', 'main', 'electron', 'main.js');
const PRELOAD_OUT = join(ROOT, 'dist', 'main', 'electron', 'preload.cjs');
const VITE_CONFIG = join(ROOT, 'vite.config.ts');

/** Newest modification time (ms) of the files under the given paths; 0 when none exist. */
function newest(paths) {
  let t = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const s = statSync(p);
    if (!s.isDirectory()) t = Math.max(t, s.mtimeMs);
    else
      for (const name of readdirSync(p))
        if (name !== 'node_modules') t = Math.max(t, newest([join(p, name)]));
  }
  return t;
}

function stale(outputs, inputs) {
  if (!outputs.every((o) => existsSync(o))) return true;
  const built = Math.min(...outputs.map((o) => statSync(o).mtimeMs));
  return newest(inputs.map((i) => join(ROOT, i))) > built;
}

export function rendererStale() {
  return stale([RENDERER_INDEX], ['src-renderer', 'shared', 'vite.config.ts', 'package.json']);
}

export function mainStale() {
  return stale([MAIN_ENTRY, PRELOAD_OUT], ['src-main', 'shared', 'package.json']);
}

/** Runs `vite build`; its output is shown only if it fails. Throws with a plain message on failure. */
export function buildRenderer() {
  if (!existsSync(VITE_CONFIG))
    throw new Error('no vite.config.ts yet: the renderer is not written');
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', VITE_CONFIG], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error('the renderer build (vite build) failed');
  }
}

/** Bundles main as an ES module and the preload as CommonJS (sandboxed preloads can't be ES modules). */
export async function buildMain() {
  const esbuild = await import('esbuild');
  const common = {
    bundle: true,
    platform: 'node',
    external: ['electron'],
    sourcemap: true,
    logLevel: 'warning',
    absWorkingDir: ROOT,
  };
  await esbuild.build({
    ...common,
    entryPoints: { 'electron/main': 'src-main/electron/main.ts' },
    outdir: 'dist/main',
    format: 'esm',
    target: 'node22',
    // Bundled CommonJS dependencies may call require(); an ES module has none of its own.
    banner: {
      js: "import { createRequire as __gbRequire } from 'node:module'; const require = __gbRequire(import.meta.url);",
    },
  });
  await esbuild.build({
    ...common,
    entryPoints: { 'electron/preload': 'src-main/electron/preload.ts' },
    outdir: 'dist/main',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    target: 'chrome142',
  });
}

/** Builds what is asked (or only what is out of date with `ifNeeded`); returns the targets built. */
export async function build(targets, { ifNeeded = false, log = () => {} } = {}) {
  const built = [];
  if (targets.includes('renderer') && (!ifNeeded || rendererStale())) {
    log('building the renderer (vite build)');
    buildRenderer();
    built.push('renderer');
  }
  if (targets.includes('main') && (!ifNeeded || mainStale())) {
    log('building the Electron main process (esbuild)');
    await buildMain();
    built.push('main');
  }
  return built;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const ifNeeded = args.includes('--if-needed');
  const named = args.filter((a) => a === 'renderer' || a === 'main');
  const unknown = args.filter((a) => a !== '--if-needed' && !named.includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`build: unknown argument ${unknown.join(' ')}\n`);
    process.exit(2);
  }
  try {
    await build(named.length > 0 ? named : ['renderer', 'main'], {
      ifNeeded,
      log: (line) => process.stderr.write(`build: ${line}\n`),
    });
  } catch (e) {
    process.stderr.write(`build: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
