// The party's side of rendezvous, sharing the endpoint's socket (so a directory sees the very NAT mapping peers
// will use): a host registers with every configured directory and heartbeats, a joiner asks every directory for
// an introduction and takes the first answer, and both send punches towards the other's addresses so their NATs
// let the handshake in. Knows no sessions or whiteboards; sans-IO: datagrams and time in, datagrams and events out.
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { Transmit } from './endpoint';
import type { DirectoryError, RelayGrant, RendezvousMessage, SessionInfo } from './rendezvous';
import {
  decodeRendezvous,
  encodeRendezvous,
  INTRO_NONCE_SIZE,
  isRendezvousDecodeError,
  OWNER_KEY_SIZE,
} from './rendezvous';
import { sameBytes } from './host-handshake';
import type { NatMapping } from './nat-mapping';
import { classifyMapping, traversalFor, UNKNOWN_MAPPING } from './nat-mapping';
import type { TraversalOpened } from './nat-traversal';
import { NatTraversal } from './nat-traversal';
import { canonicalAddress } from './wire-address';

/** Unanswered requests are sent again after this, doubling up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 400;
const MAX_RETRY_MS = 8_000;
/** A joiner waits this long for any directory to introduce it. */
const INTRODUCE_TIMEOUT_MS = 6_000;
/** Heartbeats a directory may leave unanswered before the host counts itself unlisted there and starts over. */
const MISSED_HEARTBEATS = 3;
/** Heartbeat interval a directory may ask for, clamped. */
const MIN_HEARTBEAT_MS = 500;
const MAX_HEARTBEAT_MS = 60_000;
/** Punching: a round to every target this often, for this long (or until stopped). */
const PUNCH_EVERY_MS = 100;
const PUNCH_FOR_MS = 3_000;
/** Priming datagrams go out with this TTL: they open our own NAT's mapping and die before the other's. */
export const PRIME_TTL = 2;
/**
 * Both sides prime at once and send nothing that reaches the other NAT for this long: a datagram that arrives
 * before the other side's own first one leaves can enter that NAT's connection tracking as an inbound flow and
 * make it map the outbound one to another port (NETLAB.md), so the joiner dials only after this too.
 */
export const PRIME_LEAD_MS = 60;
/** Punch sessions at once (one per introduction); a host asked for more drops the oldest. */
const MAX_PUNCHES = 32;
const MAX_PUNCH_TARGETS = 6;
/**
 * A joiner waits for a directory's reflector before it asks for an introduction: four of its round trips to the
 * directory and 300 ms, within these bounds; past that it goes on without knowing its NAT's mapping, and a hard NAT
 * then gets no spray or fan, so the wait errs long (a process busy starting up handles the answer late). The probe
 * is sent again half-way.
 */
const REFLECT_WAIT_MS = { min: 500, max: 1_000 };

export interface Registration {
  readonly name: string;
  readonly listed: boolean;
  readonly version: number;
  readonly users: number;
  /** The host's own addresses (LAN), offered to joiners behind the same NAT. */
  readonly candidates: readonly PeerAddress[];
  /** Our address on a TURN relay, once allocated. */
  readonly relayed?: PeerAddress;
  /**
   * One more host (mirror) of a session already registered under this client's owner key (`ownerKey` of the
   * options: the session's mirrors share it): joiners are told of every host and probe them all.
   */
  readonly mirror?: boolean;
}

