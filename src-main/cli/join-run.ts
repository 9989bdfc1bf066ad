// The CLI's `join`: one runner on the session at a time and its events as contract lines; when its host goes
// silent or stops and the session has other hosts (the link's, the host's `hosts` message's), a move to the nearest
// of them (app/rejoin.ts's failover policy), printed as a `failover` line and then the usual `ready`; when a probe
// once joined finds another host clearly nearer, a move there once nothing sent is unacknowledged, printed as a
// `moved` line and `ready`. Nothing else is retried: a failover that finds no host ends the join as any end does.
// Knows nothing of argv.
import { unsettledEvents } from '../session/controls';
import type { PeerAddress } from '../net/address';
import { addressKey, parseAddress } from '../net/address';
import { monotonicNow } from '../net/transport';
import { FAILOVER_SILENT_MS, NEARER_SETTLE_MS, otherHosts, rejoinTry } from '../app/rejoin';
import { MAX_PROBE_CANDIDATES } from '../net/nearest-probe';
import type { JoinRun, PathKind, ReachEvent } from '../session/runner';
import { SessionRunner } from '../session/runner';
import type { SessionEvent } from '../session/session-events';
import type { Emit } from './script';
import { sessionEventLine } from './script';

/** How often the joined host's silence is looked at (well inside FAILOVER_SILENT_MS). */
const WATCH_MS = 100;
/** End reasons the contract prints as a refusal of the join rather than a leaving. */
const REJECTED = [
  'wrong-code',
  'version-mismatch',
  'full',
  'rate-limited',
  'banned',
  'code-locked',
  'unreachable',
  'not-found',
];

export interface CliJoinOptions {
  readonly run: JoinRun;
  readonly emit: Emit;
  /** The contract line of a reach event (listed, path, probed…), or none. */
  readonly reachLine: (e: ReachEvent) => Record<string, unknown> | undefined;
  /** The join is over (its line is printed): the caller closes and exits. */
  readonly ended: (runner: SessionRunner) => void;
}

export class CliJoin {
  private runner: SessionRunner;
  /** The session's hosts as the joined host last told them. */
  private sessionHosts: readonly PeerAddress[] = [];
  /** The first path of the runner in use (reported with `ready`). */
  private path: { path: PathKind; address: PeerAddress } | undefined;
  /**
   * A move under way: from which host, and when it was last heard (the `failover` line's ms); or, to a nearer host,
   * when the move began (the `moved` line's ms).
   */
  private moving: { from: string; heardAt: number; nearer?: true } | undefined;
  /** A host found clearly nearer once joined, moved to once nothing sent is unacknowledged. */
  private nearer: { to: PeerAddress; foundAt: number } | undefined;
  private readonly watch: NodeJS.Timeout;
  private stopped = false;

  private constructor(
    private readonly o: CliJoinOptions,
    first: SessionRunner,
  ) {
    this.runner = first;
    this.follow(first);
    this.watch = setInterval(() => {
      this.watchHost();
    }, WATCH_MS);
    this.watch.unref();
  }

  static async start(o: CliJoinOptions): Promise<CliJoin> {
    return new CliJoin(o, await SessionRunner.join(o.run));
  }

  /** The runner in use now (a failover replaces it). */
  get current(): SessionRunner {
    return this.runner;
  }

