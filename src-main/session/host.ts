// The host: authoritative owner of the board. Accepts peers, orders every operation, grants locks, relays chat
// and presence, and ghosts the board to everyone. Sans-IO (time passed in, an Endpoint driven from outside);
// knows nothing of Electron or the UI.
import type { Tool } from '../../shared/api';
import { TOOLS } from '../../shared/api';
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import type { CloseInfo } from '../net/close-reason';
import type { Connection } from '../net/connection';
import { Endpoint } from '../net/endpoint';
import type { GhostSource } from '../net/ghost/ghost-source';
import { GhostDomain } from '../net/ghost/ghost-source';
import type { PacketRecord } from '../net/stream/scheduler';
import { PROTOCOL_VERSION } from '../../shared/version';
import type { BoardOp, BoardState } from '../board';
import { refusalText } from '../board';
import type { Refusal } from './board';
import { Board, isRefusal } from './board';
import type { BoardExecutor, ExecutorSink } from './board-executor';
import { directExecutor } from './board-executor';
import type { ParticipantRelay } from './remote-roster';
import { RemoteParticipants } from './remote-roster';
import { BoardReplica } from './board-replica';
import { participantColor } from './colors';
import { ColourBook } from './colour-book';
import type { PresenceState } from './ghost-classes';
import { blankPresence, copyPresence, Presence, PRESENCE_REGISTRY } from './ghost-classes';
import type { ConnectionStack } from './connection-stack';
import type { SessionRate } from './connection-stack';
import { buildConnectionStack, SESSION_RATES } from './connection-stack';
import { HostRules } from './host-rules';
import { boardDownloadRate } from './join-rate';
import type { HostLoad } from './host-packet-rates';
import { adaptBudget, fetchingBoard, HOST_PACKETS, peerShare } from './host-packet-rates';
import type { RatePolicy } from '../net/stream/rate';
import { HostText } from './host-text';
import type { OtSplice } from '../../shared/text-ot';
import type { ImageLimits } from './host-images';
import { HostImages } from './host-images';
import type { ImageType } from '../../shared/images';
import { Tombstones } from './tombstones';
import type { Actor, Member } from './host-commands';
import { HOST, HOST_PEER_ID, HostCommands } from './host-commands';
import type { HostCounters, HostPeer } from './host-rpc';
import { leaveReason, refuse, registerPeer, sourceIp } from './host-rpc';
import type { LeaveReason, Protocol, Role } from './protocol';
import { buildRegistry, LEAVE_REASONS } from './protocol';
import type { ParticipantInfo, SessionEvent, SessionListener } from './session-events';
import { MAX_PEER_ID } from './fields';
import { changedPresenceMask, POINTER_MASK, presenceMaskToPointer } from './presence';
import { PresenceGrid } from './presence-grid';
import { scopePresence } from './presence-scope';
import { fairShares } from '../net/stream/congestion';
import type { PeerAddress } from '../net/address';
import { DEFAULT_CONNECTION_OPTIONS } from '../net/connection';
import { normalHostList, sameHostList } from './host-list';
import { generateJoinCode } from '../net/join-code';
import type { BoardLimits, PeerLimits } from './peer-limits';
import { BoardBudget, DEFAULT_BOARD_LIMITS, DEFAULT_PEER_LIMITS, PeerBudget } from './peer-limits';

export interface HostSessionOptions {
  readonly name: string;
  readonly joinCode: string;
  readonly board?: Board;
  readonly rate?: SessionRate;
  /** Upstream cap shared among peers, bytes/s (manual --kbps); undefined: adaptive only. */
  readonly uplinkBytesPerSecond?: number;
  /** Participants besides the host; a hello past it is refused. */
  readonly maxPeers?: number;
  /**
   * Connections (joined or not) from one source IP: well below the session's total so one machine cannot fill
   * it, yet room for an office behind one NAT. Default: defaultMaxPerAddress(maxPeers). A load test whose bots
   * all come from one address raises it.
   */
  readonly maxConnectionsPerAddress?: number;
  /** A lock whose holder shows no activity for this long is released. */
  readonly lockTimeoutMs?: number;
  /** The role a joiner gets (default editor); a joiner's own `viewer` flag can only lower it. */
  readonly joinRole?: Role;
  /** Per-participant rates (defaults: DEFAULT_PEER_LIMITS). */
  readonly peerLimits?: Partial<PeerLimits>;
  /** How big participants may make the board (defaults: DEFAULT_BOARD_LIMITS). */
  readonly boardLimits?: Partial<BoardLimits>;
  /** Bytes of one image and of all the session's images (defaults: DEFAULT_IMAGE_LIMITS). */
  readonly imageLimits?: Partial<ImageLimits>;
  /** What executes board operations on the session's board (default: at once, as a lone host; board-executor.ts). */
  readonly executor?: (board: Board) => BoardExecutor;
  /** Where this host's participants are relayed to the session's other hosts (mirrors); see `remote`. */
  readonly relay?: ParticipantRelay;
  /** Packets/s its peers may send it in all before each is asked for fewer (default: host-packet-rates.ts). */
  readonly upstreamPackets?: number;
  /** Packets/s it may send its peers in all before each is sent fewer (default: host-packet-rates.ts). */
  readonly downstreamPackets?: number;
}

