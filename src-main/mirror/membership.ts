// Who is in a mirror group, by agreement: views numbered from the founding one, changed only by a coordinator
// (the lowest live id of the view, which is also the group clock's reference; the next lowest when it is the one
// suspected). A view change proposes the new members (joiners with fresh ids, ids never reused), every survivor
// freezes the streams of those leaving and reports what it holds of them, the coordinator names the union as the
// target, every survivor fetches what it lacks of it (CRIMP repairs), and only when all hold it is the view
// installed: so every survivor executes the same set of a dead mirror's commands. A joiner is admitted the same
// way and takes the board from the member it dialled, at the instant that member installs the view admitting it.
// Messages go over the mirror links, each re-sent until its packet is delivered (the notify protocol says which
// were dropped); a delivered one can still be dropped on arrival (unexpected there), so a step of a view change
// not answered within RETRY_MS goes again: the coordinator's proposal or target to the members that have not
// answered it, a member's last answer to the coordinator (who answers one for a view it installed with that
// install). Sans-IO: time is passed in; knows nothing of sockets, of CRIMP's or TSS's insides (hooks do).
import type { PeerAddress } from '../net/address';
import { parseAddress } from '../net/address';
import type { Rng } from '../net/rng';
import type { HeldSeqs } from './crimp';
import type {
  Admission,
  Ballot,
  GroupMessage,
  LeaveReason,
  Removal,
  View,
  ViewMember,
} from './group-wire';
import {
  decodeGroupMessage,
  encodeGroupMessage,
  GROUP_MAX_ABOVE,
  isGroupDecodeError,
} from './group-wire';
import { chunkTransfer } from './board-transfer';
import type { LinkDest, LinkRef } from './mirror-links';
import type { MirrorId } from './mirror-id';
import { MAX_MIRRORS } from './mirror-id';

/** What a driver turns into the CLI's `mirror` events. */
export type MembershipEvent =
  | { readonly type: 'joined'; readonly id: MirrorId; readonly view: number }
  | {
      readonly type: 'left';
      readonly id: MirrorId;
      readonly reason: LeaveReason;
      readonly view: number;
    }
  /** This mirror is in the group (a founder at once, a joiner once it holds the board) under `id`. */
  | { readonly type: 'member'; readonly id: MirrorId; readonly view: number }
  /** The group went on without this mirror (it was thought dead): it must stop serving. */
  | { readonly type: 'excluded'; readonly view: number };

/** What membership does to the rest of the mirror. */
export interface MembershipHost {
  /** Sends one message on a link (by its mirror id, or by link key for a joiner's link); false: retry later. */
  send(now: number, to: Dest, bytes: Uint8Array, tag: number): boolean;
  /** Whether a link by that key is still open (a joiner's link that closed takes its messages with it). */
  linkOpen(key: number): boolean;
  freeze(origin: MirrorId): void;
  target(now: number, held: HeldSeqs): void;
  holdsAll(held: HeldSeqs): boolean;
  held(origin: MirrorId, maxAbove: number): HeldSeqs;
  addMember(now: number, id: MirrorId): void;
  removeMember(now: number, id: MirrorId, reason: LeaveReason): void;
  /** The board transfer for a joiner, taken now. */
  takeTransfer(): Uint8Array;
  /** A joiner's id and view, given by the member it dialled, and the board transfer's size: dial the others. */
  welcomed(now: number, id: MirrorId, view: View, chunks: number, bytes: number): void;
  /** A joiner's board transfer chunk arrived. */
  chunk(now: number, index: number, bytes: Uint8Array): void;
}

export type Dest = LinkDest;

export interface MembershipOptions {
  /** A founder's id and founding view (number 0); absent for a joiner. */
  readonly self?: MirrorId;
  readonly view?: View;
  /** A joiner's listening port (the member it dials sees its address). */
  readonly listenPort?: number;
  readonly rng: Rng;
  readonly host: MembershipHost;
}

