// Runs a host or a joining peer over a real UDP socket: binds, drives the session's timers, autosaves the host's
// board. The only session file that touches time and sockets (through net/transport). Knows nothing of the UI.
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { PeerAddress } from '../net/address';
import { addressKey, parseAddress } from '../net/address';
import type { Endpoint } from '../net/endpoint';
import type { Connection } from '../net/connection';
import type { RendezvousEvent } from '../net/rendezvous-client';
import { PRIME_LEAD_MS, RendezvousClient } from '../net/rendezvous-client';
import { TurnClient } from '../net/turn-client';
import type { RelayGrant } from '../net/rendezvous';
import type { ProbeOutcome } from '../net/nearest-probe';
import type { SessionInfo } from '../net/rendezvous';
import { addressScope, canonicalAddress } from '../net/wire-address';
import type { PathKind } from './path';
import { pathKindOf, pathOfPeerKey } from './path';

export type { PathKind } from './path';
export { pathOfPeerKey } from './path';
import { PROTOCOL_VERSION } from '../../shared/version';
import type { SessionHost } from '../../shared/api';
import type { ImageBlob } from '../../shared/images';
import type { ImageLimits } from './host-images';
import { monotonicNow, UdpTransport } from '../net/transport';
import type { PacketRecord } from '../net/stream/scheduler';
import type { Board } from './board';
import type { BoardFileNotice } from './board-file';
import { loadBoardFile, saveBoardFile } from './board-file';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import type { HostSessionOptions } from './host';
import type { HostLoad } from './host-packet-rates';
import { HostSession } from './host';
import { PeerSession } from './peer';
import type { SessionRate } from './connection-stack';
import type { Role } from './protocol';

const TICK_MS = 50;
/** Over a relay, the direct paths are probed this often, this many times (a minute in all). */
const PROBE_EVERY_MS = 2_000;
const PROBE_ROUNDS = 30;
const AUTOSAVE_MS = 5000;
/** How often a host tells its session how busy it was (HostSession.setLoad). */
const LOAD_EVERY_MS = 1000;
/** A save copies the file it replaces to FILE.1 at a session's first save and then at most this often. */
const BACKUP_EVERY_MS = 10 * 60_000;

export interface HostRun {
  readonly name: string;
  readonly code: string;
  readonly port: number;
  readonly bind: string;
  readonly boardFile?: string;
  readonly rate?: SessionRate;
  /** Upstream cap, bytes/s. */
  readonly uplinkBytesPerSecond?: number;
  /** The role joiners get (default editor). */
  readonly joinRole?: Role;
  /** Participants besides the host (default 256). */
  readonly maxPeers?: number;
  /** Connections from one source IP (default: a quarter of maxPeers, at most 32). */
  readonly maxConnectionsPerAddress?: number;
  /** Bytes of one image and of all the session's images (default: DEFAULT_IMAGE_LIMITS). */
  readonly imageLimits?: Partial<ImageLimits>;
  /**
   * The packets/s the host exchanges with all its peers, each way, fixed (see host-packet-rates.ts). Without it the
   * budget starts at the default and follows the host's load (HostSession.setLoad, each second).
   */
  readonly packetBudget?: number;
  /** Directories (IP addresses) to register the session with; none: reachable only by address. */
  readonly directories?: readonly PeerAddress[];
  /** A public name to be listed under; without one the session is unlisted, under a random name. */
  readonly listName?: string;
  /** What executes the board's operations (default: at once, as a lone host; board-executor.ts). */
  readonly executor?: HostSessionOptions['executor'];
  /** The board to start from when there is no board file (a mirror's, handed over by its group). */
  readonly board?: Board;
  /** Where the host's participants are relayed to the session's other hosts (its mirrors). */
  readonly relay?: HostSessionOptions['relay'];
  /** The host session, once made (a mirror's runner shows the other hosts' participants in it). */
  readonly served?: (session: HostSession) => void;
  /**
   * Hosting as a mirror of a session registered with the directories: one more host under its name, proven by its
   * first host's key (`directoryKey` there). Joiners are told of every host and join the nearest.
   */
  readonly mirrorOf?: {
    readonly session: string;
    readonly listed: boolean;
    readonly ownerKey: Uint8Array;
  };
}

