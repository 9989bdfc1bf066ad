// One mirror of a session, whole: its node (mirror links, clock offsets, CRIMP multicast) carrying its clients'
// commands to the group, its trailing state synchronizer executing everyone's on the mirror-group clock, and its
// presence ghosting its clients' pointers and drags to the group beside TSS, never through it. A
// client's command is stamped and numbered here (the ingress mirror), executed at once on the leading state and
// multicast; a command from another mirror is executed as it arrives, in whatever order, TSS putting it in its
// place. What the host passes on to its clients is polled: the leading state's changes (rollbacks included) and
// what each of its clients must be told. Sans-IO: time comes in as numbers, datagrams through the driver. Knows
// nothing of sessions, sockets or clients' connections.
import type { ObjectId, PeerId } from '../../shared/board';
import type { BoardState } from '../board';
import type { CommandOp, MirrorCommand } from './command';
import { allocateObjectId } from './command';
import { decodeCommand, encodeCommand, isCommand } from './command-codec';
import type { MirrorId } from './mirror-id';
import type { MirrorNodeOptions } from './mirror-node';
import { MirrorNode } from './mirror-node';
import { MirrorPresence } from './mirror-presence';
import type { TraceRecord } from './trace';
import type { TssOutput } from './tss';
import { TrailingStateSync } from './tss';

/** How often the trailing states move on while nothing else happens (ms): their delays' resolution. */
export const TSS_STEP_MS = 10;

export interface MirrorOptions extends Omit<MirrorNodeOptions, 'deliver' | 'streams'> {
  /** The trailing states' delays (ms, increasing): the last must exceed every transit between mirrors. */
  readonly delays: readonly number[];
  /** The board every mirror of the group starts from (the same everywhere). */
  readonly board?: BoardState;
  /** Each command as it reaches this mirror (its own at their stamp): a trace's records. */
  readonly record?: (r: TraceRecord) => void;
}

export interface MirrorCounters {
  /** Payloads from the group that were no command (counted, dropped). */
  undecodable: number;
  /** Commands naming another origin than the mirror that multicast them (counted, dropped). */
  forged: number;
  /** Own commands CRIMP would not take (window or buffer full, too large): refused to the client. */
  unsent: number;
}

export type SubmitResult =
  | { readonly ok: true; readonly command: MirrorCommand }
  | { readonly ok: false; readonly reason: 'too-large' | 'window-full' | 'buffer-full' };

export class Mirror {
  readonly self: MirrorId;
  readonly node: MirrorNode;
  readonly tss: TrailingStateSync;
  /**
   * The group's participants: set and remove this mirror's clients' live state (pointer, tool, drag, profile)
   * and poll the other mirrors' as they appear, change and go.
   */
  readonly presence: MirrorPresence;
  readonly counters: MirrorCounters = { undecodable: 0, forged: 0, unsent: 0 };
  private seq = 0;
  private lastStamp = 0;
  private lastId = 0;
  /** The group clock as this mirror last read it: never goes back (an offset estimate may). */
  private groupNow = -Infinity;
  private steppedAt = -Infinity;
  private now: number;
  private readonly record: ((r: TraceRecord) => void) | undefined;

  constructor(o: MirrorOptions) {
    this.self = o.self;
    this.now = o.now;
    this.record = o.record;
    this.tss = new TrailingStateSync({ self: o.self, delays: o.delays }, o.board);
    this.presence = new MirrorPresence(o.self);
    this.node = new MirrorNode({
      ...o,
      streams: this.presence,
      deliver: (origin, _seq, payload) => {
        this.onPayload(origin, payload);
      },
    });
  }

  /** The mirror-group clock now (ms), never decreasing. */
  groupTime(now: number): number {
    this.now = Math.max(this.now, now);
    this.groupNow = Math.max(this.groupNow, this.node.groupTime(this.now).stamp);
    return this.groupNow;
  }

  /**
   * The id the next create of one of this mirror's clients takes: above the leading board's counter, with this
   * mirror in its low bits (command.ts), so no other mirror takes it whatever order the group executes creates in.
   */
  newObjectId(): ObjectId | undefined {
    const id = allocateObjectId(this.self, this.tss.leading.nextId, this.lastId);
    if (id !== undefined) this.lastId = id;
    return id;
  }

  /**
   * A command of one of this mirror's clients: stamped on the group clock (never before this mirror's last
   * stamp), executed on the leading state at once, and multicast to the group. What the client is told comes out
   * of poll(), like everything else, possibly revised by a later rollback.
   */
  submit(now: number, client: PeerId, op: CommandOp): SubmitResult {
    const stamp = Math.max(this.lastStamp, Math.floor(this.groupTime(now)));
    const command: MirrorCommand = { origin: this.self, seq: this.seq, stamp, client, op };
    const sent = this.node.originate(this.now, encodeCommand(command));
    if (sent.kind === 'refused') {
      this.counters.unsent++;
      return { ok: false, reason: sent.reason };
    }
    this.seq++;
    this.lastStamp = stamp;
    this.record?.({ arrival: stamp, command });
    this.tss.receive(stamp, command);
    return { ok: true, command };
  }

  /** The next thing for the host: the leading state's changes, its clients' refusals and grants, chat. */
  poll(): TssOutput | undefined {
    return this.tss.poll();
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
    this.step(now);
  }

  nextTimeout(): number {
    return Math.min(this.node.nextTimeout(), this.steppedAt + TSS_STEP_MS);
  }

  pollTransmit(side: 'listener' | 'dialer'): ReturnType<MirrorNode['pollTransmit']> {
    return this.node.pollTransmit(side);
  }

  /** The trailing states move on to the group clock's now. */
  private step(now: number): void {
    if (now < this.steppedAt + TSS_STEP_MS && now >= this.steppedAt) return;
    this.steppedAt = now;
    this.tss.advance(this.groupTime(now));
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
    const arrival = this.groupTime(this.now);
    if (this.tss.receive(arrival, command)) this.record?.({ arrival, command });
  }
}