export interface MembershipCounters {
  /** Messages that did not parse, or came from a link with no business sending them: dropped. */
  undecodable: number;
  unexpected: number;
  /** Messages re-sent after their packet was dropped. */
  resent: number;
  /** View change steps sent again after RETRY_MS without an answer (a message delivered but dropped on arrival). */
  retried: number;
  viewChanges: number;
  /** View change attempts started (a coordinator replaced, or a member lost during one, starts another). */
  attempts: number;
  /** Joins refused: the id space (MAX_MIRRORS ids a session) is used up. */
  joinsRefused: number;
}

/** Who is in, as this mirror sees it: for stats panels and the CLI's `mirror` lines. */
export interface MembershipStats {
  /** The installed view's number and members (null: a joiner not yet welcomed). */
  readonly view: number | null;
  readonly members: readonly MirrorId[];
  readonly coordinator: MirrorId | null;
  /** Members this mirror suspects, with why, until the group decides. */
  readonly suspected: readonly { readonly id: MirrorId; readonly reason: LeaveReason }[];
  /** A view change under way: the view it would install. */
  readonly changing: number | null;
  readonly phase: 'joining' | 'member' | 'out';
  /** Membership messages waiting for a link's window. */
  readonly queued: number;
  readonly counters: MembershipCounters;
}

interface Outgoing {
  readonly to: Dest;
  readonly bytes: Uint8Array;
  /** Runs once its packet is delivered (a transfer's chunks follow its welcome: re-sends reorder). */
  readonly then?: () => void;
}

/** The coordinator's view change in progress. */
interface Change {
  readonly ballot: Ballot;
  readonly view: View;
  readonly removed: readonly Removal[];
  readonly joined: readonly Admission[];
  readonly flushes: Map<MirrorId, readonly HeldSeqs[]>;
  readonly flushed: Set<MirrorId>;
  /** What every survivor must hold of those leaving, once each reported (fixed from then on). */
  target: readonly HeldSeqs[] | undefined;
  /** When the members that have not answered this step are sent it again. */
  retryAt: number;
}

/** A member's part in the view change it accepted. */
interface Accepted {
  readonly ballot: Ballot;
  readonly view: View;
  readonly removed: readonly Removal[];
  readonly joined: readonly Admission[];
  target: readonly HeldSeqs[] | undefined;
  flushedSent: boolean;
  /** When this member's last answer goes to the coordinator again if no install came. */
  retryAt: number;
}

interface Ask {
  readonly nonce: number;
  readonly address: PeerAddress;
  readonly via: MirrorId;
}

/** How long a joiner has to take the board before the group may think it silent (ms). */
export const JOIN_GRACE_MS = 30_000;
/**
 * A view change step unanswered this long goes again (ms): well past a round trip between mirrors, so a retry is
 * for a message lost on arrival, not one still on its way (the link re-sends a dropped packet's by itself).
 */
export const RETRY_MS = 1_000;

export function compareBallots(a: Ballot, b: Ballot): number {
  return a.view - b.view || a.attempt - b.attempt || a.coordinator - b.coordinator;
}

