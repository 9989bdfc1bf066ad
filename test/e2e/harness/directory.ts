// Starts a directory (`ghostboard directory`) on loopback as a child process for an end-to-end test and
// reads its port from the ready event on stdout. Knows nothing of the app or the page.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './web-host';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface RunningDirectory {
  /** "127.0.0.1:PORT", as --directory takes it. */
  readonly address: string;
  readonly port: number;
  stderr(): string;
  /** SIGTERM, then SIGKILL if it doesn't exit. */
  stop(): Promise<void>;
}

export async function startDirectory(): Promise<RunningDirectory> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'ghostboard.js'), 'directory', '--bind', '127.0.0.1', '--port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  try {
    const port = await readyPort(
      child,
      () => out,
      () => err,
    );
    return {
      address: `127.0.0.1:${port}`,
      port,
      stderr: () => err,
      stop: () => stop(child),
    };
  } catch (e) {
    await stop(child);
    throw e;
  }
}

/** The port of the first `{"ev":"ready",…}` line. */
export function readyPort(
  child: ChildProcess,
  stdout: () => string,
  stderr: () => string,
): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const check = (): void => {
      for (const line of stdout().split('\n')) {
        let ev: unknown;
        try {
          ev = JSON.parse(line);
        } catch {
          continue; // a partial line: wait for the rest
        }
        const e = ev as { ev?: unknown; port?: unknown };
        if (e.ev === 'ready' && typeof e.port === 'number') {
          clearTimeout(timer);
          child.stdout?.off('data', check);
          resolvePromise(e.port);
          return;
        }
      }
    };
    const timer = setTimeout(() => {
      reject(
        new Error(`the process printed no ready event in ${START_TIMEOUT_MS} ms:\n${stderr()}`),
      );
    }, START_TIMEOUT_MS);
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the process exited (${String(code)}) before it was ready:\n${stderr()}`));
    });
    check();
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r();
    else child.once('exit', () => r());
  });
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
