// Which NAT pairs open a direct path, with no relay to fall back on: for every pair of router kinds (a home cone
// router, a cone router that lets unsolicited datagrams in, a random symmetric NAT, a sequential one), a host behind
// one and joiners behind the other, each join a fresh process holding only the invite link. A join either reaches
// `ready` (the path it took, and whether a spray or fan opened it) or fails. Knows the lab and the CLI contract only.
import type { Host, Lab, LabEvent, LabProcess, NatKind } from '../../test/netlab/lab';

export type RouterKind = 'cone' | 'lax' | 'symmetric' | 'sequential';

export const ROUTER_KINDS: readonly RouterKind[] = ['cone', 'lax', 'symmetric', 'sequential'];

/** How each kind of router is built in the lab. */
export function natOf(kind: RouterKind): { kind: NatKind; dropUnsolicited: boolean } {
  return kind === 'lax'
    ? { kind: 'cone', dropUnsolicited: false }
    : { kind, dropUnsolicited: true };
}

export interface MatrixSites {
  /** A host's and a joiner's namespace behind their own router of each kind. */
  readonly host: Readonly<Record<RouterKind, Host>>;
  readonly joiner: Readonly<Record<RouterKind, Host>>;
}

interface Options {
  readonly bin: string;
  readonly joinerScript: string;
  readonly directory: string;
  readonly trials: number;
  readonly waitMs: number;
  readonly firstPort: number;
}

const isEv =
  (ev: string) =>
  (e: LabEvent): boolean =>
    e.ev === ev;

async function stop(p: LabProcess): Promise<void> {
  p.write(JSON.stringify({ cmd: 'quit' }));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.closed, new Promise((r) => (timer = setTimeout(r, 2_000)))]);
  clearTimeout(timer);
  await p.kill();
}

interface Trial {
  readonly opened: boolean;
  readonly path?: string;
  /** The joiner's modules loaded → welcomed (ms, the joiner's clock). */
  readonly joinMs?: number;
  /** A spray or fan answered (the CLI's `opened` event, on either side). */
  readonly traversal: boolean;
  /** The joiner knew its NAT's mapping before it was introduced (its `nat` event came before `found`). */
  readonly mappingKnown: boolean;
  /** A failed join: how it ended (the joiner's `rejected` reason, or what went wrong). */
  readonly failure?: string;
}

function mappingKnownIn(events: readonly LabEvent[]): boolean {
  const nat = events.findIndex(isEv('nat'));
  const found = events.findIndex(isEv('found'));
  return nat >= 0 && (found < 0 || nat < found);
}

async function trial(lab: Lab, at: Host, link: string, o: Options, label: string): Promise<Trial> {
  const p = lab.spawn(
    at.ns,
    process.execPath,
    ['--import', 'tsx', o.joinerScript, 'join', link, '--name', label, '--script'],
    label,
  );
  try {
    const loaded = await p.waitFor(isEv('loaded'), o.waitMs);
    const outcome = await Promise.race([
      p.waitFor(isEv('ready'), o.waitMs).then((e) => ({ ready: e })),
      p.closed.then(() => ({ ready: undefined })),
    ]);
    const ready = outcome.ready;
    const mappingKnown = mappingKnownIn(p.events);
    if (ready === undefined) return { opened: false, traversal: false, mappingKnown };
    return {
      mappingKnown,
      opened: ready.path === 'direct' || ready.path === 'lan',
      path: String(ready.path),
      joinMs: Math.round(Number(ready.t) - Number(loaded.t)),
      traversal: p.events.some(isEv('opened')),
    };
  } catch (err) {
    const rejected = p.events.find(isEv('rejected'));
    return {
      opened: false,
      traversal: p.events.some(isEv('opened')),
      mappingKnown: mappingKnownIn(p.events),
      failure:
        rejected !== undefined
          ? `rejected: ${String(rejected.reason)}`
          : (err instanceof Error ? err.message : String(err)).slice(0, 120),
    };
  } finally {
    await stop(p);
  }
}

/** One cell per (host kind, joiner kind): how many of `trials` joins opened a direct path, and how fast. */
export async function traversalMatrix(
  lab: Lab,
  sites: MatrixSites,
  o: Options,
): Promise<Record<string, Record<string, unknown>>> {
  const cells: Record<string, Record<string, unknown>> = {};
  let port = o.firstPort;
  for (const hostKind of ROUTER_KINDS) {
    const host = lab.spawn(
      sites.host[hostKind].ns,
      process.execPath,
      [
        o.bin,
        'host',
        '--bind',
        '0.0.0.0',
        '--port',
        String(port++),
        '--script',
        '--quiet-pointers',
        '--directory',
        o.directory,
      ],
      `matrix-host:${hostKind}`,
    );
    try {
      const ready = await host.waitFor(isEv('ready'), o.waitMs);
      await host.waitFor(isEv('listed'), o.waitMs);
      const link = String(ready.link);
      for (const joinerKind of ROUTER_KINDS) {
        const trials: Trial[] = [];
        for (let i = 0; i < o.trials; i++) {
          const from = host.events.length;
          const t = await trial(
            lab,
            sites.joiner[joinerKind],
            link,
            o,
            `${hostKind}-${joinerKind}-${i}`,
          );
          // The host's side of a spray or fan says so too (a sequential NAT's predicted port may answer on the
          // joiner's main socket, where the joiner has nothing to report).
          const hostSaw = host.events.slice(from).some(isEv('opened'));
          trials.push({ ...t, traversal: t.traversal || hostSaw });
        }
        const times = trials.flatMap((t) => (t.joinMs === undefined ? [] : [t.joinMs]));
        times.sort((a, b) => a - b);
        cells[`${hostKind}-${joinerKind}`] = {
          opened: trials.filter((t) => t.opened).length,
          trials: trials.length,
          bySprayOrFan: trials.filter((t) => t.traversal).length,
          joinerMappingKnown: trials.filter((t) => t.mappingKnown).length,
          failures: [
            ...new Set(trials.flatMap((t) => (t.failure === undefined ? [] : [t.failure]))),
          ],
          joinMsMedian: times[Math.floor((times.length - 1) / 2)],
          joinMsMax: times[times.length - 1],
        };
        console.error(
          `reach-netns matrix ${hostKind}-${joinerKind}:`,
          JSON.stringify(cells[`${hostKind}-${joinerKind}`]),
        );
      }
    } finally {
      await stop(host);
    }
  }
  return cells;
}