export class Membership {
  readonly counters: MembershipCounters = {
    undecodable: 0,
    unexpected: 0,
    resent: 0,
    retried: 0,
    viewChanges: 0,
    attempts: 0,
    joinsRefused: 0,
  };
  private selfId: MirrorId | undefined;
  private current: View | undefined;
  private lastInstall: Extract<GroupMessage, { kind: 'install' }> | undefined;
  /** Installs that came before the one they follow (re-sends reorder). */
  private readonly future = new Map<number, Extract<GroupMessage, { kind: 'install' }>>();
  private readonly suspects = new Map<MirrorId, LeaveReason>();
  private reportedTo: MirrorId | undefined;
  private readonly asks: Ask[] = [];
  /**
   * Nonces of the joiners an installed view admitted (at most MAX_MIRRORS: each took an id). An ask sent before
   * its sponsor installed that view can come after the coordinator did: it is stale, not a second joiner.
   */
  private readonly admitted = new Set<number>();
  /** Joiners that dialled this mirror: their nonce's link. */
  private readonly sponsored = new Map<number, { key: number; address: PeerAddress }>();
  private change: Change | undefined;
  private accepted: Accepted | undefined;
  private attempt = 0;
  private readonly queue: Outgoing[] = [];
  private readonly inFlight = new Map<number, Outgoing>();
  private nextTag = 1;
  private readonly events: MembershipEvent[] = [];
  /** A joiner's request: its nonce, and the link it asked on. */
  private joining: { readonly nonce: number; key: number | undefined } | undefined;
  private excluded = false;
  /** Takes part in view changes: a founder at once, a joiner once it holds the board (joined). */
  private active: boolean;
  /**
   * A proposal this mirror cannot answer yet: it came while this joiner was still taking the board (answered once
   * it holds it), or before the install it follows (answered at that install). The highest ballot is kept.
   */
  private deferred: { from: LinkRef; m: Extract<GroupMessage, { kind: 'propose' }> } | undefined;

  constructor(private readonly o: MembershipOptions) {
    this.selfId = o.self;
    this.current = o.view;
    this.active = o.self !== undefined;
    if (o.self !== undefined && o.view !== undefined) {
      if (!o.view.members.some((m) => m.id === o.self))
        throw new RangeError('the founding view must name this mirror');
      this.events.push({ type: 'member', id: o.self, view: o.view.number });
    } else if (o.listenPort === undefined) {
      throw new RangeError('a joiner needs its listening port');
    }
    if (o.self === undefined) this.joining = { nonce: o.rng.int(2 ** 32), key: undefined };
  }

  get self(): MirrorId | undefined {
    return this.selfId;
  }

  /** The installed view (undefined for a joiner not yet welcomed). */
  get view(): View | undefined {
    return this.current;
  }

  /** Whether a link may name this id: a member of the view or of the change under way. */
  allows(id: MirrorId): boolean {
    const inView = (v: View | undefined): boolean => v?.members.some((m) => m.id === id) === true;
    return inView(this.current) || inView(this.accepted?.view) || inView(this.change?.view);
  }

  /** This mirror stops: its own links closing say nothing of the others, and it takes no more part. */
  stop(): void {
    this.excluded = true;
    this.queue.length = 0;
  }

  /** The coordinator: the lowest id of the view this mirror does not suspect. */
  coordinator(): MirrorId | undefined {
    return this.current?.members.find((m) => !this.suspects.has(m.id))?.id;
  }

  stats(): MembershipStats {
    return {
      view: this.current?.number ?? null,
      members: this.current?.members.map((m) => m.id) ?? [],
      coordinator: this.coordinator() ?? null,
      suspected: [...this.suspects].map(([id, reason]) => ({ id, reason })),
      changing: (this.change ?? this.accepted)?.view.number ?? null,
      phase: this.excluded ? 'out' : this.active ? 'member' : 'joining',
      queued: this.queue.length,
      counters: { ...this.counters },
    };
  }

  pollEvent(): MembershipEvent | undefined {
    return this.events.shift();
  }

  /** A member is thought gone (CRIMP's silence or lag, or its link closed): the group decides. */
  suspect(now: number, id: MirrorId, reason: LeaveReason): void {
    if (
      !this.active ||
      this.excluded ||
      id === this.selfId ||
      this.suspects.has(id) ||
      this.current === undefined
    )
      return;
    if (!this.current.members.some((m) => m.id === id)) return;
    this.suspects.set(id, reason);
    this.reportedTo = undefined;
    this.step(now);
  }

  /** Our dial reached a member (a joiner's one link before its id): the request goes on it. */
  dialed(now: number, link: LinkRef): void {
    const j = this.joining;
    if (j === undefined || j.key !== undefined) return;
    j.key = link.key;
    this.enqueue({ key: link.key }, { kind: 'join', nonce: j.nonce, port: this.o.listenPort ?? 0 });
    this.flush(now);
  }

