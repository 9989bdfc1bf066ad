// A process started inside a lab namespace (`ip netns exec`): its stdout lines (JSON ones parsed as events), its stdin, bounded waits for an event, and a kill of its whole process group. Knows nothing of topologies.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Hang guards only: a healthy run never comes near them. */
const WAIT_MS = 30_000;
const KILL_MS = 5_000;

/** One stdout line that parsed as a JSON object, with `ev` ('' when it had none). */
export type LabEvent = Readonly<Record<string, unknown>> & { readonly ev: string };

/** A process running inside a namespace: its stdout lines (JSON ones parsed), stdin, and a group kill. */
export class LabProcess {
  readonly lines: string[] = [];
  readonly events: LabEvent[] = [];
  /** Resolves with the exit code (null after a signal) once stdout is drained. */
  readonly closed: Promise<number | null>;
  exitCode: number | null | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly wakers = new Set<() => void>();
  private stderrTail = '';

  constructor(
    readonly label: string,
    readonly ns: string,
    command: string,
    args: readonly string[],
    cwd: string,
  ) {
    // Its own process group (detached), so a kill reaches whatever the command starts too.
    this.child = spawn('ip', ['netns', 'exec', ns, command, ...args], {
      cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.on('error', (err) => {
      this.stderrTail += `\nspawn failed: ${err.message}`;
    });
    this.child.stdin.on('error', () => undefined); // EPIPE once the process is gone
    this.child.stderr.on('data', (b: Buffer) => {
      this.stderrTail = (this.stderrTail + b.toString()).slice(-2000);
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      const event = parseEvent(line);
      if (event !== undefined) this.events.push(event);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      this.child.once('close', (code) => {
        this.exitCode = code;
        this.wake();
        resolve(code);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Writes one line to the process's stdin. */
  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** The first event (already seen or still to come) that `pred` accepts; rejects if the process ends first. */
  waitFor(pred: (e: LabEvent) => boolean, ms = WAIT_MS): Promise<LabEvent> {
    return new Promise((resolve, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        this.wakers.delete(check);
      };
      const check = (): void => {
        const hit = this.events.find(pred);
        if (hit !== undefined) {
          stop();
          resolve(hit);
        } else if (this.exitCode !== undefined) {
          stop();
          reject(
            new Error(`${this.label} ended (${String(this.exitCode)}) without it${this.context()}`),
          );
        }
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`${this.label}: nothing awaited came in ${ms} ms${this.context()}`));
      }, ms);
      this.wakers.add(check);
      check();
    });
  }

  /** The process's `{"ev":"done"}` line, awaited. */
  done(ms = WAIT_MS): Promise<LabEvent> {
    return this.waitFor((e) => e.ev === 'done', ms);
  }

  /** Kills the whole process group now (SIGKILL); safe to repeat. */
  killNow(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.exitCode !== undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** Kills the process group and waits (bounded) for it to be reaped. */
  async kill(): Promise<void> {
    this.killNow();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.closed, new Promise((r) => (timer = setTimeout(r, KILL_MS)))]);
    clearTimeout(timer);
  }

  private context(): string {
    const last = this.lines.slice(-3).join(' | ');
    return `; last lines: ${last || '(none)'}; stderr: ${this.stderrTail.trim() || '(none)'}`;
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }
}

function parseEvent(line: string): LabEvent | undefined {
  try {
    const v: unknown = JSON.parse(line);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    const rec = v as Record<string, unknown>;
    return { ...rec, ev: typeof rec.ev === 'string' ? rec.ev : '' };
  } catch {
    return undefined;
  }
}