export type RendezvousEvent =
  /** Host: a directory lists the session; `observed` is our public address as it sees it. */
  | { readonly type: 'registered'; readonly directory: PeerAddress; readonly observed: PeerAddress }
  /** Host: a directory refused the registration (the name is someone else's, or it is full). */
  | {
      readonly type: 'register-failed';
      readonly directory: PeerAddress;
      readonly reason: DirectoryError;
    }
  /** Host: relay credentials from a directory (asked for with `wantRelay`). */
  | { readonly type: 'relay-grant'; readonly directory: PeerAddress; readonly grant: RelayGrant }
  /** Host: a directory stopped answering; registration starts again. */
  | { readonly type: 'unregistered'; readonly directory: PeerAddress }
  /** Host: a joiner is on its way from these addresses (punches are already going out). */
  | {
      readonly type: 'peer';
      readonly directory: PeerAddress;
      readonly observed: PeerAddress;
      readonly candidates: readonly PeerAddress[];
    }
  /** Joiner: where the host is (the first directory to answer). */
  | {
      readonly type: 'intro';
      readonly directory: PeerAddress;
      readonly session: SessionInfo;
      readonly observed: PeerAddress | undefined;
      /** Relay credentials for us, if the directory has a relay. */
      readonly relay: RelayGrant | undefined;
    }
  /** Joiner: no directory could introduce us. */
  | {
      readonly type: 'intro-failed';
      readonly reason: 'not-found' | 'unreachable' | DirectoryError;
    }
  /** Where our NAT maps us, measured against a directory's reflector. */
  | { readonly type: 'nat'; readonly mapping: NatMapping }
  /**
   * Through a hard NAT, a direct path opened (nat-traversal.ts): the peer answered from `address` (to dial, for a
   * joiner whose host sits behind the hard NAT), on our port `via`.
   */
  | ({ readonly type: 'opened' } & TraversalOpened);

interface DirectoryState {
  readonly address: PeerAddress;
  readonly key: string;
  cookie: Uint8Array | undefined;
  observed: PeerAddress | undefined;
  registered: boolean;
  /** The request in flight, if any, and when to send the next. */
  request: number;
  due: number;
  /** When the request in flight went out (the round trip to the directory, for the reflector's wait). */
  sentAt: number;
  retryMs: number;
  /** Heartbeats sent since the last REGISTERED. */
  unanswered: number;
  heartbeatMs: number;
  /** Joiner: this directory answered the introduction (with an error). */
  answered: DirectoryError | undefined;
}

interface Punch {
  readonly nonce: Uint8Array;
  readonly targets: readonly PeerAddress[];
  readonly until: number;
  next: number;
}

export interface RendezvousClientOptions {
  readonly directories: readonly PeerAddress[];
  /** Random bytes (crypto in the app, a seeded generator under test). */
  readonly random: (n: number) => Uint8Array;
  /**
   * The key that proves a registration is ours (OWNER_KEY_SIZE bytes): a fresh random one unless given. The hosts of
   * one session (its mirrors) share the session's, so each may register under its name.
   */
  readonly ownerKey?: Uint8Array;
}

/** A probe of a directory's reflector in flight: where the directory itself saw us, to compare. */
interface Reflecting {
  readonly to: PeerAddress;
  readonly key: string;
  readonly first: PeerAddress;
  readonly request: number;
  readonly until: number;
  resendAt: number;
}

export class RendezvousClient {
  readonly counters = { malformed: 0, unexpected: 0, foreign: 0, punchesSent: 0, punchesHeard: 0 };
  /** Our NAT's mapping, once a reflector told us. */
  mapping: NatMapping = UNKNOWN_MAPPING;
  private reflecting: Reflecting | undefined;
  readonly traversal: NatTraversal;
  private readonly dirs: DirectoryState[];
  private readonly outbox: Transmit[] = [];
  private readonly events: RendezvousEvent[] = [];
  private readonly punches: Punch[] = [];
  private readonly random: (n: number) => Uint8Array;
  private readonly ownerKey: Uint8Array;
  private nextRequest: number;
  private registration: Registration | undefined;
  /** Host: ask directories for relay credentials until one gives them (and again after `wantRelay()`). */
  private wantsRelay = false;
  private introduction:
    | {
        readonly name: string;
        readonly nonce: Uint8Array;
        readonly candidates: readonly PeerAddress[];
        readonly until: number;
        done: boolean;
      }
    | undefined;