  receive(now: number, from: LinkRef, bytes: Uint8Array): void {
    const m = decodeGroupMessage(bytes);
    if (isGroupDecodeError(m)) {
      this.counters.undecodable++;
      return;
    }
    // Only a join, and a joiner's welcome and chunks, travel on a link not yet named.
    const unnamedOk = m.kind === 'join' || m.kind === 'welcome' || m.kind === 'chunk';
    if (from.id === undefined && !unnamedOk) {
      this.counters.unexpected++;
      return;
    }
    this.handle(now, from, m);
    this.step(now);
  }

  /** The link's word on a message's packet: a dropped one goes again. */
  notify(now: number, tag: number, delivered: boolean): void {
    const out = this.inFlight.get(tag);
    if (out === undefined) return;
    this.inFlight.delete(tag);
    if (delivered) {
      out.then?.();
      return;
    }
    this.counters.resent++;
    this.queue.push(out);
    this.flush(now);
  }

  /** Runs what waits: queued messages, a view change's next step. */
  tick(now: number): void {
    this.step(now);
  }

  /** Work waits (queued messages a full window held back, or a flush to check): the driver ticks soon. */
  get busy(): boolean {
    return (
      this.queue.length > 0 ||
      (this.accepted?.target !== undefined && !this.accepted.flushedSent) ||
      // A change under way may have to retry a step.
      (this.active && (this.change !== undefined || this.accepted !== undefined))
    );
  }

  private handle(now: number, from: LinkRef, m: GroupMessage): void {
    switch (m.kind) {
      case 'join':
        this.onJoin(now, from, m.nonce, m.port);
        return;
      case 'ask':
        // Kept whoever coordinates: this mirror may be next.
        if (this.admitted.has(m.nonce)) return;
        if (!this.asks.some((a) => a.nonce === m.nonce))
          this.asks.push({ nonce: m.nonce, address: m.address, via: m.via });
        return;
      case 'suspect':
        // The word of a member we suspect ourselves counts for nothing (it may be the one cut off).
        if (from.id !== undefined && !this.suspects.has(from.id)) this.suspect(now, m.id, m.reason);
        return;
      case 'propose':
        if (this.active) this.onPropose(now, from, m);
        else this.defer(from, m);
        return;
      case 'flush': {
        const c = this.change;
        if (from.id === undefined) return;
        if (this.answerInstalled(from.id, m.ballot)) return;
        if (c === undefined || compareBallots(c.ballot, m.ballot) !== 0) return;
        // It missed the install this change follows (a coordinator died sending it): it gets ours first.
        if (m.installed + 1 < c.ballot.view) {
          if (this.lastInstall !== undefined) this.enqueue({ id: from.id }, this.lastInstall);
          return;
        }
        // The target is fixed once named: a report sent again after it changes nothing.
        if (c.target === undefined) c.flushes.set(from.id, m.held);
        return;
      }
      case 'target': {
        const a = this.accepted;
        if (a === undefined || compareBallots(a.ballot, m.ballot) !== 0) return;
        // Sent again: our answer did not get there.
        if (a.flushedSent) {
          this.enqueue({ id: a.ballot.coordinator }, { kind: 'flushed', ballot: a.ballot });
          return;
        }
        a.target = m.held;
        for (const h of m.held) this.o.host.target(now, h);
        return;
      }
      case 'flushed':
        if (from.id === undefined || this.answerInstalled(from.id, m.ballot)) return;
        if (this.change !== undefined && compareBallots(this.change.ballot, m.ballot) === 0)
          this.change.flushed.add(from.id);
        return;
      case 'install':
        this.onInstall(now, m);
        return;
      case 'welcome':
        this.onWelcome(now, from, m);
        return;
      case 'chunk':
        if (this.joining?.nonce === m.nonce && this.selfId !== undefined)
          this.o.host.chunk(now, m.index, m.bytes);
        else this.counters.unexpected++;
        return;
    }
  }

