// Test kit: the app core's CoreIo on the simulator. Hosts and joiners are real HostSession/PeerSession over one
// SimNetwork in virtual time, a directory is a table of session names, and the clock is the simulation's, so a
// core test runs without sockets or sleeps. Knows nothing of the UI.
import type { SessionHost } from '../../../shared/api';
import type { PeerAddress } from '../../net/address';
import { addressKey } from '../../net/address';
import type { Impairment } from '../../net/impairment';
import { NO_IMPAIRMENT } from '../../net/impairment';
import { Rng } from '../../net/rng';
import type { SimEndpoint } from '../../net/testing/harness';
import { SimHarness } from '../../net/testing/harness';
import { SimNetwork } from '../../net/testing/network';
import type { Controls } from '../../session/controls';
import { hostControls, peerControls } from '../../session/controls';
import { HostSession } from '../../session/host';
import type { PathKind } from '../../session/path';
import { pathKindOf, pathOfPeerKey } from '../../session/path';
import { PeerSession } from '../../session/peer';
import type { HostRun, JoinRun, ReachEvent } from '../../session/runner';
import { PROTOCOL_VERSION } from '../../../shared/version';
import type { CoreClock, CoreIo, SessionFactory, SessionHandle } from '../core-io';

/** As SessionRunner: the sessions tick every 50 ms; their I/O is looked at every 5 ms of virtual time. */
const TICK_MS = 50;
const IO_MS = 5;
/** Virtual ms a directory takes to list a session or introduce a joiner. */
const DIRECTORY_MS = 20;
const NAME_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/**
 * Virtual time runs in slices this long, and between slices the core's promises settle (it awaits a session's
 * close before it reports the end, as it would between two turns of a real event loop). Virtual time stands
 * still meanwhile, so runs stay deterministic.
 */
const SLICE_MS = 5;

/** Lets every promise chain that is ready run (one macrotask turn; no time passes). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A clock on the simulation's virtual time; cancelled timers stay queued but do nothing. */
function simClock(sim: SimHarness): CoreClock {
  const after = (ms: number, fn: () => void): (() => void) => {
    let live = true;
    sim.after(ms, () => {
      if (live) fn();
    });
    return () => {
      live = false;
    };
  };
  return {
    now: () => sim.now,
    after,
    every(ms, fn) {
      let cancel = (): void => undefined;
      const arm = (): void => {
        cancel = after(ms, () => {
          fn();
          arm();
        });
      };
      arm();
      return () => cancel();
    },
  };
}

/** One simulated session as the core sees it: what SessionRunner does, minus sockets, files and NATs. */
class SimSessionHandle implements SessionHandle {
  boardNotice: SessionHandle['boardNotice'];
  registeredAs: SessionHandle['registeredAs'];
  listedOn: PeerAddress[] = [];
  publicAddress: PeerAddress | undefined;
  /** As SessionRunner's: set by hand in a test, as the mirror driver would. */
  mirrorLink: string | undefined = undefined;
  sessionHosts: (() => readonly SessionHost[]) | undefined = undefined;
  path: PathKind | undefined;
  /** What the core last asked its network-conditions control for (recorded, not applied: tests read it). */
  conditions: Impairment | undefined;
  readonly transport = {
    setConditions: (c: Impairment | undefined): void => {
      this.conditions = c;
    },
  };
  /** Joining: the path each dialled address is. */
  readonly pathOf = new Map<string, PathKind>();
  private readonly reach = new Set<(e: ReachEvent) => void>();
  private readonly stops: (() => void)[] = [];
  private flushing = false;
  private closed = false;
  /** Joining by address: the session, whose probes of the hosts (mirrors) are reported once done. */
  joining: PeerSession | undefined;
  /** Hosting: the session itself, for what a test does as the mirror driver would (its `setHosts`). */
  hosting: HostSession | undefined;

  constructor(
    private readonly world: SimSessions,
    readonly controls: Controls,
    endpoint: SimEndpoint,
    readonly address: PeerAddress,
  ) {
    world.sim.add(address, endpoint);
    const clock = world.clock;
    this.stops.push(clock.every(TICK_MS, () => controls.tick(clock.now())));
    this.stops.push(clock.every(IO_MS, () => this.afterIo(clock.now())));
  }

  pathOfKey(key: string): PathKind {
    return this.pathOf.get(key) ?? pathOfPeerKey(key);
  }

  onReach(listener: (e: ReachEvent) => void): () => void {
    this.reach.add(listener);
    return () => this.reach.delete(listener);
  }

  emitReach(e: ReachEvent): void {
    for (const l of this.reach) l(e);
  }

  flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    this.world.clock.after(0, () => {
      this.flushing = false;
      if (!this.closed) this.controls.tick(this.world.clock.now());
    });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      for (const stop of this.stops) stop();
      this.controls.close(this.world.clock.now());
      // Its socket closes once the goodbye has left: nothing answers at the address after that, and it is free.
      this.world.clock.after(TICK_MS, () => {
        this.world.sim.remove(this.address);
        this.world.release(this.address);
      });
    }
    return Promise.resolve();
  }

  /** The process dies: no goodbye, nothing more sent or heard, and its address is free for another session. */
  crash(): void {
    this.closed = true;
    for (const stop of this.stops) stop();
    this.world.sim.remove(this.address);
    this.world.release(this.address);
  }

  /** As SessionRunner: the session's own work after I/O, then (joining) the path once the handshake is done. */
  private afterIo(now: number): void {
    this.controls.afterIo(now);
    const probed = this.joining?.takeProbed();
    if (probed !== undefined) this.emitReach({ type: 'probed', outcome: probed });
    const nearer = this.joining?.takeNearer();
    if (nearer !== undefined) this.emitReach({ type: 'nearer', ...nearer });
    if (this.controls.role !== 'peer' || this.path !== undefined) return;
    const conn = this.controls.connections()[0]?.stack.conn;
    if (conn?.isOpen !== true) return;
    this.path = this.pathOf.get(conn.peer) ?? 'direct';
    this.emitReach({ type: 'path', path: this.path, address: this.address });
  }
}