  constructor(options: RendezvousClientOptions) {
    this.random = options.random;
    this.traversal = new NatTraversal(options.random, PRIME_TTL);
    this.ownerKey =
      options.ownerKey?.length === OWNER_KEY_SIZE
        ? options.ownerKey.slice()
        : this.random(OWNER_KEY_SIZE);
    const r = this.random(4);
    this.nextRequest =
      (((r[0] ?? 0) << 24) | ((r[1] ?? 0) << 16) | ((r[2] ?? 0) << 8) | (r[3] ?? 0)) >>> 0;
    this.dirs = options.directories.flatMap((d) => {
      const address = canonicalAddress(d);
      if (address === undefined) return [];
      return [
        {
          address,
          key: addressKey(address),
          cookie: undefined,
          observed: undefined,
          registered: false,
          request: 0,
          due: Infinity,
          sentAt: 0,
          retryMs: FIRST_RETRY_MS,
          unanswered: 0,
          heartbeatMs: 2_000,
          answered: undefined,
        },
      ];
    });
  }

  get directories(): readonly PeerAddress[] {
    return this.dirs.map((d) => d.address);
  }

  /** Our public address as the directories see it (the first that told us). */
  get observed(): PeerAddress | undefined {
    return this.dirs.find((d) => d.observed !== undefined)?.observed;
  }

  /** Host: directories that list the session now. */
  get registeredWith(): readonly PeerAddress[] {
    return this.dirs.filter((d) => d.registered).map((d) => d.address);
  }

  /** The key our registrations are proven with: a session's first host gives it to its mirrors. */
  get registrationKey(): Uint8Array {
    return this.ownerKey.slice();
  }

  /** Host: registers (or updates) the session with every directory. */
  register(now: number, r: Registration): void {
    this.registration = r;
    for (const d of this.dirs) this.sendNow(now, d);
  }

  /** Host: asks the directories for relay credentials with the next requests (a 'relay-grant' event answers). */
  wantRelay(now: number): void {
    this.wantsRelay = true;
    if (this.registration !== undefined)
      for (const d of this.dirs) if (d.registered) this.sendNow(now, d);
  }

  /** Host: our relayed address (or none), told to every directory at once. */
  setRelayed(now: number, relayed: PeerAddress | undefined): void {
    const r = this.registration;
    if (r === undefined) return;
    const { name, listed, version, users, candidates, mirror } = r;
    const rest = {
      name,
      listed,
      version,
      users,
      candidates,
      ...(mirror === true ? { mirror } : {}),
    };
    this.registration = relayed === undefined ? rest : { ...rest, relayed };
    for (const d of this.dirs) if (d.cookie !== undefined) this.sendNow(now, d);
  }

  /** Host: a new user count, carried by the next heartbeat. */
  setUsers(users: number): void {
    if (this.registration !== undefined) this.registration = { ...this.registration, users };
  }

  /** Host: leaves every directory at once (they would forget the session a few seconds later anyway). */
  deregister(): void {
    const r = this.registration;
    this.registration = undefined;
    if (r === undefined) return;
    for (const d of this.dirs) {
      // Also where no REGISTERED has come back yet: the REGISTER may have arrived all the same.
      if (d.cookie !== undefined)
        this.transmit(d.address, {
          type: 'deregister',
          request: this.takeRequest(),
          cookie: d.cookie,
          ownerKey: this.ownerKey,
          name: r.name,
        });
      d.registered = false;
      d.due = Infinity;
    }
  }

  /** Joiner: asks every directory to introduce us to `name`'s host; the first answer wins. */
  introduce(now: number, name: string, candidates: readonly PeerAddress[]): void {
    this.introduction = {
      name,
      nonce: this.random(INTRO_NONCE_SIZE),
      candidates: candidates.slice(0, 4),
      until: now + INTRODUCE_TIMEOUT_MS,
      done: false,
    };
    for (const d of this.dirs) {
      d.answered = undefined;
      this.sendNow(now, d);
    }
    if (this.dirs.length === 0)
      this.finishIntroduction({ type: 'intro-failed', reason: 'unreachable' });
  }

  /**
   * Sends punches towards `targets` for a few seconds (or until `stopPunching`): a first round of priming
   * datagrams that only open our own NAT, then plain ones.
   */
  punch(now: number, nonce: Uint8Array, targets: readonly PeerAddress[]): void {
    const unique = new Map<string, PeerAddress>();
    for (const t of targets) {
      const a = canonicalAddress(t);
      if (a !== undefined && a.port !== 0) unique.set(addressKey(a), a);
    }
    const list = [...unique.values()].slice(0, MAX_PUNCH_TARGETS);
    if (list.length === 0) return;
    if (this.punches.length >= MAX_PUNCHES) this.punches.shift();
    for (const to of list) {
      for (let i = 0; i < 2; i++) this.transmit(to, { type: 'punch', nonce }, PRIME_TTL);
    }
    this.punches.push({
      nonce,
      targets: list,
      until: now + PRIME_LEAD_MS + PUNCH_FOR_MS,
      next: now + PRIME_LEAD_MS,
    });
    this.handleTimeout(now);
  }

