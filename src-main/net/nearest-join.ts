// A joiner's way to the nearest of a session's hosts (its mirrors), sans-IO: runs the probe (nearest-probe.ts), says
// which host to dial once it has chosen, reports what it found, and when a dial fails for that host's own reason
// names the next nearest. Once joined, it probes the hosts again a little later and names a clearly nearer one (a
// host busy at the first probe answers late and loses its own site's users). Knows nothing of handshakes or
// sockets: the endpoint dials what it is told, and whoever runs the session decides whether to move.
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { ConnectFailure } from './client-handshake';
import type { Transmit } from './endpoint-types';
import type { NearestProbeOptions, ProbeOutcome } from './nearest-probe';
import { MAX_PROBE_CANDIDATES, NearestProbe } from './nearest-probe';

export type NearestStep =
  | { readonly type: 'dial'; readonly to: PeerAddress }
  | { readonly type: 'probed'; readonly outcome: ProbeOutcome }
  | {
      readonly type: 'failed';
      readonly peer: PeerAddress;
      readonly reason: 'unreachable' | 'version-mismatch';
    }
  /** Probed again once joined: `to` answers clearly sooner than the joined host (see clearlyNearer). */
  | { readonly type: 'nearer'; readonly to: PeerAddress; readonly outcome: ProbeOutcome };

/** Dial failures that are one host's own: another host of the session may still take the join. */
const HOST_FAILURES: ReadonlySet<ConnectFailure> = new Set(['unreachable', 'full', 'rate-limited']);

/**
 * The hosts are probed again this long after the join: a mirror just started, or busy for a moment, answers its
 * first probes late (seen at 7-61 ms later than a host 120 ms further away), and its own site's users then join
 * far away for the whole session.
 */
export const RECHECK_AFTER_MS = 3_000;
/** Another host is clearly nearer when its RTT is at least this much lower than the joined one's, ms... */
export const NEARER_BY_MS = 20;
/** ...and at most this share of it: a move costs a rejoin, so a few ms or a few percent are not worth one. */
export const NEARER_SHARE = 0.6;

/**
 * The host of a probe's outcome that is clearly nearer than `joined` (an address key), if any: the nearest that
 * answered with our version, when the joined host answered too and took NEARER_BY_MS and 1 / NEARER_SHARE times as
 * long. A joined host that did not answer is the failover's business, not this.
 */
export function clearlyNearer(outcome: ProbeOutcome, joined: string): PeerAddress | undefined {
  const best = outcome.chosen === undefined ? undefined : outcome.candidates[outcome.chosen];
  const here = outcome.candidates.find((c) => addressKey(c.address) === joined);
  if (best?.rttMs == null || here?.rttMs == null || addressKey(best.address) === joined)
    return undefined;
  const nearer = best.rttMs <= here.rttMs - NEARER_BY_MS && best.rttMs <= here.rttMs * NEARER_SHARE;
  return nearer ? best.address : undefined;
}

export class NearestJoin {
  /** The probe while it runs. */
  private probe: NearestProbe | undefined;
  /** The last probe, kept after its report: the order of the hosts to try. */
  private last: NearestProbe | undefined;
  private dialled = false;
  /** Hosts dialled from the last probe, by address key. */
  private readonly tried = new Set<string>();
  /** Joined through a probe: when to probe again, and the joined host's address key. */
  private recheck: { at: number; joined: string } | undefined;
  /** The probe running is that second look: it dials nothing. */
  private rechecking: string | undefined;
  /** The session's hosts as the joined host told them (see knownHosts). */
  private known: readonly PeerAddress[] = [];
  /** The session's hosts the joiner knew of before this join (see linkHosts). */
  private linked: readonly PeerAddress[] = [];

  /** `version`: the protocol version every probe asks about (the endpoint's). */
  constructor(private readonly version: number) {}

  /** A probe before a join runs (a second look once joined does not count: a new join replaces it). */
  get probing(): boolean {
    return this.probe !== undefined && this.rechecking === undefined;
  }

  /** Probes `hosts` (at most MAX_PROBE_CANDIDATES: the rest are left out). */
  start(
    now: number,
    hosts: readonly PeerAddress[],
    options: Partial<NearestProbeOptions> = {},
  ): void {
    this.probe = new NearestProbe(hosts.slice(0, MAX_PROBE_CANDIDATES), this.version, now, options);
    this.last = this.probe;
    this.dialled = false;
    this.tried.clear();
    this.recheck = undefined;
    this.rechecking = undefined;
  }

