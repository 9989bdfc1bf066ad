// Runs one mirror of a session over real UDP: its links listen on one socket and dial from another (net/transport),
// its timers run with them, and the host session it backs hears at once of what each datagram changed (the
// executor's and the participant relay's pump). Founds a group (a session's first host) or joins one through a
// mirror link, and says what the group does as events. The one mirror file that touches sockets and the clock;
// knows nothing of the session's clients or its wire.
import { randomInt } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { SessionHost } from '../../shared/api';
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import type { DatagramTenant, Transmit } from '../net/endpoint-types';
import { Rng } from '../net/rng';
import { monotonicNow, UdpTransport } from '../net/transport';
import type { BoardState } from '../board';
import type { View } from '../mirror/group-wire';
import { Mirror } from '../mirror/mirror';
import type { MirrorId } from '../mirror/mirror-id';
import type { LinkStreams } from '../mirror/mirror-links';
import { MAX_MIRRORS } from '../mirror/mirror-id';
import type { TraceRecord } from '../mirror/trace';
import { Board } from '../session/board';
import type { HostSession } from '../session/host';
import type { ParticipantRelay } from '../session/remote-roster';
import { MirrorExecutor, peerIdsOf } from './mirror-executor';
import { MirrorImages } from './mirror-images';
import { PresenceRelay } from './presence-relay';

/**
 * The trailing states' delays of a group of real mirrors (ms): the last must pass every transit between mirrors with
 * a repair or two (sites 60 ms apart one way take ~150 ms with one), the first catches most misorders early.
 */
export const MIRROR_DELAYS: readonly number[] = [150, 600];
/** A session's mirrors link on the port after its clients' (as game servers put their query port). */
export const MIRROR_PORT_OFFSET = 1;
/** How long a joining mirror waits for the group to let it in and hand it the board, per member tried (ms). */
const JOIN_WAIT_MS = 20_000;
const POLL_MS = 50;
/** Events kept for the first listener, at most. */
const MAX_UNHEARD = 64;
/** A linked mirror's clock offset is told again once it moved this far (ms), at most this often. */
const CLOCK_NEWS_MS = 5;
const CLOCK_EVERY_MS = 10_000;
/** The links' clock offsets are looked at this often at most (ms): news() runs after every datagram of theirs. */
const CLOCK_LOOK_MS = 100;

export type MirrorRunEvent =
  /** This mirror is in the group under `id` (a founder at once, a joiner once it holds the board). */
  | { readonly type: 'member'; readonly id: MirrorId; readonly view: number }
  | {
      readonly type: 'joined';
      readonly id: MirrorId;
      readonly view: number;
      readonly address: PeerAddress | undefined;
    }
  | { readonly type: 'left'; readonly id: MirrorId; readonly reason: string; readonly view: number }
  /** The group went on without this mirror: it no longer serves. */
  | { readonly type: 'excluded'; readonly view: number }
  /** The leading state was rolled back and re-executed: how many objects it changed in doing so. */
  | { readonly type: 'rollback'; readonly effects: number }
  /** A linked mirror's clock minus this one's (ms), how far that may be off, and its drift (ppm). */
  | {
      readonly type: 'clock';
      readonly id: MirrorId;
      readonly offset: number;
      readonly error: number;
      readonly driftPpm: number;
    };

export interface MirrorRunOptions {
  /** The group's mirror secret (a mirror link's). */
  readonly secret: string;
  readonly bind: string;
  /** Where its links listen (0: any free port). */
  readonly port: number;
  /** A founder's address as the other mirrors reach it (default: the bind address, or this machine's first). */
  readonly advertise?: string;
  /** Each command as this mirror takes it (a trace's records). */
  readonly record?: (r: TraceRecord) => void;
}