export { HOST_PEER_ID };
export type { HostCounters };
/** How long a refused joiner's connection stays open so the refusal reaches it. */
const REFUSED_GRACE_MS = 2_000;
/**
 * A joined peer hears from the host at least this often (an idle host sends a keepalive): a joiner of a session
 * with other hosts takes a silence of a few of these for a dead host and moves to another (app/rejoin.ts), so
 * they must come well inside that. Costs ~4 small packets a second only while nothing else goes to the peer.
 */
export const HOST_KEEPALIVE_MS = 250;

export class HostSession {
  readonly proto: Protocol = buildRegistry();
  readonly endpoint: Endpoint<PacketRecord>;
  readonly board: Board;
  readonly counters: HostCounters = {
    beforeHello: 0,
    full: 0,
    dragsNotHeld: 0,
    rateLimited: 0,
    chatLimited: 0,
    boardFull: 0,
    restoresRefused: 0,
    exactRestacksRefused: 0,
  };
  readonly images: HostImages;
  private readonly executor: BoardExecutor;
  private readonly commands: HostCommands;
  /** Participants served by the session's other hosts, as a relay shows them here (remote-roster.ts). */
  readonly remote: RemoteParticipants;
  private readonly replica: BoardReplica;
  private readonly presence = new GhostDomain(PRESENCE_REGISTRY);
  private readonly self: GhostSource<PresenceState>;
  private readonly scratch: PresenceState = blankPresence();
  private readonly peers = new Map<Connection<PacketRecord>, HostPeer>();
  /** The joined peers' and remote participants' relayed presence, by place (what each presence scope walks). */
  private readonly relays = new PresenceGrid();
  private readonly listeners = new Set<SessionListener>();
  private readonly rules: HostRules;
  /** Texts being co-edited (textot). */
  readonly texts: HostText;
  private readonly unsubscribeTexts: () => void;
  /** Who deleted which object: only they may restore it. */
  private readonly tombstones = new Tombstones();
  private readonly maxPeers: number;
  private readonly limits: PeerLimits;
  private readonly boardBudget: BoardBudget;
  /**
   * Roles the host set, by source IP, for the session: whoever reconnects from there gets it again (a viewer
   * cannot come back as an editor). By IP rather than by name, which the joiner chooses; people sharing one
   * address share the host's choice.
   */
  private readonly rolesByAddress = new Map<string, Role>();
  /** Each person's colour, by source IP and name, for the session (someone who rejoins keeps theirs). */
  private readonly colours = new ColourBook();
  private nextPeerId = 1;
  private now: number;
  /** The session's rates (the options', else broadband) and its cap on what it sends each peer. */
  private readonly rates: SessionRate;
  private readonly sendCap: RatePolicy;
  /** What it accepts from each peer now: the session's rate, or fewer packets with many peers (see tick). */
  private accepting: RatePolicy;
  /** The most it sends a peer that is not fetching the board, and the number of peers that was worked out for. */
  private shared: RatePolicy;
  private sharedAmong = 0;
  /** The packet budget's scale by the host's load (setLoad), and the one `shared` was worked out with. */
  private budgetScale = 1;
  private sharedScale = 1;
  /** The session's hosts as joiners reach them (setHosts): told to every joiner. */
  private hostList: readonly PeerAddress[] = [];

