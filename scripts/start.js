#!/usr/bin/env node
// `npm start`: builds what is out of date, then runs the desktop app in Electron. Where no Electron binary can
// be had (its download was skipped at install and fails now), says so in one line and runs the web host.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, ROOT } from './build.js';

const INSTALL_TIMEOUT_MS = 120_000;
const say = (line) => process.stderr.write(`Ghostboard: ${line}\n`);

/** The Electron executable the npm package points at (ELECTRON_OVERRIDE_DIST_PATH honoured), if present. */
export function electronBinary() {
  try {
    // electron/index.js throws while no binary is installed (and a module that throws isn't cached).
    const path = createRequire(join(ROOT, 'package.json'))('electron');
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Tries the download electron's own postinstall would have done (skipped by ignore-scripts). */
function fetchElectron() {
  const install = join(ROOT, 'node_modules', 'electron', 'install.js');
  if (!existsSync(install)) return undefined;
  spawnSync(process.execPath, [install], {
    cwd: join(ROOT, 'node_modules', 'electron'),
    stdio: 'ignore',
    timeout: INSTALL_TIMEOUT_MS,
  });
  return electronBinary();
}

/** Runs a child with our stdio, forwards termination signals, and exits with its status. */
function runChild(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => {
      child.kill(signal);
    });
  child.on('error', (e) => {
    say(`could not start ${command}: ${e.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function runElectron(binary, args) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  // Chromium refuses to run as root with its sandbox on (containers, CI); only then is it turned off.
  const rootFlags =
    process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  runChild(binary, [...rootFlags, ROOT, ...args], env);
}

function runWebHost(args) {
  runChild(process.execPath, ['--import', 'tsx', join(ROOT, 'src-main', 'web', 'cli.ts'), ...args]);
}

async function main() {
  const args = process.argv.slice(2);
  const binary = electronBinary() ?? fetchElectron();
  if (!binary)
    say(
      'no Electron binary is available here (its download failed); running the web host instead.',
    );
  try {
    await build(binary ? ['renderer', 'main'] : ['renderer'], { ifNeeded: true, log: say });
  } catch (e) {
    say(`build failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  if (binary) {
    runElectron(binary, args);
    return;
  }
  runWebHost(args);
}

await main();
