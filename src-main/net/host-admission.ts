// What a host remembers to refuse joins: banned sources, failed attempts per source, the join code's lock after too
// many, and the RESPONSEs already answered (replays). Knows nothing of connections, routing or the wire.
import { COOKIE_LIFETIME_MS } from './crypto';
import type { EndpointCounters, EndpointOptions } from './endpoint-types';
import { joinCodeStrengthBits } from './join-code';
import { FailureLimiter } from './rate-limiter';

/** Accepted RESPONSEs are remembered this long: past it their cookie has expired, and clocks may differ a little. */
const REPLAY_MEMORY_MS = COOKIE_LIFETIME_MS + 2_000;
const MAX_REMEMBERED_HANDSHAKES = 4096;
/** Codes weaker than this (in bits) are locked after `codeLockFailures`; stronger ones can't be guessed online. */
const LOCKABLE_CODE_BITS = 40;

export class HostAdmission {
  /** Source addresses refused for the rest of the session (a kick bans its address). */
  private readonly banned = new Set<string>();
  private readonly failures: FailureLimiter;
  /** Cookies of accepted RESPONSEs, with when they may be forgotten (insertion order is expiry order). */
  private readonly answered = new Map<string, number>();
  /** Failed attempts against the current code, and whether it is locked. */
  private codeFailures = 0;
  private codeLocked = false;
  private codeLockable: boolean;

  constructor(
    private readonly options: EndpointOptions,
    private readonly counters: EndpointCounters,
  ) {
    this.failures = new FailureLimiter({
      burst: this.options.maxFailuresPerSource,
      refillMs: this.options.failureRefillMs,
    });
    this.codeLockable = joinCodeStrengthBits(this.options.joinCode) < LOCKABLE_CODE_BITS;
  }

  /** Sources with failures on record. */
  get failureSources(): number {
    return this.failures.size;
  }

  /** RESPONSEs remembered as answered. */
  get answeredCount(): number {
    return this.answered.size;
  }

  /** Whether the code is locked after too many failed attempts (until `setJoinCode`). */
  get isCodeLocked(): boolean {
    return this.codeLocked;
  }

  ban(address: string): void {
    this.banned.add(address);
  }

  isBanned(address: string): boolean {
    return this.banned.has(address);
  }

  /** Whether the source counted under `key` has too many failed attempts outstanding. */
  isLimited(now: number, key: string): boolean {
    return this.failures.isLimited(now, key);
  }

  /** A new join code: its count of failures starts again, unlocked. */
  setJoinCode(code: string): void {
    this.codeFailures = 0;
    this.codeLocked = false;
    this.codeLockable = joinCodeStrengthBits(code) < LOCKABLE_CODE_BITS;
  }

  /**
   * A host reply the client never followed with a sealed packet: a wrong code, a guess, or an abandoned join.
   * Returns the failures against the code if this one locked it.
   */
  attemptFailed(now: number, source: string): number | undefined {
    this.counters.failedAttempts++;
    this.failures.record(now, source);
    if (!this.codeLockable || this.codeLocked) return undefined;
    this.codeFailures++;
    if (this.codeFailures < this.options.codeLockFailures) return undefined;
    this.codeLocked = true;
    return this.codeFailures;
  }

  /** Whether a RESPONSE with this cookie was answered already (a replay, once its connection is gone). */
  wasAnswered(now: number, cookieId: string): boolean {
    this.forgetAnswered(now);
    return this.answered.has(cookieId);
  }

  rememberAnswered(now: number, cookieId: string): void {
    this.answered.set(cookieId, now + REPLAY_MEMORY_MS);
    while (this.answered.size > MAX_REMEMBERED_HANDSHAKES) {
      const oldest = this.answered.keys().next();
      if (oldest.done === true) break;
      this.answered.delete(oldest.value);
    }
  }

  private forgetAnswered(now: number): void {
    for (const [id, until] of this.answered) {
      if (until > now) break;
      this.answered.delete(id);
    }
  }
}
