// A child process that speaks JSON lines on stdin/stdout, timestamped on arrival with this process's clock;
// knows nothing of what the lines mean.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type JsonEvent = Record<string, unknown>;
/** Return true to consume an event (it is then not kept for waitFor). */
export type EventHandler = (e: JsonEvent, at: number) => boolean;

/** Events kept for waitFor; past this, the oldest are forgotten (loops and memory stay bounded). */
const MAX_KEPT = 20_000;

export class JsonProc {
  readonly events: JsonEvent[] = [];
  private dropped = 0;
  onEvent: EventHandler | undefined;
  private stderrTail = '';
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<number | null>;

  private constructor(
    readonly label: string,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        resolve(code);
        for (const w of this.waiters) w();
      });
    });
    child.stdin?.on('error', () => undefined); // EPIPE after the child exits: the run reports it elsewhere
    child.stderr?.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-2000);
    });
    if (child.stdout) {
      createInterface({ input: child.stdout }).on('line', (line) => this.onLine(line));
    }
  }

  static start(
    label: string,
    cmd: string,
    args: readonly string[],
    env?: NodeJS.ProcessEnv,
  ): JsonProc {
    const child = spawn(cmd, [...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: env ?? process.env,
    });
    return new JsonProc(label, child);
  }

  private onLine(line: string): void {
    const at = performance.now();
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      return; // a stray log line on stdout
    }
    if (typeof e !== 'object' || e === null) return;
    const ev = e as JsonEvent;
    if (this.onEvent?.(ev, at) === true) return;
    ev.at = at;
    this.events.push(ev);
    if (this.events.length > MAX_KEPT) {
      this.events.shift();
      this.dropped++;
    }
    for (const w of this.waiters) w();
  }

  send(command: JsonEvent): void {
    if (this.child.exitCode !== null || this.child.stdin?.writable !== true) return;
    this.child.stdin.write(JSON.stringify(command) + '\n');
  }

  /** Resolves with the first kept event (at index ≥ from) matching `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (e: JsonEvent) => boolean, timeoutMs: number, from = 0): Promise<JsonEvent> {
    return new Promise((resolve, reject) => {
      let i = Math.max(0, from - this.dropped);
      const check = (): void => {
        for (; i < this.events.length; i++) {
          const e = this.events[i];
          if (e !== undefined && pred(e)) {
            done(() => resolve(e));
            return;
          }
        }
        if (this.child.exitCode !== null || this.child.signalCode !== null)
          done(() => reject(new Error(`${this.label} exited: ${this.stderrTail}`)));
      };
      const timer = setTimeout(() => {
        done(() => reject(new Error(`${this.label}: timed out after ${timeoutMs} ms`)));
      }, timeoutMs);
      const done = (f: () => void): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        f();
      };
      this.waiters.add(check);
      check();
    });
  }

  get stderr(): string {
    return this.stderrTail;
  }

  /** SIGTERM, then SIGKILL after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