  private onJoin(now: number, from: LinkRef, nonce: number, port: number): void {
    const peer = parseAddress(from.peer);
    if (this.current === undefined || this.selfId === undefined || peer === undefined) {
      this.counters.unexpected++;
      return;
    }
    // Let in already (its welcome went on the link it asked on first).
    if (this.admitted.has(nonce)) return;
    const address = { address: peer.address, port };
    this.sponsored.set(nonce, { key: from.key, address });
    const ask: Ask = { nonce, address, via: this.selfId };
    if (!this.asks.some((a) => a.nonce === nonce)) this.asks.push(ask);
    // Re-told to whoever coordinates next (step), until the joiner is in.
    this.reportedTo = undefined;
  }

  private onPropose(
    now: number,
    from: LinkRef,
    m: Extract<GroupMessage, { kind: 'propose' }>,
  ): void {
    const view = this.current;
    if (view === undefined) return;
    if (m.ballot.view <= view.number) {
      // The proposer missed an install (its coordinator died while sending them): it gets ours.
      if (m.ballot.view === view.number && this.lastInstall !== undefined && from.id !== undefined)
        this.enqueue({ id: from.id }, this.lastInstall);
      return;
    }
    if (m.ballot.view > view.number + 1) {
      // We missed an install: saying which view we hold gets it re-sent, and the proposal is answered after it.
      this.enqueue(
        { id: m.ballot.coordinator },
        { kind: 'flush', ballot: m.ballot, held: [], installed: view.number },
      );
      this.defer(from, m);
      return;
    }
    if (this.accepted !== undefined && compareBallots(m.ballot, this.accepted.ballot) <= 0) {
      if (compareBallots(m.ballot, this.accepted.ballot) === 0) this.sendFlush(m.ballot, m.removed);
      return;
    }
    this.attempt = Math.max(this.attempt, m.ballot.attempt);
    this.accepted = {
      ballot: m.ballot,
      view: m.view,
      removed: m.removed,
      joined: m.joined,
      target: undefined,
      flushedSent: false,
      retryAt: now + RETRY_MS,
    };
    for (const r of m.removed) this.o.host.freeze(r.id);
    for (const j of m.joined) this.o.host.addMember(now, j.id);
    this.sendFlush(m.ballot, m.removed);
  }

  private sendFlush(ballot: Ballot, removed: readonly Removal[]): void {
    const held = removed.map((r) => this.o.host.held(r.id, GROUP_MAX_ABOVE));
    const msg: GroupMessage = { kind: 'flush', ballot, held, installed: this.current?.number ?? 0 };
    if (ballot.coordinator === this.selfId) this.change?.flushes.set(ballot.coordinator, held);
    else this.enqueue({ id: ballot.coordinator }, msg);
  }

  private onInstall(now: number, m: Extract<GroupMessage, { kind: 'install' }>): void {
    const view = this.current;
    if (view === undefined || m.view.number <= view.number) return;
    if (m.view.number > view.number + 1) {
      this.future.set(m.view.number, m);
      return;
    }
    this.install(now, m);
    for (let next = this.future.get(m.view.number + 1); next !== undefined;) {
      this.future.delete(next.view.number);
      this.install(now, next);
      next = this.future.get(next.view.number + 1);
    }
    this.answerDeferred(now);
  }

  private defer(from: LinkRef, m: Extract<GroupMessage, { kind: 'propose' }>): void {
    if (this.deferred === undefined || compareBallots(m.ballot, this.deferred.m.ballot) > 0)
      this.deferred = { from, m };
  }

  /** A deferred proposal is answered (or deferred again, or found stale) once this mirror is a member. */
  private answerDeferred(now: number): void {
    const d = this.deferred;
    if (d === undefined || !this.active || this.excluded) return;
    this.deferred = undefined;
    this.onPropose(now, d.from, d.m);
  }

