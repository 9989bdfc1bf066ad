// One mirror of a group: its links (mirror-secret auth, clock offsets) carrying its CRIMP multicast and its
// membership messages, and the mirror-group clock (the lowest linked id's clock, by the measured offset) that
// command stamps are read on. A joiner's CRIMP starts once it has an id and the board (startGroup).
// Sans-IO: the driver passes time in and moves datagrams; knows nothing of sockets or of what payloads mean.
import type { PeerAddress } from '../net/address';
import type { CloseInfo } from '../net/close-reason';
import type { EndpointOptions, Transmit } from '../net/endpoint-types';
import type { Rng } from '../net/rng';
import type { CrimpConfig, DeliveryInfo, HeldSeqs, OriginateResult } from './crimp';
import { MirrorGroup } from './crimp';
import type { CrimpStats, MemberOutReason } from './crimp-stats';
import type { CrimpSeq } from './crimp-wire';
import type { MirrorId } from './mirror-id';
import type { LinkRef, LinkStreams, MirrorLinkCounters } from './mirror-links';
import { MirrorLinks } from './mirror-links';

export interface MirrorNodeOptions {
  /** Undefined for a joiner until the group gives it an id. */
  readonly self: MirrorId | undefined;
  /** Every mirror of the group, this one included (a joiner: none, until startGroup). */
  readonly members: readonly MirrorId[];
  /** Which ids a link may name, when membership decides (the members list when absent). */
  readonly allows?: (id: MirrorId) => boolean;
  readonly secret: string;
  readonly rng: Rng;
  readonly now: number;
  /** This mirror's clock (ms) at the driver's `now`: the identity in a process, skewed in tests. */
  readonly clock?: (now: number) => number;
  readonly crimp?: Partial<CrimpConfig>;
  readonly endpoint?: Partial<EndpointOptions>;
  /** A stream riding the links' packets (the participants' ghosts), and how often it may send packets of its own. */
  readonly streams?: LinkStreams;
  readonly streamIntervalMs?: number;
  readonly deliver: (
    origin: MirrorId,
    seq: CrimpSeq,
    payload: Uint8Array,
    info: DeliveryInfo,
  ) => void;
  readonly onMemberOut?: (id: MirrorId, reason: MemberOutReason, now: number) => void;
  readonly onLinkDown?: (now: number, id: MirrorId, info: CloseInfo) => void;
  /** Given: CRIMP only suspects a member; the group decides (membership.ts). */
  readonly onSuspect?: (id: MirrorId, reason: MemberOutReason, now: number) => void;
  readonly onGroup?: (now: number, from: LinkRef, bytes: Uint8Array) => void;
  readonly onGroupNotify?: (now: number, to: LinkRef, tag: number, delivered: boolean) => void;
  readonly onDialed?: (now: number, link: LinkRef) => void;
}

/** The mirror-group clock's reading and how far it may be off (ms). */
export interface GroupTime {
  readonly stamp: number;
  readonly error: number;
  /** The mirror whose clock the group's is. */
  readonly reference: MirrorId;
}

export interface MirrorNodeStats {
  /** Null for a joiner that does not hold the board yet. */
  readonly crimp: CrimpStats | null;
  readonly links: MirrorLinkCounters & { readonly failedAttempts: number };
  /** Per linked mirror: its clock minus ours (ms), the error bound and the drift (ppm). */
  readonly clocks: {
    readonly id: MirrorId;
    readonly offset: number;
    readonly error: number;
    readonly driftPpm: number;
  }[];
}

export class MirrorNode {
  readonly links: MirrorLinks;
  private crimp: MirrorGroup | undefined;
  /** The time of the call being handled: CRIMP's sends happen within one and the link needs it. */
  private now = 0;