  /**
   * Stops every punch (a path opened: the handshake's own packets keep it open); with `traversal`, the sprays and
   * fans too (a relayed path leaves them running: the direct path they may open takes the connection over).
   */
  stopPunching(traversal = true): void {
    this.punches.length = 0;
    if (traversal) this.traversal.stop();
  }

  /** Peers that opened through one of our fan ports are reached through it. */
  get hasRoutes(): boolean {
    return this.traversal.hasRoutes;
  }

  routeOf(to: PeerAddress): number | undefined {
    return this.traversal.routeOf(to);
  }

  handleDatagram(now: number, rawFrom: PeerAddress, bytes: Uint8Array, via = 0): void {
    const m = decodeRendezvous(bytes);
    if (isRendezvousDecodeError(m)) {
      this.counters.malformed++;
      return;
    }
    const from = canonicalAddress(rawFrom);
    if (m.type === 'punch') {
      // The other side's punch got through our NAT: the handshake follows. Through a hard NAT it also tells where.
      this.counters.punchesHeard++;
      const opened = from === undefined ? undefined : this.traversal.heard(m.nonce, from, via);
      if (opened !== undefined) this.events.push({ type: 'opened', ...opened });
      return;
    }
    if (via !== 0) {
      this.counters.foreign++;
      return;
    }
    const r = this.reflecting;
    if (r !== undefined && from !== undefined && addressKey(from) === r.key) {
      if (m.type === 'cookie' && m.request === r.request) this.reflected(now, m.observed);
      else this.counters.unexpected++;
      return;
    }
    const d = from === undefined ? undefined : this.dirs.find((x) => x.key === addressKey(from));
    if (d === undefined) {
      // Only our directories tell us anything; the rest is someone's guess at our address.
      this.counters.foreign++;
      return;
    }
    this.fromDirectory(now, d, m);
  }

  private fromDirectory(now: number, d: DirectoryState, m: RendezvousMessage): void {
    switch (m.type) {
      case 'cookie':
        if (m.request !== d.request) break;
        d.cookie = m.cookie;
        d.observed = m.observed;
        if (m.reflector !== undefined) this.reflect(now, d, m.observed, m.reflector);
        this.sendNow(now, d);
        return;
      case 'registered':
        if (m.request !== d.request || this.registration === undefined) break;
        d.observed = m.observed;
        d.unanswered = 0;
        d.retryMs = FIRST_RETRY_MS;
        d.heartbeatMs = Math.min(MAX_HEARTBEAT_MS, Math.max(MIN_HEARTBEAT_MS, m.heartbeatMs));
        d.due = now + d.heartbeatMs;
        d.request = 0;
        if (!d.registered) {
          d.registered = true;
          this.events.push({ type: 'registered', directory: d.address, observed: m.observed });
        }
        if (m.relay !== undefined && this.wantsRelay) {
          this.wantsRelay = false;
          this.events.push({ type: 'relay-grant', directory: d.address, grant: m.relay });
        }
        return;
      case 'peer': {
        const r = this.registration;
        if (r === undefined || m.name !== r.name) break;
        this.events.push({
          type: 'peer',
          directory: d.address,
          observed: m.observed,
          candidates: m.candidates,
        });
        // Only towards the address the directory saw (it checked the joiner owns it with a cookie): the joiner's own
        // list of addresses is unverified, and punching it would let anyone aim our datagrams at a third party.
        // A joiner on our LAN needs no punch; it dials our LAN address.
        this.punch(now, m.nonce, [m.observed]);
        this.traverse(now, m.nonce, m.observed, m.nat ?? UNKNOWN_MAPPING);
        return;
      }
      case 'intro': {
        const i = this.introduction;
        if (i === undefined || i.done || m.request !== d.request || !sameBytes(m.nonce, i.nonce))
          break;
        this.finishIntroduction({
          type: 'intro',
          directory: d.address,
          session: m.session,
          observed: d.observed,
          relay: m.relay,
        });
        // Prime our NAT towards the host now; the handshake's HELLOs follow as the real punches.
        this.punch(now, i.nonce, [m.session.host, ...m.session.candidates]);
        this.traverse(now, i.nonce, m.session.host, m.session.nat ?? UNKNOWN_MAPPING);
        return;
      }
      case 'error':
        if (m.request !== d.request) break;
        this.onError(now, d, m.error);
        return;
      case 'session':
      case 'listing':
      case 'probe':
      case 'register':
      case 'mirror':
      case 'deregister':
      case 'lookup':
      case 'list':
      case 'introduce':
      case 'punch':
        break;
    }
    this.counters.unexpected++;
  }

