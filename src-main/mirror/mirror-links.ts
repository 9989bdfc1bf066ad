// One mirror's links to the other mirrors of its group: sealed notify connections (net/ Endpoint) keyed by the
// mirror secret under the mirror channel label, so only the group's mirrors get in and a peer's join code never
// does; each link names its mirror (HELLO), carries CRIMP datagrams unreliably (with the notify protocol's
// verdicts passed back as hints) and clock probes, and keeps an NTP-style offset to its mirror. Links also carry
// membership messages (group-wire.ts), on a joiner's link before it has an id too. A stream manager given by the
// owner (the participants' ghosts) rides the link's packets after the messages, and sends packets of its own as
// soon as it has a change, at most every streamIntervalMs and within its byte budget (stream-budget.ts). A mirror listens on one endpoint and dials on another (an Endpoint is a host or a
// client). Sans-IO; knows nothing of sockets, of what CRIMP, membership messages or the stream carry, or of
// sessions.
import { randomBytes } from 'node:crypto';
import type { PeerAddress } from '../net/address';
import { BitReader, DecodeError } from '../net/bitstream';
import type { BitWriter } from '../net/bitstream';
import type { CloseInfo } from '../net/close-reason';
import type { Connection, ConnectionHandler } from '../net/connection';
import { Endpoint } from '../net/endpoint';
import type { EndpointOptions, Transmit } from '../net/endpoint-types';
import { joinCodeStrengthBits } from '../net/join-code';
import type { ByteAndPacketBuckets } from '../net/stream/buckets';
import type { StreamManager } from '../net/stream/manager';
import { ProtocolError } from '../net/stream/manager';
import { SEAL_OVERHEAD } from '../net/crypto';
import { UDP_IPV4_OVERHEAD } from '../net/stats';
import type { ClockEstimate } from './clock-offset';
import { ClockOffset } from './clock-offset';
import { streamBudget } from './stream-budget';
import type { LinkMessage } from './link-wire';
import {
  isLinkDecodeError,
  linkMessageBits,
  readLinkMessages,
  readLinkSectionFlag,
  writeLinkEnd,
  writeLinkMessage,
  writeLinkSectionFlag,
} from './link-wire';
import type { MirrorId } from './mirror-id';
import { assertMirrorId } from './mirror-id';

/** A mirror secret is machine-made and never typed: well past what an online guesser could try. */
export const MIRROR_SECRET_MIN_BITS = 100;
const SECRET_SYMBOLS = 26;

/** A fresh mirror secret: 26 Crockford base32 symbols (130 bits), for the group's mirrors only. */
export function generateMirrorSecret(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  // 256 is a multiple of 32: masking each byte to 5 bits keeps every symbol uniform.
  return Array.from(randomBytes(SECRET_SYMBOLS), (b) => alphabet.charAt(b & 31)).join('');
}

/** The CPace channel label of mirror links: a join code run under the session's label can't match it. */
export const MIRROR_CHANNEL = 'ghostboard/mirror';
/**
 * 2: membership messages (the kind field widened to 3 bits). 3: a mirrored host's stream section stacks the
 * participants' ghosts and its images (stacked-streams.ts), each after a presence bit.
 */
export const MIRROR_LINK_VERSION = 3;

/** What a link packet carried, told back when the connection notifies it. */
export interface LinkRecord {
  readonly hello: boolean;
  /** The CRIMP datagram's tag, if it carried one. */
  readonly crimpTag?: number;
  /** The membership message's tag, if it carried one. */
  readonly groupTag?: number;
  /** What the link's stream wrote into it, if anything. */
  readonly stream?: unknown;
}

/** Where a membership message goes: a named link's mirror, or a link by its key (a joiner's, before its id). */
export type LinkDest = { readonly id: MirrorId } | { readonly key: number };