  constructor(
    readonly options: HostSessionOptions,
    now: number,
  ) {
    this.now = now;
    this.rates = options.rate ?? SESSION_RATES.broadband;
    // What a joiner may ask for while its board comes down (join-rate.ts); the peer's accepted rate binds.
    this.sendCap = boardDownloadRate(this.rates.toPeers);
    this.accepting = this.rates.toHost;
    this.shared = this.sendCap;
    this.board = options.board ?? new Board();
    this.maxPeers = options.maxPeers ?? 256;
    this.limits = { ...DEFAULT_PEER_LIMITS, ...options.peerLimits };
    this.boardBudget = new BoardBudget(this.board, {
      ...DEFAULT_BOARD_LIMITS,
      ...options.boardLimits,
    });
    this.replica = new BoardReplica(
      this.board,
      () => this.now,
      (id) => this.admitToBoards(id),
    );
    this.self = this.presence.add(Presence, blankPresence(HOST_PEER_ID));
    this.images = new HostImages(this.proto, (e) => this.emit(e), options.imageLimits);
    this.executor = (options.executor ?? directExecutor)(this.board);
    this.executor.attach(this.executorSink());
    this.rules = new HostRules(this.executor, options.lockTimeoutMs ?? 15_000);
    this.commands = this.commandsFor();
    this.remote = new RemoteParticipants(
      this.presence,
      this.relays,
      (peer) => peer === HOST_PEER_ID || this.executor.ownsPeerId(peer),
      {
        joined: (p) => {
          this.broadcast((rpc) => rpc.send(this.proto.peerJoined, joinedParams(p)));
          this.emit({ type: 'joined', participant: p });
        },
        left: (peer, reason, detail) => {
          this.broadcast((r) => r.send(this.proto.peerLeft, leftParams(peer, reason, detail)));
          this.emit({ type: 'left', peer, reason, detail });
        },
        pointer: (pointer, moved) => this.emit({ type: 'pointer', pointer, moved }),
        rescope: () => {
          for (const l of this.peers.values()) l.stack.presence.invalidateScope();
        },
      },
    );
    this.texts = this.textsFor();
    this.unsubscribeTexts = this.board.subscribe((c) => this.texts.boardChanged(c));
    this.endpoint = new Endpoint<PacketRecord>(
      'host',
      {
        joinCode: options.joinCode,
        protocolVersion: PROTOCOL_VERSION,
        maxConnections: this.maxPeers + 8,
        maxConnectionsPerIp:
          options.maxConnectionsPerAddress ?? defaultMaxPerAddress(this.maxPeers),
        connection: { ...DEFAULT_CONNECTION_OPTIONS, keepaliveMs: HOST_KEEPALIVE_MS },
      },
      (conn) => this.adopt(conn).stack.events.scheduler,
      now,
    );
    const me = this.participants[0];
    if (me !== undefined) options.relay?.joined(me);
  }

  on(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: SessionEvent): void {
    for (const l of this.listeners) l(e);
  }

  get participants(): ParticipantInfo[] {
    const me: ParticipantInfo = {
      peer: HOST_PEER_ID,
      name: this.options.name,
      color: participantColor(0),
      role: 'editor',
      isHost: true,
    };
    return [me, ...this.members().map((m) => info(m)), ...this.remote.all];
  }

  private members(): Member[] {
    const out: Member[] = [];
    for (const p of this.peers.values()) if (p.member !== undefined) out.push(p.member);
    return out;
  }

  private peerOf(peer: PeerId): HostPeer | undefined {
    for (const p of this.peers.values()) if (p.member?.peerId === peer) return p;
    return undefined;
  }

  /** Each peer's connection stack (for stats). */
  peerConnections(): { peer: PeerId; name: string; stack: ConnectionStack }[] {
    const out: { peer: PeerId; name: string; stack: ConnectionStack }[] = [];
    for (const p of this.peers.values())
      if (p.member !== undefined)
        out.push({ peer: p.member.peerId, name: p.member.name, stack: p.stack });
    return out;
  }

  private adopt(conn: Connection<PacketRecord>): HostPeer {
    // The stack's callbacks need the peer's state, and the state holds the stack: build the state first.
    const state: Omit<HostPeer, 'stack'> = {
      member: undefined,
      refusedAt: undefined,
      budget: new PeerBudget(this.limits, this.now),
      viewport: undefined,
      lastActiveAt: this.now,
      blobs: undefined,
      // Until the next tick works out its share (exchangeFewerWhenBusy).
      sendCap: this.sendCap,
    };
    const p = state as HostPeer;
    Object.assign(p, { stack: this.stackFor(conn, p) });
    this.peers.set(conn, p);
    this.register(p);
    return p;
  }

  private stackFor(conn: Connection<PacketRecord>, p: HostPeer): ConnectionStack {
    return buildConnectionStack(conn, {
      proto: this.proto,
      rate: this.accepting,
      sendRate: p.sendCap,
      presenceDomain: this.presence,
      presenceScope: (_now, s) => {
        const m = p.member;
        if (m === undefined) return;
        // The pointers in its view, nearest first when the budget is short (TRIBES' scoping by distance); ageing
        // keeps the rest coming. Runs 10 times a second per peer over every other peer: no allocation.
        scopePresence(s, p.viewport, m.relay, this.self);
        this.relays.scope(s, p.viewport, m.relay);
      },
      presenceEvents: {
        created: (now, g, _c) => this.onPresence(p, g as PresenceState, 0xffffffff, now),
        updated: (now, g, mask) => this.onPresence(p, g as PresenceState, mask, now),
      },
      boardDomain: this.replica.domain,
      boardScope: (now, s) => {
        if (p.member !== undefined) this.replica.scope(now, s, p.viewport);
      },
      onClosed: (now, info) => this.onClosed(p, now, info),
    });
  }