  /** With one hard NAT between us, the easy side sprays (after the lead, once the fan is primed) and the hard fans. */
  private traverse(now: number, nonce: Uint8Array, peer: PeerAddress, peerNat: NatMapping): void {
    const how = traversalFor(this.mapping, peerNat);
    if (how === 'spray') this.traversal.spray(now, nonce, peer, peerNat, now + PRIME_LEAD_MS);
    else if (how === 'fan') this.traversal.fan(now, nonce, peer);
  }

  /** Asks a directory's reflector where it sees us (once: our NAT's mapping does not change per directory). */
  private reflect(now: number, d: DirectoryState, observed: PeerAddress, port: number): void {
    if (this.mapping.kind !== 'unknown' || this.reflecting !== undefined) return;
    const to = { address: d.address.address, port };
    const request = this.takeRequest();
    const rtt = Math.max(0, now - d.sentAt);
    const wait = Math.min(REFLECT_WAIT_MS.max, Math.max(REFLECT_WAIT_MS.min, 4 * rtt + 300));
    this.reflecting = {
      to,
      key: addressKey(to),
      first: observed,
      request,
      until: now + wait,
      resendAt: now + wait / 2,
    };
    this.transmit(to, { type: 'probe', request });
  }

  private reflected(now: number, second: PeerAddress): void {
    const r = this.reflecting;
    if (r === undefined) return;
    this.reflecting = undefined;
    this.mapping = classifyMapping(r.first, second);
    this.events.push({ type: 'nat', mapping: this.mapping });
    // Registrations carry it from now on; an introduction that waited for it goes now.
    for (const d of this.dirs)
      if (d.cookie !== undefined && (this.registration !== undefined || this.waitingToIntroduce(d)))
        this.sendNow(now, d);
  }

  private waitingToIntroduce(d: DirectoryState): boolean {
    const i = this.introduction;
    return i !== undefined && !i.done && d.answered === undefined;
  }

  private onError(now: number, d: DirectoryState, error: DirectoryError): void {
    d.request = 0;
    if (this.introduction !== undefined && !this.introduction.done) {
      if (error === 'rate-limited') {
        d.due = now + d.retryMs;
        return;
      }
      d.answered = error;
      d.due = Infinity;
      if (this.dirs.every((x) => x.answered !== undefined))
        this.finishIntroduction({ type: 'intro-failed', reason: error });
      return;
    }
    if (this.registration === undefined) return;
    if (error === 'taken' || error === 'full' || error === 'bad-version') {
      d.registered = false;
      d.due = Infinity;
      this.events.push({ type: 'register-failed', directory: d.address, reason: error });
      return;
    }
    d.due = now + d.retryMs;
  }

  private finishIntroduction(e: RendezvousEvent): void {
    if (this.introduction !== undefined) this.introduction.done = true;
    for (const d of this.dirs) if (this.registration === undefined) d.due = Infinity;
    this.events.push(e);
  }

