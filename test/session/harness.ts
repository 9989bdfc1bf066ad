// Multi-process session harness: spawns `ghostboard --script` processes and impairment proxies on loopback, reads their JSON-lines events with arrival times, and tears everything down; knows nothing of what a test checks.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Impairment } from '../../src-main/net/impairment';
import { NO_IMPAIRMENT } from '../../src-main/net/impairment';
import { ImpairmentProxy } from '../impair/proxy';

const BIN = fileURLToPath(new URL('../../bin/ghostboard.js', import.meta.url));
const LOOPBACK = '127.0.0.1';
export const CODE = 'ABCDE-FGHJK';
/** Hang guards only: a slow, shared CI machine must never trip them on a healthy run. */
export const START_MS = 60_000;
export const EVENT_MS = 60_000;

/** One stdout line as parsed, plus `at`: performance.now() in this process when the line arrived. */
export type GhostEvent = Readonly<Record<string, unknown>> & {
  readonly ev: string;
  readonly at: number;
};
export type Predicate = (e: GhostEvent) => boolean;
export type Command = Readonly<Record<string, unknown>> & { readonly cmd: string };

/** Every process not yet reaped, so a crashed test or worker still kills its children. */
const live = new Set<GhostProc>();
process.once('exit', () => {
  for (const p of live) p.killNow();
});

/** One process's board as its `hash` command reports it. */
export interface BoardState {
  readonly hash: string;
  readonly objects: number;
  /** Events it sent that the other side may still need. */
  readonly unsettled: number;
}

/** One CLI process in script mode. */
export class GhostProc {
  readonly events: GhostEvent[] = [];
  /** Resolves with the exit code (null when a signal ended it) once stdout is drained. */
  readonly closed: Promise<number | null>;
  exitCode: number | null | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly wakers = new Set<() => void>();
  private stderrTail = '';

  constructor(
    readonly label: string,
    args: readonly string[],
  ) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(this);
    this.child.stdin.on('error', () => undefined); // EPIPE once the process is gone
    this.child.stderr.on('data', (b: Buffer) => {
      this.stderrTail = (this.stderrTail + b.toString()).slice(-2000);
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const at = performance.now();
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = { ev: 'unparsed', line };
      }
      this.events.push({ ...(parsed as Record<string, unknown>), ev: evOf(parsed), at });
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      this.child.once('close', (code) => {
        live.delete(this);
        this.exitCode = code;
        this.wake();
        resolve(code);
      });
    });
  }

  /** Writes one command line; returns performance.now() just before the write. */
  send(cmd: Command): number {
    const at = performance.now();
    if (this.exitCode === undefined && this.child.stdin.writable)
      this.child.stdin.write(JSON.stringify(cmd) + '\n');
    return at;
  }

  /** Writes many command lines in one write (a paste); returns performance.now() just before it. */
  sendLines(lines: readonly string[]): number {
    const at = performance.now();
    if (this.exitCode === undefined && this.child.stdin.writable)
      this.child.stdin.write(lines.map((l) => l + '\n').join(''));
    return at;
  }

  /** The first event from index `from` on that satisfies `pred`, waiting for it if need be. */
  async waitFor(
    pred: Predicate,
    what: string,
    timeoutMs = EVENT_MS,
    from = 0,
  ): Promise<GhostEvent> {
    const deadline = performance.now() + timeoutMs;
    for (let i = from; ;) {
      for (; i < this.events.length; i++) {
        const e = this.events[i];
        if (e !== undefined && pred(e)) return e;
      }
      if (this.exitCode !== undefined)
        throw this.failure(`exited (${this.exitCode}) before ${what}`);
      const left = deadline - performance.now();
      if (left <= 0) throw this.failure(`no ${what} within ${timeoutMs} ms`);
      await this.changed(left);
    }
  }

  /** Sends `cmd` and waits for the first `ev` event after it (script commands answer in order). */
  async request(cmd: Command, ev: string, timeoutMs = EVENT_MS): Promise<GhostEvent> {
    const from = this.events.length;
    this.send(cmd);
    return this.waitFor((e) => e.ev === ev, `${ev} answering ${cmd.cmd}`, timeoutMs, from);
  }

  async hash(): Promise<string> {
    return (await this.boardState()).hash;
  }

  async boardState(): Promise<BoardState> {
    const e = await this.request({ cmd: 'hash' }, 'hash');
    return { hash: str(e, 'hash'), objects: num(e, 'objects'), unsettled: num(e, 'unsettled') };
  }

  /** Asks the process to quit, and kills it if it has not exited within `graceMs`. */
  async quit(graceMs = 3000): Promise<number | null> {
    this.send({ cmd: 'quit' });
    const timer = setTimeout(() => this.killNow(), graceMs);
    const code = await this.closed;
    clearTimeout(timer);
    return code;
  }

  async kill(): Promise<void> {
    this.killNow();
    await this.closed;
  }

  killNow(): void {
    if (this.exitCode === undefined) this.child.kill('SIGKILL');
  }

  /** Stops or resumes the process (SIGSTOP / SIGCONT): a host too busy to answer, for a while. */
  pause(paused: boolean): void {
    if (this.exitCode === undefined) this.child.kill(paused ? 'SIGSTOP' : 'SIGCONT');
  }

  private failure(why: string): Error {
    const last = this.events.slice(-5).map((e) => JSON.stringify(e));
    return new Error(
      `${this.label} ${why}\n  last events: ${last.join('\n    ')}\n  stderr: ${this.stderrTail}`,
    );
  }

  private wake(): void {
    for (const w of this.wakers) w();
    this.wakers.clear();
  }

  private changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const wakers = this.wakers;
      function done(): void {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      }
      wakers.add(done);
    });
  }
}

