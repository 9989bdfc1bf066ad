// A participant that joins a host: sends its presence as a ghost, edits as RPCs, and mirrors the host's board
// and everyone's presence. Sans-IO (time passed in, an Endpoint driven from outside); knows nothing of the UI.
import type { Tool } from '../../shared/api';
import { TOOLS } from '../../shared/api';
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import { MAX_TEXT_BYTES } from '../../shared/board';
import type { PeerAddress } from '../net/address';
import type { CloseInfo } from '../net/close-reason';
import type { Connection } from '../net/connection';
import { Endpoint } from '../net/endpoint';
import type { ProbeOutcome } from '../net/nearest-probe';
import type { GhostSource } from '../net/ghost/ghost-source';
import { GhostDomain } from '../net/ghost/ghost-source';
import type { PacketRecord } from '../net/stream/scheduler';
import { PROTOCOL_VERSION } from '../../shared/version';
import type { Refusal } from './board';
import { Board } from './board';
import type { ImageType } from '../../shared/images';
import { PeerImages } from './peer-images';
import type { BoardGhost, PresenceState } from './ghost-classes';
import { blankPresence, copyPresence, Presence, PRESENCE_REGISTRY } from './ghost-classes';
import type { ConnectionStack } from './connection-stack';
import type { SessionRate } from './connection-stack';
import { buildConnectionStack, SESSION_RATES } from './connection-stack';
import type { DownloadStep } from './join-rate';
import { boardDownloadRate, nextDownloadStep } from './join-rate';
import { nearPeerRate } from './near-rate';
import type { LiveGeometry } from './presence';
import {
  changedPresenceMask,
  POINTER_MASK,
  presenceMaskToPointer,
  reshapedPresence,
} from './presence';
import type { Protocol, Role } from './protocol';
import { buildRegistry, editCall, LEAVE_REASONS, REFUSABLE } from './protocol';
import type { ParticipantInfo, SessionEvent, SessionListener } from './session-events';
import { PeerText } from './peer-text';
import type { OtSplice } from '../../shared/text-ot';
import { sameHostList } from './host-list';

/** Stands in for an object not on this side's board yet, for the fields an edit call carries unmasked. */
const UNSEEN: BoardObject = {
  id: 1,
  kind: 'rect',
  x: 0,
  y: 0,
  w: 0,
  h: 0,
  rotation: 0,
  stroke: null,
  fill: null,
  strokeWidth: 0,
  text: '',
  points: [],
  z: 0,
  lockedBy: null,
  pinned: 0,
  blob: '',
};

export interface PeerSessionOptions {
  readonly name: string;
  readonly joinCode: string;
  readonly viewer?: boolean;
  readonly rate?: SessionRate;
  /** Upstream cap, bytes/s (manual --kbps). */
  readonly uplinkBytesPerSecond?: number;
}

