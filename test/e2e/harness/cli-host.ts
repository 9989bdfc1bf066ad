// A headless host (`ghostboard host --script`) on loopback as a child process for an end-to-end test: started on
// a port and code of the test's choosing (so it can come back as the same host), fed script commands, and killed
// hard like a crashed host. Knows nothing of the page.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readyPort, stop } from './directory';
import { ROOT } from './web-host';

export interface RunningCliHost {
  readonly port: number;
  readonly code: string;
  /** One script command (a JSON object) to the host's stdin. */
  send(command: Record<string, unknown>): void;
  /** SIGKILL: the host vanishes without a word, as a crash or a pulled cable. */
  crash(): Promise<void>;
  /** SIGTERM, then SIGKILL if it doesn't exit. */
  stop(): Promise<void>;
  /** SIGSTOP (true) or SIGCONT (false): a host too busy to answer for a while, then back. */
  pause(paused: boolean): void;
}

export async function startCliHost(o: {
  name: string;
  code: string;
  port?: number;
}): Promise<RunningCliHost> {
  const args = ['host', '--script', '--bind', '127.0.0.1', '--port', String(o.port ?? 0)];
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'ghostboard.js'), ...args, '--name', o.name, '--code', o.code],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  try {
    const port = await readyPort(
      child,
      () => out,
      () => err,
    );
    const exited = new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) r();
      else child.once('exit', () => r());
    });
    return {
      port,
      code: o.code,
      send: (command) => child.stdin?.write(`${JSON.stringify(command)}\n`),
      crash: async () => {
        child.kill('SIGKILL');
        await exited;
      },
      stop: () => {
        const stopped = stop(child);
        child.kill('SIGCONT'); // a paused host hears SIGTERM only once it runs again
        return stopped;
      },
      pause: (paused) => {
        if (child.exitCode === null && child.signalCode === null)
          child.kill(paused ? 'SIGSTOP' : 'SIGCONT');
      },
    };
  } catch (e) {
    await stop(child);
    throw e;
  }
}