  private install(now: number, m: Extract<GroupMessage, { kind: 'install' }>): void {
    const self = this.selfId;
    this.current = m.view;
    this.lastInstall = m;
    this.counters.viewChanges++;
    if (this.accepted !== undefined && this.accepted.ballot.view <= m.view.number)
      this.accepted = undefined;
    if (this.change !== undefined && this.change.ballot.view <= m.view.number)
      this.change = undefined;
    for (const r of m.removed) {
      this.suspects.delete(r.id);
      this.o.host.removeMember(now, r.id, r.reason);
      this.events.push({ type: 'left', id: r.id, reason: r.reason, view: m.view.number });
    }
    for (const j of m.joined) {
      this.o.host.addMember(now, j.id);
      this.events.push({ type: 'joined', id: j.id, view: m.view.number });
      this.admitted.add(j.nonce);
      // Ids are never reused, so a session admits at most MAX_MIRRORS: more is a broken install, kept bounded.
      if (this.admitted.size > MAX_MIRRORS)
        this.admitted.delete(this.admitted.values().next().value ?? 0);
      const i = this.asks.findIndex((a) => a.nonce === j.nonce);
      if (i >= 0) this.asks.splice(i, 1);
      const joiner = j.via === self ? this.sponsored.get(j.nonce) : undefined;
      if (joiner !== undefined) {
        this.sponsored.delete(j.nonce);
        this.welcome(joiner.key, j, m.view);
      }
    }
    for (const id of this.suspects.keys())
      if (!m.view.members.some((x) => x.id === id)) this.suspects.delete(id);
    if (self !== undefined && !m.view.members.some((x) => x.id === self)) {
      this.excluded = true;
      this.events.push({ type: 'excluded', view: m.view.number });
    }
    this.reportedTo = undefined;
  }

  /** The board as this mirror holds it now goes to the joiner it let in, chunk by chunk. */
  private welcome(key: number, j: Admission, view: View): void {
    const bytes = this.o.host.takeTransfer();
    const chunks = chunkTransfer(bytes);
    const welcome: GroupMessage = {
      kind: 'welcome',
      nonce: j.nonce,
      id: j.id,
      view,
      chunks: chunks.length,
      bytes: bytes.length,
    };
    this.enqueue({ key }, welcome, () => {
      chunks.forEach((c, index) => {
        this.enqueue({ key }, { kind: 'chunk', nonce: j.nonce, index, bytes: c });
      });
    });
  }

  private onWelcome(
    now: number,
    from: LinkRef,
    m: Extract<GroupMessage, { kind: 'welcome' }>,
  ): void {
    const j = this.joining;
    if (j === undefined || j.nonce !== m.nonce || j.key !== from.key || this.selfId !== undefined) {
      this.counters.unexpected++;
      return;
    }
    if (!m.view.members.some((x) => x.id === m.id)) {
      this.counters.unexpected++;
      return;
    }
    this.selfId = m.id;
    this.current = m.view;
    this.o.host.welcomed(now, m.id, m.view, m.chunks, m.bytes);
  }

  /** A joiner holds the board: it is a member. */
  joined(now: number): void {
    const id = this.selfId;
    if (id === undefined || this.current === undefined || this.active) return;
    this.active = true;
    this.events.push({ type: 'member', id, view: this.current.number });
    this.answerDeferred(now);
    this.step(now);
  }

  /** The coordinator's and the member's next steps, then whatever is queued. */
  private step(now: number): void {
    if (this.current !== undefined && this.selfId !== undefined && this.active && !this.excluded) {
      this.report();
      if (this.coordinator() === this.selfId) this.coordinate(now);
      const a = this.accepted;
      if (
        a?.target !== undefined &&
        !a.flushedSent &&
        a.target.every((h) => this.o.host.holdsAll(h))
      ) {
        a.flushedSent = true;
        a.retryAt = now + RETRY_MS;
        if (a.ballot.coordinator === this.selfId) this.change?.flushed.add(a.ballot.coordinator);
        else this.enqueue({ id: a.ballot.coordinator }, { kind: 'flushed', ballot: a.ballot });
        if (a.ballot.coordinator === this.selfId) this.coordinate(now);
      }
      this.retryAnswer(now);
    }
    this.flush(now);
  }

