// Runs a web host as a process: starts it, prints the address to open, optionally opens a browser, and shuts
// down cleanly on SIGINT/SIGTERM. Knows nothing of how the core is made (the caller passes it) or Electron.
import { spawn } from 'node:child_process';
import type { AppCore } from '../app/core-api';
import { startWebHost } from './server';

/** The line tests and scripts parse: the prefix, then the URL (token included), alone on its line. */
export const URL_LINE_PREFIX = 'Ghostboard web host: ';

export interface LaunchOptions {
  readonly core: AppCore;
  readonly rootDir: string;
  readonly port: number;
  readonly open: boolean;
}

/** Best effort: a missing opener or a failing one is ignored (the URL is printed anyway). */
export function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener on this machine
  }
}

export async function launchWebHost(options: LaunchOptions): Promise<void> {
  const host = await startWebHost({
    core: options.core,
    rootDir: options.rootDir,
    port: options.port,
  });
  process.stdout.write(`${URL_LINE_PREFIX}${host.url}\n`);
  if (options.open) openBrowser(host.url);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`web host: ${signal} again, exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`web host: ${signal}, shutting down\n`);
    void host
      .close()
      .then(() => options.core.close())
      .then(
        () => process.exit(0),
        (e: unknown) => {
          process.stderr.write(`web host: shutdown failed: ${String(e)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
