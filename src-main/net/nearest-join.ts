// A joiner's way to the nearest of a session's hosts (its mirrors), sans-IO: runs the probe (nearest-probe.ts), says
// which host to dial once it has chosen, reports what it found, and when a dial fails for that host's own reason
// names the next nearest. Knows nothing of handshakes or sockets: the endpoint dials what it is told.
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
    };

/** Dial failures that are one host's own: another host of the session may still take the join. */
const HOST_FAILURES: ReadonlySet<ConnectFailure> = new Set(['unreachable', 'full', 'rate-limited']);

export class NearestJoin {
  /** The probe while it runs. */
  private probe: NearestProbe | undefined;
  /** The last probe, kept after its report: the order of the hosts to try. */
  private last: NearestProbe | undefined;
  private dialled = false;
  /** Hosts dialled from the last probe, by address key. */
  private readonly tried = new Set<string>();

  get probing(): boolean {
    return this.probe !== undefined;
  }

  /** Probes `hosts` (at most MAX_PROBE_CANDIDATES: the rest are left out). */
  start(
    now: number,
    hosts: readonly PeerAddress[],
    version: number,
    options: Partial<NearestProbeOptions> = {},
  ): void {
    this.probe = new NearestProbe(hosts.slice(0, MAX_PROBE_CANDIDATES), version, now, options);
    this.last = this.probe;
    this.dialled = false;
    this.tried.clear();
  }

  /** A PROBE-REPLY: true if it answered one of the running probe's. */
  handleReply(now: number, from: PeerAddress, bytes: Uint8Array): boolean {
    return this.probe?.handleReply(now, from, bytes) === true;
  }

  handleTimeout(now: number): void {
    this.probe?.handleTimeout(now);
  }

  nextTimeout(): number {
    return this.probe?.nextTimeout() ?? Infinity;
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
