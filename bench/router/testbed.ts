// Builds and tears down a benchmark network: one server namespace and N client namespaces joined by the TUN
// router (router.py), unique per run. Knows nothing of what runs inside the namespaces.
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Impairment } from '../../src-main/net/impairment';
import { JsonProc } from './json-proc';

const here = dirname(fileURLToPath(import.meta.url));
export const SERVER_ADDR = '10.77.0.1';
const clientAddr = (i: number): string => `10.77.0.${10 + i}`;

export interface TestbedOptions {
  readonly clients: number;
  readonly up: Impairment;
  readonly down: Impairment;
  readonly seed: number;
  /** The router exits by itself after this long, whatever happens to us. */
  readonly maxSeconds: number;
}

export interface DirectionCounts {
  packets: number;
  bytes: number;
  lost: number;
  queueDrops: number;
  delivered: number;
  /** With a bandwidth cap: datagrams by how long they waited in the bottleneck's queue, QUEUE_BUCKET_MS buckets. */
  queueWaitMs?: number[];
}

/** router.py's queue-wait bucket width, ms. */
export const QUEUE_BUCKET_MS = 5;

export interface RouterStats {
  atMs: number;
  clients: { addr: string; up: DirectionCounts; down: DirectionCounts }[];
  stray: Record<string, number>;
}

let runCounter = 0;
/** Every namespace any live testbed created, so an exit or a signal can still delete them. */
const liveNamespaces = new Set<string>();
const liveProcs = new Set<ChildProcess>();

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Last-resort synchronous cleanup (process exit, Ctrl-C): kills what we started, deletes what we made. */
function cleanupSync(): void {
  for (const p of liveProcs) if (p.exitCode === null) p.kill('SIGKILL');
  for (const ns of liveNamespaces) {
    killNamespacePids(ns);
    try {
      ip('netns', 'del', ns);
    } catch {
      // already gone
    }
  }
  liveNamespaces.clear();
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
function hookExit(): void {
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

export class Testbed {
  private readonly procs = new Set<JsonProc>();
  private closed = false;

  private constructor(
    readonly serverNs: string,
    readonly clients: readonly { ns: string; addr: string }[],
    private readonly router: JsonProc,
  ) {}

  static async open(o: TestbedOptions): Promise<Testbed> {
    hookExit();
    const tag = `${process.pid}-${runCounter++}`;
    // Interface names are at most 15 bytes: gb<pid><run><s|cN>.
    const short = `${process.pid % 100000}${String.fromCharCode(97 + (runCounter % 26))}`;
    const serverDev = `gb${short}s`;
    const clientDevs = Array.from({ length: o.clients }, (_, i) => `gb${short}c${i}`);
    const config = {
      seed: o.seed,
      maxSeconds: o.maxSeconds,
      server: { dev: serverDev, addr: SERVER_ADDR },
      clients: clientDevs.map((dev, i) => ({ dev, addr: clientAddr(i), up: o.up, down: o.down })),
    };
    const router = JsonProc.start('router', 'python3', [
      join(here, 'router.py'),
      JSON.stringify(config),
    ]);
    liveProcs.add(router.child);
    const serverNs = `gbb-${tag}-s`;
    const clients = clientDevs.map((_, i) => ({ ns: `gbb-${tag}-c${i}`, addr: clientAddr(i) }));
    const bed = new Testbed(serverNs, clients, router);
    try {
      await router.waitFor((e) => e.ev === 'ready', 5000);
      bed.attach(serverNs, serverDev, SERVER_ADDR);
      clients.forEach((c, i) => bed.attach(c.ns, clientDevs[i] ?? '', c.addr));
    } catch (e) {
      await bed.close();
      throw e;
    }
    return bed;
  }

  /** Moves the router's TUN device into a fresh namespace and gives it its one address and route. */
  private attach(ns: string, dev: string, addr: string): void {
    liveNamespaces.add(ns);
    ip('netns', 'add', ns);
    ip('link', 'set', dev, 'netns', ns);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'addr', 'add', `${addr}/32`, 'dev', dev);
    ip('-n', ns, 'link', 'set', dev, 'up');
    ip('-n', ns, 'route', 'add', '10.77.0.0/24', 'dev', dev);
  }

  /** Starts `node args...` inside a namespace, speaking JSON lines on stdio. */
  node(ns: string, label: string, args: readonly string[]): JsonProc {
    const p = JsonProc.start(label, 'ip', ['netns', 'exec', ns, process.execPath, ...args]);
    liveProcs.add(p.child);
    this.procs.add(p);
    return p;
  }

  /** The router's counters now (one SIGUSR1 → one stats line). */
  async snapshot(): Promise<RouterStats> {
    const n = this.router.events.length;
    this.router.child.kill('SIGUSR1');
    const e = await this.router.waitFor((ev) => ev.ev === 'stats', 3000, n);
    return e as unknown as RouterStats;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.procs].map((p) => p.stop(1500)));
    for (const p of this.procs) liveProcs.delete(p.child);
    await this.router.stop(1500);
    liveProcs.delete(this.router.child);
    for (const ns of [this.serverNs, ...this.clients.map((c) => c.ns)]) {
      if (!liveNamespaces.has(ns)) continue;
      killNamespacePids(ns);
      try {
        ip('netns', 'del', ns);
      } catch {
        // never created
      }
      liveNamespaces.delete(ns);
    }
  }
}

export { clientAddr };
