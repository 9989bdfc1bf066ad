// One mirror of a session, whole: its node (mirror links, clock offsets, CRIMP multicast) carrying its clients'
// commands to the group, its trailing state synchronizer executing everyone's on the mirror-group clock, and its
// presence ghosting its clients' pointers and drags to the group beside TSS, never through it. A
// client's command is stamped and numbered here (the ingress mirror), executed at once on the leading state and
// multicast; a command from another mirror is executed as it arrives, in whatever order, TSS putting it in its
// place. What the host passes on to its clients is polled: the leading state's changes (rollbacks included) and
// what each of its clients must be told. With membership (group option) the group is not fixed: a joiner dials one
// member, is given an id and the board, and starts; a mirror that stops or goes silent is removed by agreement
// (membership.ts); who is in comes out as events. Sans-IO: time comes in as numbers, datagrams through the driver.
// Knows nothing of sessions, sockets or clients' connections.
import type { ObjectId, PeerId } from '../../shared/board';
import type { PeerAddress } from '../net/address';
import type { BoardState } from '../board';
import type { BoardTransfer } from './board-transfer';
import {
  decodeTransfer,
  encodeTransfer,
  isTransferDecodeError,
  TransferIn,
} from './board-transfer';
import type { CommandOp, MirrorCommand } from './command';
import { allocateObjectId } from './command';
import { decodeCommand, encodeCommand, isCommand } from './command-codec';
import type { LeaveReason, View } from './group-wire';
import type { MembershipEvent, MembershipStats } from './membership';
import { JOIN_GRACE_MS, Membership } from './membership';
import type { MirrorId } from './mirror-id';
import type { MirrorNodeOptions } from './mirror-node';
import { MirrorNode } from './mirror-node';
import type { LinkStreams } from './mirror-links';
import { MirrorPresence } from './mirror-presence';
import { stackLinkStreams } from './stacked-streams';
import type { TraceRecord } from './trace';
import type { TssOutput } from './tss';
import { TrailingStateSync } from './tss';

/** How often the trailing states move on while nothing else happens (ms): their delays' resolution. */
export const TSS_STEP_MS = 10;

/** A group whose membership changes by agreement: a founder's view, or a joiner's listening port. */
export type MirrorMembership =
  { readonly view: View } | { readonly join: { readonly listenPort: number } };

export interface MirrorOptions extends Omit<
  MirrorNodeOptions,
  'deliver' | 'streams' | 'allows' | 'onSuspect' | 'onGroup' | 'onGroupNotify' | 'onDialed'
> {
  /** The trailing states' delays (ms, increasing): the last must exceed every transit between mirrors. */
  readonly delays: readonly number[];
  /** The board every mirror of the group starts from (the same everywhere). */
  readonly board?: BoardState;
  /** Each command as it reaches this mirror (its own at their stamp): a trace's records. */
  readonly record?: (r: TraceRecord) => void;
  /** Absent: the group is the fixed `members` list, a member out is out here alone. */
  readonly group?: MirrorMembership;
  /**
   * Streams besides the participants' that ride each link (the mirrored host's images), after them. Every mirror
   * of a group must stack the same ones: the sections are told apart only by their order.
   */
  readonly linkStreams?: readonly LinkStreams[];
}

export interface MirrorCounters {
  /** Payloads from the group that were no command (counted, dropped). */
  undecodable: number;
  /** Commands naming another origin than the mirror that multicast them (counted, dropped). */
  forged: number;
  /** Own commands CRIMP would not take (window or buffer full, too large): refused to the client. */
  unsent: number;
  /** Board transfers that did not decode (the joiner stays out; the driver may start it again). */
  badTransfer: number;
}

export type SubmitResult =
  | {
      readonly ok: true;
      readonly command: MirrorCommand;
      /** Its CRIMP seq: the command outlives this mirror once `heldElsewhere()` reaches it. */
      readonly sent: number;
    }
  | {
      readonly ok: false;
      readonly reason: 'too-large' | 'window-full' | 'buffer-full' | 'joining' | 'excluded';
    };