/** A link as membership sees it: a number for as long as it is open, and its mirror once named. */
export interface LinkRef {
  readonly key: number;
  readonly id: MirrorId | undefined;
  /** The other side's address key ("1.2.3.4:5"). */
  readonly peer: string;
}

/**
 * A stream riding every named link's packets after its messages (the participants' ghosts, mirror-presence.ts):
 * one manager per link, from the link's naming to its close.
 */
export interface LinkStreams {
  /** The link to mirror `id` is named: the manager that writes our section and reads theirs. */
  open(now: number, id: MirrorId): StreamManager<unknown>;
  /** That link closed: its manager is done. */
  close(now: number, id: MirrorId, info: CloseInfo): void;
}

export interface MirrorLinksOptions {
  /** Undefined for a joiner until the group gives it an id (assignSelf): it sends no HELLO till then. */
  readonly self: MirrorId | undefined;
  /** The group's secret: the PAKE's password under MIRROR_CHANNEL. */
  readonly secret: string;
  readonly now: number;
  /** Ids a link may name (the group's mirrors, or a test of the current view); any id but ours when absent. */
  readonly members?: readonly MirrorId[] | ((id: MirrorId) => boolean);
  /** This mirror's clock (ms) at the driver's `now`: the identity in a process, skewed in tests. */
  readonly clock?: (now: number) => number;
  /** Probe interval once a link's offset has its first samples (ms), and the faster one before. */
  readonly probeMs?: number;
  readonly firstProbesMs?: number;
  readonly endpoint?: Partial<EndpointOptions>;
  readonly streams?: LinkStreams;
  /** A link's stream sends a packet of its own at most this often (ms); it also rides every other packet. */
  readonly streamIntervalMs?: number;
  readonly onCrimp: (now: number, from: MirrorId, bytes: Uint8Array) => void;
  readonly onCrimpNotify?: (now: number, to: MirrorId, tag: number, delivered: boolean) => void;
  readonly onLinkUp?: (now: number, id: MirrorId) => void;
  readonly onLinkDown?: (now: number, id: MirrorId, info: CloseInfo) => void;
  /** A membership message (group-wire.ts) on any link, named or not. */
  readonly onGroup?: (now: number, from: LinkRef, bytes: Uint8Array) => void;
  readonly onGroupNotify?: (now: number, to: LinkRef, tag: number, delivered: boolean) => void;
  /** A dial of ours connected (the link is not named yet). */
  readonly onDialed?: (now: number, link: LinkRef) => void;
}

export interface MirrorLinkCounters {
  /** Our dials refused for a wrong secret (the other side ran CPace with another password or label). */
  wrongSecret: number;
  /** Other dial failures (unreachable, full, …). */
  dialFailed: number;
  /** Links closed for naming an id that is ours, another link's or not a member. */
  badId: number;
  /** Link packets that did not parse: the link is closed. */
  malformed: number;
  /** CRIMP datagrams dropped: no link to that mirror, its window full, or from a link not yet named. */
  crimpUnsent: number;
  crimpUnnamed: number;
  /** Clock answers to no probe of ours. */
  strayAnswers: number;
  /** Stream sections that did not parse, or came on a link not yet named: the link is closed. */
  streamMalformed: number;
}

const MAX_OUTSTANDING_PROBES = 4;
const FIRST_PROBES = 8;
const HELLO_RETRY_MS = 200;
/**
 * A change waits at most this long for the stream's next packet of its own (ms). Four users' pointers at 60 Hz on
 * their own phases change 240 times a second, 4.2 ms apart on average: a packet for nearly every change, each
 * leaving at once. At 10 ms (before) a change waited 4.3 ms (median) here, of a between-sites pointer's 77 in the
 * simulator (mirrored/site-latency.sim.test.ts); now none.
 */
const STREAM_INTERVAL_MS = 2;
/**
 * The stream's budget: what a full packet every 10 ms took (100 x 1,228 B, about 1 Mbit/s). A few users' pointers
 * spend a fraction of it (a packet per change: 13.7 KB/s a link at 12 users, against 7.1 at one every 10 ms); a
 * crowd's fill it, and its packets then go full and about as often as before.
 */