  /** What the executor tells of on its own (board-executor.ts): changes, late decisions, chat lines. */
  private executorSink(): ExecutorSink {
    return {
      changed: (before, after) => this.commands.changedElsewhere(before, after),
      refused: (by, c, refusal) => this.commands.refusedLater(by, c, refusal),
      granted: (by, c) => {
        if (c.type === 'grab') this.rules.touch(by, this.now);
      },
      chat: (peer, text) => {
        this.emit({ type: 'chat', peer, text });
        // Its sender sees its line come back as the acknowledgement: only once the line would outlive this host.
        const sender = this.peerOf(peer);
        this.broadcast((rpc) => rpc.send(this.proto.chatFrom, { peer, text }), sender);
        if (sender !== undefined)
          this.executor.whenSafe(() => {
            if (sender.stack.conn.isOpen)
              sender.stack.events.rpc.send(this.proto.chatFrom, { peer, text });
          });
      },
    };
  }

  /** The board commands (host-commands.ts), by this host's rules on its board, told to its session. */
  private commandsFor(): HostCommands {
    return new HostCommands({
      proto: this.proto,
      board: this.board,
      executor: this.executor,
      rules: this.rules,
      tombstones: this.tombstones,
      boardBudget: this.boardBudget,
      images: this.images,
      counters: this.counters,
      nameOf: this.nameOf,
      now: () => this.now,
      setNow: (now) => {
        this.now = now;
      },
      emit: (e) => this.emit(e),
      broadcast: (send) => this.broadcast(send),
      refuse: (peer, cmd, reason, id) => {
        const p = this.peerOf(peer);
        if (p !== undefined) refuse(this.proto, p, cmd, reason, id);
      },
    });
  }

  /** textot: co-editing commits as the editor's edit and talks to peers over the text channel. */
  private textsFor(): HostText {
    const rpcOf = (peer: PeerId) => this.peerOf(peer)?.stack.events.rpc;
    return new HostText({
      get: (id) => this.board.get(id),
      commit: (editor, id, text) => {
        const member = this.peerOf(editor)?.member;
        const actor: Actor | undefined =
          editor === HOST_PEER_ID ? HOST : member && { kind: 'peer', member };
        if (actor === undefined) return { refused: 'not in the session' };
        const r = this.commands.editAs(actor, id, { text }, this.now);
        return isRefusal(r) ? r : undefined;
      },
      send: (editor, id, seen, by, splice) => {
        if (editor === HOST_PEER_ID) this.emit({ type: 'text-splice', id, seen, by, splice });
        else if (splice === null) rpcOf(editor)?.send(this.proto.textAck, { id, seen });
        else rpcOf(editor)?.send(this.proto.textSplice, { id, seen, by, ...splice });
      },
      sync: (editor, id, text) => rpcOf(editor)?.send(this.proto.textSync, { id, text }),
      dropped: (editor, id) => rpcOf(editor)?.send(this.proto.textClose, { id }),
    });
  }

  /** Its calls, handed to the commands and to co-editing (host-rpc.ts). */
  private register(p: HostPeer): void {
    registerPeer(p, {
      proto: this.proto,
      counters: this.counters,
      commands: this.commands,
      texts: this.texts,
      images: this.images,
      executor: this.executor,
      setNow: (now) => {
        this.now = now;
      },
      hello: (peer, name, viewer, now) => this.onHello(peer, name, viewer, now),
    });
  }

