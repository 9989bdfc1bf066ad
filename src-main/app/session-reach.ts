// The reach of the session the app core runs, as its status shows it: the hosting status's directories and public
// address, a joiner's stages (looking up, connecting, relaying), the path its join took and what its probes of the
// session's hosts found (and, once joined, a host found clearly nearer). Knows nothing of commands, the board or
// files.
import type { ApiEvent, NearestHosts, PathKind, SessionStatus } from '../../shared/api';
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import type { ReachEvent } from '../session/runner';
import type { CoreClock, SessionHandle } from './core-io';
import { nearestHosts } from './nearest';

/** A join still connecting this long after its relay path joined the race says it is trying the relay. */
const RELAYING_AFTER_MS = 1_000;

/** What the reach events need of the app core. */
export interface ReachContext {
  /** The session the core runs now: an event of any other is stale. */
  runner(): SessionHandle | undefined;
  status(): SessionStatus;
  setStatus(s: SessionStatus): void;
  emit(e: ApiEvent): void;
  readonly clock: CoreClock;
}

export class SessionReach {
  /** Joining: the path the join took, once the handshake completed over it. */
  path: PathKind | undefined;
  /** Joining a session with several hosts (mirrors): what the probes found (the stats show it). */
  nearest: NearestHosts | undefined;
  /** Joined: a host the second probe found clearly nearer, and when (the core moves there: core.ts moveNearer). */
  nearer: { readonly to: PeerAddress; readonly foundAt: number } | undefined;

  constructor(private readonly core: ReachContext) {}

  /**
   * A new join: nothing is known yet of its path. Its probes start afresh, except in a move to a host found clearly
   * nearer: the second look's RTTs of every host stay on show, and the move's own probe (of the other hosts only)
   * updates them.
   */
  reset(o: { readonly keepProbes?: boolean } = {}): void {
    this.path = undefined;
    if (o.keepProbes !== true) this.nearest = undefined;
    this.nearer = undefined;
  }

  /** Directories and paths: the hosting status's reach, the joining stages, the path in use. */
  onReach(runner: SessionHandle, e: ReachEvent): void {
    if (this.core.runner() !== runner) return;
    const st = this.core.status();
    switch (e.type) {
      case 'registered':
      case 'register-failed':
      case 'unregistered':
        if (st.phase === 'hosting' && st.reach !== undefined) {
          const pub = runner.publicAddress;
          this.core.setStatus({
            ...st,
            reach: {
              ...st.reach,
              listedOn: runner.listedOn.length,
              publicAddress: pub === undefined ? null : addressKey(pub),
            },
          });
        }
        if (e.type === 'register-failed')
          this.core.emit({
            type: 'notice',
            level: 'warn',
            text:
              e.reason === 'taken'
                ? `Another session is already listed under that name on ${addressKey(e.directory)}.`
                : `The directory ${addressKey(e.directory)} refused the session (${e.reason}).`,
          });
        return;
      case 'intro':
        if (st.phase === 'connecting') this.core.setStatus({ ...st, stage: 'connecting' });
        return;
      case 'path':
        this.path = e.path;
        if (st.phase === 'joined') this.core.setStatus({ ...st, path: e.path });
        return;
      case 'relay':
        // A joiner whose direct paths have not answered within a second of the relay joining the race is told so.
        if (
          e.state === 'allocated' &&
          st.phase === 'connecting' &&
          runner.controls.role === 'peer'
        ) {
          this.core.clock.after(RELAYING_AFTER_MS, () => {
            const now = this.core.status();
            if (this.core.runner() === runner && now.phase === 'connecting')
              this.core.setStatus({ ...now, stage: 'relaying' });
          });
        }
        if (e.state === 'failed')
          this.core.emit({
            type: 'notice',
            level: 'info',
            text: `The relay could not be used (${e.detail ?? 'no answer'}): only direct paths are tried.`,
          });
        return;
      case 'probed': {
        // The address shown is the host joined, not the first the link named.
        const n = (this.nearest = mergeProbes(this.nearest, nearestHosts(e.outcome)));
        const chosen = n.chosen === null ? undefined : n.hosts[n.chosen]?.address;
        if (chosen !== undefined && (st.phase === 'connecting' || st.phase === 'joined'))
          this.core.setStatus({ ...st, address: chosen });
        return;
      }
      case 'nearer':
        // The stats show the second probe's RTTs until the move's own probe replaces them.
        this.nearest = nearestHosts(e.outcome);
        if (st.phase === 'joined') this.nearer = { to: e.to, foundAt: this.core.clock.now() };
        return;
      case 'peer':
      case 'intro-failed':
      case 'relay-grant':
      case 'nat':
      case 'opened':
        return;
    }
  }
}

/**
 * What a later probe found, over what an earlier one of the same session did: each host probed again takes its new
 * answer, a host it did not probe keeps the earlier one, and the host joined is the later probe's choice.
 */
export function mergeProbes(earlier: NearestHosts | undefined, later: NearestHosts): NearestHosts {
  if (earlier === undefined) return later;
  const hosts = earlier.hosts.slice();
  for (const h of later.hosts) {
    const i = hosts.findIndex((e) => e.address === h.address);
    if (i >= 0) hosts[i] = h;
    else hosts.push(h);
  }
  const chosen = later.chosen === null ? undefined : later.hosts[later.chosen]?.address;
  const at = chosen === undefined ? -1 : hosts.findIndex((h) => h.address === chosen);
  return { hosts, chosen: at >= 0 ? at : null };
}