export class MirrorRunner {
  private mirror: Mirror | undefined;
  private exec: MirrorExecutor | undefined;
  private relayOf: PresenceRelay | undefined;
  private host: HostSession | undefined;
  private readonly transports: UdpTransport<DatagramTenant>[] = [];
  private readonly listeners = new Set<(e: MirrorRunEvent) => void>();
  private readonly unheard: MirrorRunEvent[] = [];
  private readonly clocks = new Map<MirrorId, { offset: number; at: number }>();
  private clocksLookedAt = -Infinity;
  private rollbackEffects = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The host's images, sent to and taken from the other mirrors over the links. */
  readonly images = new MirrorImages();
  /** A pump of the links' sockets is due right after this turn of the event loop (see soon). */
  private pumpPending = false;
  /** Called after the mirror's work changed what the host has to send (the session runner's flush). */
  onActivity: (() => void) | undefined;

  private constructor(private readonly o: MirrorRunOptions) {}

  /** Binds the links' two sockets; the mirror starts with found() or join(). */
  static async open(o: MirrorRunOptions): Promise<MirrorRunner> {
    const r = new MirrorRunner(o);
    try {
      r.transports.push(
        await UdpTransport.open(r.side('listener'), { port: o.port, bind: o.bind }),
      );
      r.transports.push(await UdpTransport.open(r.side('dialer'), { port: 0, bind: o.bind }));
    } catch (e) {
      await r.close();
      throw e;
    }
    return r;
  }

  /** Where the links listen. */
  get address(): PeerAddress {
    const t = this.transports[0];
    if (t === undefined) throw new Error('closed');
    return t.address;
  }

  /** This mirror's address as others reach it (what a founder puts in its view and its mirror link). */
  get advertised(): PeerAddress {
    return { address: this.o.advertise ?? reachableAddress(this.o.bind), port: this.address.port };
  }

  /**
   * The session's first host founds the group from its board: its executor, for HostRun.executor. A group of one
   * acknowledges at once; once a mirror has joined, only what the other holds is acknowledged.
   */
  found(board: Board): MirrorExecutor {
    const s = board.state;
    const view: View = { number: 0, members: [{ id: 0, address: this.advertised }], nextId: 1 };
    this.start(
      new Mirror({
        ...this.mirrorOptions(),
        self: 0,
        members: [0],
        group: { view },
        board: { objects: new Map(s.objects), nextId: s.nextId, topZ: s.topZ },
      }),
    );
    return this.serve(board);
  }

  /**
   * Joins the group through one of its members (tried in turn): resolves with the board the group handed over, to
   * start the session's host from (then `executorFor`), or rejects when none let it in.
   */
  async join(members: readonly PeerAddress[]): Promise<BoardState> {
    const mirror = new Mirror({
      ...this.mirrorOptions(),
      self: undefined,
      members: [],
      group: { join: { listenPort: this.address.port } },
    });
    this.start(mirror);
    const links = mirror.node.links.counters;
    for (const member of members) {
      if (this.closed) break;
      const refused = links.wrongSecret;
      mirror.join(monotonicNow(), member);
      this.pumpAll();
      // A wrong secret is known from the handshake: no use waiting for the group.
      const done = (): boolean => mirror.ready || links.wrongSecret > refused;
      if ((await this.until(done, JOIN_WAIT_MS)) && mirror.ready) {
        const s = mirror.tss.leading;
        return { objects: new Map(s.objects), nextId: s.nextId, topZ: s.topZ };
      }
      if (links.wrongSecret > refused)
        throw new Error('the session’s mirror refused this one: the mirror link’s secret is wrong');
    }
    throw new Error(`no mirror of the session let this one in (${members.length} tried)`);
  }

  /** The executor of a joined mirror's host, on a board that starts as the one join() returned. */
  serve(board: Board): MirrorExecutor {
    const mirror = this.mirror;
    if (mirror === undefined) throw new Error('found or join the group first');
    this.exec = new MirrorExecutor(mirror, board);
    this.exec.onSubmitted = () => {
      this.soon();
    };
    return this.exec;
  }

  /**
   * The host's participants ghosted to the other mirrors (HostRun.relay): given before the host exists, it reaches
   * the mirror's presence once the mirror has its id (a founder's as the host makes its executor).
   */
  readonly relay: ParticipantRelay = {
    joined: (p) => this.presenceRelay()?.joined(p),
    left: (peer) => this.presenceRelay()?.left(peer),
    presence: (peer, state) => {
      this.presenceRelay()?.presence(peer, state);
      this.soon();
    },
  };