  private onHello(p: HostPeer, name: string, viewer: boolean, now: number): void {
    if (p.member !== undefined || p.refusedAt !== undefined) return;
    const id = this.members().length < this.maxPeers ? this.allocatePeerId() : undefined;
    if (id === undefined) {
      // Said, not only closed on: a close drops what is queued, so the refusal gets a moment to arrive first.
      this.counters.full++;
      p.refusedAt = now;
      refuse(this.proto, p, 'join', `the session is full (${this.maxPeers} participants)`);
      return;
    }
    // The host decides the role; the joiner's flag can only ask for less.
    const granted = this.rolesByAddress.get(this.sourceOf(p)) ?? this.options.joinRole ?? 'editor';
    const relay = this.presence.add(Presence, blankPresence(id));
    const m: Member = {
      peerId: id,
      name: name.trim() === '' ? `Guest ${id}` : name.trim(),
      color: this.colours.colourFor(
        `${this.sourceOf(p)}\n${name.trim()}`,
        new Set(this.participants.map((x) => x.color)),
      ),
      role: viewer ? 'viewer' : granted,
      relay,
      place: this.relays.add(relay),
      heldBack: undefined,
    };
    p.member = m;
    p.lastActiveAt = now;
    const rpc = p.stack.events.rpc;
    rpc.send(this.proto.welcome, {
      you: id,
      objects: this.board.size,
      hostName: this.options.name,
    });
    for (const other of this.participants) {
      if (other.peer !== id) rpc.send(this.proto.peerJoined, joinedParams(other));
    }
    if (this.hostList.length > 0) rpc.send(this.proto.hosts, { hosts: this.hostList });
    const me = info(m);
    rpc.send(this.proto.peerJoined, joinedParams(me));
    this.broadcast((r) => r.send(this.proto.peerJoined, joinedParams(me)), p);
    for (const l of this.peers.values()) l.stack.presence.invalidateScope();
    this.emit({ type: 'joined', participant: me });
    this.options.relay?.joined(me);
  }

  /** A free id in 1..MAX_PEER_ID (0 is the host's and never given out). */
  private allocatePeerId(): PeerId | undefined {
    const used = new Set(this.members().map((m) => m.peerId));
    for (let tries = 0; tries < MAX_PEER_ID; tries++) {
      const id = this.nextPeerId;
      this.nextPeerId = id >= MAX_PEER_ID ? 1 : id + 1;
      if (!used.has(id) && this.executor.ownsPeerId(id)) return id;
    }
    return undefined;
  }

  private onPresence(p: HostPeer, g: PresenceState, mask: number, now: number): void {
    const m = p.member;
    if (m === undefined) return;
    const relay = m.relay;
    p.lastActiveAt = now;
    // A drag is relayed only from the lock's holder; anyone else's shows as no drag. (A grab sent with the first
    // drag update is read after it, presence coming first in a packet: the next update carries the drag again.)
    let shown = g;
    let groups = mask & ~Presence.maskOf('peer');
    m.heldBack = undefined;
    if (g.dragId !== 0) {
      if (this.board.get(g.dragId)?.lockedBy === m.peerId) this.rules.touch(m.peerId, now);
      else {
        shown = this.withoutDrag(g);
        groups |= Presence.maskOf('drag');
        const { dragId, dragX, dragY, dragShaped, dragW, dragH, dragRotation } = g;
        m.heldBack = { dragId, dragX, dragY, dragShaped, dragW, dragH, dragRotation };
        this.counters.dragsNotHeld++;
      }
    }
    // Trust the fields, never the claimed identity: the relay carries the host-assigned peer id. A repeated
    // state (a peer's tail repeat) changes nothing and is neither relayed nor reported.
    const changed = changedPresenceMask(relay.obj, shown, groups);
    copyPresence(relay.obj, shown);
    relay.obj.peer = m.peerId;
    if (changed === 0) return;
    this.relays.moved(m.place);
    relay.markDirty(changed);
    this.options.relay?.presence(m.peerId, relay.obj, changed);
    const pointer = presenceMaskToPointer(relay.obj, changed);
    if (pointer) this.emit({ type: 'pointer', pointer, moved: (changed & POINTER_MASK) !== 0 });
  }

  /** The state with no drag, in a scratch object reused for every update (no allocation per pointer). */
  private withoutDrag(g: PresenceState): PresenceState {
    const s = this.scratch;
    copyPresence(s, g);
    s.dragId = 0;
    s.dragX = 0;
    s.dragY = 0;
    s.dragShaped = false;
    return s;
  }

  private onClosed(p: HostPeer, now: number, info: CloseInfo): void {
    this.peers.delete(p.stack.conn);
    if (p.blobs !== undefined) this.images.detach(p.blobs);
    const m = p.member;
    if (m === undefined) return;
    this.relays.remove(m.place);
    m.relay.destroy();
    this.tombstones.forget(m.peerId);
    this.texts.gone(m.peerId);
    for (const id of this.rules.releaseAll(m.peerId, now))
      this.commands.announceRelease(id, m.peerId, now);
    const reason = leaveReason(info);
    const detail = info.detail;
    this.broadcast((r) => r.send(this.proto.peerLeft, leftParams(m.peerId, reason, detail)));
    this.emit({ type: 'left', peer: m.peerId, reason, detail });
    this.options.relay?.left(m.peerId, reason, detail);
  }