export class PeerSession {
  readonly proto: Protocol = buildRegistry();
  readonly endpoint: Endpoint<PacketRecord>;
  readonly board = new Board();
  readonly images: PeerImages;
  private stack: ConnectionStack | undefined;
  private readonly presence = new GhostDomain(PRESENCE_REGISTRY);
  /** What each remote presence last showed, to tell a repeat from a move. */
  private readonly presenceSeen = new WeakMap<PresenceState, PresenceState>();
  private readonly self: GhostSource<PresenceState>;
  private readonly listeners = new Set<SessionListener>();
  private readonly people = new Map<PeerId, ParticipantInfo>();
  /** Received presence ghosts by their ghost object, for deletes. */
  private readonly ghostPeers = new Map<unknown, PeerId>();
  /**
   * The ghost that carries each object now. A restored object comes back under its id in a new ghost, whose create
   * can arrive before the old ghost's delete (or a late update of it): only the current ghost speaks for the id.
   */
  private readonly objectGhosts = new Map<ObjectId, BoardGhost>();
  /** Texts this side's editor co-edits (textot). */
  readonly texts = new PeerText({
    me: () => this.you ?? 0,
    ghostText: (id) => this.objectGhosts.get(id)?.text,
    show: (id, text) => {
      const o = this.board.get(id);
      if (o === undefined || o.text === text) return;
      const object = { ...o, text };
      this.board.mirror(object);
      this.emit({ type: 'object', object });
    },
    open: (id) => this.rpc?.send(this.proto.textOpen, { id }),
    close: (id) => this.rpc?.send(this.proto.textClose, { id }),
    send: (id, seen, splice) => {
      if (splice === null) this.rpc?.send(this.proto.textAck, { id, seen });
      else this.rpc?.send(this.proto.textEdit, { id, seen, ...splice });
    },
    toEditor: (id, seen, by, splice) => this.emit({ type: 'text-splice', id, seen, by, splice }),
  });
  private you: PeerId | undefined;
  private total = 0;
  private received = 0;
  /** Where the board download is (join-rate.ts), and when it last brought a new object (or the welcome came). */
  private download: DownloadStep = 'welcome';
  /** Packets/s this side last told the host it accepts outside a download (near-rate.ts moves it). */
  private accepting = 0;
  private lastObjectAt = 0;
  private nextReq = 1;
  private hostName = '';
  private ended = false;
  private probed: ProbeOutcome | undefined;
  private nearer: { readonly to: PeerAddress; readonly outcome: ProbeOutcome } | undefined;
  /** The session's hosts (mirrors) as the host last told them (`hosts` message); empty until it does. */
  private hostList: readonly PeerAddress[] = [];

  constructor(
    readonly options: PeerSessionOptions,
    now: number,
  ) {
    this.self = this.presence.add(Presence, blankPresence(0), { always: true, alwaysPriority: 10 });
    this.images = new PeerImages(this.proto, (e) => this.emit(e));
    this.endpoint = new Endpoint<PacketRecord>(
      'client',
      { joinCode: options.joinCode, protocolVersion: PROTOCOL_VERSION },
      (conn) => this.adopt(conn).events.scheduler,
      now,
    );
  }

  on(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: SessionEvent): void {
    for (const l of this.listeners) l(e);
  }

  get peerId(): PeerId | undefined {
    return this.you;
  }

  get host(): string {
    return this.hostName;
  }

  get participants(): ParticipantInfo[] {
    return [...this.people.values()];
  }

  /** The session's hosts as the host last told them (its own address among them), for moving to another. */
  get hosts(): readonly PeerAddress[] {
    return this.hostList;
  }

  get joinProgress(): { received: number; total: number } {
    return { received: this.received, total: this.total };
  }

  get connection(): ConnectionStack | undefined {
    return this.stack;
  }

  /** Starts the join: at one address, or at several of the host's at once (the first that answers wins). */
  connect(
    now: number,
    to: PeerAddress | readonly PeerAddress[],
    alongside?: readonly PeerAddress[],
  ): void {
    this.endpoint.connect(now, to, alongside);
  }

  /**
   * Starts the join at the nearest of the session's hosts (its mirrors): each is probed, the lowest RTT dialled
   * (one host: dialled at once). What the probes found is `takeProbed`'s. `known`: every host of the session the
   * joiner knows of, some maybe left out of `hosts` (a failover leaves out the silent one); a second look after the
   * join probes them too (Endpoint.linkHosts).
   */
  connectNearest(
    now: number,
    hosts: readonly PeerAddress[],
    known: readonly PeerAddress[] = [],
  ): void {
    this.endpoint.linkHosts(known);
    this.endpoint.connectNearest(now, hosts);
  }

  /** What the probes of the session's hosts found, once, when they are done. */
  takeProbed(): ProbeOutcome | undefined {
    const p = this.probed;
    this.probed = undefined;
    return p;
  }

  /** A host clearly nearer than the joined one, found by probing again once joined (net/nearest-join.ts), once. */
  takeNearer(): { readonly to: PeerAddress; readonly outcome: ProbeOutcome } | undefined {
    const n = this.nearer;
    this.nearer = undefined;
    return n;
  }

  /** Ends the join before any connection (the directory knows no such session, none could be reached). */
  fail(reason: 'not-found' | 'unreachable', detail: string): void {
    if (this.ended) return;
    this.ended = true;
    this.emit({ type: 'ended', reason, detail });
  }