  /**
   * A participant's presence changed inside the host's handling of its packet: the links' sockets are the mirror's,
   * so their timer hears of the change only when they are pumped. Right after this turn of the event loop (changes
   * of one batch of datagrams share it), not at the next datagram or poll of the mirror's own, up to POLL_MS later.
   */
  private soon(): void {
    if (this.pumpPending || this.closed) return;
    this.pumpPending = true;
    setImmediate(() => {
      this.pumpPending = false;
      this.pumpAll();
    });
  }

  private presenceRelay(): PresenceRelay | undefined {
    const mirror = this.mirror;
    if (mirror?.self === undefined) return undefined;
    this.relayOf ??= new PresenceRelay(mirror.presence, peerIdsOf(mirror.self));
    return this.relayOf;
  }

  /** The host session this mirror serves: the other mirrors' participants are shown in its remote roster. */
  serveHost(host: HostSession): void {
    this.host = host;
    this.images.serve(host.images, monotonicNow());
    host.setHosts(this.sessionHosts);
    this.pumpAll();
  }

  /** The group as this mirror sees it. */
  get view(): View | undefined {
    return this.mirror?.membership?.view;
  }

  /** The session's hosts' client addresses: every member's link address, on the port before it. */
  get sessionHosts(): PeerAddress[] {
    return (this.view?.members ?? []).map((m) => ({
      address: m.address.address,
      port: m.address.port - MIRROR_PORT_OFFSET,
    }));
  }

  /** The session's hosts as this mirror's group sees them, this one first: where joiners reach each, and its RTT. */
  hostInfos(): SessionHost[] {
    const mirror = this.mirror;
    const members = this.view?.members;
    if (mirror === undefined || members === undefined) return [];
    const hosts = members.map((m) => ({
      address: addressKey({
        address: m.address.address,
        port: m.address.port - MIRROR_PORT_OFFSET,
      }),
      self: m.id === mirror.self,
      rttMs: m.id === mirror.self ? null : roundedMs(mirror.node.rttTo(m.id) ?? null),
    }));
    return [...hosts.filter((h) => h.self), ...hosts.filter((h) => !h.self)];
  }

  get executor(): MirrorExecutor | undefined {
    return this.exec;
  }

  get current(): Mirror | undefined {
    return this.mirror;
  }

  on(listener: (e: MirrorRunEvent) => void): () => void {
    this.listeners.add(listener);
    for (const e of this.unheard.splice(0)) listener(e);
    return () => this.listeners.delete(listener);
  }

  /** Leaves the group at once (its links closed, so the others need not wait for a silence) and unbinds. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.mirror?.close(monotonicNow());
    for (const t of this.transports) t.pump();
    await Promise.all(this.transports.map((t) => t.close()));
  }

  private mirrorOptions(): {
    secret: string;
    rng: Rng;
    now: number;
    delays: readonly number[];
    linkStreams: readonly LinkStreams[];
    record?: (r: TraceRecord) => void;
  } {
    return {
      secret: this.o.secret,
      rng: new Rng(randomInt(2 ** 31)),
      now: monotonicNow(),
      delays: MIRROR_DELAYS,
      linkStreams: [this.images],
      ...(this.o.record === undefined ? {} : { record: this.o.record }),
    };
  }

  private start(mirror: Mirror): void {
    this.mirror = mirror;
    // Membership and the trailing states move on with time even when no datagram comes.
    this.timer = setInterval(() => {
      const now = monotonicNow();
      this.images.tick(now);
      mirror.handleTimeout(now);
      this.afterWork();
    }, POLL_MS);
    this.pumpAll();
  }

  /** One of the mirror's two sockets, as a transport drives it. */
  private side(side: 'listener' | 'dialer'): DatagramTenant {
    return {
      handleDatagram: (now, from, bytes) => {
        if (this.mirror === undefined) return;
        this.mirror.handleDatagram(now, side, from, bytes);
        this.afterWork();
      },
      handleTimeout: (now) => {
        if (this.mirror === undefined) return;
        this.mirror.handleTimeout(now);
        this.afterWork();
      },
      nextTimeout: () => this.mirror?.nextTimeout() ?? Infinity,
      pollTransmit: (): Transmit | undefined => this.mirror?.pollTransmit(side),
    };
  }