  private broadcast(
    send: (rpc: ConnectionStack['events']['rpc']) => void,
    except?: HostPeer,
  ): void {
    for (const l of this.peers.values())
      if (l.member !== undefined && l !== except) send(l.stack.events.rpc);
  }

  // The host's own user's operations (its UI, CLI script, app core): the only way in as the host.

  create(fields: NewObject, now: number): BoardObject | Refusal {
    return this.commands.createAs(HOST, fields, now);
  }

  edit(id: ObjectId, patch: ObjectPatch, now: number): BoardObject | Refusal {
    return this.commands.editAs(HOST, id, patch, now);
  }

  text(
    id: ObjectId,
    at: number,
    remove: number,
    insert: string,
    now: number,
  ): BoardObject | Refusal {
    return this.commands.textAs(HOST, id, at, remove, insert, now);
  }

  remove(id: ObjectId, now: number): boolean | Refusal {
    return this.commands.removeAs(HOST, id, now);
  }

  /**
   * files: the whole board replaced by `state` (a file opened, or a new board), objects under their own ids and
   * z, unlocked; every joiner's replica follows it as it follows any change. Ids never go back: the counters stay
   * past both boards'. One batch: all of it or (a refusal) none.
   */
  replaceBoard(state: BoardState, now: number): Refusal | undefined {
    this.now = now;
    const old = this.board.all();
    const ops: BoardOp[] = old.map((o) => ({ type: 'remove', id: o.id }));
    for (const o of state.objects.values())
      ops.push({ type: 'put', object: { ...o, lockedBy: null } });
    const cur = this.board.state;
    ops.push({
      type: 'counters',
      nextId: Math.max(cur.nextId, state.nextId),
      topZ: Math.max(cur.topZ, state.topZ),
    });
    const r = this.executor.execute(HOST_PEER_ID, { type: 'batch', ops }, now);
    if (!r.ok) return { refused: refusalText(r.refusal, this.nameOf) };
    this.tombstones.clear();
    for (const o of old) this.emit({ type: 'deleted', id: o.id });
    for (const o of this.board.all()) this.emit({ type: 'object', object: o });
    return undefined;
  }

  /** textot: the host's own editor opened a text showing `base` (it is sent the difference). */
  textOpen(id: ObjectId, base: string, now: number): Refusal | undefined {
    this.now = now;
    return this.texts.open(HOST_PEER_ID, id, base);
  }

  /** textot: the host's own editor's splice, made after it had seen `seen` of the host's. */
  textEdit(id: ObjectId, seen: number, splice: OtSplice, now: number): Refusal | undefined {
    this.now = now;
    return this.texts.edit(HOST_PEER_ID, id, seen, splice);
  }

  textClose(id: ObjectId): void {
    this.texts.close(HOST_PEER_ID, id);
  }

  /** To the front or the back, or (an undone restack) to an exact z no other object has. */
  restack(
    id: ObjectId,
    front: boolean,
    now: number,
    z: number | null = null,
  ): BoardObject | Refusal {
    return this.commands.restackAs(HOST, id, front, now, z);
  }

  /** Locks an object in place or unlocks it. */
  pin(id: ObjectId, pinned: boolean, now: number): BoardObject | Refusal {
    return this.commands.pinAs(HOST, id, pinned, now);
  }

  /** Brings back an object the host's own user deleted (its undo), under its id. */
  restore(id: ObjectId, now: number): BoardObject | Refusal {
    return this.commands.restoreAs(HOST, id, now);
  }

  grab(id: ObjectId, now: number): BoardObject | Refusal {
    return this.commands.grabAs(HOST, id, now);
  }

  /** Keeps an image of the host's own user (within the session's image limits); its hash, for a create. */
  putImage(bytes: Uint8Array, type: ImageType): string | Refusal {
    return this.images.put(bytes, type);
  }

  drop(id: ObjectId, x: number, y: number, now: number): BoardObject | Refusal {
    return this.commands.dropAs(HOST, id, x, y, now);
  }

  chat(text: string): void {
    this.commands.chatAs(HOST, text);
  }

  /** The host's own pointer, tool and drag (ghosted to every peer like anyone's presence). */
  setPresence(now: number, change: Partial<Omit<PresenceState, 'peer'>>, tool?: Tool): void {
    this.now = now;
    const s = this.self.obj;
    let mask = 0;
    if (change.x !== undefined || change.y !== undefined || change.visible !== undefined)
      mask |= Presence.maskOf('pointer');
    if (change.dragId !== undefined) mask |= Presence.maskOf('drag');
    Object.assign(s, change);
    if (s.dragId === 0) s.dragShaped = false;
    if (tool !== undefined) {
      s.tool = TOOLS.indexOf(tool);
      mask |= Presence.maskOf('tool');
    }
    if (mask === 0) return;
    this.self.markDirty(mask);
    this.options.relay?.presence(HOST_PEER_ID, s, mask);
  }