const STREAM_BYTES_PER_SECOND = 100 * (1200 + UDP_IPV4_OVERHEAD);
/**
 * Packets of its own the stream sends a second at most (a few back to back after a pause): about one per change of
 * four users' pointers, while a crowd's changes gather into them (each packet costs both mirrors CPU: at 32 users a
 * mirror and one per change, a 96-user bench starved). In the sim at 8 users a mirror a change then waits 1.7 ms
 * (median; 4 at most) and the link carries 16 KB/s; at 400 the share of the window held some for 20 ms.
 */
const STREAM_PACKETS_PER_SECOND = 250;
/**
 * The stream's own packets keep to this share of the link's window: the rest stays CRIMP's and membership's, whose
 * datagrams are dropped while it is full (crimpUnsent). A packet per change of a crowd's pointers (500/s over a
 * 120 ms round trip) would fill it; past the share, changes wait and gather into the packets that follow. Four
 * users' pointers (240/s, about 29 in flight at 60 ms one way) stay within it.
 */
const STREAM_WINDOW_SHARE = 0.75;
/** A stream held by its share of the window tries again this much later (ms), not every interval. */
const STREAM_HELD_MS = 5;
/** Bytes a packet of the stream's own costs beyond its section: IP/UDP, the seal and a typical header. */
const OWN_PACKET_BYTES = UDP_IPV4_OVERHEAD + SEAL_OVERHEAD + 4;

interface Link {
  readonly key: number;
  readonly conn: Connection<LinkRecord>;
  id: MirrorId | undefined;
  helloAcked: boolean;
  /** When our HELLO goes again if no packet carrying it has been acked (keepalives carry nothing of ours). */
  helloAt: number;
  readonly clock: ClockOffset;
  /** t0 of probes not yet answered (oldest first). */
  readonly probes: number[];
  nextProbeAt: number;
  /** Control messages waiting for the next packet. */
  readonly control: LinkMessage[];
  /** The stream's manager once the link is named. */
  stream: StreamManager<unknown> | undefined;
  /** The stream may send a packet of its own no earlier than this (one interval after it last went out). */
  streamAt: number;
  /** What the stream has spent against its budget (made with the stream). */
  streamBudget: ByteAndPacketBuckets | undefined;
  /** The stream's demand may be above 'none' (it woke us, or said so when last asked). */
  streamWants: boolean;
}

export class MirrorLinks {
  readonly listener: Endpoint<LinkRecord>;
  readonly dialer: Endpoint<LinkRecord>;
  readonly counters: MirrorLinkCounters = {
    wrongSecret: 0,
    dialFailed: 0,
    badId: 0,
    malformed: 0,
    crimpUnsent: 0,
    crimpUnnamed: 0,
    strayAnswers: 0,
    streamMalformed: 0,
  };
  private readonly links = new Map<Connection<LinkRecord>, Link>();
  private readonly byId = new Map<MirrorId, Link>();
  private readonly clock: (now: number) => number;
  private readonly probeMs: number;
  private readonly firstProbesMs: number;
  private readonly streamIntervalMs: number;
  private self: MirrorId | undefined;
  private nextKey = 1;

  constructor(private readonly o: MirrorLinksOptions) {
    if (o.self !== undefined) assertMirrorId(o.self);
    this.self = o.self;
    // A weak secret would let the endpoint's code lock shut the group out, and guessers try it.
    if (joinCodeStrengthBits(o.secret) < MIRROR_SECRET_MIN_BITS)
      throw new RangeError(
        `a mirror secret needs ${MIRROR_SECRET_MIN_BITS} bits (generateMirrorSecret)`,
      );
    this.clock = o.clock ?? ((now) => now);
    this.probeMs = o.probeMs ?? 1000;
    this.firstProbesMs = o.firstProbesMs ?? 100;
    this.streamIntervalMs = o.streamIntervalMs ?? STREAM_INTERVAL_MS;
    const options = {
      ...o.endpoint,
      joinCode: o.secret,
      protocolVersion: MIRROR_LINK_VERSION,
      channel: MIRROR_CHANNEL,
    };
    const handler = (conn: Connection<LinkRecord>): ConnectionHandler<LinkRecord> =>
      this.adopt(conn);
    this.listener = new Endpoint<LinkRecord>('host', options, handler, o.now);
    this.dialer = new Endpoint<LinkRecord>('client', options, handler, o.now);
  }