  constructor(private readonly o: MirrorNodeOptions) {
    this.links = new MirrorLinks({
      self: o.self,
      secret: o.secret,
      now: o.now,
      members: o.allows ?? o.members,
      ...(o.clock === undefined ? {} : { clock: o.clock }),
      ...(o.endpoint === undefined ? {} : { endpoint: o.endpoint }),
      ...(o.streams === undefined ? {} : { streams: o.streams }),
      ...(o.streamIntervalMs === undefined ? {} : { streamIntervalMs: o.streamIntervalMs }),
      onCrimp: (now, from, bytes) => {
        if (this.crimp === undefined) this.links.counters.crimpUnnamed++;
        else this.crimp.receive(now, from, bytes);
      },
      onCrimpNotify: (now, to, tag, delivered) => this.crimp?.linkNotify(now, to, tag, delivered),
      ...(o.onLinkDown === undefined ? {} : { onLinkDown: o.onLinkDown }),
      ...(o.onGroup === undefined ? {} : { onGroup: o.onGroup }),
      ...(o.onGroupNotify === undefined ? {} : { onGroupNotify: o.onGroupNotify }),
      ...(o.onDialed === undefined ? {} : { onDialed: o.onDialed }),
    });
    if (o.self !== undefined) this.startGroup(o.now, o.self, o.members, []);
  }

  /** This mirror's CRIMP. A joiner has none until startGroup. */
  get group(): MirrorGroup {
    if (this.crimp === undefined) throw new Error('this mirror has not joined its group yet');
    return this.crimp;
  }

  get started(): boolean {
    return this.crimp !== undefined;
  }

  /** CRIMP starts: a founder's at once, a joiner's once it holds the board (baseline: what came with it). */
  startGroup(
    now: number,
    self: MirrorId,
    members: readonly MirrorId[],
    baseline: readonly HeldSeqs[],
  ): void {
    if (this.crimp !== undefined) throw new Error('CRIMP started already');
    const o = this.o;
    this.crimp = new MirrorGroup({
      self,
      members,
      rng: o.rng,
      now,
      baseline,
      ...(o.crimp === undefined ? {} : { config: o.crimp }),
      // Only the send's own call knows the time; the group calls it from within a call that passed it.
      send: (to, bytes, tag) => this.links.sendCrimp(this.now, to, bytes, tag),
      deliver: o.deliver,
      ...(o.onMemberOut === undefined ? {} : { onMemberOut: o.onMemberOut }),
      ...(o.onSuspect === undefined ? {} : { onSuspect: o.onSuspect }),
    });
  }

  connect(now: number, to: PeerAddress): void {
    this.now = now;
    this.links.connect(now, to);
  }

  originate(now: number, payload: Uint8Array): OriginateResult {
    this.now = now;
    return this.group.originate(now, payload);
  }

  /** The mirror-group clock: the clock of the lowest id among this mirror and its linked mirrors. */
  groupTime(now: number): GroupTime {
    const local = this.links.localClock(now);
    let reference = this.crimp?.self ?? Infinity;
    for (const id of this.links.linked()) if (id < reference) reference = id;
    if (reference === this.crimp?.self) return { stamp: local, error: 0, reference };
    const e = this.links.offsetTo(now, reference);
    if (e === undefined) return { stamp: local, error: Infinity, reference };
    return { stamp: local + e.offset, error: e.error, reference };
  }

  handleDatagram(
    now: number,
    side: 'listener' | 'dialer',
    from: PeerAddress,
    bytes: Uint8Array,
  ): void {
    this.now = now;
    this.links.handleDatagram(now, side, from, bytes);
  }

  handleTimeout(now: number): void {
    this.now = now;
    if (this.links.nextTimeout() <= now) this.links.handleTimeout(now);
    if (this.crimp !== undefined && this.crimp.nextTimeout() <= now) this.crimp.tick(now);
  }

  nextTimeout(): number {
    return Math.min(this.links.nextTimeout(), this.crimp?.nextTimeout() ?? Infinity);
  }

  pollTransmit(side: 'listener' | 'dialer'): Transmit | undefined {
    return this.links.pollTransmit(side);
  }

  /** The smoothed round trip to a member of the group (ms), once CRIMP has measured one (no stats snapshot). */
  rttTo(id: MirrorId): number | undefined {
    return this.crimp?.rttTo(id);
  }

  stats(now: number): MirrorNodeStats {
    return {
      crimp: this.crimp?.stats() ?? null,
      links: {
        ...this.links.counters,
        failedAttempts: this.links.listener.counters.failedAttempts,
      },
      clocks: this.clocks(now),
    };
  }

  /** Per linked mirror: its clock's offset from ours (no stats snapshot: a runner reads these after every datagram). */
  clocks(now: number): MirrorNodeStats['clocks'] {
    return this.links.linked().flatMap((id) => {
      const e = this.links.offsetTo(now, id);
      return e === undefined
        ? []
        : [{ id, offset: e.offset, error: e.error, driftPpm: e.drift * 1e6 }];
    });
  }
}