  /**
   * Removes a participant and refuses its source address for the rest of the session (every connection from
   * it closes). Whoever it got the code from can give it again, so the host is told to consider a new code.
   */
  /**
   * Releases every lock `peer` holds: a participant of another host that is gone, whose drags no one else would ever
   * end (the session's hosts agree which of them does it, so it happens once).
   */
  releaseLocks(peer: PeerId, now: number): void {
    this.now = now;
    for (const id of this.rules.releaseAll(peer, now)) this.commands.announceRelease(id, peer, now);
  }

  kick(now: number, peer: PeerId, detail = 'removed by the host'): boolean {
    const p = this.peerOf(peer);
    const m = p?.member;
    if (p === undefined || m === undefined) return false;
    const address = this.sourceOf(p);
    this.endpoint.ban(now, address, detail);
    this.emit({ type: 'banned', peer, name: m.name, address });
    return true;
  }

  /**
   * The session's hosts (mirrors) as joiners reach them, this one included: sent to every peer when it changes, and
   * to each joiner after its welcome, so a joiner whose host dies can move to another. Addresses are sent in
   * canonical form, once each, at most MAX_SESSION_HOSTS.
   */
  setHosts(hosts: readonly PeerAddress[]): void {
    const next = normalHostList(hosts);
    if (sameHostList(next, this.hostList)) return;
    this.hostList = next;
    this.broadcast((rpc) => rpc.send(this.proto.hosts, { hosts: next }));
  }

  /** The list setHosts last gave. */
  get hosts(): readonly PeerAddress[] {
    return this.hostList;
  }

  /** A new join code for every later handshake (connections open now keep theirs); returns it. */
  rotateCode(): string {
    const code = generateJoinCode();
    this.endpoint.setJoinCode(code);
    this.emit({ type: 'code', code });
    return code;
  }

  /** Sets a participant's role, and remembers it for its address for the session (see rolesByAddress). */
  setRole(peer: PeerId, role: Role): boolean {
    const p = this.peerOf(peer);
    const m = p?.member;
    if (p === undefined || m === undefined) return false;
    this.rolesByAddress.set(this.sourceOf(p), role);
    m.role = role;
    const changed = info(m);
    this.broadcast((rpc) => rpc.send(this.proto.peerJoined, joinedParams(changed)));
    this.emit({ type: 'joined', participant: changed });
    this.options.relay?.joined(changed);
    return true;
  }

  private readonly nameOf = (peer: PeerId): string =>
    peer === HOST_PEER_ID
      ? this.options.name
      : (this.peerOf(peer)?.member?.name ?? this.remote.nameOf(peer) ?? `peer ${peer}`);

  /** Drains endpoint events (connection opened/closed); call after every batch of I/O. */
  afterIo(now: number): void {
    this.now = now;
    for (let e = this.endpoint.pollEvent(); e !== undefined; e = this.endpoint.pollEvent()) {
      // Connections announce themselves through their stacks; closes arrive via onClosed.
      if (e.type === 'code-locked') this.emit({ type: 'code-locked', failures: e.failures });
    }
  }

  /** An object was added: it is in every joined peer's board scope at once (scoping is otherwise paced). */
  private admitToBoards(id: ObjectId): void {
    for (const p of this.peers.values()) {
      if (p.member === undefined) continue;
      const board = p.stack.board;
      this.replica.admit(
        this.now,
        id,
        { add: (s, priority) => board.admit(s, priority) },
        p.viewport,
      );
      p.stack.events.scheduler.touch(this.now);
    }
  }

  /** Periodic work: releases locks whose holders went quiet, and gives schedulers the time for paced scoping. */
  tick(now: number): void {
    this.now = now;
    for (const p of this.peers.values()) {
      if (p.refusedAt !== undefined && now - p.refusedAt >= REFUSED_GRACE_MS) {
        this.endpoint.kick(now, p.stack.conn, 'the session is full');
        continue;
      }
      // The time, for paced scoping. No wake: a later time never brings a send forward (an urgent stream lapses
      // only after its ride-along tick was due; credit accrues toward the same instant), and a wake per peer per
      // tick had the endpoint work out every peer's deadline again at each tick.
      p.stack.events.scheduler.touch(now);
    }
    this.exchangeFewerWhenBusy(now);
    this.shareUplink(now);
    this.images.tick(now);
    this.executor.tick(now);
    for (const { id, peer } of this.rules.expire(now)) this.commands.announceRelease(id, peer, now);
    this.texts.tick();
  }