  /** Dials another mirror's listening address (the newer mirror dials the ones already there). */
  connect(now: number, to: PeerAddress): void {
    this.dialer.connect(now, to);
    this.pollEvents(now);
  }

  /** A joiner's id, once the group gave it: its HELLO goes on every open link. */
  assignSelf(now: number, id: MirrorId): void {
    if (this.self !== undefined) throw new Error('this mirror has an id already');
    this.self = assertMirrorId(id);
    for (const link of this.links.values()) {
      if (link.id !== undefined) this.openStream(now, link, link.id);
      link.helloAcked = false;
      this.sendPacket(now, link, undefined, undefined);
    }
  }

  /** Closes the link to a mirror (it left the group): it cannot come back under the same id. */
  closeLink(now: number, id: MirrorId, reason: 'closed' | 'kicked'): void {
    this.byId.get(id)?.conn.close(now, reason, 'left the mirror group');
  }

  /** Closes every link: this mirror leaves its group. */
  closeAll(now: number): void {
    for (const link of [...this.links.values()]) link.conn.close(now, 'closed', 'mirror stopping');
  }

  /** Sends one membership message on a link; false if it is gone or its window is full (the caller retries). */
  sendGroup(now: number, to: LinkDest, bytes: Uint8Array, tag: number): boolean {
    const link =
      'id' in to ? this.byId.get(to.id) : [...this.links.values()].find((l) => l.key === to.key);
    if (link === undefined || !link.conn.canSend()) return false;
    return this.sendPacket(now, link, { kind: 'group', bytes }, undefined, tag);
  }

  /** Whether the link with this key (LinkRef) is still open. */
  hasLink(key: number): boolean {
    for (const l of this.links.values()) if (l.key === key) return true;
    return false;
  }

  /** Mirrors with a named, open link. */
  linked(): MirrorId[] {
    return [...this.byId.keys()];
  }

  /** The connection of the link to a mirror, if named and open (its stats, or a test's raw packets). */
  connectionTo(id: MirrorId): Connection<LinkRecord> | undefined {
    return this.byId.get(id)?.conn;
  }

  /** Sends one CRIMP datagram to a mirror, unreliably; false if there is no open link or its window is full. */
  sendCrimp(now: number, to: MirrorId, bytes: Uint8Array, tag: number): boolean {
    const link = this.byId.get(to);
    if (link === undefined || !link.conn.canSend()) {
      this.counters.crimpUnsent++;
      return false;
    }
    const ok = this.sendPacket(now, link, { kind: 'crimp', bytes }, tag);
    if (!ok) this.counters.crimpUnsent++;
    return ok;
  }

  /** The clock offset to a linked mirror (theirs minus ours, ms) at our clock's reading for `now`. */
  offsetTo(now: number, id: MirrorId): ClockEstimate | undefined {
    return this.byId.get(id)?.clock.estimate(this.clock(now));
  }

  /** This mirror's own clock at the driver's `now`. */
  localClock(now: number): number {
    return this.clock(now);
  }

  handleDatagram(
    now: number,
    side: 'listener' | 'dialer',
    from: PeerAddress,
    bytes: Uint8Array,
  ): void {
    (side === 'listener' ? this.listener : this.dialer).handleDatagram(now, from, bytes);
    this.pollEvents(now);
  }