export class Mirror {
  readonly node: MirrorNode;
  /**
   * The group's participants: set and remove this mirror's clients' live state (pointer, tool, drag, profile)
   * and poll the other mirrors' as they appear, change and go.
   */
  readonly presence: MirrorPresence;
  /** Present when the group's membership changes by agreement. */
  readonly membership: Membership | undefined;
  readonly counters: MirrorCounters = { undecodable: 0, forged: 0, unsent: 0, badTransfer: 0 };
  private id: MirrorId | undefined;
  private sync: TrailingStateSync | undefined;
  /** A joiner's board coming in, and then what it took until its clock reads the group's. */
  private transfer: TransferIn | undefined;
  private taken: BoardTransfer | undefined;
  /** Deliveries that came before this joiner could stamp their arrival on the group clock. */
  private readonly early: MirrorCommand[] = [];
  private excluded = false;
  private readonly delays: readonly number[];
  /** The group clock's reference mirror, the correction added to its clock, and the last reading (ms). */
  private readonly clock: { reference: MirrorId | undefined; correction: number; read: number } = {
    reference: undefined,
    correction: 0,
    read: -Infinity,
  };
  private seq = 0;
  private lastStamp = 0;
  private lastId = 0;
  /** The group clock as this mirror last read it: never goes back (an offset estimate may). */
  private groupNow = -Infinity;
  private steppedAt = -Infinity;
  private now: number;
  private readonly record: ((r: TraceRecord) => void) | undefined;

  constructor(o: MirrorOptions) {
    this.id = o.self;
    this.now = o.now;
    this.record = o.record;
    this.delays = o.delays;
    const group = o.group;
    if (group !== undefined && 'view' in group && o.self === undefined)
      throw new RangeError('a founder needs its id');
    const members =
      group === undefined ? o.members : 'view' in group ? group.view.members.map((m) => m.id) : [];
    if (o.self !== undefined)
      this.sync = new TrailingStateSync({ self: o.self, delays: o.delays }, o.board);
    this.membership =
      group === undefined
        ? undefined
        : new Membership({
            ...('view' in group && o.self !== undefined
              ? { self: o.self, view: group.view }
              : { listenPort: 'join' in group ? group.join.listenPort : 0 }),
            rng: o.rng,
            host: this.membershipHost(),
          });
    this.presence = new MirrorPresence(o.self);
    const m = this.membership;
    this.node = new MirrorNode({
      ...o,
      members,
      streams:
        o.linkStreams === undefined || o.linkStreams.length === 0
          ? this.presence
          : stackLinkStreams([this.presence, ...o.linkStreams]),
      deliver: (origin, _seq, payload) => {
        this.onPayload(origin, payload);
      },
      ...(m === undefined
        ? {}
        : {
            // Before its welcome a joiner names whoever it dialled; after, the view decides.
            allows: (id: MirrorId) => m.view === undefined || m.allows(id),
            onSuspect: (id: MirrorId, reason: LeaveReason, now: number) => {
              m.suspect(now, id, reason);
            },
            onGroup: (now, from, bytes) => {
              m.receive(now, from, bytes);
            },
            onGroupNotify: (now, _to, tag, delivered) => {
              m.notify(now, tag, delivered);
            },
            onDialed: (now, link) => {
              m.dialed(now, link);
            },
            onLinkDown: (now, id, info) => {
              o.onLinkDown?.(now, id, info);
              // Told to leave by the group (it went on without us), or a member stopped: the group decides.
              if (info.byPeer && info.reason === 'kicked') this.excluded = true;
              else
                m.suspect(now, id, info.byPeer && info.reason === 'closed' ? 'closed' : 'silent');
            },
          }),
    });
  }

  /** This mirror's id: a joiner has none until the group gives it one. */
  get self(): MirrorId | undefined {
    return this.id;
  }

  /** The trailing state synchronizer: a joiner has one once it holds the board and reads the group clock. */
  get tss(): TrailingStateSync {
    if (this.sync === undefined) throw new Error('this mirror has not joined its group yet');
    return this.sync;
  }

  /** Serving: a founder at once, a joiner once it has the board and reads the group clock; not once excluded. */
  get ready(): boolean {
    return this.sync !== undefined && !this.excluded;
  }

  /** A joiner dials one member of the group (its mirror secret is the group's) and asks to be let in. */
  join(now: number, member: PeerAddress): void {
    if (this.membership?.view !== undefined || this.membership === undefined)
      throw new Error('only a joiner joins');
    this.node.connect(now, member);
  }

  /** Stops: every link is closed, so the others remove this mirror at once rather than after a silence. */
  close(now: number): void {
    this.now = Math.max(this.now, now);
    this.excluded = true;
    this.membership?.stop();
    this.node.links.closeAll(now);
  }

  /** Who is in as this mirror sees it (undefined when the group is fixed). */
  groupStats(): MembershipStats | undefined {
    return this.membership?.stats();
  }

  /** Who is in: joined, left (with reason), this mirror's own start, its exclusion; the view number with each. */
  pollGroupEvent(): MembershipEvent | undefined {
    return this.membership?.pollEvent();
  }

  /** The board, as a joiner is given it: the last trailing state, what follows it, what CRIMP holds. */
  private takeTransfer(): Uint8Array {
    const group = this.node.group;
    return encodeTransfer({
      clock: this.clock.correction,
      cut: this.tss.finalCut(),
      held: group.originIds().map((origin) => group.held(origin)),
    });
  }

