// The namespaces and processes a benchmark network made, and their teardown: every namespace and child is
// registered here, so a normal close, a process exit or Ctrl-C removes them all. Also moves a router's TUN device
// into a fresh namespace, and runs the router (RouterRun). Knows nothing of the router's topology or of what runs
// inside.
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonEvent } from './json-proc';
import { JsonProc } from './json-proc';

const ROUTER = join(dirname(fileURLToPath(import.meta.url)), 'router.py');

/** Every namespace any live testbed created, so an exit or a signal can still delete them. */
const liveNamespaces = new Set<string>();
const liveProcs = new Set<ChildProcess>();

export function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Last-resort synchronous cleanup (process exit, Ctrl-C): kills what we started, deletes what we made. */
function cleanupSync(): void {
  for (const p of liveProcs) if (p.exitCode === null) p.kill('SIGKILL');
  for (const ns of liveNamespaces) deleteNamespace(ns);
}

/** Processes still inside a namespace this run created are ours (started through `ip netns exec`). */
function killNamespacePids(ns: string): void {
  let out = '';
  try {
    out = execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' });
  } catch {
    return;
  }
  for (const pid of out.split(/\s+/).filter((s) => /^\d+$/.test(s))) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
}

let hooked = false;
/** Installs the exit and signal cleanup once per process. */
export function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', cleanupSync);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      cleanupSync();
      process.exit(130);
    });
  }
}

export function trackProcess(p: ChildProcess): void {
  liveProcs.add(p);
}

export function untrackProcess(p: ChildProcess): void {
  liveProcs.delete(p);
}

/** Moves a router's TUN device into a fresh namespace and gives it its one address and a route to `subnet`. */
export function attachTun(ns: string, dev: string, addr: string, subnet: string): void {
  liveNamespaces.add(ns);
  ip('netns', 'add', ns);
  ip('link', 'set', dev, 'netns', ns);
  ip('-n', ns, 'link', 'set', 'lo', 'up');
  ip('-n', ns, 'addr', 'add', `${addr}/32`, 'dev', dev);
  ip('-n', ns, 'link', 'set', dev, 'up');
  ip('-n', ns, 'route', 'add', subnet, 'dev', dev);
}

/** Kills what is left inside a namespace this run made and deletes it; a namespace never made is skipped. */
export function deleteNamespace(ns: string): void {
  if (!liveNamespaces.has(ns)) return;
  killNamespacePids(ns);
  try {
    ip('netns', 'del', ns);
  } catch {
    // never created
  }
  liveNamespaces.delete(ns);
}

/**
 * A running router.py and what runs in its namespaces: starts it with a config, starts Node processes inside
 * namespaces, asks for its counters, and tears it all down (processes, router, namespaces) once.
 */
export class RouterRun {
  private readonly procs = new Set<JsonProc>();
  private closed = false;

  /** What router.py said of its scheduling when ready ("normal" unless it was asked to run ahead). */
  priority = 'normal';

  private constructor(
    private readonly router: JsonProc,
    private readonly namespaces: readonly string[],
  ) {}

  /** Starts the router; `attach` moves its devices into `namespaces` once it is ready (all undone on failure). */
  static async start(
    config: unknown,
    namespaces: readonly string[],
    attach: () => void,
  ): Promise<RouterRun> {
    hookExit();
    const router = JsonProc.start('router', 'python3', [ROUTER, JSON.stringify(config)]);
    trackProcess(router.child);
    const run = new RouterRun(router, namespaces);
    try {
      const ready = await router.waitFor((e) => e.ev === 'ready', 5000);
      if (typeof ready.priority === 'string') run.priority = ready.priority;
      attach();
    } catch (e) {
      await run.close();
      throw e;
    }
    return run;
  }

  /** Starts `node args...` inside a namespace, speaking JSON lines on stdio. */
  node(ns: string, label: string, args: readonly string[]): JsonProc {
    const p = JsonProc.start(label, 'ip', ['netns', 'exec', ns, process.execPath, ...args]);
    trackProcess(p.child);
    this.procs.add(p);
    return p;
  }

  /** The router's counters now (one SIGUSR1 → one stats line). */
  async snapshot(): Promise<JsonEvent> {
    const n = this.router.events.length;
    this.router.child.kill('SIGUSR1');
    return this.router.waitFor((ev) => ev.ev === 'stats', 3000, n);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.procs].map((p) => p.stop(1500)));
    for (const p of this.procs) untrackProcess(p.child);
    await this.router.stop(1500);
    untrackProcess(this.router.child);
    for (const ns of this.namespaces) deleteNamespace(ns);
  }
}