/** What a runner says about reaching people (directories, introductions, the path a join took). */
export type ReachEvent =
  | RendezvousEvent
  /** A relay allocation for us: made (with our relayed address), or failed. */
  | {
      readonly type: 'relay';
      readonly state: 'allocated' | 'failed';
      readonly relayed?: PeerAddress;
      readonly detail?: string;
    }
  /** Joining: the handshake completed over this path. */
  | { readonly type: 'path'; readonly path: PathKind; readonly address: PeerAddress }
  /** Joining a session with several hosts (mirrors): each one's RTT to the probes, and which was joined. */
  | { readonly type: 'probed'; readonly outcome: ProbeOutcome }
  /**
   * Joined, and the hosts probed again: `to` answers clearly sooner than the joined host (one busy at the first
   * probe). The runner stays where it is; the CLI and the app move (a rejoin there, as a failover is).
   */
  | { readonly type: 'nearer'; readonly to: PeerAddress; readonly outcome: ProbeOutcome };

export interface JoinRun {
  readonly name: string;
  readonly code: string;
  /** The host's address, or the session to look up on directories. */
  readonly host:
    PeerAddress | { readonly directories: readonly PeerAddress[]; readonly session: string };
  /** With a host's address: the session's other hosts (its mirrors); the nearest of them all is joined. */
  readonly mirrors?: readonly PeerAddress[];
  /**
   * With a host's address: every host of the session the joiner knows of, some maybe left out of `host` and
   * `mirrors` (a failover leaves out the one that went silent). Probed again with them a few seconds after the join.
   */
  readonly knownHosts?: readonly PeerAddress[];
  readonly viewer?: boolean;
  readonly rate?: SessionRate;
  readonly uplinkBytesPerSecond?: number;
}

export class SessionRunner {
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private lastSavedHash = '';
  private lastSaveAt = 0;
  /** Hosting with a budget that follows the load: told each LOAD_EVERY_MS how busy the host was. */
  private loadSink: ((load: HostLoad) => void) | undefined;
  private lastLoadAt = 0;
  private lastLoad:
    | {
        cpu: NodeJS.CpuUsage;
        loop: ReturnType<typeof performance.eventLoopUtilization>;
        at: number;
      }
    | undefined;
  private lastBackupAt = -Infinity;
  /** Set when the board file could not be loaded and was moved aside (the host goes on; say so). */
  boardNotice: BoardFileNotice | undefined;
  /** Autosave failures, counted (the session goes on). */
  saveErrors = 0;
  private flushPending = false;
  private closed = false;
  /** Directories this runner registers with or was introduced by, and what they said. */
  private rendezvous: RendezvousClient | undefined;
  /** Hosting: the name the session is registered under (random when unlisted), and whether it is listed. */
  registeredAs: { readonly name: string; readonly listed: boolean } | undefined;
  private readonly reachListeners = new Set<(e: ReachEvent) => void>();
  /** Joining: the host's addresses we dial, and what kind of path each is. */
  private readonly pathOf = new Map<string, PathKind>();
  private pathReported = false;
  private readonly beforeClosing: (() => Promise<void>)[] = [];
  private closing: Promise<void> | undefined;
  /** A TURN allocation, when the directory gave us a relay. */
  private turn: TurnClient | undefined;
  private onAllocated: ((relay: TurnClient) => void) | undefined;
  /** Joining: the address the connection runs on, to notice it moving; and the probes of direct paths. */
  private pathKey: string | undefined;
  private probes: NodeJS.Timeout | undefined;
  /** Joining: the addresses of the dial in progress (a relayed path joins its race). */
  private dialed: readonly PeerAddress[] | undefined;
  /** Joining: the addresses to dial once the priming lead is over (a path found before then joins them). */
  private plan: PeerAddress[] | undefined;
  /** Joining by address: the session, whose probes of the hosts (mirrors) are reported once done. */
  private joining: PeerSession | undefined;