  /**
   * The joined host told the session's hosts (its mirrors, itself among them): the second look probes them with
   * the hosts the join probed. A failover's join probes only the hosts other than the one that went silent; that
   * one, back, is found again this way.
   */
  knownHosts(hosts: readonly PeerAddress[]): void {
    this.known = hosts;
  }

  /**
   * The session's hosts the joiner knew of before this join (its link's, and after a failover the silent one too):
   * the second look probes them after the others, so a host its link alone names, left out of a failover's probe,
   * is found again once it answers.
   */
  linkHosts(hosts: readonly PeerAddress[]): void {
    this.linked = hosts;
  }

  /**
   * A connection opened to `peer` (an address key): the session's hosts are probed again later, once (see
   * recheckHosts; nothing is probed when they are fewer than two or do not include `peer`).
   */
  joined(now: number, peer: string): void {
    if (this.rechecking !== undefined) return;
    this.recheck = { at: now + RECHECK_AFTER_MS, joined: peer };
  }

  /**
   * The hosts a second look probes: those the join probed, then those the joined host told, then those the joiner
   * knew of before, each once and in that order, at most MAX_PROBE_CANDIDATES, the joined one (by address key)
   * always among them. Empty when it is among none of them.
   */
  private recheckHosts(joined: string): PeerAddress[] {
    const all = new Map<string, PeerAddress>();
    for (const h of [...(this.last?.hosts ?? []), ...this.known, ...this.linked])
      if (!all.has(addressKey(h))) all.set(addressKey(h), h);
    const here = all.get(joined);
    if (here === undefined) return [];
    const hosts = [...all.values()];
    if (hosts.indexOf(here) < MAX_PROBE_CANDIDATES) return hosts.slice(0, MAX_PROBE_CANDIDATES);
    return [...hosts.slice(0, MAX_PROBE_CANDIDATES - 1), here];
  }

  /** A PROBE-REPLY: true if it answered one of the running probe's. */
  handleReply(now: number, from: PeerAddress, bytes: Uint8Array): boolean {
    return this.probe?.handleReply(now, from, bytes) === true;
  }

  handleTimeout(now: number): void {
    const r = this.recheck;
    if (r !== undefined && this.probe === undefined && now >= r.at) {
      this.recheck = undefined;
      const hosts = this.recheckHosts(r.joined);
      if (hosts.length >= 2) {
        this.rechecking = r.joined;
        this.probe = new NearestProbe(hosts, this.version, now);
      }
    }
    this.probe?.handleTimeout(now);
  }

  nextTimeout(): number {
    // A second look waits for the probe before it to be done (handleTimeout starts it only then).
    return this.probe !== undefined ? this.probe.nextTimeout() : (this.recheck?.at ?? Infinity);
  }

  /** The joined connection closed (or moved): no second look at the hosts is due for it. */
  left(): void {
    this.recheck = undefined;
  }

  pollTransmit(): Transmit | undefined {
    return this.probe?.pollTransmit();
  }

  /**
   * What the endpoint does now, in order: dial the nearest once chosen (without waiting for the farther hosts'
   * answers); report, once the probe heard all it will; and when none can be joined, fail after the report.
   */
  steps(): NearestStep[] {
    const probe = this.probe;
    const choice = probe?.choice;
    if (probe === undefined || choice === undefined) return [];
    const joined = this.rechecking;
    if (joined !== undefined) {
      // The second look dials nothing: once every answer is in, it names a clearly nearer host, if any.
      const outcome = probe.outcome;
      if (outcome === undefined) return [];
      this.probe = undefined;
      const to = clearlyNearer(outcome, joined);
      return to === undefined ? [] : [{ type: 'nearer', to, outcome }];
    }
    const out: NearestStep[] = [];
    if (!this.dialled && choice.chosen !== undefined) {
      this.dialled = true;
      const to = probe.host(choice.chosen);
      this.tried.add(addressKey(to));
      out.push({ type: 'dial', to });
    }
    const outcome = probe.outcome;
    if (outcome === undefined) return out;
    this.probe = undefined;
    out.push({ type: 'probed', outcome });
    if (outcome.chosen === undefined)
      out.push({ type: 'failed', peer: probe.host(), reason: outcome.failure });
    return out;
  }

  /**
   * A dial (by address key) failed: if it was one of ours, for a reason of that host's own (gone since it answered,
   * full, limiting us), the next nearest that answered, to dial instead.
   */
  next(failed: string, reason: ConnectFailure): PeerAddress | undefined {
    const probe = this.last;
    if (probe === undefined || !this.tried.has(failed) || !HOST_FAILURES.has(reason))
      return undefined;
    const next = probe.ranked().find((a) => !this.tried.has(addressKey(a)));
    if (next !== undefined) this.tried.add(addressKey(next));
    return next;
  }
}
