// When a joiner's host goes away: how soon the joiner says so, which ends are worth trying again, how long it
// waits between tries and when it gives up. A host that crashed or lost its network comes back under the same
// address and code (a restarted `ghostboard host --code …`, a laptop back on Wi-Fi); one that ended the session,
// refused or removed the joiner, or changed its code does not. Pure policy; the core runs it.

/** Nothing heard from the host for this long: the joiner shows it is reconnecting (the link times out at 10 s). */
export const HOST_SILENT_MS = 2_500;
/** Tries stop this long after the host went away; the session then ends with a plain message. */
export const REJOIN_GIVE_UP_MS = 10 * 60_000;
/** Waits before each try, the last repeated. */
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 15_000] as const;

/** End reasons after which the host may well come back: a silence, an unreachable address, a directory miss. */
const RETRYABLE = new Set(['timeout', 'unreachable', 'not-found', 'error']);

export function isRetryable(reason: string): boolean {
  return RETRYABLE.has(reason);
}

/** The wait before try number `attempt` (1 for the first). */
export function rejoinDelay(attempt: number): number {
  return BACKOFF_MS[Math.min(BACKOFF_MS.length, Math.max(1, attempt)) - 1] ?? 15_000;
}