  /**
   * A member that holds the target and has not seen the install within RETRY_MS says so again: the install may
   * have been dropped on arrival (the coordinator answers with it). Before that the coordinator's own retries
   * (proposal, target) drive the change.
   */
  private retryAnswer(now: number): void {
    const a = this.accepted;
    if (a === undefined || !a.flushedSent || now < a.retryAt) return;
    const c = a.ballot.coordinator;
    a.retryAt = now + RETRY_MS;
    // A coordinator we suspect is replaced by the next lowest, whose proposal supersedes this one.
    if (c === this.selfId || this.suspects.has(c) || this.queuedFor(c)) return;
    this.counters.retried++;
    this.enqueue({ id: c }, { kind: 'flushed', ballot: a.ballot });
  }

  /** An answer for a view this coordinator installed since (its install got lost on arrival): the install again. */
  private answerInstalled(from: MirrorId, ballot: Ballot): boolean {
    const last = this.lastInstall;
    if (last === undefined || ballot.view > last.view.number) return false;
    if (ballot.view === last.view.number && last.view.members.some((m) => m.id === from))
      this.enqueue({ id: from }, last);
    return true;
  }

  /** Suspicions and joiners' requests go to the coordinator (again whenever it changes). */
  private report(): void {
    const c = this.coordinator();
    if (c === undefined || c === this.selfId || c === this.reportedTo) return;
    this.reportedTo = c;
    for (const [id, reason] of this.suspects)
      this.enqueue({ id: c }, { kind: 'suspect', id, reason });
    for (const a of this.asks)
      if (a.via === this.selfId) this.enqueue({ id: c }, { kind: 'ask', ...a });
  }

  private coordinate(now: number): void {
    const view = this.current;
    const self = this.selfId;
    if (view === undefined || self === undefined) return;
    let c = this.change;
    // A member lost while a change is under way: the change starts over without it.
    if (c !== undefined && c.view.members.some((m) => this.suspects.has(m.id))) c = undefined;
    if (c === undefined) {
      c = this.propose(now, view, self);
      if (c === undefined) return;
    }
    const survivors = c.view.members.filter((m) => !c.joined.some((j) => j.id === m.id));
    if (c.target === undefined && survivors.every((m) => c.flushes.has(m.id))) {
      const held = c.removed.map((r) =>
        union(
          r.id,
          survivors.map((m) => c.flushes.get(m.id) ?? []),
        ),
      );
      c.target = held;
      c.retryAt = now + RETRY_MS;
      for (const m of survivors) {
        const msg: GroupMessage = { kind: 'target', ballot: c.ballot, held };
        if (m.id === self) this.handle(now, { key: 0, id: self, peer: '' }, msg);
        else this.enqueue({ id: m.id }, msg);
      }
    }
    if (c.target !== undefined && survivors.every((m) => c.flushed.has(m.id))) {
      const msg: Extract<GroupMessage, { kind: 'install' }> = {
        kind: 'install',
        ballot: c.ballot,
        view: c.view,
        removed: c.removed,
        joined: c.joined,
      };
      // Those leaving get none: their links close at the install.
      for (const m of survivors) if (m.id !== self) this.enqueue({ id: m.id }, msg);
      this.install(now, msg);
      return;
    }
    if (now >= c.retryAt) this.retryStep(now, c, survivors, self);
  }

  /** The step under way goes again to the survivors that have not answered it within RETRY_MS. */
  private retryStep(
    now: number,
    c: Change,
    survivors: readonly ViewMember[],
    self: MirrorId,
  ): void {
    c.retryAt = now + RETRY_MS;
    const msg: GroupMessage =
      c.target === undefined
        ? { kind: 'propose', ballot: c.ballot, view: c.view, removed: c.removed, joined: c.joined }
        : { kind: 'target', ballot: c.ballot, held: c.target };
    for (const m of survivors) {
      if (m.id === self || (c.target === undefined ? c.flushes : c.flushed).has(m.id)) continue;
      // What already waits for that link's window goes first; a retry behind it would only pile up.
      if (this.queuedFor(m.id)) continue;
      this.counters.retried++;
      this.enqueue({ id: m.id }, msg);
    }
  }