  private constructor(
    readonly controls: Controls,
    readonly transport: UdpTransport<Endpoint<PacketRecord>>,
    private readonly boardFile: string | undefined,
  ) {}

  static async host(o: HostRun): Promise<SessionRunner> {
    let board: Board | undefined;
    let notice: BoardFileNotice | undefined;
    let blobs: readonly ImageBlob[] = [];
    if (o.boardFile !== undefined)
      ({ board, notice, blobs = [] } = await loadBoardFile(o.boardFile));
    board ??= o.board;
    const session = new HostSession(
      {
        name: o.name,
        joinCode: o.code,
        ...(board ? { board } : {}),
        ...(o.rate ? { rate: o.rate } : {}),
        ...(o.uplinkBytesPerSecond === undefined
          ? {}
          : { uplinkBytesPerSecond: o.uplinkBytesPerSecond }),
        ...(o.joinRole === undefined ? {} : { joinRole: o.joinRole }),
        ...(o.maxPeers === undefined ? {} : { maxPeers: o.maxPeers }),
        ...(o.imageLimits === undefined ? {} : { imageLimits: o.imageLimits }),
        ...(o.maxConnectionsPerAddress === undefined
          ? {}
          : { maxConnectionsPerAddress: o.maxConnectionsPerAddress }),
        ...(o.executor === undefined ? {} : { executor: o.executor }),
        ...(o.relay === undefined ? {} : { relay: o.relay }),
        ...(o.packetBudget === undefined
          ? {}
          : { upstreamPackets: o.packetBudget, downstreamPackets: o.packetBudget }),
      },
      monotonicNow(),
    );
    o.served?.(session);
    for (const b of blobs) session.images.load(b);
    const transport = await UdpTransport.open(session.endpoint, { port: o.port, bind: o.bind });
    const runner = new SessionRunner(hostControls(session), transport, o.boardFile);
    runner.boardNotice = notice;
    if (o.packetBudget === undefined) runner.loadSink = (load) => session.setLoad(load);
    if (o.directories !== undefined && o.directories.length > 0) {
      const mirror = o.mirrorOf;
      const client = runner.attachRendezvous(o.directories, mirror?.ownerKey);
      const name = mirror?.session ?? o.listName ?? unlistedName();
      const listed = mirror?.listed ?? o.listName !== undefined;
      runner.registeredAs = { name, listed };
      client.register(monotonicNow(), {
        name,
        listed,
        version: PROTOCOL_VERSION,
        users: 1,
        candidates: localCandidates(o.bind, transport.address.port),
        ...(mirror === undefined ? {} : { mirror: true }),
      });
      // A directory with a relay gives credentials: then joiners whose NAT lets nothing in still reach us.
      client.wantRelay(monotonicNow());
      runner.onReach((e) => {
        if (e.type === 'relay-grant') runner.startRelay(e.grant);
      });
    }
    // A board restored from a backup is saved at once, so FILE is good again; one loaded as it is waits for a change.
    runner.lastSavedHash = notice === undefined ? session.board.hash() : '';
    runner.start();
    return runner;
  }