  handleTimeout(now: number): void {
    if (this.listener.nextTimeout() <= now) this.listener.handleTimeout(now);
    if (this.dialer.nextTimeout() <= now) this.dialer.handleTimeout(now);
    for (const link of this.links.values()) {
      if (link.id !== undefined && link.nextProbeAt <= now) this.probe(now, link);
      if (!link.helloAcked && link.helloAt <= now) this.sendPacket(now, link, undefined, undefined);
      if (link.stream !== undefined && streamDueAt(link, link.stream) <= now)
        this.sendStream(now, link, link.stream);
    }
    this.pollEvents(now);
  }

  nextTimeout(): number {
    let t = Math.min(this.listener.nextTimeout(), this.dialer.nextTimeout());
    for (const link of this.links.values()) {
      if (link.id !== undefined) t = Math.min(t, link.nextProbeAt);
      if (!link.helloAcked) t = Math.min(t, link.helloAt);
      if (link.stream !== undefined) t = Math.min(t, streamDueAt(link, link.stream));
    }
    return t;
  }

  pollTransmit(side: 'listener' | 'dialer'): Transmit | undefined {
    return (side === 'listener' ? this.listener : this.dialer).pollTransmit();
  }

  private adopt(conn: Connection<LinkRecord>): ConnectionHandler<LinkRecord> {
    const link: Link = {
      key: this.nextKey++,
      conn,
      id: undefined,
      helloAcked: false,
      helloAt: Infinity,
      clock: new ClockOffset(),
      probes: [],
      nextProbeAt: Infinity,
      control: [],
      stream: undefined,
      streamAt: -Infinity,
      streamBudget: undefined,
      streamWants: false,
    };
    this.links.set(conn, link);
    return {
      onPayload: (now, r) => this.onPayload(now, link, r),
      onNotify: (now, record, delivered) => this.onNotify(now, link, record, delivered),
      onClosed: (now, info) => this.onClosed(now, link, info),
    };
  }

  private pollEvents(now: number): void {
    for (const endpoint of [this.listener, this.dialer]) {
      for (let e = endpoint.pollEvent(); e !== undefined; e = endpoint.pollEvent()) {
        switch (e.type) {
          case 'connected': {
            const link = this.links.get(e.conn);
            // Our name goes first: everything else on the link waits for the other side's.
            if (link !== undefined) {
              this.sendPacket(now, link, undefined, undefined);
              if (endpoint === this.dialer) this.o.onDialed?.(now, refOf(link));
            }
            break;
          }
          case 'connect-failed':
            if (e.reason === 'wrong-code') this.counters.wrongSecret++;
            else this.counters.dialFailed++;
            break;
          case 'closed':
          case 'code-locked':
          // A mirror dials the mirror it was given: it never probes for the nearest.
          case 'probed':
          case 'nearer':
            break;
        }
      }
    }
  }

  /** One packet: HELLO until acked, the given message if any, queued control messages, then the stream's section. */
  private sendPacket(
    now: number,
    link: Link,
    message: LinkMessage | undefined,
    crimpTag: number | undefined,
    groupTag?: number,
  ): boolean {
    const self = this.self;
    if (!link.helloAcked) link.helloAt = now + HELLO_RETRY_MS;
    const stream =
      link.stream !== undefined && link.stream.demand(now) !== 'none' ? link.stream : undefined;
    return link.conn.send(now, (w: BitWriter, budgetBits: number) => {
      let used = 1;
      // Our name goes before anything else in the packet: the other side reads messages in order, and a membership
      // message read on a link it has not named yet has no sender (membership drops it, and the packet still
      // counts as delivered).
      const hello = !link.helloAcked && self !== undefined;
      if (hello) {
        const m: LinkMessage = { kind: 'hello', id: self };
        writeLinkMessage(w, m);
        used += linkMessageBits(m);
      }
      if (message !== undefined) {
        writeLinkMessage(w, message);
        used += linkMessageBits(message);
      }
      while (link.control.length > 0) {
        const next = link.control[0];
        if (next === undefined || used + linkMessageBits(next) > budgetBits) break;
        link.control.shift();
        writeLinkMessage(w, next);
        used += linkMessageBits(next);
      }
      writeLinkEnd(w);
      const section =
        stream === undefined
          ? undefined
          : this.writeStream(now, link, stream, w, budgetBits - used);
      return {
        hello,
        ...(crimpTag === undefined ? {} : { crimpTag }),
        ...(groupTag === undefined ? {} : { groupTag }),
        ...(section === undefined ? {} : { stream: section }),
      };
    });
  }