  private queuedFor(id: MirrorId): boolean {
    return this.queue.some((out) => 'id' in out.to && out.to.id === id);
  }

  /** Starts a view change if anything waits: the suspected leave, the asking join (fresh ids). */
  private propose(now: number, view: View, self: MirrorId): Change | undefined {
    const removed: Removal[] = view.members
      .filter((m) => this.suspects.has(m.id))
      .map((m) => ({ id: m.id, reason: this.suspects.get(m.id) ?? 'silent' }));
    const joined: Admission[] = [];
    const added: ViewMember[] = [];
    let nextId = view.nextId;
    // A joiner's ask stays until the install that admits it: a change that fails proposes it again.
    for (const a of [...this.asks]) {
      // Ids only grow: none is reused within the session, so no late packet of a dead mirror passes for a new one
      // (an object id's low bits and every command's origin name the mirror; 16 ids last a session of mirrors).
      if (nextId >= MAX_MIRRORS) {
        this.counters.joinsRefused++;
        this.asks.splice(this.asks.indexOf(a), 1);
        continue;
      }
      joined.push({ id: nextId, nonce: a.nonce, via: a.via });
      added.push({ id: nextId, address: a.address });
      nextId++;
    }
    if (removed.length === 0 && joined.length === 0) {
      this.change = undefined;
      return undefined;
    }
    this.attempt++;
    this.counters.attempts++;
    const members = [...view.members.filter((m) => !this.suspects.has(m.id)), ...added].sort(
      (a, b) => a.id - b.id,
    );
    const c: Change = {
      ballot: { view: view.number + 1, attempt: this.attempt, coordinator: self },
      view: { number: view.number + 1, members, nextId },
      removed,
      joined,
      flushes: new Map(),
      flushed: new Set(),
      target: undefined,
      retryAt: now + RETRY_MS,
    };
    this.change = c;
    const msg: GroupMessage = { kind: 'propose', ballot: c.ballot, view: c.view, removed, joined };
    for (const m of view.members) {
      if (m.id === self || this.suspects.has(m.id)) continue;
      this.enqueue({ id: m.id }, msg);
    }
    this.onPropose(now, { key: 0, id: self, peer: '' }, msg);
    return c;
  }

  private enqueue(to: Dest, m: GroupMessage, then?: () => void): void {
    this.queue.push({ to, bytes: encodeGroupMessage(m), ...(then === undefined ? {} : { then }) });
  }

  /** Sends what is queued, in order per destination; what a link cannot take now waits. */
  private flush(now: number): void {
    const blocked = new Set<string>();
    const keep: Outgoing[] = [];
    for (const out of this.queue) {
      const dest = 'id' in out.to ? `id${out.to.id}` : `key${out.to.key}`;
      // A message for a mirror the group dropped, or on a joiner's link that closed, is dropped with it.
      if ('id' in out.to ? !this.allows(out.to.id) : !this.o.host.linkOpen(out.to.key)) continue;
      if (blocked.has(dest)) {
        keep.push(out);
        continue;
      }
      const tag = this.nextTag++;
      if (this.o.host.send(now, out.to, out.bytes, tag)) this.inFlight.set(tag, out);
      else {
        blocked.add(dest);
        keep.push(out);
      }
    }
    this.queue.splice(0, this.queue.length, ...keep);
  }
}

/** Every seq of `origin` any of the reports holds. */
function union(origin: MirrorId, reports: readonly (readonly HeldSeqs[])[]): HeldSeqs {
  let upTo = 0;
  const above = new Set<number>();
  for (const r of reports)
    for (const h of r) {
      if (h.origin !== origin) continue;
      upTo = Math.max(upTo, h.upTo);
      for (const s of h.above) above.add(s);
    }
  return { origin, upTo, above: [...above].filter((s) => s > upTo).sort((a, b) => a - b) };
}
