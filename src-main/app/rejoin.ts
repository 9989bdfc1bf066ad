// When a joiner's host goes away: how soon the joiner says so, which ends are worth trying again, where (the same
// host, or another host of the session: failover) and when, and when it gives up. A host that crashed or lost its
// network comes back under the same address and code (a restarted `ghostboard host --code …`, a laptop back on
// Wi-Fi); one that ended the session, refused or removed the joiner, or changed its code does not. A session served
// by several hosts (mirrors) goes on at another one at once. Pure policy; the core and the CLI run it.
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import { MAX_PROBE_CANDIDATES } from '../net/nearest-probe';
import { canonicalAddress } from '../net/wire-address';

/** Nothing heard from the host for this long: the joiner shows it is reconnecting (the link times out at 10 s). */
export const HOST_SILENT_MS = 2_500;
/**
 * With another host to go to, a silence this long is taken for the host's death and the joiner moves at once: five
 * of the host's keepalive intervals (session/host.ts HOST_KEEPALIVE_MS, 250 ms), so a lost packet or two is no
 * death, and soon enough that detection, probing the others and joining one fit in 3 s (issue 22).
 */
export const FAILOVER_SILENT_MS = 1_250;
/** Tries stop this long after the host went away; the session then ends with a plain message. */
export const REJOIN_GIVE_UP_MS = 10 * 60_000;
/** Waits before each try, the last repeated. */
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 15_000] as const;

/**
 * End reasons after which the host may well come back: a silence, an unreachable address, a directory miss; and a
 * joiner's own move to a nearer host, whose join may fail like any (it then tries every host, the old one too).
 */
const RETRYABLE = new Set(['timeout', 'unreachable', 'not-found', 'error', 'nearer']);
/**
 * A move to a host found clearly nearer once joined (net/nearest-join.ts) waits until nothing the joiner sent waits
 * for an acknowledgement (a chat line or an edit in flight would go with the old connection), this long at most.
 */
export const NEARER_SETTLE_MS = 5_000;

export function isRetryable(reason: string): boolean {
  return RETRYABLE.has(reason);
}

/**
 * End reasons after which the session may go on at another of its hosts: the retryable ones, and the host leaving
 * (one mirror that stops ends only its own part). Refusals and removals are the session's answer everywhere.
 */
export function failsOver(reason: string): boolean {
  return isRetryable(reason) || reason === 'host-left';
}

/** The wait before try number `attempt` (1 for the first). */
export function rejoinDelay(attempt: number): number {
  return BACKOFF_MS[Math.min(BACKOFF_MS.length, Math.max(1, attempt)) - 1] ?? 15_000;
}

/** How long the joined host may be silent before the joiner acts: less when another host could take over. */
export function silenceLimit(otherHosts: number): number {
  return otherHosts > 0 ? FAILOVER_SILENT_MS : HOST_SILENT_MS;
}

/**
 * The session's hosts worth probing instead of `gone` (the address key of the one that went away; undefined: none
 * went): each known host once, in the order given (the joined host's own list first, then the link's), without
 * the gone one, at most what one probe takes.
 */
export function otherHosts(known: readonly PeerAddress[], gone: string | undefined): PeerAddress[] {
  const out: PeerAddress[] = [];
  const seen = new Set<string>(gone === undefined ? [] : [canonicalKey(gone)]);
  for (const h of known) {
    const key = canonicalKey(addressKey(h));
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
    if (out.length === MAX_PROBE_CANDIDATES) break;
  }
  return out;
}

function canonicalKey(key: string): string {
  const m = /^\[(.+)\]:(\d+)$/.exec(key) ?? /^([^:]+):(\d+)$/.exec(key);
  if (m?.[1] === undefined || m[2] === undefined) return key;
  const c = canonicalAddress({ address: m[1], port: Number(m[2]) });
  return c === undefined ? key : addressKey(c);
}

/** One try to join again: after how long, and at which hosts (empty: as the first join did, by its link). */
export interface RejoinTry {
  readonly delayMs: number;
  readonly hosts: readonly PeerAddress[];
  /** At another host than the one that went away (the status says "another host"). */
  readonly elsewhere: boolean;
}

/**
 * Try number `attempt` (1 for the first) after the host at `gone` went away, `known` the session's hosts. With
 * others, the first try probes them at once and joins the nearest; later tries (none of them answered) probe every
 * known host, the gone one too (it may be back), with backoff. Without others, today's rejoin: the same host, with
 * backoff. Undefined: no try (the end was not one to come back from: `reason`, or a failover that failed after the
 * host left on purpose).
 */
export function rejoinTry(
  reason: string,
  cause: string,
  attempt: number,
  known: readonly PeerAddress[],
  gone: string | undefined,
): RejoinTry | undefined {
  const others = otherHosts(known, gone);
  if (attempt <= 1 && others.length > 0 && failsOver(reason))
    return { delayMs: 0, hosts: others, elsewhere: true };
  if (!isRetryable(reason) || !isRetryable(cause)) return undefined;
  const all = otherHosts(known, undefined);
  return { delayMs: rejoinDelay(attempt), hosts: all.length > 1 ? all : [], elsewhere: false };
}