  /** The stream's section after the flag bit, or nothing (the flag taken back) if it wrote nothing. */
  private writeStream(
    now: number,
    link: Link,
    stream: StreamManager<unknown>,
    w: BitWriter,
    budgetBits: number,
  ): unknown {
    const start = w.bitLength;
    writeLinkSectionFlag(w);
    const record = budgetBits > 1 ? stream.write(now, w, budgetBits - 1) : undefined;
    if (record === undefined) w.truncate(start);
    else {
      link.streamAt = now + this.streamIntervalMs;
      link.streamBudget?.charge(now, Math.ceil((w.bitLength - start) / 8), 0);
    }
    link.streamWants = stream.demand(now) !== 'none';
    return record;
  }

  /** A packet for the stream alone, when it has something and its interval has passed. */
  private sendStream(now: number, link: Link, stream: StreamManager<unknown>): void {
    if (stream.demand(now) === 'none') {
      link.streamWants = false;
      // A check the manager asked for that found nothing waits an interval, not a spin at this instant.
      if ((stream.nextCheckAt?.() ?? Infinity) <= now) link.streamAt = now + this.streamIntervalMs;
      return;
    }
    // Sent or not (a full window, or the stream's share of it, waits for acks), the next try is an interval away.
    const share = link.conn.inFlight < link.conn.options.windowSize * STREAM_WINDOW_SHARE;
    if (share && link.conn.canSend() && this.sendPacket(now, link, undefined, undefined))
      link.streamBudget?.charge(now, OWN_PACKET_BYTES, 1);
    link.streamAt = now + (share ? this.streamIntervalMs : STREAM_HELD_MS);
  }

  private onPayload(now: number, link: Link, r: BitReader): void {
    const messages = readLinkMessages(r);
    if (isLinkDecodeError(messages)) {
      this.counters.malformed++;
      link.conn.close(now, 'protocol-error', `mirror link: ${messages.detail}`);
      return;
    }
    for (const m of messages) {
      if (link.conn.state === 'closed') return;
      switch (m.kind) {
        case 'hello':
          this.onHello(now, link, m.id);
          break;
        case 'crimp':
          if (link.id === undefined) this.counters.crimpUnnamed++;
          else this.o.onCrimp(now, link.id, m.bytes);
          break;
        case 'group':
          this.o.onGroup?.(now, refOf(link), m.bytes);
          break;
        case 'probe': {
          // Answered at once, in its own packet: t1 and t2 are the same instant here.
          const t = this.clock(now);
          link.control.push({ kind: 'answer', t0: m.t0, t1: t, t2: t });
          this.sendPacket(now, link, undefined, undefined);
          break;
        }
        case 'answer': {
          const i = link.probes.indexOf(m.t0);
          if (i < 0) {
            this.counters.strayAnswers++;
            break;
          }
          link.probes.splice(0, i + 1);
          link.clock.add({ t0: m.t0, t1: m.t1, t2: m.t2, t3: this.clock(now) });
          break;
        }
      }
    }
    if (link.conn.state !== 'closed' && readLinkSectionFlag(r)) this.readStream(now, link, r);
  }