  static async join(o: JoinRun): Promise<SessionRunner> {
    const session = new PeerSession(
      {
        name: o.name,
        joinCode: o.code,
        viewer: o.viewer ?? false,
        ...(o.rate ? { rate: o.rate } : {}),
        ...(o.uplinkBytesPerSecond === undefined
          ? {}
          : { uplinkBytesPerSecond: o.uplinkBytesPerSecond }),
      },
      monotonicNow(),
    );
    const target = o.host;
    const first = 'address' in target ? target : target.directories[0];
    const bind = first?.address.includes(':') === true ? '::' : '0.0.0.0';
    const transport = await UdpTransport.open(session.endpoint, { port: 0, bind });
    const runner = new SessionRunner(peerControls(session), transport, undefined);
    if ('address' in target) {
      const hosts = [target, ...(o.mirrors ?? [])];
      for (const h of hosts) runner.pathOf.set(addressKey(h), pathKindOf(h.address, 'direct'));
      runner.joining = session;
      session.connectNearest(monotonicNow(), hosts, o.knownHosts);
    } else {
      const client = runner.attachRendezvous(target.directories);
      client.introduce(
        monotonicNow(),
        target.session,
        localCandidates(bind, transport.address.port),
      );
      runner.onReach((e) => {
        if (e.type === 'intro') {
          // Our priming datagrams are out; the other side's go out now too. Dial once both NATs are open.
          const plan = runner.dialPlan(e.session);
          runner.plan = plan;
          const hostRelayed = e.session.relayed;
          if (e.relay !== undefined && hostRelayed !== undefined) {
            // Meanwhile a relay allocation: its path joins the race when it is ready (a direct one usually wins).
            runner.startRelay(e.relay, (relay) => {
              relay.permit(monotonicNow(), hostRelayed);
              runner.pathOf.set(addressKey(hostRelayed), 'relayed');
              if (runner.dialed === undefined) plan.push(hostRelayed);
              else session.connect(monotonicNow(), [hostRelayed], runner.dialed);
              runner.transport.pump();
            });
          }
          const mirrors = e.session.mirrors ?? [];
          setTimeout(() => {
            if (runner.closed) return;
            runner.dialed = [...plan];
            if (mirrors.length === 0) session.connect(monotonicNow(), plan);
            else {
              // Several hosts (mirrors): each is probed, the nearest joined. Every host's public address first, so
              // each is probed; then their LAN addresses, as many as the probe takes.
              const lan = [...plan.slice(0, -1), ...mirrors.flatMap((m) => runner.dialPlan(m))];
              const hosts = [e.session.host, ...mirrors.map((m) => m.host)];
              const seen = new Set(hosts.map(addressKey));
              for (const a of lan) {
                if (seen.has(addressKey(a))) continue;
                seen.add(addressKey(a));
                hosts.push(a);
              }
              runner.joining = session;
              session.connectNearest(monotonicNow(), hosts);
            }
            runner.transport.pump();
          }, PRIME_LEAD_MS);
        } else if (e.type === 'opened') runner.openedDirect(e.address, session);
        else if (e.type === 'intro-failed')
          session.fail(
            e.reason === 'not-found' ? 'not-found' : 'unreachable',
            e.reason === 'not-found'
              ? `no session "${target.session}" on the directory`
              : `no directory answered (${e.reason})`,
          );
      });
    }
    runner.start();
    return runner;
  }

  get address(): PeerAddress {
    return this.transport.address;
  }

  /** Listens for what the runner says about reaching people; returns the unsubscribe. */
  onReach(listener: (e: ReachEvent) => void): () => void {
    this.reachListeners.add(listener);
    return () => this.reachListeners.delete(listener);
  }

  /** Directories that list this session now (hosting). */
  get listedOn(): readonly PeerAddress[] {
    return this.rendezvous?.registeredWith ?? [];
  }

  /** Joining: the path the handshake completed over, once it has. */
  get path(): PathKind | undefined {
    const conn =
      this.controls.role === 'peer' ? this.controls.connections()[0]?.stack.conn : undefined;
    return conn?.isOpen === true
      ? (this.pathOf.get(conn.peer) ?? pathOfPeerKey(conn.peer))
      : undefined;
  }

  /**
   * Hosting with mirrors: the link another machine starts a mirror of this session with
   * (`ghostboard host --mirror-of LINK`); undefined while this host takes no mirrors.
   */
  mirrorLink: string | undefined = undefined;
  /** Hosting with mirrors: the session's hosts as this one's group sees them (set by whoever runs the mirror). */
  sessionHosts: (() => readonly SessionHost[]) | undefined = undefined;

