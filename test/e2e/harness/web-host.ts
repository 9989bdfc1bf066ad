// Starts a web host as a child process for an end-to-end test and reads its URL (token included) from
// stdout. Knows nothing of what the page does.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const URL_LINE =
  /^Ghostboard web host: (http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43}))$/m;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface RunningHost {
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** Everything the host wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** SIGTERM, then SIGKILL if it doesn't exit; removes its data directory. Resolves to the exit code. */
  stop(): Promise<number | null>;
}

/** The product's web host (`src-main/web/cli.ts`) with a fresh data directory, or a test entry point. */
export async function startWebHost(
  options: { readonly entry?: string; readonly args?: readonly string[] } = {},
): Promise<RunningHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gb-e2e-data-'));
  const entry = options.entry ?? join(ROOT, 'src-main', 'web', 'cli.ts');
  // The product's host: sessions on loopback and no mDNS, so tests talk to nothing beyond this machine's loopback.
  const quiet = options.entry === undefined ? ['--no-lan', '--bind', '127.0.0.1'] : [];
  const args = [
    '--port',
    '0',
    '--no-open',
    ...quiet,
    '--data-dir',
    dataDir,
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  try {
    const match = await waitForUrl(
      child,
      () => out,
      () => err,
    );
    return {
      url: match[1] ?? '',
      origin: `http://127.0.0.1:${match[2] ?? ''}`,
      port: Number(match[2]),
      token: match[3] ?? '',
      stderr: () => err,
      stop: () => stop(child, dataDir),
    };
  } catch (e) {
    await stop(child, dataDir);
    throw e;
  }
}

function waitForUrl(
  child: ChildProcess,
  stdout: () => string,
  stderr: () => string,
): Promise<RegExpExecArray> {
  return new Promise((resolvePromise, reject) => {
    const check = (): void => {
      const m = URL_LINE.exec(stdout());
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolvePromise(m);
      }
    };
    const timer = setTimeout(() => {
      reject(new Error(`web host printed no URL in ${START_TIMEOUT_MS} ms:\n${stderr()}`));
    }, START_TIMEOUT_MS);
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web host exited (${String(code)}) before printing its URL:\n${stderr()}`));
    });
    check();
  });
}

async function stop(child: ChildProcess, dataDir: string): Promise<number | null> {
  const exited = new Promise<number | null>((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r(child.exitCode);
    else child.once('exit', (code) => r(code));
  });
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  const code = await exited;
  clearTimeout(timer);
  rmSync(dataDir, { recursive: true, force: true });
  return code;
}