  private adopt(conn: Connection<PacketRecord>): ConnectionStack {
    const stack = buildConnectionStack(conn, {
      proto: this.proto,
      rate: (this.options.rate ?? SESSION_RATES.broadband).toPeers,
      sendRate: (this.options.rate ?? SESSION_RATES.broadband).toHost,
      presenceDomain: this.presence,
      presenceEvents: {
        created: (_now, g) => this.onPresence(g as PresenceState, 0xffffffff),
        updated: (_now, g, mask) => this.onPresence(g as PresenceState, mask),
        deleted: (_now, g) => this.onPresenceGone(g as PresenceState),
      },
      boardEvents: {
        created: (now, g) => {
          this.lastObjectAt = now;
          this.objectGhosts.set((g as BoardGhost).id, g as BoardGhost);
          this.onObject(g as BoardGhost, true);
        },
        updated: (_now, g) => {
          if (this.objectGhosts.get((g as BoardGhost).id) === g)
            this.onObject(g as BoardGhost, false);
        },
        deleted: (_now, g) => {
          const id = (g as BoardGhost).id;
          if (this.objectGhosts.get(id) !== g) return;
          this.objectGhosts.delete(id);
          this.texts.deleted(id);
          if (this.board.delete(id)) this.emit({ type: 'deleted', id });
        },
      },
      onClosed: (now, info) => this.onClosed(now, info),
    });
    this.stack = stack;
    this.accepting = (this.options.rate ?? SESSION_RATES.broadband).toPeers.packetsPerSecond;
    this.register(stack);
    this.images.attach(stack.events.rpc);
    if (this.options.uplinkBytesPerSecond !== undefined) {
      stack.events.scheduler.setCeiling(0, this.options.uplinkBytesPerSecond);
    }
    stack.events.rpc.send(this.proto.hello, {
      name: this.options.name,
      viewer: this.options.viewer ?? false,
    });
    return stack;
  }

  private register(stack: ConnectionStack): void {
    const rpc = stack.events.rpc;
    const pr = this.proto;
    rpc.on(pr.welcome, (a, now) => {
      this.lastObjectAt = now;
      this.you = a.you;
      this.total = a.objects;
      this.hostName = a.hostName;
      this.self.obj.peer = a.you;
      this.self.markDirty(Presence.maskOf('peer'));
      const addr = stack.conn.peer;
      this.emit({ type: 'ready', you: a.you, address: addr, port: 0 });
      this.emit({ type: 'progress', received: this.received, total: this.total });
    });
    rpc.on(pr.peerJoined, (a) => {
      const info: ParticipantInfo = {
        peer: a.peer,
        name: a.name,
        color: a.color,
        role: a.viewer ? 'viewer' : 'editor',
        isHost: a.peer === 0,
      };
      this.people.set(a.peer, info);
      this.emit({ type: 'joined', participant: info });
    });
    rpc.on(pr.peerLeft, (a) => {
      this.people.delete(a.peer);
      this.emit({
        type: 'left',
        peer: a.peer,
        reason: LEAVE_REASONS[a.reason] ?? 'left',
        detail: a.detail,
      });
    });
    rpc.on(pr.refused, (a, now) => {
      const cmd = REFUSABLE[a.cmd] ?? 'create';
      this.emit({ type: 'refused', cmd, reason: a.reason, ...(a.id === 0 ? {} : { id: a.id }) });
      // A refused hello (the session is full): this session is over before it began.
      if (cmd === 'join' && this.you === undefined && !this.ended) {
        this.ended = true;
        this.emit({ type: 'ended', reason: 'full', detail: a.reason });
        stack.conn.close(now, 'closed', 'refused');
      }
    });
    rpc.on(pr.created, (a) => this.emit({ type: 'created', req: a.req, id: a.id }));
    rpc.on(pr.grabbed, (a) => this.emit({ type: 'grabbed', id: a.id, peer: a.peer }));
    rpc.on(pr.dropped, (a) =>
      this.emit({ type: 'dropped', id: a.id, peer: a.peer, x: a.x, y: a.y }),
    );
    rpc.on(pr.chatFrom, (a) => this.emit({ type: 'chat', peer: a.peer, text: a.text }));
    rpc.on(pr.hosts, (a) => {
      if (sameHostList(a.hosts, this.hostList)) return;
      this.hostList = a.hosts;
      this.endpoint.sessionHosts(a.hosts);
      this.emit({ type: 'hosts', hosts: a.hosts });
    });
    // textot: co-editing (session/peer-text.ts).
    rpc.on(pr.textSync, (a) => this.texts.onSync(a.id, a.text));
    rpc.on(pr.textSplice, (a) => {
      const { id, seen, by, ...splice } = a;
      this.texts.onSplice(id, seen, by, splice);
    });
    rpc.on(pr.textAck, (a) => this.texts.onAck(a.id, a.seen));
    rpc.on(pr.textClose, (a) => this.texts.onDropped(a.id));
  }

