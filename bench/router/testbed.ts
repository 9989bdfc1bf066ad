// Builds and tears down a benchmark network: one server namespace and N client namespaces joined by the TUN
// router (router.py), unique per run. Knows nothing of what runs inside the namespaces.
import type { Impairment } from '../../src-main/net/impairment';
import type { JsonProc } from './json-proc';
import { attachTun, RouterRun } from './netns';

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

/**
 * The `q` quantile (0..1) of one of router.py's histograms (counts per bucket of `width` ms, the last open-ended), as
 * the upper edge of the bucket it falls in; undefined when the histogram is empty.
 */
export function bucketQuantile(
  counts: readonly number[],
  width: number,
  q: number,
): number | undefined {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  let seen = 0;
  for (let k = 0; k < counts.length; k++) {
    seen += counts[k] ?? 0;
    if (seen >= q * total) return (k + 1) * width;
  }
  return counts.length * width;
}

export interface RouterStats {
  atMs: number;
  clients: { addr: string; up: DirectionCounts; down: DirectionCounts }[];
  stray: Record<string, number>;
}

let runCounter = 0;

export class Testbed {
  private constructor(
    readonly serverNs: string,
    readonly clients: readonly { ns: string; addr: string }[],
    private readonly run: RouterRun,
  ) {}

  static async open(o: TestbedOptions): Promise<Testbed> {
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
    const serverNs = `gbb-${tag}-s`;
    const clients = clientDevs.map((_, i) => ({ ns: `gbb-${tag}-c${i}`, addr: clientAddr(i) }));
    const run = await RouterRun.start(config, [serverNs, ...clients.map((c) => c.ns)], () => {
      attachTun(serverNs, serverDev, SERVER_ADDR, SUBNET);
      clients.forEach((c, i) => attachTun(c.ns, clientDevs[i] ?? '', c.addr, SUBNET));
    });
    return new Testbed(serverNs, clients, run);
  }

  /** Starts `node args...` inside a namespace, speaking JSON lines on stdio. */
  node(ns: string, label: string, args: readonly string[]): JsonProc {
    return this.run.node(ns, label, args);
  }

  /** The router's counters now (one SIGUSR1 → one stats line). */
  async snapshot(): Promise<RouterStats> {
    return (await this.run.snapshot()) as unknown as RouterStats;
  }

  close(): Promise<void> {
    return this.run.close();
  }
}

export { clientAddr };