  /** Hosting through directories: the key that proves the registration, for the session's mirrors (`mirrorOf`). */
  get directoryKey(): Uint8Array | undefined {
    return this.rendezvous?.registrationKey;
  }

  /** Our address as a directory sees it, once one has answered. */
  get publicAddress(): PeerAddress | undefined {
    return this.rendezvous?.observed;
  }

  /**
   * Allocates on the relay the directory named; `onAllocated` runs once it has an address there. A host tells the
   * directories its relayed address, so joiners can dial it; permission covers the relay's own addresses (the
   * joiners' relayed addresses are on the same server).
   */
  private startRelay(grant: RelayGrant, onAllocated?: (relay: TurnClient) => void): void {
    if (this.turn !== undefined || this.closed) return;
    const relay = new TurnClient({
      server: grant.server,
      username: grant.username,
      password: grant.password,
      random: (n) => new Uint8Array(randomBytes(n)),
      software: 'ghostboard',
    });
    this.turn = relay;
    this.transport.endpoint.relay = relay;
    this.onAllocated = onAllocated;
    relay.allocate(monotonicNow());
    this.transport.pump();
  }

  /** Drains the relay's events: an allocation made or lost. */
  private relayEvents(now: number): void {
    const relay = this.turn;
    if (relay === undefined) return;
    for (let e = relay.pollEvent(); e !== undefined; e = relay.pollEvent()) {
      if (e.type === 'allocated') {
        if (this.controls.role === 'host') {
          relay.permit(now, e.relayed);
          this.rendezvous?.setRelayed(now, e.relayed);
        }
        this.onAllocated?.(relay);
        this.emitReach({ type: 'relay', state: 'allocated', relayed: e.relayed });
      } else if (e.type === 'failed') {
        this.transport.endpoint.relay = undefined;
        this.turn = undefined;
        this.rendezvous?.setRelayed(now, undefined);
        this.emitReach({
          type: 'relay',
          state: 'failed',
          detail: `${e.reason}${e.code ? ` ${e.code}` : ''}`,
        });
      }
    }
  }

  /**
   * Over a relay, keeps trying the host's direct addresses for a while: one packet of the connection to each
   * every PROBE_EVERY_MS. A direct path that opens later takes the connection over (the endpoint moves it) and
   * the session never notices.
   */
  private probeDirect(conn: Connection<PacketRecord>): void {
    let left = PROBE_ROUNDS;
    this.probes = setInterval(() => {
      if (this.closed || --left < 0 || !conn.isOpen) {
        clearInterval(this.probes);
        return;
      }
      this.probeNow(conn);
    }, PROBE_EVERY_MS);
    this.probes.unref();
  }

  private probeNow(conn: Connection<PacketRecord>): void {
    const now = monotonicNow();
    for (const [key, kind] of this.pathOf)
      if (kind !== 'relayed') this.transport.endpoint.probe(now, conn, peerAddressOf(key));
    this.transport.pump();
  }

  /**
   * Joining: a direct path opened through a hard NAT (nat-traversal.ts). A new address of the host joins the dial
   * in progress; over a relay, it is probed at once, so the connection moves to it without waiting for a round.
   */
  private openedDirect(address: PeerAddress, session: PeerSession): void {
    if (this.closed) return;
    const key = addressKey(address);
    const known = this.pathOf.has(key);
    if (!known) this.pathOf.set(key, 'direct');
    const conn =
      this.controls.role === 'peer' ? this.controls.connections()[0]?.stack.conn : undefined;
    if (conn?.isOpen === true) {
      if (this.pathOf.get(conn.peer) === 'relayed') this.probeNow(conn);
      return;
    }
    if (known) return;
    if (this.dialed === undefined) this.plan?.push(address);
    else {
      session.connect(monotonicNow(), [address], this.dialed);
      this.transport.pump();
    }
  }