  private onPresence(g: PresenceState, mask: number): void {
    // A repeat of what we already have (the host's tail repeat of a pointer that stopped) is no news.
    const seen = this.presenceSeen.get(g);
    if (seen?.peer !== g.peer) this.ghostPeers.set(g, g.peer);
    const changed = seen === undefined ? mask : changedPresenceMask(seen, g, mask);
    if (seen === undefined) this.presenceSeen.set(g, { ...g });
    else copyPresence(seen, g);
    // Presence is written before events, so it can arrive in the packet that welcomes us: report it once we
    // know who we are, and never our own.
    if (this.you === undefined || g.peer === this.you || changed === 0) return;
    const pointer = presenceMaskToPointer(g, changed);
    if (pointer)
      this.emit({ type: 'pointer', pointer, moved: (changed & POINTER_MASK) !== 0 && g.visible });
  }

  /**
   * A presence the host no longer sends (its pointer left our view, or its peer left): shown hidden, or the last
   * place it was seen would stay on screen after the pointer moved on, until it came back into view.
   */
  private onPresenceGone(g: PresenceState): void {
    this.ghostPeers.delete(g);
    const seen = this.presenceSeen.get(g);
    this.presenceSeen.delete(g);
    if (seen?.visible !== true || seen.peer === this.you || !this.people.has(seen.peer)) return;
    const pointer = presenceMaskToPointer({ ...seen, visible: false, dragId: 0 }, POINTER_MASK);
    if (pointer) this.emit({ type: 'pointer', pointer, moved: false });
  }

  private onObject(g: BoardGhost, created: boolean): void {
    // A text this side edits shows ours (the ghost may be older than our splices, or newer than the host's we have).
    const object = { ...g, points: [...g.points], text: this.texts.textOf(g.id, g.text) };
    this.board.mirror(object);
    this.images.seen(object);
    if (created) {
      this.received++;
      if (this.received <= this.total)
        this.emit({ type: 'progress', received: this.received, total: this.total });
    }
    this.emit({ type: 'object', object });
  }

  /**
   * Welcomed to a board, this side accepts packets faster until it is whole, then the usual rate again
   * (join-rate.ts). After I/O and on the tick, never from inside the connection's own receive callback.
   */
  private downloadRate(now: number): void {
    const scheduler = this.stack?.events.scheduler;
    if (scheduler === undefined || this.you === undefined) return;
    const usual = this.options.rate ?? SESSION_RATES.broadband;
    const quiet = now - this.lastObjectAt;
    const next = nextDownloadStep(this.download, this.received, this.total, quiet);
    const was = this.download;
    this.download = next;
    if (next === 'done' && was !== 'done' && this.received < this.total) {
      // What the welcome counted and never came was deleted meanwhile: the board is what came.
      this.total = this.received;
      this.emit({ type: 'progress', received: this.received, total: this.total });
    }
    // A board that was whole at the welcome (an empty one) leaves the rate as it was.
    if (next === 'fast' && was !== 'fast')
      scheduler.setLocalRate(now, boardDownloadRate(usual.toPeers), usual.toHost);
    else if (next === 'done' && was === 'fast') this.acceptUsual(now, true);
  }