/**
 * Sessions for app cores in one simulated world: `io` goes to createAppCore; `run` and `runUntil` move virtual
 * time. Hosts listen on 127.0.0.1 (port 7350 first, as the app asks; a second host there is refused, so the
 * core's fall-back to any port is exercised), joiners dial from 127.0.1.N.
 */
export class SimSessions implements SessionFactory {
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly clock: CoreClock;
  readonly io: CoreIo;
  /** Every session started, in order. */
  readonly handles: SimSessionHandle[] = [];
  private readonly rng: Rng;
  private readonly listed = new Map<string, PeerAddress>();
  private readonly taken = new Set<string>();
  private nextFreePort = 40_000;
  private joiners = 0;

  constructor(seed: number, conditions: Impairment = NO_IMPAIRMENT) {
    this.rng = new Rng(seed);
    this.net = new SimNetwork(this.rng, conditions);
    this.sim = new SimHarness(this.net);
    this.clock = simClock(this.sim);
    this.io = { sessions: this, clock: this.clock };
  }

  /** Moves virtual time on by `ms`. */
  async run(ms: number): Promise<void> {
    const until = this.sim.now + ms;
    while (this.sim.now < until) {
      this.sim.runUntil(Math.min(until, this.sim.now + SLICE_MS));
      await settle();
    }
  }

  /** Moves virtual time on until `done()` holds; throws if it does not within `maxMs`. */
  async runUntil(done: () => boolean, maxMs = 10_000): Promise<void> {
    const until = this.sim.now + maxMs;
    for (;;) {
      await settle();
      if (done()) return;
      if (this.sim.now >= until)
        throw new Error(`not so within ${maxMs} virtual ms (at ${this.sim.now} ms)`);
      if (this.sim.runUntilTrue(done, Math.min(until, this.sim.now + SLICE_MS))) await settle();
    }
  }

  host(o: HostRun): Promise<SimSessionHandle> {
    const address = { address: '127.0.0.1', port: o.port === 0 ? this.nextFreePort++ : o.port };
    if (this.taken.has(addressKey(address)))
      return Promise.reject(new Error(`address in use ${addressKey(address)}`));
    this.taken.add(addressKey(address));
    const session = new HostSession(
      {
        name: o.name,
        joinCode: o.code,
        ...(o.rate ? { rate: o.rate } : {}),
        ...(o.joinRole === undefined ? {} : { joinRole: o.joinRole }),
        ...(o.maxPeers === undefined ? {} : { maxPeers: o.maxPeers }),
      },
      this.sim.now,
    );
    const handle = new SimSessionHandle(this, hostControls(session), session.endpoint, address);
    handle.hosting = session;
    const directories = o.directories ?? [];
    if (directories.length > 0) {
      const name = o.listName ?? this.unlistedName();
      handle.registeredAs = { name, listed: o.listName !== undefined };
      this.listed.set(name, address);
      this.clock.after(DIRECTORY_MS, () => {
        for (const directory of directories) {
          handle.listedOn.push(directory);
          handle.publicAddress = address;
          handle.emitReach({ type: 'registered', directory, observed: address });
        }
      });
    }
    this.handles.push(handle);
    return Promise.resolve(handle);
  }

  join(o: JoinRun): Promise<SimSessionHandle> {
    const n = ++this.joiners;
    const from = { address: `127.0.1.${n}`, port: 9000 + n };
    const session = new PeerSession(
      {
        name: o.name,
        joinCode: o.code,
        viewer: o.viewer ?? false,
        ...(o.rate ? { rate: o.rate } : {}),
      },
      this.sim.now,
    );
    const handle = new SimSessionHandle(this, peerControls(session), session.endpoint, from);
    const dial = (to: PeerAddress, path: PathKind): void => {
      handle.pathOf.set(addressKey(to), path);
      session.connect(this.clock.now(), to);
    };
    const target = o.host;
    if ('address' in target) {
      const hosts = [target, ...(o.mirrors ?? [])];
      for (const h of hosts) handle.pathOf.set(addressKey(h), pathKindOf(h.address, 'direct'));
      handle.joining = session;
      session.connectNearest(this.clock.now(), hosts, o.knownHosts);
    } else
      this.clock.after(DIRECTORY_MS, () => {
        const host = this.listed.get(target.session);
        const directory = target.directories[0];
        if (host === undefined || directory === undefined) {
          session.fail('not-found', `no session "${target.session}" on the directory`);
          return;
        }
        handle.emitReach({
          type: 'intro',
          directory,
          session: {
            name: target.session,
            version: PROTOCOL_VERSION,
            users: 1,
            listed: false,
            host,
            candidates: [host],
          },
          observed: from,
          relay: undefined,
        });
        // A candidate on our own network: the path is 'lan', as SessionRunner judges it.
        dial(host, 'lan');
      });
    this.handles.push(handle);
    return Promise.resolve(handle);
  }

  /** An address a crashed session held, free again. */
  release(address: PeerAddress): void {
    this.taken.delete(addressKey(address));
  }

  /** As SessionRunner's: 50 random bits, from the simulation's seed. */
  private unlistedName(): string {
    return `s-${Array.from({ length: 10 }, () => NAME_ALPHABET[this.rng.int(32)] ?? '0').join('')}`;
  }
}