  /** The path to a connection, by its address key: through our relay, within our networks, or direct. */
  pathOfKey(key: string): PathKind {
    const known = this.pathOf.get(key);
    if (known !== undefined) return known;
    return this.turn?.isRelayed(peerAddressOf(key)) === true ? 'relayed' : pathOfPeerKey(key);
  }

  private attachRendezvous(
    directories: readonly PeerAddress[],
    ownerKey?: Uint8Array,
  ): RendezvousClient {
    const client = new RendezvousClient({
      directories,
      random: (n) => new Uint8Array(randomBytes(n)),
      ...(ownerKey === undefined ? {} : { ownerKey }),
    });
    this.transport.endpoint.tenant = client;
    this.rendezvous = client;
    return client;
  }

  /**
   * The host's addresses to dial at once, most local first: its LAN addresses (a joiner behind the same NAT, which
   * Linux and many routers will not hairpin), then the public one the directory saw.
   */
  private dialPlan(s: Pick<SessionInfo, 'host' | 'candidates'>): PeerAddress[] {
    const plan: PeerAddress[] = [];
    for (const c of s.candidates) {
      const scope = addressScope(c.address);
      if (
        scope === 'private' ||
        scope === 'link-local' ||
        scope === 'loopback' ||
        scope === 'carrier'
      ) {
        this.pathOf.set(addressKey(c), 'lan');
        plan.push(c);
      }
    }
    // The address the directory saw is the host's NAT on the internet (or a carrier's): a direct path, whatever
    // its range — unless it is also one of the host's own (no NAT between them and the directory).
    if (!this.pathOf.has(addressKey(s.host))) this.pathOf.set(addressKey(s.host), 'direct');
    plan.push(s.host);
    return plan;
  }

  private emitReach(e: ReachEvent): void {
    for (const l of this.reachListeners) l(e);
  }

  private afterIo(now: number): void {
    this.controls.afterIo(now);
    const client = this.rendezvous;
    if (client !== undefined)
      for (let e = client.pollEvent(); e !== undefined; e = client.pollEvent()) this.emitReach(e);
    this.relayEvents(now);
    const probed = this.joining?.takeProbed();
    if (probed !== undefined) this.emitReach({ type: 'probed', outcome: probed });
    const nearer = this.joining?.takeNearer();
    if (nearer !== undefined) this.emitReach({ type: 'nearer', ...nearer });
    if (this.pathReported && this.controls.role === 'peer') {
      // A relayed connection that moved to a direct path (our probe got through): say so, stop probing.
      const conn = this.controls.connections()[0]?.stack.conn;
      if (conn !== undefined && conn.peer !== this.pathKey) {
        this.pathKey = conn.peer;
        clearInterval(this.probes);
        this.emitReach({
          type: 'path',
          path: this.pathOfKey(conn.peer),
          address: peerAddressOf(conn.peer),
        });
      }
    }
    if (!this.pathReported && this.controls.role === 'peer') {
      const conn = this.controls.connections()[0]?.stack.conn;
      if (conn?.isOpen === true) {
        this.pathReported = true;
        this.pathKey = conn.peer;
        const path = this.pathOf.get(conn.peer) ?? 'direct';
        // The other addresses' punches are no longer needed: the handshake's packets keep this path open. Over a
        // relay, a hard NAT's spray or fan goes on: the direct path it may open takes the connection over.
        client?.stopPunching(path !== 'relayed');
        // A joiner that got a direct path gives its relay allocation back (the relay's capacity is shared).
        if (path !== 'relayed') this.turn?.close(now);
        else this.probeDirect(conn);
        this.emitReach({ type: 'path', path, address: peerAddressOf(conn.peer) });
      }
    }
  }

  private start(): void {
    this.transport.onActivity = () => this.afterIo(monotonicNow());
    this.timer = setInterval(() => {
      const now = monotonicNow();
      if (this.registeredAs !== undefined)
        this.rendezvous?.setUsers(this.controls.participants.length);
      this.sampleLoad(now);
      this.controls.tick(now);
      this.transport.pump();
      if (this.boardFile !== undefined && now - this.lastSaveAt >= AUTOSAVE_MS) {
        this.lastSaveAt = now;
        void this.autosave();
      }
    }, TICK_MS);
    this.transport.pump();
  }