  private membershipHost(): ConstructorParameters<typeof Membership>[0]['host'] {
    return {
      send: (now, to, bytes, tag) => this.node.links.sendGroup(now, to, bytes, tag),
      linkOpen: (key) => this.node.links.hasLink(key),
      freeze: (origin) => {
        this.node.group.freeze(origin);
      },
      target: (now, held) => {
        this.node.group.target(now, held);
      },
      holdsAll: (held) => this.node.group.holdsAll(held),
      held: (origin, maxAbove) => this.node.group.held(origin, maxAbove),
      addMember: (now, id) => {
        if (this.node.started) this.node.group.addMember(now, id, JOIN_GRACE_MS);
      },
      removeMember: (now, id) => {
        this.node.group.removeMember(now, id);
        this.node.links.closeLink(now, id, 'kicked');
      },
      takeTransfer: () => this.takeTransfer(),
      welcomed: (now, id, view, chunks, bytes) => {
        this.id = id;
        this.presence.assignSelf(id);
        this.transfer = new TransferIn(bytes, chunks);
        this.node.links.assignSelf(now, id);
        const linked = this.node.links.linked();
        for (const m of view.members)
          if (m.id !== id && !linked.includes(m.id)) this.node.connect(now, m.address);
      },
      chunk: (now, index, bytes) => {
        this.onChunk(now, index, bytes);
      },
    };
  }

  private onChunk(now: number, index: number, bytes: Uint8Array): void {
    const t = this.transfer;
    if (t === undefined || !t.add(index, bytes) || !t.complete) return;
    this.transfer = undefined;
    const taken = decodeTransfer(t.result());
    const id = this.id;
    const view = this.membership?.view;
    if (isTransferDecodeError(taken) || id === undefined || view === undefined) {
      this.counters.badTransfer++;
      return;
    }
    this.taken = taken;
    this.node.startGroup(
      now,
      id,
      view.members.map((m) => m.id),
      taken.held,
    );
    this.startWhenClocked(now);
  }

  /**
   * A joiner's synchronizer starts from the board it took once its clock reads the group's (it is linked to the
   * view's lowest id, the clock's reference) and its CRIMP has caught up with every member: only then can it
   * stamp arrivals and move its trailing states.
   */
  private startWhenClocked(now: number): void {
    const taken = this.taken;
    const id = this.id;
    const reference = this.membership?.view?.members[0]?.id;
    if (taken === undefined || id === undefined || reference === undefined) return;
    this.now = Math.max(this.now, now);
    const t = this.node.groupTime(now);
    if (t.reference !== reference || !Number.isFinite(t.error)) return;
    // What was in flight when the board was taken must be here before the trailing states move past its stamps:
    // a command the giver lacked then, stamped before its last trailing state, would be late here alone.
    if (!this.node.group.caughtUp()) return;
    this.taken = undefined;
    const { cut } = taken;
    this.clock.reference = reference;
    this.clock.correction = taken.clock;
    this.sync = new TrailingStateSync({ self: id, delays: this.delays, start: cut }, cut.board);
    const start = cut.final + (this.delays[this.delays.length - 1] ?? 0);
    for (const c of cut.commands) this.record?.({ arrival: start, command: c });
    this.groupNow = Math.max(this.groupNow, start);
    // Received at the start's time, before the trailing states move on: each goes in its place.
    for (const c of this.early.splice(0))
      if (this.sync.receive(start, c)) this.record?.({ arrival: start, command: c });
    this.membership?.joined(now);
  }

  /**
   * The mirror-group clock now (ms), never decreasing. When the mirror whose clock it is leaves, the next lowest's
   * takes over from the reading the old one had reached (a correction every survivor computes alike, to within
   * their offset estimates' error), so the trailing states neither jump ahead nor stall; a joiner is given the
   * correction with the board.
   */
  groupTime(now: number): number {
    this.now = Math.max(this.now, now);
    const t = this.node.groupTime(this.now);
    if (!Number.isFinite(t.error)) return this.groupNow;
    if (t.reference !== this.clock.reference) {
      const before = this.clock.reference;
      if (before !== undefined && t.reference > before && Number.isFinite(this.clock.read))
        this.clock.correction = this.clock.read - t.stamp;
      else if (before === undefined || t.reference < before) this.clock.correction = 0;
      this.clock.reference = t.reference;
    }
    this.clock.read = t.stamp + this.clock.correction;
    this.groupNow = Math.max(this.groupNow, this.clock.read);
    return this.groupNow;
  }