  /** What the mirror's work changed, passed on: to the host, as events, and out of both sockets. */
  private afterWork(): void {
    this.exec?.pump();
    if (this.host !== undefined) this.relayOf?.pump(this.host.remote);
    this.news();
    this.pumpAll();
    this.onActivity?.();
  }

  private pumpAll(): void {
    if (this.closed) return;
    for (const t of this.transports) t.pump();
  }

  private news(): void {
    const mirror = this.mirror;
    if (mirror === undefined) return;
    for (let e = mirror.pollGroupEvent(); e !== undefined; e = mirror.pollGroupEvent()) {
      if (e.type === 'joined') {
        const address = this.view?.members.find((m) => m.id === e.id)?.address;
        this.emit({ ...e, address });
      } else this.emit(e);
      if (e.type === 'left') this.releaseLocksOf(e.id);
      // Its clients learn where the session's other hosts are, to move to one if theirs goes.
      this.host?.setHosts(this.sessionHosts);
    }
    const rolled = this.exec?.counters.rollbackEffects ?? 0;
    if (rolled > this.rollbackEffects) {
      this.emit({ type: 'rollback', effects: rolled - this.rollbackEffects });
      this.rollbackEffects = rolled;
    }
    const now = monotonicNow();
    if (now - this.clocksLookedAt < CLOCK_LOOK_MS) return;
    this.clocksLookedAt = now;
    for (const c of mirror.node.clocks(now)) {
      const last = this.clocks.get(c.id);
      if (
        last !== undefined &&
        Math.abs(c.offset - last.offset) < CLOCK_NEWS_MS &&
        now - last.at < CLOCK_EVERY_MS
      )
        continue;
      if (last !== undefined && now - last.at < 1_000) continue;
      this.clocks.set(c.id, { offset: c.offset, at: now });
      this.emit({ type: 'clock', ...c });
    }
  }

  /**
   * A mirror left: its participants' drags will never end, so their locks are released — by one mirror only, the
   * view's first (the coordinator), as commands like any other, so every mirror executes them in the same place.
   */
  private releaseLocksOf(gone: MirrorId): void {
    const host = this.host;
    const exec = this.exec;
    if (host === undefined || exec === undefined || this.view?.members[0]?.id !== this.mirror?.self)
      return;
    const holders = new Set<number>();
    for (const o of host.board.all())
      if (o.lockedBy !== null && exec.ids.toGroup(o.lockedBy) % MAX_MIRRORS === gone)
        holders.add(o.lockedBy);
    const now = monotonicNow();
    for (const peer of holders) host.releaseLocks(peer, now);
  }

  private emit(e: MirrorRunEvent): void {
    // What happened before anyone listened (a joiner's admission, during join) waits for the first listener.
    if (this.listeners.size === 0) {
      if (this.unheard.length < MAX_UNHEARD) this.unheard.push(e);
      return;
    }
    for (const l of this.listeners) l(e);
  }

  /** Resolves true once `done`, false after `ms` or once closed. */
  private until(done: () => boolean, ms: number): Promise<boolean> {
    const end = monotonicNow() + ms;
    return new Promise((resolve) => {
      const check = (): void => {
        if (done()) resolve(true);
        else if (this.closed || monotonicNow() >= end) resolve(false);
        else setTimeout(check, POLL_MS);
      };
      check();
    });
  }
}

/** The bind address when it names one, else this machine's first external IPv4 address (loopback if none). */
function reachableAddress(bind: string): string {
  if (bind !== '0.0.0.0' && bind !== '::' && bind !== '') return bind;
  for (const list of Object.values(networkInterfaces()))
    for (const i of list ?? []) if (i.family === 'IPv4' && !i.internal) return i.address;
  return '127.0.0.1';
}

/** A fresh session Board from a board state (its objects' map copied: the mirror's states change in place). */
export function boardOf(s: BoardState): Board {
  return new Board({ objects: new Map(s.objects), nextId: s.nextId, topZ: s.topZ });
}

/** A round trip to show, whole ms (null while unmeasured). */
function roundedMs(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms);
}