  close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.watch);
    return this.runner.close();
  }

  /** The link's hosts (a direct link's host and mirrors) after the joined host's own list. */
  private known(): PeerAddress[] {
    const h = this.o.run.host;
    return [...this.sessionHosts, ...('address' in h ? [h, ...(this.o.run.mirrors ?? [])] : [])];
  }

  private follow(runner: SessionRunner): void {
    this.path = undefined;
    runner.onReach((e) => {
      if (runner !== this.runner) return;
      if (e.type === 'path') {
        // The first path is reported with `ready`; later ones (an upgrade) as events of their own.
        if (this.path !== undefined)
          this.o.emit({ ev: 'path', path: e.path, address: addressKey(e.address) });
        this.path = { path: e.path, address: e.address };
        return;
      }
      if (e.type === 'nearer') {
        if (this.moving === undefined) this.nearer = { to: e.to, foundAt: monotonicNow() };
        return;
      }
      const line = this.o.reachLine(e);
      if (line !== undefined) this.o.emit(line);
    });
    runner.controls.on((e) => {
      if (runner === this.runner) this.onEvent(runner, e);
    });
  }

  private onEvent(runner: SessionRunner, e: SessionEvent): void {
    if (e.type === 'hosts') this.sessionHosts = e.hosts;
    if (e.type === 'ready') {
      this.ready(runner, e.you);
      return;
    }
    if (e.type === 'ended') {
      if (this.moving === undefined && this.failover(runner, e.reason)) return;
      this.o.emit(
        REJECTED.includes(e.reason)
          ? { ev: 'rejected', reason: e.reason }
          : { ev: 'left', peer: 0, reason: e.reason },
      );
      this.stopped = true;
      clearInterval(this.watch);
      this.o.ended(runner);
      return;
    }
    const line = sessionEventLine(e);
    if (line) this.o.emit(line);
  }

  private ready(runner: SessionRunner, you: number): void {
    const conn = runner.controls.connections()[0]?.stack.conn;
    const moved = this.moving;
    this.moving = undefined;
    if (moved !== undefined && conn !== undefined)
      this.o.emit({
        ev: moved.nearer === true ? 'moved' : 'failover',
        ...(moved.nearer === true ? { reason: 'nearer' } : {}),
        from: moved.from,
        to: conn.peer,
        ms: Math.round(monotonicNow() - moved.heardAt),
      });
    // The address the handshake completed over; else (the path is told after) the link's host, or the one moved to.
    const h = this.o.run.host;
    const dialled = moved === undefined && 'address' in h ? h : parseAddress(conn?.peer ?? '');
    const at = this.path?.address ?? dialled;
    this.o.emit({
      ev: 'ready',
      peer: you,
      address: at?.address ?? '',
      port: at?.port ?? 0,
      path: this.path?.path ?? 'direct',
    });
  }

  /** Joined, and the host silent past FAILOVER_SILENT_MS while the session has another host: move now. */
  private watchHost(): void {
    const r = this.runner;
    if (this.stopped || this.moving !== undefined || r.controls.you === undefined) return;
    const conn = r.controls.connections()[0]?.stack.conn;
    if (conn === undefined) return;
    if (monotonicNow() - conn.heardAt > FAILOVER_SILENT_MS) {
      this.failover(r, 'timeout');
      return;
    }
    this.moveNearer(r, conn.peer);
  }

  /**
   * Moves to the host found clearly nearer, once nothing this joiner sent waits for an acknowledgement (a chat line
   * or an edit in flight would be lost with the old connection); a move that cannot settle in NEARER_SETTLE_MS is
   * dropped. The new join probes again (that host first, the others, then the old one), so a host that has gone
   * since is not joined.
   */
  private moveNearer(r: SessionRunner, from: string): void {
    const n = this.nearer;
    if (n === undefined) return;
    if (unsettledEvents(r.controls) > 0) {
      if (monotonicNow() - n.foundAt > NEARER_SETTLE_MS) this.nearer = undefined;
      return;
    }
    this.nearer = undefined;
    const to = addressKey(n.to);
    const rest = otherHosts(this.known(), from).filter((h) => addressKey(h) !== to);
    this.moving = { from, heardAt: monotonicNow(), nearer: true };
    const back = parseAddress(from);
    void this.moveTo(
      r,
      [n.to, ...rest, ...(back === undefined ? [] : [back])].slice(0, MAX_PROBE_CANDIDATES),
    );
  }

  /** Moves to the nearest other host when the policy says so; false when it does not (no other host, a refusal). */
  private failover(from: SessionRunner, reason: string): boolean {
    const conn = from.controls.connections()[0]?.stack.conn;
    if (conn === undefined || from.controls.you === undefined) return false;
    const next = rejoinTry(reason, reason, 1, this.known(), conn.peer);
    if (next?.elsewhere !== true) return false;
    this.nearer = undefined; // the old host's second look: the failover's own probe decides now
    this.moving = { from: conn.peer, heardAt: conn.heardAt };
    void this.moveTo(from, next.hosts);
    return true;
  }

  private async moveTo(from: SessionRunner, hosts: readonly PeerAddress[]): Promise<void> {
    const [host, ...mirrors] = hosts;
    if (host === undefined) return;
    // The old runner says nothing more (its end is this move's), and lets its socket go.
    await from.close();
    if (this.stopped) return;
    let next: SessionRunner;
    try {
      // Every host known, the one left (or silent) too: the new join's second look probes them all.
      next = await SessionRunner.join({ ...this.o.run, host, mirrors, knownHosts: this.known() });
    } catch (e) {
      // No socket for the new join: the session is over here, as any end.
      this.o.emit({ ev: 'error', message: e instanceof Error ? e.message : String(e) });
      this.o.emit({ ev: 'left', peer: 0, reason: 'error' });
      this.stopped = true;
      clearInterval(this.watch);
      this.o.ended(from);
      return;
    }
    this.runner = next;
    this.follow(next);
  }
}