  /**
   * The id the next create of one of this mirror's clients takes: above the leading board's counter, with this
   * mirror in its low bits (command.ts), so no other mirror takes it whatever order the group executes creates in.
   */
  newObjectId(): ObjectId | undefined {
    if (this.id === undefined) return undefined;
    const id = allocateObjectId(this.id, this.tss.leading.nextId, this.lastId);
    if (id !== undefined) this.lastId = id;
    return id;
  }

  /**
   * A command of one of this mirror's clients: stamped on the group clock (never before this mirror's last
   * stamp), executed on the leading state at once, and multicast to the group. What the client is told comes out
   * of poll(), like everything else, possibly revised by a later rollback.
   */
  submit(now: number, client: PeerId, op: CommandOp): SubmitResult {
    if (this.id === undefined || this.sync === undefined) return { ok: false, reason: 'joining' };
    if (this.excluded) return { ok: false, reason: 'excluded' };
    const stamp = Math.max(this.lastStamp, Math.floor(this.groupTime(now)));
    const command: MirrorCommand = { origin: this.id, seq: this.seq, stamp, client, op };
    const sent = this.node.originate(this.now, encodeCommand(command));
    if (sent.kind === 'refused') {
      this.counters.unsent++;
      return { ok: false, reason: sent.reason };
    }
    this.seq++;
    this.lastStamp = stamp;
    this.record?.({ arrival: stamp, command });
    this.tss.receive(stamp, command);
    return { ok: true, command, sent: sent.seq };
  }

  /**
   * This mirror's commands another live mirror holds, through this CRIMP seq (all it sent when it is alone): what a
   * host may acknowledge to its clients, since a crash here no longer loses them.
   */
  heldElsewhere(): number {
    return this.node.started ? this.node.group.heldElsewhere() : 0;
  }

  /** No other mirror is in the group, none is joining, and this one serves. */
  get alone(): boolean {
    if (this.id === undefined || this.sync === undefined || this.excluded) return false;
    const m = this.membership;
    if (m === undefined) return this.node.links.linked().length === 0;
    return !m.busy && m.view?.members.length === 1;
  }

  /**
   * A mirror alone in its group starts over from `board` (a file opened into its session): nothing else holds or
   * will send a command, so its states simply become the board; a mirror that joins later takes it. False, and
   * nothing changes, when another mirror is in or joining: a group's board changes only by commands.
   */
  restartAlone(board: BoardState): boolean {
    const id = this.id;
    if (!this.alone || id === undefined) return false;
    this.sync = new TrailingStateSync({ self: id, delays: this.delays }, board);
    return true;
  }

  /** The next thing for the host: the leading state's changes, its clients' refusals and grants, chat. */
  poll(): TssOutput | undefined {
    return this.sync?.poll();
  }

  handleDatagram(
    now: number,
    side: 'listener' | 'dialer',
    from: Parameters<MirrorNode['handleDatagram']>[2],
    bytes: Uint8Array,
  ): void {
    this.now = Math.max(this.now, now);
    this.node.handleDatagram(now, side, from, bytes);
    this.step(now);
  }

  handleTimeout(now: number): void {
    this.now = Math.max(this.now, now);
    if (this.node.nextTimeout() <= now) this.node.handleTimeout(now);
    this.membership?.tick(now);
    this.step(now);
  }

  nextTimeout(): number {
    // Membership's queue waits for a link's window, a joiner for its clock: they are looked at every step.
    const waiting =
      this.sync !== undefined || this.taken !== undefined || this.membership?.busy === true;
    return Math.min(this.node.nextTimeout(), waiting ? this.steppedAt + TSS_STEP_MS : Infinity);
  }

  pollTransmit(side: 'listener' | 'dialer'): ReturnType<MirrorNode['pollTransmit']> {
    return this.node.pollTransmit(side);
  }

  /** The trailing states move on to the group clock's now. */
  private step(now: number): void {
    if (now < this.steppedAt + TSS_STEP_MS && now >= this.steppedAt) return;
    this.steppedAt = now;
    if (this.taken !== undefined) this.startWhenClocked(now);
    this.membership?.tick(now);
    if (this.sync !== undefined) this.sync.advance(this.groupTime(now));
  }

  private onPayload(origin: MirrorId, payload: Uint8Array): void {
    const command = decodeCommand(payload);
    if (!isCommand(command)) {
      this.counters.undecodable++;
      return;
    }
    // CRIMP names the origin of what it delivers: a command claiming another is forged (or a broken mirror's).
    if (command.origin !== origin) {
      this.counters.forged++;
      return;
    }
    if (this.sync === undefined) {
      this.early.push(command);
      return;
    }
    const arrival = this.groupTime(this.now);
    if (this.sync.receive(arrival, command)) this.record?.({ arrival, command });
  }
}
