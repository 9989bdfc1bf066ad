// Builds and tears down a network of sites for mirror tests and benchmarks: named nodes (a mirror, a site's
// users), each in its own namespace, joined by the TUN router (router.py, sites mode). A datagram crosses its
// sender's access link, the core between the two sites when they differ, and its receiver's access link, so one
// site's users reach their own site's mirror in one short hop and any other site through the core. Unique per
// run; everything it made is removed on close, on exit and on Ctrl-C. Knows nothing of what runs inside.
import type { Impairment } from '../../src-main/net/impairment';
import { NO_IMPAIRMENT } from '../../src-main/net/impairment';
import type { DirectionCounts } from './testbed';
import { bucketQuantile } from './testbed';
import type { JsonProc } from './json-proc';
import { attachTun, RouterRun } from './netns';

const SUBNET = '10.78.0.0/24';
/** Nodes at most: addresses 10.78.0.10 and up within one /24. */
export const MAX_SITE_NODES = 200;

export interface SiteNodeSpec {
  /** Unique among the nodes: how a test names it. */
  readonly name: string;
  readonly site: string;
  /** From the node into its site (its access link). */
  readonly up: Impairment;
  /** From its site to the node. */
  readonly down: Impairment;
}

export interface SitesOptions {
  readonly nodes: readonly SiteNodeSpec[];
  /** Between two different sites, each direction of each pair its own bottleneck. */
  readonly core: Impairment;
  readonly seed: number;
  /** The router exits by itself after this long, whatever happens to us. */
  readonly maxSeconds: number;
  /**
   * The router runs ahead of the processes it carries (real-time scheduling where allowed, see router.py), so the
   * links' delays do not grow with the machine's load.
   */
  readonly realtime?: boolean;
}

export interface SiteNode {
  readonly name: string;
  readonly site: string;
  readonly ns: string;
  readonly addr: string;
}

export interface SitesStats {
  atMs: number;
  nodes: { addr: string; site: string; up: DirectionCounts; down: DirectionCounts }[];
  core: { from: string; to: string; counts: DirectionCounts }[];
  stray: Record<string, number>;
  /** How late the router released datagrams past their due time: counts per LATE_BUCKET_MS, the last open-ended. */
  lateMs: number[];
}

/** router.py's lateness bucket width, ms. */
export const LATE_BUCKET_MS = 0.25;

/** How late the router was between two snapshots: one pass of a datagram through it, ms (bucket upper edges). */
export interface RouterLateness {
  readonly datagrams: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly max: number | null;
}

export function routerLateness(open: SitesStats, close: SitesStats): RouterLateness {
  const counts = close.lateMs.map((n, i) => n - (open.lateMs[i] ?? 0));
  const at = (q: number): number | null => bucketQuantile(counts, LATE_BUCKET_MS, q) ?? null;
  return { datagrams: counts.reduce((a, b) => a + b, 0), p50: at(0.5), p95: at(0.95), max: at(1) };
}

/** One way, ms: `access` from every node to its site and back, `core` between any two sites. */
export interface ThreeSitesOptions {
  readonly sites?: readonly string[];
  readonly accessMs: number;
  readonly coreMs: number;
  /** Extra nodes per site beside its mirror, named `${site}-${name}`. */
  readonly perSite: readonly string[];
}

/**
 * The mirror topology of issue 22: per site a `${site}-mirror` node at the site itself (no access delay) and the
 * site's other nodes `accessMs` away; sites `coreMs` apart. So a user reaches its own mirror in accessMs and a
 * mirror of another site in accessMs + coreMs; mirrors reach each other in coreMs.
 */
export function mirrorSites(o: ThreeSitesOptions): { nodes: SiteNodeSpec[]; core: Impairment } {
  const access: Impairment = { ...NO_IMPAIRMENT, delayMs: o.accessMs };
  const nodes: SiteNodeSpec[] = [];
  for (const site of o.sites ?? ['a', 'b', 'c']) {
    nodes.push({ name: `${site}-mirror`, site, up: NO_IMPAIRMENT, down: NO_IMPAIRMENT });
    for (const n of o.perSite) nodes.push({ name: `${site}-${n}`, site, up: access, down: access });
  }
  return { nodes, core: { ...NO_IMPAIRMENT, delayMs: o.coreMs } };
}

let runCounter = 0;

export class Sites {
  private readonly byName: ReadonlyMap<string, SiteNode>;

  private constructor(
    readonly nodes: readonly SiteNode[],
    private readonly router: RouterRun,
  ) {
    this.byName = new Map(nodes.map((n) => [n.name, n]));
  }

  static async open(o: SitesOptions): Promise<Sites> {
    if (o.nodes.length === 0 || o.nodes.length > MAX_SITE_NODES)
      throw new Error(`a sites network has 1..${MAX_SITE_NODES} nodes, not ${o.nodes.length}`);
    if (new Set(o.nodes.map((n) => n.name)).size !== o.nodes.length)
      throw new Error('node names must be unique');
    runCounter++;
    const tag = `${process.pid}-${runCounter}`;
    // Interface names are at most 15 bytes: gs<pid><run>n<i>.
    const short = `${process.pid % 100000}${String.fromCharCode(97 + (runCounter % 26))}`;
    const placed = o.nodes.map((n, i) => ({
      spec: n,
      dev: `gs${short}n${i}`,
      node: { name: n.name, site: n.site, ns: `gbs-${tag}-${i}`, addr: `10.78.0.${10 + i}` },
    }));
    const config = {
      seed: o.seed,
      maxSeconds: o.maxSeconds,
      realtime: o.realtime ?? false,
      sites: {
        core: o.core,
        nodes: placed.map((p) => ({
          dev: p.dev,
          addr: p.node.addr,
          site: p.spec.site,
          up: p.spec.up,
          down: p.spec.down,
        })),
      },
    };
    const run = await RouterRun.start(
      config,
      placed.map((p) => p.node.ns),
      () => {
        for (const p of placed) attachTun(p.node.ns, p.dev, p.node.addr, SUBNET);
      },
    );
    return new Sites(
      placed.map((p) => p.node),
      run,
    );
  }

  node(name: string): SiteNode {
    const n = this.byName.get(name);
    if (n === undefined) throw new Error(`no node ${name}`);
    return n;
  }

  /** Starts `node args...` inside a node's namespace, speaking JSON lines on stdio. */
  run(name: string, label: string, args: readonly string[]): JsonProc {
    return this.router.node(this.node(name).ns, label, args);
  }

  /** How the router is scheduled: "fifo" or "nice" when it runs ahead of the processes it carries. */
  get routerPriority(): string {
    return this.router.priority;
  }

  /** The router's counters now (one SIGUSR1 → one stats line). */
  async snapshot(): Promise<SitesStats> {
    return (await this.router.snapshot()) as unknown as SitesStats;
  }

  close(): Promise<void> {
    return this.router.close();
  }
}
