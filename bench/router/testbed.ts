// Builds and tears down a benchmark network: one server namespace and N client namespaces joined by the TUN
// router (router.py), unique per run. Knows nothing of what runs inside the namespaces.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Impairment } from '../../src-main/net/impairment';
import { JsonProc } from './json-proc';
import { attachTun, deleteNamespace, hookExit, trackProcess, untrackProcess } from './netns';

const here = dirname(fileURLToPath(import.meta.url));
export const SERVER_ADDR = '10.77.0.1';
const clientAddr = (i: number): string => `10.77.0.${10 + i}`;
const SUBNET = '10.77.0.0/24';

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
    trackProcess(router.child);
    const serverNs = `gbb-${tag}-s`;
    const clients = clientDevs.map((_, i) => ({ ns: `gbb-${tag}-c${i}`, addr: clientAddr(i) }));
    const bed = new Testbed(serverNs, clients, router);
    try {
      await router.waitFor((e) => e.ev === 'ready', 5000);
      attachTun(serverNs, serverDev, SERVER_ADDR, SUBNET);
      clients.forEach((c, i) => attachTun(c.ns, clientDevs[i] ?? '', c.addr, SUBNET));
    } catch (e) {
      await bed.close();
      throw e;
    }
    return bed;
  }

  /** Starts `node args...` inside a namespace, speaking JSON lines on stdio. */
  node(ns: string, label: string, args: readonly string[]): JsonProc {
    const p = JsonProc.start(label, 'ip', ['netns', 'exec', ns, process.execPath, ...args]);
    trackProcess(p.child);
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
    for (const p of this.procs) untrackProcess(p.child);
    await this.router.stop(1500);
    untrackProcess(this.router.child);
    for (const ns of [this.serverNs, ...this.clients.map((c) => c.ns)]) deleteNamespace(ns);
  }
}

export { clientAddr };