  /** The request this directory is owed now: a probe until we hold its cookie, then the real one. */
  private sendNow(now: number, d: DirectoryState): void {
    const request = this.takeRequest();
    d.request = request;
    const r = this.registration;
    const i = this.introduction;
    let m: RendezvousMessage | undefined;
    if (d.cookie === undefined) m = { type: 'probe', request };
    else if (r !== undefined)
      m = {
        type: r.mirror === true ? 'mirror' : 'register',
        request,
        cookie: d.cookie,
        ownerKey: this.ownerKey,
        version: r.version,
        name: r.name,
        listed: r.listed,
        users: r.users,
        candidates: r.candidates.slice(0, 4),
        ...(r.relayed === undefined ? {} : { relayed: r.relayed }),
        ...(this.wantsRelay ? { wantRelay: true } : {}),
        ...(this.mapping.kind === 'unknown' ? {} : { nat: this.mapping }),
      };
    else if (i !== undefined && !i.done) {
      if (this.reflecting !== undefined && now < this.reflecting.until) {
        // The host is told how our NAT maps with the introduction: wait (a little) for the reflector's answer.
        d.request = 0;
        d.due = this.reflecting.until;
        return;
      }
      m = {
        type: 'introduce',
        request,
        cookie: d.cookie,
        name: i.name,
        nonce: i.nonce,
        candidates: i.candidates,
        ...(this.mapping.kind === 'unknown' ? {} : { nat: this.mapping }),
      };
    }
    if (m === undefined) {
      d.due = Infinity;
      return;
    }
    this.transmit(d.address, m);
    d.sentAt = now;
    d.due = now + d.retryMs;
  }

  handleTimeout(now: number): void {
    const reflecting = this.reflecting;
    if (reflecting !== undefined && now >= reflecting.until) this.reflecting = undefined;
    else if (reflecting !== undefined && now >= reflecting.resendAt) {
      reflecting.resendAt = Infinity;
      this.transmit(reflecting.to, { type: 'probe', request: reflecting.request });
    }
    this.traversal.handleTimeout(now);
    const i = this.introduction;
    if (i !== undefined && !i.done && now >= i.until) {
      const answered = this.dirs.find((d) => d.answered !== undefined)?.answered;
      this.finishIntroduction({ type: 'intro-failed', reason: answered ?? 'unreachable' });
    }
    for (const d of this.dirs) {
      if (d.due > now) continue;
      if (d.request !== 0) {
        // The last request went unanswered: back off.
        d.retryMs = Math.min(MAX_RETRY_MS, d.retryMs * 2);
        if (d.registered && ++d.unanswered >= MISSED_HEARTBEATS) {
          d.registered = false;
          d.cookie = undefined;
          this.events.push({ type: 'unregistered', directory: d.address });
        }
      }
      this.sendNow(now, d);
    }
    for (let k = this.punches.length - 1; k >= 0; k--) {
      const p = this.punches[k];
      if (p === undefined) continue;
      if (now >= p.until) {
        this.punches.splice(k, 1);
        continue;
      }
      if (p.next > now) continue;
      for (const to of p.targets) this.transmit(to, { type: 'punch', nonce: p.nonce });
      p.next = now + PUNCH_EVERY_MS;
    }
  }

  nextTimeout(): number {
    let t = Infinity;
    const i = this.introduction;
    if (i !== undefined && !i.done) t = i.until;
    for (const d of this.dirs) t = Math.min(t, d.due);
    for (const p of this.punches) t = Math.min(t, Math.min(p.next, p.until));
    const r = this.reflecting;
    if (r !== undefined) t = Math.min(t, r.resendAt, r.until);
    return Math.min(t, this.traversal.nextTimeout());
  }

  pollTransmit(): Transmit | undefined {
    return this.outbox.shift() ?? this.traversal.pollTransmit();
  }

  pollEvent(): RendezvousEvent | undefined {
    return this.events.shift();
  }

  private takeRequest(): number {
    this.nextRequest = (this.nextRequest + 1) >>> 0;
    if (this.nextRequest === 0) this.nextRequest = 1;
    return this.nextRequest;
  }

  private transmit(to: PeerAddress, m: RendezvousMessage, ttl?: number): void {
    if (m.type === 'punch') this.counters.punchesSent++;
    if (this.outbox.length < 1024)
      this.outbox.push(
        ttl === undefined
          ? { to, bytes: encodeRendezvous(m) }
          : { to, bytes: encodeRendezvous(m), ttl },
      );
  }
}
