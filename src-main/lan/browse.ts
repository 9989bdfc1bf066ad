// Finds Ghostboard sessions on the LAN: DNS-SD queries for _ghostboard._udp over multicast-dns, responses read
// by records.ts into the bounded SessionTable. The only LAN file with a browsing socket and timers; knows
// nothing of sessions or the app.
import type { EventEmitter } from 'node:events';
import makeMdns from 'multicast-dns';
import { readResponse } from './records';
import { DEFAULT_LIMITS, type LanSession, SessionTable, type TableLimits } from './table';
import { SERVICE_TYPE } from './txt';

export interface BrowseHandle {
  /** The sessions heard and not yet expired or said goodbye. */
  list(): LanSession[];
  /** What went wrong so far (packets dropped, socket trouble): for logs and tests, never thrown. */
  readonly counters: BrowseCounters;
  /** Closes the socket and timers; onChange is not called after this. */
  stop(): Promise<void>;
}

export interface BrowseCounters {
  responses: number;
  rejected: number;
  refusedFull: number;
  handlerErrors: number;
  socketErrors: number;
  lastError: string;
}

export interface BrowseOptions {
  readonly limits?: TableLimits;
  /** Milliseconds; monotonic. Tests inject their own. */
  readonly now?: () => number;
  /** Told once if the socket cannot be had at all (port 5353 refused): browsing then finds nothing. */
  readonly onError?: (message: string) => void;
  /** The mDNS socket; tests pass a fake. */
  readonly socket?: () => MdnsSocket;
}

/** What browse uses of a multicast-dns instance. */
export interface MdnsSocket extends EventEmitter {
  query(questions: { name: string; type: 'PTR' }[], callback: (err: Error | null) => void): void;
  destroy(callback: () => void): void;
}

// Binds 0.0.0.0:5353 with SO_REUSEADDR and joins 224.0.0.251 on every interface (NETLAB.md: an `interface`
// without `bind` would bind the unicast address and hear no multicast).
const realSocket = (): MdnsSocket => makeMdns({ bind: '0.0.0.0' });

/** Continuous querying (RFC 6762 §5.2): 1 s after the first query, doubling, then every QUERY_MAX_MS. */
const QUERY_FIRST_MS = 1000;
/** Well inside DEFAULT_LIMITS.maxAgeMs, so a living host is asked three times before it would expire. */
const QUERY_MAX_MS = 20_000;
const EXPIRE_TICK_MS = 1000;

export function browse(
  onChange: (sessions: LanSession[]) => void,
  options: BrowseOptions = {},
): BrowseHandle {
  const now = options.now ?? (() => performance.now());
  const table = new SessionTable(options.limits ?? DEFAULT_LIMITS);
  const counters: BrowseCounters = {
    responses: 0,
    rejected: 0,
    refusedFull: 0,
    handlerErrors: 0,
    socketErrors: 0,
    lastError: '',
  };
  let stopped = false;
  const changed = (): void => {
    if (stopped) return;
    try {
      onChange(table.list());
    } catch {
      counters.handlerErrors++; // the listener's fault, but it must not reach the socket's callback
    }
  };

  const mdns = (options.socket ?? realSocket)();
  const fail = (e: unknown, fatal: boolean): void => {
    counters.socketErrors++;
    counters.lastError = e instanceof Error ? e.message : String(e);
    if (fatal && !stopped) {
      try {
        options.onError?.(counters.lastError);
      } catch {
        counters.handlerErrors++;
      }
    }
  };
  mdns.on('error', (e: unknown) => fail(e, true));
  mdns.on('warning', (e: unknown) => fail(e, false));
  mdns.on('response', (packet: unknown, rinfo: { address?: unknown } | undefined) => {
    try {
      if (stopped || typeof packet !== 'object' || packet === null) return;
      const p = packet as { answers?: unknown; additionals?: unknown };
      const from = typeof rinfo?.address === 'string' ? rinfo.address : '';
      const r = readResponse(p.answers, p.additionals, from);
      if (r.sightings.length === 0 && r.goodbyes.length === 0 && r.rejected.length === 0) return;
      counters.responses++;
      counters.rejected += r.rejected.length;
      const t = now();
      let dirty = false;
      for (const g of r.goodbyes) table.goodbye(t, g);
      for (const s of r.sightings) {
        const result = table.observe(t, s);
        if (result === 'added' || result === 'changed') dirty = true;
      }
      counters.refusedFull = table.refusedFull;
      if (dirty) changed();
    } catch (e) {
      counters.handlerErrors++;
      counters.lastError = e instanceof Error ? e.message : String(e);
    }
  });

  const query = (): void => {
    if (stopped) return;
    mdns.query([{ name: SERVICE_TYPE, type: 'PTR' }], (err) => {
      if (err) fail(err, false);
    });
  };
  let gap = QUERY_FIRST_MS;
  let queryTimer: NodeJS.Timeout | undefined;
  const nextQuery = (): void => {
    queryTimer = setTimeout(() => {
      query();
      gap = Math.min(gap * 2, QUERY_MAX_MS);
      nextQuery();
    }, gap);
    queryTimer.unref();
  };
  // Goodbyes keep an entry one more second and TTLs run in seconds: a one-second sweep is exact enough.
  const sweep = setInterval(() => {
    if (!stopped && table.expire(now())) changed();
  }, EXPIRE_TICK_MS);
  sweep.unref();

  query();
  nextQuery();

  return {
    list: () => table.list(),
    counters,
    stop: () => {
      if (stopped) return Promise.resolve();
      stopped = true;
      clearTimeout(queryTimer);
      clearInterval(sweep);
      return new Promise<void>((resolve) => {
        try {
          mdns.destroy(() => resolve());
        } catch {
          resolve();
        }
      });
    },
  };
}