  /**
   * Outside a download, what this side accepts follows the path's round trip once it is known: a host a short
   * round trip away may send faster (near-rate.ts), since its pacing would be most of a relayed pointer's wait.
   * `always`: tell the scheduler even if the packet rate is what it was (a download's rate is being replaced).
   */
  private acceptUsual(now: number, always = false): void {
    const stack = this.stack;
    if (stack === undefined || this.download !== 'done') return;
    const usual = this.options.rate ?? SESSION_RATES.broadband;
    const rtt = stack.conn.rtt;
    const policy = nearPeerRate(
      usual.toPeers,
      usual.nearToPeers,
      rtt.hasSample ? rtt.min : Infinity,
      // Everyone the host announced, this side too: the host's own user and a mirrored session's other hosts' users.
      this.people.size,
    );
    if (!always && policy.packetsPerSecond === this.accepting) return;
    this.accepting = policy.packetsPerSecond;
    stack.events.scheduler.setLocalRate(now, policy, usual.toHost);
  }

  private onClosed(_now: number, info: CloseInfo): void {
    this.images.close();
    if (this.ended) return;
    this.ended = true;
    this.emit({ type: 'ended', ...endOf(info) });
  }

  /** Gives the scheduler the time (paced scoping); call every ~100 ms and after commands. */
  tick(now: number): void {
    this.downloadRate(now);
    this.acceptUsual(now);
    this.texts.tick();
    this.stack?.events.scheduler.touch(now);
    this.images.tick(now);
  }

  /** Drains endpoint events: a refused or failed join ends the session. */
  afterIo(now: number): void {
    this.downloadRate(now);
    this.acceptUsual(now);
    for (let e = this.endpoint.pollEvent(); e !== undefined; e = this.endpoint.pollEvent()) {
      if (e.type === 'nearer' && !this.ended) this.nearer = { to: e.to, outcome: e.outcome };
      if (e.type === 'probed') {
        this.probed = e.outcome;
        const n = e.outcome.candidates.length;
        if (e.outcome.chosen === undefined && !this.ended) {
          this.ended = true;
          this.emit({
            type: 'ended',
            reason: e.outcome.failure,
            detail:
              e.outcome.failure === 'unreachable'
                ? `none of the session's ${n} hosts answered`
                : `none of the session's ${n} hosts speaks this version`,
          });
        }
      }
      if (e.type === 'connect-failed' && !this.ended) {
        this.ended = true;
        this.emit({ type: 'ended', reason: e.reason, detail: '' });
      }
    }
  }

  private get rpc(): ConnectionStack['events']['rpc'] | undefined {
    return this.stack?.conn.isOpen === true ? this.stack.events.rpc : undefined;
  }

  // Commands.

  pointer(x: number, y: number, visible = true): void {
    Object.assign(this.self.obj, { x, y, visible });
    this.self.markDirty(Presence.maskOf('pointer'));
  }

  tool(t: Tool): void {
    this.self.obj.tool = TOOLS.indexOf(t);
    this.self.markDirty(Presence.maskOf('tool'));
  }

  viewport(x: number, y: number, w: number, h: number): void {
    this.rpc?.send(this.proto.viewport, { x, y, w, h });
  }

  /** Returns the request id the 'created' event will carry. */
  create(fields: NewObject): number {
    const req = this.nextReq;
    this.nextReq = (this.nextReq % 65535) + 1;
    this.rpc?.send(this.proto.create, { req, ...fields, points: [...fields.points] });
    return req;
  }

  /**
   * Sends a patch even of an object this side does not show yet (an undo right after a restore, whose ghost is
   * still on its way): the host orders it after what came before and refuses it if there is no such object.
   */
  edit(id: ObjectId, patch: ObjectPatch): void {
    const rpc = this.rpc;
    if (rpc === undefined) return;
    const cur = this.board.get(id);
    // Fields the mask leaves out are sent as they are here, or as anything when the object is not here yet.
    const call = editCall(id, cur ?? { ...UNSEEN, id }, patch);
    if (call !== undefined) rpc.send(this.proto.edit, call);
    if (patch.points !== undefined)
      rpc.send(this.proto.setPoints, { id, points: [...patch.points] });
    if (patch.text !== undefined) {
      // The whole text, whatever this side's copy of it holds now (the host clamps the removal).
      rpc.send(this.proto.text, { id, at: 0, remove: MAX_TEXT_BYTES, insert: patch.text });
    }
  }

