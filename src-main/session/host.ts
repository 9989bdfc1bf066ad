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
import type { Refusal } from './board';
import { Board, isRefusal } from './board';
import { BoardReplica } from './board-replica';
import { participantColor } from './colors';
import type { PresenceState } from './ghost-classes';
import { blankPresence, copyPresence, Presence, PRESENCE_REGISTRY } from './ghost-classes';
import type { Link } from './link';
import type { SessionRate } from './link';
import { buildLink, SESSION_RATES } from './link';
import { HostRules } from './host-rules';
import type { Protocol, RefusableCommand, Role } from './protocol';
import { buildRegistry, LEAVE_REASONS, REFUSABLE } from './protocol';
import type { ParticipantInfo, SessionEvent, SessionListener } from './session-events';
import { MAX_PEER_ID } from './fields';
import { changedPresenceMask, POINTER_MASK, presenceMaskToPointer } from './presence';
import { fairShares } from '../net/stream/congestion';

export interface HostSessionOptions {
  readonly name: string;
  readonly joinCode: string;
  readonly board?: Board;
  readonly rate?: SessionRate;
  /** Upstream cap shared among peers, bytes/s (manual --kbps); undefined: adaptive only. */
  readonly uplinkBytesPerSecond?: number;
  readonly maxPeers?: number;
  /** A lock whose holder shows no activity for this long is released. */
  readonly lockTimeoutMs?: number;
}

/** A connected peer as the host sees it. */
interface PeerLink {
  readonly link: Link;
  peerId: PeerId;
  name: string;
  color: number;
  role: Role;
  joined: boolean;
  viewport: { x: number; y: number; w: number; h: number } | undefined;
  relay: GhostSource<PresenceState> | undefined;
  lastActiveAt: number;
}

/**
 * A pointer's priority in the presence scope of the peer whose pointer is at `me`: falls with the square of the
 * distance (in 500-unit steps), so the pointers next to yours keep their full rate and the far ones share what is
 * left (their priority still ages, so none stops).
 */
function presencePriority(me: PresenceState | undefined, o: PresenceState): number {
  if (me === undefined) return 10;
  const dx = (o.x - me.x) / 500;
  const dy = (o.y - me.y) / 500;
  return 1 + 1000 / (1 + dx * dx + dy * dy);
}

export class HostSession {
  readonly proto: Protocol = buildRegistry();
  readonly endpoint: Endpoint<PacketRecord>;
  readonly board: Board;
  private readonly replica: BoardReplica;
  private readonly presence = new GhostDomain(PRESENCE_REGISTRY);
  private readonly self: GhostSource<PresenceState>;
  private readonly links = new Map<Connection<PacketRecord>, PeerLink>();
  /** The joined peers' relayed presence, in join order (what every peer's presence scope walks). */
  private readonly relays: GhostSource<PresenceState>[] = [];
  private readonly listeners = new Set<SessionListener>();
  private readonly rules: HostRules;
  private nextPeerId = 1;
  private colorIndex = 1;
  private now: number;