  /**
   * With many peers each is asked for fewer packets, and sent fewer (host-packet-rates.ts); a peer is told when
   * what it is asked for changes. A peer fetching the board keeps the download's cap until it has it.
   */
  private exchangeFewerWhenBusy(now: number): void {
    const peers = this.peers.size;
    const scale = this.budgetScale;
    const accept = peerShare(this.rates.toHost, peers, this.upstreamBudget() * scale);
    const acceptChanged = accept.packetsPerSecond !== this.accepting.packetsPerSecond;
    if (acceptChanged) this.accepting = accept;
    const sharedChanged = peers !== this.sharedAmong || scale !== this.sharedScale;
    if (sharedChanged) {
      this.sharedAmong = peers;
      this.sharedScale = scale;
      this.shared = peerShare(this.sendCap, peers, this.downstreamBudget() * scale);
    }
    // While the budget leaves every peer the full cap, each already has it (set when that became so, or on joining):
    // a small session's tick walks no peers here.
    if (!acceptChanged && !sharedChanged && this.shared === this.sendCap) return;
    for (const p of this.peers.values()) {
      const scheduler = p.stack.events.scheduler;
      const cap = fetchingBoard(scheduler.peerAccepts, this.rates.toPeers)
        ? this.sendCap
        : this.shared;
      if (acceptChanged) scheduler.setLocalRate(now, this.accepting, cap);
      else if (cap.packetsPerSecond !== p.sendCap.packetsPerSecond) scheduler.setSendCap(now, cap);
      p.sendCap = cap;
    }
  }

  private upstreamBudget(): number {
    return this.options.upstreamPackets ?? HOST_PACKETS;
  }

  private downstreamBudget(): number {
    return this.options.downstreamPackets ?? HOST_PACKETS;
  }

  /**
   * How busy the host's process was over the last second: its packet budget follows (adaptBudget), from the next
   * tick on. A runtime that never calls this keeps the budget given.
   */
  setLoad(load: HostLoad): void {
    const peers = this.peers.size;
    if (peers === 0) return;
    const inUse = Math.max(
      (peers * this.accepting.packetsPerSecond) / this.upstreamBudget(),
      (peers * Math.min(this.shared.packetsPerSecond, this.rates.toPeers.packetsPerSecond)) /
        this.downstreamBudget(),
    );
    const binds =
      this.accepting.packetsPerSecond < this.rates.toHost.packetsPerSecond ||
      this.shared.packetsPerSecond < this.rates.toPeers.packetsPerSecond;
    this.budgetScale = adaptBudget(this.budgetScale, load, inUse, binds);
  }

  /** The packet budget's scale now (1: as given; see setLoad). */
  get packetBudgetScale(): number {
    return this.budgetScale;
  }

  /** A manual uplink cap is split max-min fairly among peers by what each currently can use (TRIBES future work 4). */
  private shareUplink(now: number): void {
    const total = this.options.uplinkBytesPerSecond;
    if (total === undefined) return;
    const schedulers = [...this.peers.values()].map((p) => p.stack.events.scheduler);
    const wants = schedulers.map((s) => s.stats(now).adaptiveBytesPerSecond ?? total);
    fairShares(total, wants).forEach((share, i) =>
      schedulers[i]?.setCeiling(now, Math.max(1, share)),
    );
  }

  /** Where a participant comes from, for bans and remembered roles (its IP, or its own address on our relay). */
  private sourceOf(p: HostPeer): string {
    return this.endpoint.sourceOfConnection(p.stack.conn) ?? sourceIp(p);
  }

  close(now: number): void {
    this.endpoint.closeAll(now, 'shutdown', 'the host ended the session');
    this.replica.dispose();
    this.remote.dispose();
    this.unsubscribeTexts();
    this.boardBudget.dispose();
  }
}

/** A quarter of the session, at most 32 and at least 1. */
export function defaultMaxPerAddress(maxPeers: number): number {
  return Math.max(1, Math.min(32, Math.floor(maxPeers / 4)));
}

function info(m: Member): ParticipantInfo {
  return { peer: m.peerId, name: m.name, color: m.color, role: m.role, isHost: false };
}

function joinedParams(p: ParticipantInfo) {
  return { peer: p.peer, name: p.name, color: p.color, viewer: p.role === 'viewer' };
}

function leftParams(peer: PeerId, reason: LeaveReason, detail: string) {
  return { peer, reason: LEAVE_REASONS.indexOf(reason), detail: detail.slice(0, 160) };
}