  text(id: ObjectId, at: number, remove: number, insert: string): void {
    this.rpc?.send(this.proto.text, { id, at, remove, insert });
  }

  /** textot: this side's editor opened a text showing `base`. */
  textOpen(id: ObjectId, base: string): void {
    this.texts.openEditor(id, base);
  }

  /** textot: this side's editor's splice (a no-op one acknowledges), made after `seen` of ours. */
  textEdit(id: ObjectId, seen: number, splice: OtSplice): boolean {
    return this.texts.editorEdit(id, seen, splice);
  }

  textClose(id: ObjectId): void {
    this.texts.closeEditor(id);
  }

  remove(id: ObjectId): void {
    this.rpc?.send(this.proto.remove, { id });
  }

  /** Brings back an object this participant deleted, under its id (the host checks it may). */
  restore(id: ObjectId): void {
    this.rpc?.send(this.proto.restore, { id });
  }

  /** Uploads an image: its hash once the host has it (for a create), or the host's refusal. */
  putImage(now: number, bytes: Uint8Array, type: ImageType): Promise<string | Refusal> {
    return this.images.put(now, bytes, type);
  }

  /** To the front or the back, or (an undone restack) to an exact z the host refuses while another has it. */
  restack(id: ObjectId, front: boolean, z: number | null = null): void {
    this.rpc?.send(this.proto.restack, { id, front, z });
  }

  /** Locks an object in place or unlocks it (the host refuses it while someone else holds the object). */
  pin(id: ObjectId, pinned: boolean): void {
    this.rpc?.send(this.proto.pin, { id, pinned });
  }

  grab(id: ObjectId): void {
    this.rpc?.send(this.proto.grab, { id });
  }

  /** A live drag travels in the presence ghost (current state, never resent stale). */
  drag(id: ObjectId, x: number, y: number): void {
    Object.assign(this.self.obj, { dragId: id, dragX: x, dragY: y, dragShaped: false });
    this.self.markDirty(Presence.maskOf('drag'));
  }

  /** A live resize or rotate: the same slot as a drag, with the size and rotation. */
  reshape(id: ObjectId, g: LiveGeometry): void {
    Object.assign(this.self.obj, reshapedPresence(id, g));
    this.self.markDirty(Presence.maskOf('drag'));
  }

  drop(id: ObjectId, x: number, y: number): void {
    this.self.obj.dragId = 0;
    this.self.obj.dragShaped = false;
    this.self.markDirty(Presence.maskOf('drag'));
    this.rpc?.send(this.proto.drop, { id, x, y });
  }

  chat(text: string): void {
    this.rpc?.send(this.proto.chat, { text });
  }

  role(): Role | undefined {
    return this.you === undefined ? undefined : this.people.get(this.you)?.role;
  }

  leave(now: number): void {
    // Our own leaving is no 'ended' (that reports the host ending it, or a failure).
    this.ended = true;
    if (this.stack) {
      this.stack.conn.close(now, 'closed', 'left');
      this.endpoint.touch(this.stack.conn);
    }
  }
}

/**
 * What a closed connection means to the person who joined: the host leaving on purpose is 'host-left', silence is
 * 'timeout', and a close for cause (a stalled or overflowing stack, a protocol error, a connection replaced) is an
 * 'error' that says which, never a host that left.
 */
export function endOf(info: CloseInfo): { reason: string; detail: string } {
  switch (info.reason) {
    case 'kicked':
    case 'timeout':
      return { reason: info.reason, detail: info.detail };
    case 'closed':
    case 'shutdown':
      return { reason: 'host-left', detail: info.detail };
    case 'overflow':
    case 'stalled':
    case 'protocol-error':
    case 'replaced': {
      const who = info.byPeer ? 'the host closed the link' : 'the link was closed';
      const detail = info.detail === '' ? '' : `: ${info.detail}`;
      return { reason: 'error', detail: `${who} (${info.reason}${detail})` };
    }
  }
}