  constructor(
    readonly options: HostSessionOptions,
    now: number,
  ) {
    this.now = now;
    this.board = options.board ?? new Board();
    this.replica = new BoardReplica(
      this.board,
      () => this.now,
      () => this.rescopeBoards(),
    );
    this.self = this.presence.add(Presence, blankPresence(0));
    this.rules = new HostRules(this.board, options.lockTimeoutMs ?? 15_000);
    this.endpoint = new Endpoint<PacketRecord>(
      'host',
      {
        joinCode: options.joinCode,
        protocolVersion: PROTOCOL_VERSION,
        maxConnections: (options.maxPeers ?? 256) + 8,
      },
      (conn) => this.adopt(conn).link.stack.scheduler,
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

  get participants(): ParticipantInfo[] {
    const me: ParticipantInfo = {
      peer: 0,
      name: this.options.name,
      color: participantColor(0),
      role: 'editor',
      isHost: true,
    };
    return [me, ...[...this.links.values()].filter((p) => p.joined).map((p) => this.info(p))];
  }

  private info(p: PeerLink): ParticipantInfo {
    return { peer: p.peerId, name: p.name, color: p.color, role: p.role, isHost: false };
  }

  /** Per-peer links (for stats). */
  peerLinks(): { peer: PeerId; name: string; link: Link }[] {
    return [...this.links.values()]
      .filter((p) => p.joined)
      .map((p) => ({ peer: p.peerId, name: p.name, link: p.link }));
  }

  private adopt(conn: Connection<PacketRecord>): PeerLink {
    // The link's callbacks need the peer's state, and the state holds the link: build the state first.
    const state: Omit<PeerLink, 'link'> = {
      peerId: 0,
      name: '',
      color: 0,
      role: 'editor',
      joined: false,
      viewport: undefined,
      relay: undefined,
      lastActiveAt: this.now,
    };
    const p = state as PeerLink;
    Object.assign(p, { link: this.linkFor(conn, p) });
    this.links.set(conn, p);
    this.register(p);
    return p;
  }

  private linkFor(conn: Connection<PacketRecord>, p: PeerLink): Link {
    return buildLink(conn, {
      proto: this.proto,
      rate: (this.options.rate ?? SESSION_RATES.broadband).toHost,
      sendRate: (this.options.rate ?? SESSION_RATES.broadband).toPeers,
      presenceDomain: this.presence,
      presenceScope: (_now, s) => {
        if (!p.joined) return;
        // Nearest pointers first when the budget is short (TRIBES' scoping by distance); ageing keeps the rest
        // coming. Runs 10 times a second per peer over every other peer: no allocation, no Math.hypot.
        const me = p.relay?.obj;
        s.add(this.self, presencePriority(me, this.self.obj));
        for (const r of this.relays) if (r !== p.relay) s.add(r, presencePriority(me, r.obj));
      },
      presenceEvents: {
        created: (now, g, _c) => this.onPresence(p, g as PresenceState, 0xffffffff, now),
        updated: (now, g, mask) => this.onPresence(p, g as PresenceState, mask, now),
      },
      boardDomain: this.replica.domain,
      boardScope: (now, s) => {
        if (p.joined) this.replica.scope(now, s, p.viewport);
      },
      onClosed: (now, info) => this.onClosed(p, now, info),
    });
  }

  private register(p: PeerLink): void {
    const rpc = p.link.stack.rpc;
    const pr = this.proto;
    rpc.on(pr.hello, (a, now) => this.onHello(p, a.name, a.viewer, now));
    rpc.on(pr.viewport, (a) => {
      p.viewport = { x: a.x, y: a.y, w: a.w, h: a.h };
      p.link.board.invalidateScope();
    });
    rpc.on(pr.create, (a, now) => {
      const { req, ...fields } = a;
      const r = this.create(p.peerId, fields, now);
      if (isRefusal(r)) this.refuse(p, 'create', r.refused);
      else rpc.send(pr.created, { req, id: r.id });
    });
    rpc.on(pr.edit, (a, now) =>
      this.guard(p, 'edit', this.edit(p.peerId, a.id, editPatch(a), now)),
    );
    rpc.on(pr.remove, (a, now) => this.guard(p, 'delete', this.remove(p.peerId, a.id, now)));
    rpc.on(pr.restack, (a, now) =>
      this.guard(p, 'restack', this.restack(p.peerId, a.id, a.front, now)),
    );
    rpc.on(pr.setPoints, (a, now) =>
      this.guard(p, 'edit', this.edit(p.peerId, a.id, { points: a.points }, now)),
    );
    rpc.on(pr.text, (a, now) =>
      this.guard(p, 'text', this.text(p.peerId, a.id, a.at, a.remove, a.insert, now)),
    );
    rpc.on(pr.grab, (a, now) => this.guard(p, 'grab', this.grab(p.peerId, a.id, now)));
    rpc.on(pr.drop, (a, now) => this.guard(p, 'drop', this.drop(p.peerId, a.id, a.x, a.y, now)));
    rpc.on(pr.chat, (a, now) => {
      p.lastActiveAt = now;
      this.chat(p.peerId, a.text);
    });
  }

  private guard(p: PeerLink, cmd: RefusableCommand, r: BoardObject | Refusal | boolean): void {
    if (typeof r === 'object' && isRefusal(r)) this.refuse(p, cmd, r.refused);
  }

  private refuse(p: PeerLink, cmd: RefusableCommand, reason: string): void {
    p.link.stack.rpc.send(this.proto.refused, {
      cmd: REFUSABLE.indexOf(cmd),
      reason: reason.slice(0, 160),
    });
  }

  private onHello(p: PeerLink, name: string, viewer: boolean, now: number): void {
    if (p.joined) return;
    const id = this.allocatePeerId();
    if (id === undefined) {
      p.link.conn.close(now, 'closed', 'the session is full');
      return;
    }
    p.peerId = id;
    p.name = name.trim() === '' ? `Guest ${id}` : name.trim();
    p.color = participantColor(this.colorIndex++);
    p.role = viewer ? 'viewer' : 'editor';
    p.joined = true;
    p.lastActiveAt = now;
    p.relay = this.presence.add(Presence, blankPresence(id));
    this.relays.push(p.relay);
    const rpc = p.link.stack.rpc;
    rpc.send(this.proto.welcome, {
      you: id,
      objects: this.board.size,
      hostName: this.options.name,
    });
    for (const other of this.participants) {
      if (other.peer !== id) rpc.send(this.proto.peerJoined, joinedParams(other));
    }
    const me = this.info(p);
    rpc.send(this.proto.peerJoined, joinedParams(me));
    this.broadcast((r) => r.send(this.proto.peerJoined, joinedParams(me)), p);
    for (const l of this.links.values()) l.link.presence.invalidateScope();
    this.emit({ type: 'joined', participant: me });
  }

  private allocatePeerId(): PeerId | undefined {
    const used = new Set([...this.links.values()].map((l) => l.peerId));
    for (let tries = 0; tries <= MAX_PEER_ID; tries++) {
      const id = this.nextPeerId;
      this.nextPeerId = id >= MAX_PEER_ID ? 1 : id + 1;
      if (!used.has(id)) return id;
    }
    return undefined;
  }

  private onPresence(p: PeerLink, g: PresenceState, mask: number, now: number): void {
    const relay = p.relay;
    if (!p.joined || relay === undefined) return;
    p.lastActiveAt = now;
    if (g.dragId !== 0) this.rules.touch(p.peerId, now);
    // Trust the fields, never the claimed identity: the relay carries the host-assigned peer id. A repeated
    // state (a peer's tail repeat) changes nothing and is neither relayed nor reported.
    const changed = changedPresenceMask(relay.obj, g, mask & ~Presence.maskOf('peer'));
    copyPresence(relay.obj, g);
    relay.obj.peer = p.peerId;
    if (changed === 0) return;
    relay.markDirty(changed);
    const pointer = presenceMaskToPointer(relay.obj, changed);
    if (pointer) this.emit({ type: 'pointer', pointer, moved: (changed & POINTER_MASK) !== 0 });
  }

  private onClosed(p: PeerLink, now: number, info: CloseInfo): void {
    this.links.delete(p.link.conn);
    if (p.relay) {
      const i = this.relays.indexOf(p.relay);
      if (i >= 0) this.relays.splice(i, 1);
      p.relay.destroy();
    }
    if (!p.joined) return;
    for (const id of this.rules.releaseAll(p.peerId)) this.announceRelease(id, p.peerId, now);
    const reason =
      info.reason === 'timeout'
        ? 'timeout'
        : info.reason === 'kicked'
          ? 'kicked'
          : info.reason === 'closed'
            ? 'left'
            : 'error';
    const detail = info.detail;
    this.broadcast((r) =>
      r.send(this.proto.peerLeft, {
        peer: p.peerId,
        reason: LEAVE_REASONS.indexOf(reason),
        detail: detail.slice(0, 160),
      }),
    );
    this.emit({ type: 'left', peer: p.peerId, reason, detail });
  }

  private broadcast(send: (rpc: Link['stack']['rpc']) => void, except?: PeerLink): void {
    for (const l of this.links.values()) if (l.joined && l !== except) send(l.link.stack.rpc);
  }

  private canEdit(peer: PeerId): Refusal | undefined {
    if (peer === 0) return undefined;
    const p = [...this.links.values()].find((l) => l.peerId === peer);
    return p?.role === 'viewer' ? { refused: 'viewers cannot edit the board' } : undefined;
  }

  // Operations, from a peer's RPC or from the host's own UI (peer 0).

  create(peer: PeerId, fields: NewObject, now: number): BoardObject | Refusal {
    this.now = now;
    const denied = this.canEdit(peer);
    if (denied) return denied;
    const o = this.board.create(fields);
    if (!isRefusal(o)) this.emit({ type: 'object', object: o });
    return o;
  }

  edit(peer: PeerId, id: ObjectId, patch: ObjectPatch, now: number): BoardObject | Refusal {
    this.now = now;
    const denied = this.canEdit(peer) ?? this.rules.lockedByOther(id, peer, this.nameOf);
    if (denied) return denied;
    const o = this.board.update(id, patch);
    if (!isRefusal(o)) this.emit({ type: 'object', object: o });
    return o;
  }

  text(
    peer: PeerId,
    id: ObjectId,
    at: number,
    remove: number,
    insert: string,
    now: number,
  ): BoardObject | Refusal {
    const current = this.board.get(id);
    if (current === undefined) return { refused: `no object ${id}` };
    // Positions are UTF-16 code units, as a textarea's selection reports them.
    const t = current.text;
    const start = Math.min(at, t.length);
    const next = t.slice(0, start) + insert + t.slice(Math.min(t.length, start + remove));
    return this.edit(peer, id, { text: next }, now);
  }

  remove(peer: PeerId, id: ObjectId, now: number): boolean | Refusal {
    this.now = now;
    const denied = this.canEdit(peer) ?? this.rules.lockedByOther(id, peer, this.nameOf);
    if (denied) return denied;
    if (!this.board.delete(id)) return { refused: `no object ${id}` };
    this.emit({ type: 'deleted', id });
    return true;
  }

  restack(peer: PeerId, id: ObjectId, front: boolean, now: number): BoardObject | Refusal {
    this.now = now;
    const denied = this.canEdit(peer);
    if (denied) return denied;
    const o = this.board.restack(id, front ? 'front' : 'back');
    if (!isRefusal(o)) this.emit({ type: 'object', object: o });
    return o;
  }

  grab(peer: PeerId, id: ObjectId, now: number): BoardObject | Refusal {
    this.now = now;
    const denied = this.canEdit(peer);
    if (denied) return denied;
    const r = this.rules.grab(id, peer, now, this.nameOf);
    if (isRefusal(r)) return r;
    this.emit({ type: 'object', object: r });
    this.emit({ type: 'grabbed', id, peer });
    this.broadcast((rpc) => rpc.send(this.proto.grabbed, { id, peer }));
    return r;
  }

  drop(peer: PeerId, id: ObjectId, x: number, y: number, now: number): BoardObject | Refusal {
    this.now = now;
    const r = this.rules.drop(id, peer, x, y);
    if (isRefusal(r)) return r;
    this.emit({ type: 'object', object: r });
    this.announceDrop(id, peer, now);
    return r;
  }

  /** A lock the host released (holder gone or quiet): the object changed too. */
  private announceRelease(id: ObjectId, peer: PeerId, now: number): void {
    const o = this.board.get(id);
    if (o !== undefined) this.emit({ type: 'object', object: o });
    this.announceDrop(id, peer, now);
  }

  private announceDrop(id: ObjectId, peer: PeerId, now: number): void {
    this.now = now;
    const o = this.board.get(id);
    if (o === undefined) return;
    this.emit({ type: 'dropped', id, peer, x: o.x, y: o.y });
    this.broadcast((rpc) => rpc.send(this.proto.dropped, { id, peer, x: o.x, y: o.y }));
  }

  chat(peer: PeerId, text: string): void {
    this.emit({ type: 'chat', peer, text });
    this.broadcast((rpc) => rpc.send(this.proto.chatFrom, { peer, text }));
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
    if (tool !== undefined) {
      s.tool = TOOLS.indexOf(tool);
      mask |= Presence.maskOf('tool');
    }
    if (mask !== 0) this.self.markDirty(mask);
  }

  kick(now: number, peer: PeerId, detail = 'removed by the host'): boolean {
    const p = [...this.links.values()].find((l) => l.peerId === peer && l.joined);
    if (p === undefined) return false;
    this.endpoint.kick(now, p.link.conn, detail);
    return true;
  }

  setRole(peer: PeerId, role: Role): boolean {
    const p = [...this.links.values()].find((l) => l.peerId === peer && l.joined);
    if (p === undefined) return false;
    p.role = role;
    const info = this.info(p);
    this.broadcast((rpc) => rpc.send(this.proto.peerJoined, joinedParams(info)));
    this.emit({ type: 'joined', participant: info });
    return true;
  }

  private readonly nameOf = (peer: PeerId): string =>
    peer === 0
      ? this.options.name
      : ([...this.links.values()].find((l) => l.peerId === peer)?.name ?? `peer ${peer}`);

  /** Drains endpoint events (connection opened/closed); call after every batch of I/O. */
  afterIo(now: number): void {
    this.now = now;
    for (let e = this.endpoint.pollEvent(); e !== undefined; e = this.endpoint.pollEvent()) {
      // Connections announce themselves through their stacks; closes arrive via onClosed.
    }
  }

  /** Objects came or went: every peer's board scope is stale (scoping is otherwise paced, not per change). */
  private rescopeBoards(): void {
    for (const p of this.links.values()) {
      p.link.board.invalidateScope();
      p.link.stack.scheduler.touch(this.now);
    }
  }

  /** Periodic work: releases locks whose holders went quiet, and gives schedulers the time for paced scoping. */
  tick(now: number): void {
    this.now = now;
    for (const p of this.links.values()) p.link.stack.scheduler.touch(now);
    this.shareUplink(now);
    for (const { id, peer } of this.rules.expire(now)) this.announceRelease(id, peer, now);
  }

  /** A manual uplink cap is split max-min fairly among peers by what each currently can use (TRIBES future work 4). */
  private shareUplink(now: number): void {
    const total = this.options.uplinkBytesPerSecond;
    if (total === undefined) return;
    const links = [...this.links.values()].map((p) => p.link.stack.scheduler);
    const wants = links.map((s) => s.stats(now).adaptiveBytesPerSecond ?? total);
    fairShares(total, wants).forEach((share, i) => links[i]?.setCeiling(now, Math.max(1, share)));
  }

  close(now: number): void {
    this.endpoint.closeAll(now, 'shutdown', 'the host ended the session');
    this.replica.dispose();
  }
}

function joinedParams(p: ParticipantInfo) {
  return { peer: p.peer, name: p.name, color: p.color, viewer: p.role === 'viewer' };
}

function editPatch(a: {
  mask: number;
  x: number;
  y: number;
  w: number;
  h: number;
  rotation: number;
  stroke: number | null;
  fill: number | null;
  strokeWidth: number;
}): ObjectPatch {
  const out: Record<string, unknown> = {};
  const fields = ['x', 'y', 'w', 'h', 'rotation', 'stroke', 'fill', 'strokeWidth'] as const;
  fields.forEach((f, i) => {
    if ((a.mask >> i) & 1) out[f] = a[f];
  });
  return out;
}