function evOf(v: unknown): string {
  const ev = typeof v === 'object' && v !== null ? (v as { ev?: unknown }).ev : undefined;
  return typeof ev === 'string' ? ev : 'unparsed';
}

export function num(e: GhostEvent, field: string): number {
  const v = e[field];
  if (typeof v !== 'number') throw new Error(`${field} is not a number in ${JSON.stringify(e)}`);
  return v;
}

export function str(e: GhostEvent, field: string): string {
  const v = e[field];
  if (typeof v !== 'string') throw new Error(`${field} is not a string in ${JSON.stringify(e)}`);
  return v;
}

export interface ProcOptions {
  readonly name: string;
  readonly code?: string;
  /** `--rate`: a preset or packets/s. */
  readonly rate?: string;
  readonly viewer?: boolean;
}

function linkArgs(o: ProcOptions): string[] {
  return [
    '--code',
    o.code ?? CODE,
    '--name',
    o.name,
    '--script',
    ...(o.rate === undefined ? [] : ['--rate', o.rate]),
  ];
}

/** A joiner and the proxy that is its network path to the host. */
export interface Remote {
  readonly proc: GhostProc;
  readonly proxy: ImpairmentProxy;
  /** Its participant id, from its `ready` event. */
  readonly peer: number;
}

export interface Session {
  readonly host: GhostProc;
  readonly port: number;
  readonly remotes: readonly Remote[];
  /** Host first, then the joiners. */
  readonly all: readonly GhostProc[];
}

/** What one test owns; `close()` kills and closes all of it, whatever state it is in. */
export class Lab {
  private readonly procs: GhostProc[] = [];
  private readonly proxies: ImpairmentProxy[] = [];

  spawn(label: string, args: readonly string[]): GhostProc {
    const p = new GhostProc(label, args);
    this.procs.push(p);
    return p;
  }

  /** A host on a free loopback port, once it is ready. */
  async host(o: ProcOptions): Promise<{ proc: GhostProc; port: number }> {
    const proc = this.spawn(o.name, ['host', '--port', '0', '--bind', LOOPBACK, ...linkArgs(o)]);
    const ready = await proc.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    return { proc, port: num(ready, 'port') };
  }

  /** A joiner aimed at `port` (a proxy's or the host's); not waited for. */
  join(port: number, o: ProcOptions): GhostProc {
    const args = ['join', `${LOOPBACK}:${port}`, ...linkArgs(o), ...(o.viewer ? ['--viewer'] : [])];
    return this.spawn(o.name, args);
  }

  async proxy(
    hostPort: number,
    seed: number,
    up: Impairment,
    down: Impairment = up,
  ): Promise<ImpairmentProxy> {
    const p = await ImpairmentProxy.start({
      listen: { address: LOOPBACK, port: 0 },
      target: { address: LOOPBACK, port: hostPort },
      upstream: up,
      downstream: down,
      seed,
    });
    this.proxies.push(p);
    return p;
  }

  /**
   * A host and `joiners.length` joiners, each through its own proxy (its own network path), every one
   * ready and announced to the host. Proxy i is seeded with seed * 16 + 2 * i (its downstream with + 1).
   */
  async session(
    seed: number,
    impairment: Impairment,
    joiners: readonly ProcOptions[],
    host: ProcOptions = { name: 'Host' },
  ): Promise<Session> {
    const { proc, port } = await this.host(host);
    const remotes = await Promise.all(
      joiners.map(async (o, i) => {
        const proxy = await this.proxy(port, seed * 16 + 2 * i, impairment);
        const j = this.join(proxy.address.port, o);
        const ready = await j.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
        return { proc: j, proxy, peer: num(ready, 'peer') };
      }),
    );
    for (const r of remotes)
      await proc.waitFor((e) => e.ev === 'joined' && e.peer === r.peer, `joined ${r.peer}`);
    return { host: proc, port, remotes, all: [proc, ...remotes.map((r) => r.proc)] };
  }

  async close(): Promise<void> {
    await Promise.all(this.procs.map((p) => p.kill()));
    await Promise.all(this.proxies.map((p) => p.close()));
  }
}

/** Kills whatever any lab left running (afterAll's last resort). */
export async function killAll(): Promise<void> {
  await Promise.all([...live].map((p) => p.kill()));
}

export function lossyImpairment(loss: number, delayMs: number): Impairment {
  return { ...NO_IMPAIRMENT, loss, delayMs };
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/**
 * Waits until every board is final and equal. First until no process has an event its peer may still need: then
 * every edit has reached the host and the host's board can no longer change. Then until every board hashes like
 * the host's. Returns the last poll's states (in `all`'s order) and whether both conditions held by `limitMs`.
 */
export async function settledBoards(
  all: readonly GhostProc[],
  limitMs: number,
  pollMs = 200,
): Promise<{ readonly states: readonly BoardState[]; readonly settled: boolean }> {
  const deadline = performance.now() + limitMs;
  let quiet = false;
  for (;;) {
    // Hashes count only from a poll that began once everything was in: a poll's answers are not one instant.
    const wasQuiet = quiet;
    const states = await Promise.all(all.map((p) => p.boardState()));
    quiet ||= states.every((b) => b.unsettled === 0);
    const settled = wasQuiet && states.every((b) => b.hash === states[0]?.hash);
    if (settled || performance.now() > deadline) return { states, settled };
    if (wasQuiet || !quiet) await sleep(pollMs);
  }
}