  /**
   * The stream's section. Links that carry no stream here leave it unread (it ends the packet, so nothing after it
   * is lost); a link not yet named has no manager to read it, and a section that doesn't parse ends the link.
   */
  private readStream(now: number, link: Link, r: BitReader): void {
    if (this.o.streams === undefined) return;
    let detail: string;
    if (link.stream === undefined) detail = 'stream section before HELLO';
    else {
      try {
        link.stream.read(now, r);
        return;
      } catch (e) {
        if (!(e instanceof DecodeError) && !(e instanceof ProtocolError)) throw e;
        detail = e.message;
      }
    }
    this.counters.streamMalformed++;
    link.conn.close(now, 'protocol-error', `mirror link stream: ${detail}`);
  }

  private onHello(now: number, link: Link, id: MirrorId): void {
    if (link.id !== undefined) return;
    const other = this.byId.get(id);
    const members = this.o.members;
    const allowed =
      members === undefined || (typeof members === 'function' ? members(id) : members.includes(id));
    if (id === this.self || !allowed || (other !== undefined && other !== link)) {
      this.counters.badId++;
      link.conn.close(now, 'protocol-error', `mirror id ${id} is taken or not of this group`);
      return;
    }
    link.id = id;
    this.byId.set(id, link);
    // A joiner's stream waits for its id: the other side names the link only on the HELLO the id brings, and
    // takes a section before that for a broken link.
    if (this.self !== undefined) this.openStream(now, link, id);
    link.nextProbeAt = now;
    this.o.onLinkUp?.(now, id);
    this.probe(now, link);
  }

  /** The owner's stream starts riding a named link's packets (both sides named). */
  private openStream(now: number, link: Link, id: MirrorId): void {
    if (this.o.streams === undefined || link.stream !== undefined) return;
    const stream = this.o.streams.open(now, id);
    stream.wake = () => {
      link.streamWants = true;
    };
    link.stream = stream;
    link.streamBudget = streamBudget(now, STREAM_BYTES_PER_SECOND, STREAM_PACKETS_PER_SECOND);
    link.streamWants = true;
  }

  private probe(now: number, link: Link): void {
    const t0 = this.clock(now);
    link.probes.push(t0);
    if (link.probes.length > MAX_OUTSTANDING_PROBES) link.probes.shift();
    link.control.push({ kind: 'probe', t0 });
    link.nextProbeAt =
      now + (link.clock.samples < FIRST_PROBES ? this.firstProbesMs : this.probeMs);
    this.sendPacket(now, link, undefined, undefined);
  }

  private onNotify(now: number, link: Link, record: LinkRecord, delivered: boolean): void {
    if (record.hello && delivered) link.helloAcked = true;
    if (record.crimpTag !== undefined && link.id !== undefined)
      this.o.onCrimpNotify?.(now, link.id, record.crimpTag, delivered);
    if (record.stream !== undefined) link.stream?.notify(now, record.stream, delivered);
    if (record.groupTag !== undefined)
      this.o.onGroupNotify?.(now, refOf(link), record.groupTag, delivered);
  }

  private onClosed(now: number, link: Link, info: CloseInfo): void {
    this.links.delete(link.conn);
    if (link.id !== undefined && this.byId.get(link.id) === link) {
      this.byId.delete(link.id);
      if (link.stream !== undefined) {
        link.stream.wake = undefined;
        link.stream = undefined;
        this.o.streams?.close(now, link.id, info);
      }
      this.o.onLinkDown?.(now, link.id, info);
    }
  }
}

/**
 * When a link's stream next wants the timer: once it has data, its interval and its budget allowing; or a check it
 * asked for.
 */
function streamDueAt(link: Link, stream: StreamManager<unknown>): number {
  if (link.streamWants) return Math.max(link.streamAt, link.streamBudget?.readyAt() ?? -Infinity);
  return Math.max(link.streamAt, stream.nextCheckAt?.() ?? Infinity);
}

function refOf(link: Link): LinkRef {
  return { key: link.key, id: link.id, peer: link.conn.peer };
}