  /**
   * Tells a host the share of a core its process used since the last sample, and how busy its event loop was (see
   * loadSink, HostLoad).
   */
  private sampleLoad(now: number): void {
    if (this.loadSink === undefined || now - this.lastLoadAt < LOAD_EVERY_MS) return;
    this.lastLoadAt = now;
    const sample = { cpu: process.cpuUsage(), loop: performance.eventLoopUtilization(), at: now };
    const last = this.lastLoad;
    this.lastLoad = sample;
    if (last === undefined || now <= last.at) return;
    const cpuMs = (sample.cpu.user - last.cpu.user + sample.cpu.system - last.cpu.system) / 1000;
    this.loadSink({
      cpu: cpuMs / (now - last.at),
      loop: performance.eventLoopUtilization(sample.loop, last.loop).utilization,
    });
  }

  /**
   * Call after commands so what they queued leaves now (urgent data doesn't wait for the tick): right after
   * this turn of the event loop, so commands that arrive together (a pointer move and the drag step of the
   * same mouse event) share one packet instead of spending two.
   */
  flush(): void {
    if (this.flushPending) return;
    this.flushPending = true;
    setImmediate(() => {
      this.flushPending = false;
      if (this.closed) return;
      this.controls.tick(monotonicNow());
      this.transport.pump();
    });
  }

  private async autosave(): Promise<void> {
    const file = this.boardFile;
    if (file === undefined) return;
    const hash = this.controls.board.hash();
    if (hash === this.lastSavedHash) return;
    this.lastSavedHash = hash;
    const images = this.controls.images;
    const text = this.controls.board.toFile((hash) => images.get(hash));
    const now = monotonicNow();
    const backup = now - this.lastBackupAt >= BACKUP_EVERY_MS;
    if (backup) this.lastBackupAt = now;
    this.saving = this.saving
      .then(() => saveBoardFile(file, text, backup))
      .catch(() => {
        this.saveErrors++;
      });
    await this.saving;
  }

  /** Work to finish before the socket closes (a LAN goodbye); awaited by `close`. */
  beforeClose(work: () => Promise<void>): void {
    this.beforeClosing.push(work);
  }

  /** Closes once; every caller waits for the same close (so none exits before the goodbyes are out). */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    clearInterval(this.probes);
    await Promise.all(this.beforeClosing.map((w) => w().catch(() => undefined)));
    clearInterval(this.timer);
    const now = monotonicNow();
    this.rendezvous?.deregister();
    // The goodbye first, while the relay still carries it; then the allocation is given back.
    this.controls.close(now);
    this.transport.pump();
    this.turn?.close(now);
    this.transport.pump();
    await this.autosave();
    await this.transport.close();
  }
}

/** An unlisted session's name: 50 random bits, so only those given the link can find it. */
function unlistedName(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const bytes = randomBytes(10);
  return `s-${Array.from(bytes, (b) => alphabet[b & 31]).join('')}`;
}

/**
 * The addresses this machine offers joiners behind the same NAT: the bound address if it is a specific one, else
 * its IPv4 LAN addresses (at most three), on the session's port.
 */
function localCandidates(bind: string, port: number): PeerAddress[] {
  if (bind !== '0.0.0.0' && bind !== '::') {
    const a = canonicalAddress({ address: bind, port });
    return a === undefined ? [] : [a];
  }
  const out: PeerAddress[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal || a.family !== 'IPv4') continue;
      const scope = addressScope(a.address);
      if (scope !== 'private' && scope !== 'public' && scope !== 'carrier') continue;
      out.push({ address: a.address, port });
    }
  }
  return out.slice(0, 3);
}

/** A connection's address, from its key (always a well-formed one). */
function peerAddressOf(key: string): PeerAddress {
  return parseAddress(key) ?? { address: key, port: 0 };
}
