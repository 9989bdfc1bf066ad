// The directory: a rendezvous server in the Quake master-server tradition. Hosts register a session and heartbeat
// it; joiners look one up, list the public ones, or ask to be introduced, and the directory tells both sides
// where the other is so they can open a path through their NATs at the same moment. It never sees a join code or
// a board: the handshake runs end to end over whatever path opens. Sans-IO: datagrams and time in, datagrams
// and events out; bounded in every table, rate limited per source, and no reply to an unverified source is
// larger than its request.
import { createHmac } from 'node:crypto';
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import { sourcePrefix, TokenBuckets } from '../net/rate-limiter';
import type { ListingEntry, RendezvousMessage, SessionInfo } from '../net/rendezvous';
import {
  decodeRendezvous,
  DIRECTORY_COOKIE_SIZE,
  encodeRendezvous,
  isRendezvousDecodeError,
  MAX_LISTING_ENTRIES,
  MAX_MIRROR_CANDIDATES,
  MAX_SESSION_HOSTS,
  sessionNameKey,
} from '../net/rendezvous';
import type { RegisterBody, SessionHost } from '../net/rendezvous';
import type { Transmit } from '../net/endpoint';
import { turnRestCredentials } from '../net/turn-client';
import type { RelayGrant } from '../net/rendezvous';
import type { NatMapping } from '../net/nat-mapping';
import { canonicalAddress } from '../net/wire-address';
import { sameBytes } from '../net/host-handshake';

export interface DirectoryOptions {
  /** How often hosts are asked to heartbeat, at least (a small directory forgets a silent host quickly). */
  readonly heartbeatMs: number;
  /**
   * Heartbeats per second the directory budgets for: past heartbeatMs × this many sessions, each host is asked to
   * heartbeat less often (as a Quake master server does), so the load stays flat as sessions grow.
   */
  readonly heartbeatBudget: number;
  readonly maxSessions: number;
  /** Sessions one source (an IPv4 address or IPv6 /64) may register: an office or a carrier NAT hosts several. */
  readonly maxSessionsPerSource: number;
  /** Requests per source: at once, and per second after that. */
  readonly requestBurst: number;
  readonly requestsPerSecond: number;
  /** Introductions to one session: at once, and per second (each makes the host send punches). */
  readonly introBurst: number;
  readonly introsPerSecond: number;
  /** Sources whose request rate is remembered (the least recently seen are forgotten first). */
  readonly maxSources: number;
  /** A cookie is good for this long to two (the current and the previous period). */
  readonly cookiePeriodMs: number;
  /** 32 random bytes the cookies are keyed with; a fresh one per process. */
  readonly secret: Uint8Array;
  /**
   * A TURN relay (coturn with --use-auth-secret) whose short-lived credentials the directory hands to hosts that
   * ask and to every joiner it introduces, so nobody configures a relay. Absent: no relay.
   */
  readonly relay?: {
    readonly server: PeerAddress;
    readonly secret: string;
    /** How long minted credentials are good for (coturn checks them when an allocation is made). */
    readonly ttlSeconds: number;
  };
  /**
   * The port of this directory's reflector (a second socket answering probes only, directory/reflector.ts), told to
   * every prober: where it sees a party, compared with where we do, says whether the party's NAT maps each
   * destination to a new port. Absent: none.
   */
  readonly reflectorPort?: number;
  /** Wall-clock seconds (credentials carry an expiry in Unix time); the runner passes Date.now. */
  readonly wallSeconds?: () => number;
}

export const DEFAULT_DIRECTORY_OPTIONS: Omit<DirectoryOptions, 'secret'> = {
  heartbeatMs: 2_000,
  heartbeatBudget: 1_500,
  maxSessions: 100_000,
  maxSessionsPerSource: 64,
  // A source may be a carrier NAT with dozens of hosts heartbeating behind it (64 sessions every 2 s is 32/s).
  requestBurst: 100,
  requestsPerSecond: 50,
  introBurst: 16,
  introsPerSecond: 4,
  maxSources: 65_536,
  cookiePeriodMs: 30_000,
};

export type DirectoryEvent =
  | {
      readonly type: 'registered';
      readonly name: string;
      readonly listed: boolean;
      readonly host: PeerAddress;
      readonly users: number;
    }
  | { readonly type: 'deregistered'; readonly name: string }
  | { readonly type: 'expired'; readonly name: string }
  | {
      readonly type: 'introduced';
      readonly name: string;
      readonly joiner: PeerAddress;
      readonly host: PeerAddress;
    }
  /** One more host (mirror) of a session registered, or gone (deregistered, silent, or now the session's host). */
  | {
      readonly type: 'mirror';
      readonly name: string;
      readonly host: PeerAddress;
      readonly state: 'registered' | 'gone';
    };

export interface DirectoryCounters {
  malformed: number;
  unexpected: number;
  rateLimited: number;
  badCookie: number;
  probes: number;
  registers: number;
  heartbeats: number;
  lookups: number;
  lists: number;
  introductions: number;
  notFound: number;
  taken: number;
  full: number;
  expired: number;
  relayGrants: number;
  mirrors: number;
}

interface Registration {
  readonly name: string;
  readonly key: string;
  readonly ownerKey: Uint8Array;
  host: PeerAddress;
  source: string;
  version: number;
  users: number;
  listed: boolean;
  candidates: readonly PeerAddress[];
  relayed: PeerAddress | undefined;
  nat: NatMapping | undefined;
  expires: number;
  /** The session's other hosts, by address key: at most MAX_SESSION_HOSTS - 1, each with its own heartbeat. */
  readonly mirrors: Map<string, Mirror>;
}

interface Mirror extends SessionHost {
  readonly users: number;
  readonly expires: number;
}

/** Sessions listed in one LISTING, at most, so it stays well inside one datagram. */
const LISTING_BYTES = 1000;

export class Directory {
  readonly counters: DirectoryCounters = {
    malformed: 0,
    unexpected: 0,
    rateLimited: 0,
    badCookie: 0,
    probes: 0,
    registers: 0,
    heartbeats: 0,
    lookups: 0,
    lists: 0,
    introductions: 0,
    notFound: 0,
    taken: 0,
    full: 0,
    expired: 0,
    relayGrants: 0,
    mirrors: 0,
  };
  private readonly options: DirectoryOptions;
  /** By name key, in order of last heartbeat: the first is the next to expire. */
  private readonly sessions = new Map<string, Registration>();
  private readonly perSource = new Map<string, number>();
  private readonly requests: TokenBuckets;
  private readonly intros: TokenBuckets;
  private readonly outbox: Transmit[] = [];
  private readonly events: DirectoryEvent[] = [];

  constructor(options: Partial<DirectoryOptions> & Pick<DirectoryOptions, 'secret'>) {
    this.options = { ...DEFAULT_DIRECTORY_OPTIONS, ...options };
    const o = this.options;
    this.requests = new TokenBuckets({
      burst: o.requestBurst,
      perSecond: o.requestsPerSecond,
      maxKeys: o.maxSources,
    });
    this.intros = new TokenBuckets({
      burst: o.introBurst,
      perSecond: o.introsPerSecond,
      maxKeys: o.maxSessions,
    });
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** What a lookup would answer (tests and the CLI's status); at `now`, without mirrors gone silent by then. */
  session(name: string, now = -Infinity): SessionInfo | undefined {
    const r = this.sessions.get(sessionNameKey(name));
    return r === undefined ? undefined : info(r, now);
  }

  /** The hosts of a session at `now`: the first, then its mirrors (tests and the CLI's status). */
  hostsOf(name: string, now = -Infinity): PeerAddress[] {
    const s = this.session(name, now);
    return s === undefined ? [] : [s.host, ...(s.mirrors ?? []).map((m) => m.host)];
  }

  handleDatagram(now: number, rawFrom: PeerAddress, bytes: Uint8Array): void {
    this.expire(now);
    const from = canonicalAddress(rawFrom);
    if (from === undefined) return;
    const m = decodeRendezvous(bytes);
    if (isRendezvousDecodeError(m)) {
      this.counters.malformed++;
      return;
    }
    const source = sourcePrefix(from.address);
    if (!this.requests.take(now, source)) {
      // Silence, not an error reply: a reply to each packet of a flood would only double it.
      this.counters.rateLimited++;
      return;
    }
    switch (m.type) {
      case 'probe':
        this.counters.probes++;
        this.reply(from, this.cookieReply(now, from, m.request));
        return;
      case 'register':
      case 'mirror':
      case 'deregister':
      case 'lookup':
      case 'list':
      case 'introduce':
        if (!this.cookieValid(now, from, m.cookie)) {
          // The cookie is from an earlier period (or forged): a fresh one, no larger than the request.
          this.counters.badCookie++;
          this.reply(from, this.cookieReply(now, from, m.request));
          return;
        }
        this.verified(now, from, source, m);
        return;
      case 'cookie':
      case 'registered':
      case 'session':
      case 'listing':
      case 'intro':
      case 'peer':
      case 'punch':
      case 'error':
        // Replies and peer traffic: a directory asks nothing, so none is for it.
        this.counters.unexpected++;
        return;
    }
  }

  /** A COOKIE (no larger than any request): where we see the sender, and where our reflector listens. */
  private cookieReply(now: number, from: PeerAddress, request: number): RendezvousMessage {
    const reflector = this.options.reflectorPort;
    return {
      type: 'cookie',
      request,
      cookie: this.cookie(now, from),
      observed: from,
      ...(reflector === undefined ? {} : { reflector }),
    };
  }

  private verified(
    now: number,
    from: PeerAddress,
    source: string,
    m: Extract<
      RendezvousMessage,
      { type: 'register' | 'mirror' | 'deregister' | 'lookup' | 'list' | 'introduce' }
    >,
  ): void {
    switch (m.type) {
      case 'register':
        this.register(now, from, source, m);
        return;
      case 'mirror':
        this.registerMirror(now, from, source, m);
        return;
      case 'deregister': {
        const r = this.sessions.get(sessionNameKey(m.name));
        if (r === undefined || !sameBytes(r.ownerKey, m.ownerKey)) return;
        // A mirror going: the session stays with its other hosts.
        if (r.mirrors.delete(addressKey(from))) {
          this.events.push({ type: 'mirror', name: r.name, host: from, state: 'gone' });
          return;
        }
        this.remove(r);
        if (!this.promote(now, r)) this.events.push({ type: 'deregistered', name: r.name });
        return;
      }
      case 'lookup': {
        this.counters.lookups++;
        const r = this.sessions.get(sessionNameKey(m.name));
        if (r === undefined) {
          this.counters.notFound++;
          this.reply(from, { type: 'error', request: m.request, error: 'not-found' });
          return;
        }
        this.reply(from, { type: 'session', request: m.request, session: info(r, now) });
        return;
      }
      case 'list':
        this.counters.lists++;
        this.reply(from, this.listing(m.request, m.cursor));
        return;
      case 'introduce':
        this.introduce(now, from, m);
        return;
    }
  }

  /** Tells the host where the joiner is and the joiner where the host is, at the same moment. */
  private introduce(
    now: number,
    from: PeerAddress,
    m: Extract<RendezvousMessage, { type: 'introduce' }>,
  ): void {
    const r = this.sessions.get(sessionNameKey(m.name));
    if (r === undefined) {
      this.counters.notFound++;
      this.reply(from, { type: 'error', request: m.request, error: 'not-found' });
      return;
    }
    if (!this.intros.take(now, r.key)) {
      this.counters.rateLimited++;
      this.reply(from, { type: 'error', request: m.request, error: 'rate-limited' });
      return;
    }
    this.counters.introductions++;
    // Both at once: the joiner starts towards the hosts (it probes them all) as each host starts towards it.
    const session = info(r, now);
    for (const host of [r.host, ...(session.mirrors ?? []).map((x) => x.host)])
      this.reply(host, {
        type: 'peer',
        nonce: m.nonce,
        name: r.name,
        observed: from,
        candidates: m.candidates,
        ...(m.nat === undefined ? {} : { nat: m.nat }),
      });
    const relay = this.grant('joiner');
    this.reply(from, {
      type: 'intro',
      request: m.request,
      nonce: m.nonce,
      session,
      ...(relay === undefined ? {} : { relay }),
    });
    this.events.push({ type: 'introduced', name: r.name, joiner: from, host: r.host });
  }

  private register(
    now: number,
    from: PeerAddress,
    source: string,
    m: Extract<RendezvousMessage, { type: 'register' }>,
  ): void {
    const key = sessionNameKey(m.name);
    const o = this.options;
    const existing = this.sessions.get(key);
    if (existing !== undefined && !sameBytes(existing.ownerKey, m.ownerKey)) {
      this.counters.taken++;
      this.reply(from, { type: 'error', request: m.request, error: 'taken' });
      return;
    }
    const movedSource = existing !== undefined && existing.source !== source;
    if (
      (existing === undefined || movedSource) &&
      (this.perSource.get(source) ?? 0) >= o.maxSessionsPerSource
    ) {
      this.counters.full++;
      this.reply(from, { type: 'error', request: m.request, error: 'full' });
      return;
    }
    if (existing === undefined && this.sessions.size >= o.maxSessions) {
      this.counters.full++;
      this.reply(from, { type: 'error', request: m.request, error: 'full' });
      return;
    }
    const candidates = usableCandidates(m.candidates);
    const fresh = existing === undefined || addressKey(existing.host) !== addressKey(from);
    if (existing !== undefined) this.remove(existing);
    // A mirror that registers as the host (it took over): no longer one of the mirrors.
    existing?.mirrors.delete(addressKey(from));
    const r: Registration = {
      name: m.name,
      key,
      ownerKey: m.ownerKey,
      host: from,
      source,
      version: m.version,
      users: m.users,
      listed: m.listed,
      candidates,
      relayed: m.relayed === undefined ? undefined : canonicalAddress(m.relayed),
      nat: m.nat,
      expires: now + this.ttlMs(),
      mirrors: existing?.mirrors ?? new Map<string, Mirror>(),
    };
    this.sessions.set(key, r);
    this.perSource.set(source, (this.perSource.get(source) ?? 0) + 1);
    if (fresh) {
      this.counters.registers++;
      this.events.push({
        type: 'registered',
        name: r.name,
        listed: r.listed,
        host: from,
        users: r.users,
      });
    } else {
      this.counters.heartbeats++;
    }
    this.replyRegistered(from, m);
  }

  /**
   * One more host of a session (a mirror): only under the owner key the session was registered with (the mirrors
   * of a session share it; nobody else has it), at most MAX_SESSION_HOSTS in all, each heartbeating on its own.
   */
  private registerMirror(
    now: number,
    from: PeerAddress,
    source: string,
    m: { type: 'mirror' } & RegisterBody,
  ): void {
    const r = this.sessions.get(sessionNameKey(m.name));
    if (r === undefined) {
      this.counters.notFound++;
      this.reply(from, { type: 'error', request: m.request, error: 'not-found' });
      return;
    }
    if (!sameBytes(r.ownerKey, m.ownerKey)) {
      this.counters.taken++;
      this.reply(from, { type: 'error', request: m.request, error: 'taken' });
      return;
    }
    // The session's host now (the first host went and this mirror took its place): its heartbeat.
    if (addressKey(r.host) === addressKey(from)) {
      this.register(now, from, source, { ...m, type: 'register' });
      return;
    }
    const key = addressKey(from);
    this.pruneMirrors(now, r);
    const fresh = !r.mirrors.has(key);
    if (fresh && r.mirrors.size >= MAX_SESSION_HOSTS - 1) {
      this.counters.full++;
      this.reply(from, { type: 'error', request: m.request, error: 'full' });
      return;
    }
    const candidates = usableCandidates(m.candidates);
    const relayed = m.relayed === undefined ? undefined : canonicalAddress(m.relayed);
    r.mirrors.set(key, {
      host: from,
      candidates: candidates.slice(0, MAX_MIRROR_CANDIDATES),
      ...(relayed === undefined ? {} : { relayed }),
      users: m.users,
      expires: now + this.ttlMs(),
    });
    if (fresh) {
      this.counters.mirrors++;
      this.events.push({ type: 'mirror', name: r.name, host: from, state: 'registered' });
    } else this.counters.heartbeats++;
    this.replyRegistered(from, m);
  }

  /** A registration's or a mirror's heartbeat answered: where it was seen from, the timing, a relay if asked. */
  private replyRegistered(from: PeerAddress, m: RegisterBody): void {
    const relay = m.wantRelay === true ? this.grant('host') : undefined;
    this.reply(from, {
      type: 'registered',
      request: m.request,
      observed: from,
      heartbeatMs: this.heartbeatMs(),
      ttlMs: this.ttlMs(),
      ...(relay === undefined ? {} : { relay }),
    });
  }

  /** Forgets a session's mirrors that stopped heartbeating. */
  private pruneMirrors(now: number, r: Registration): void {
    for (const [key, m] of r.mirrors)
      if (m.expires <= now) {
        r.mirrors.delete(key);
        this.events.push({ type: 'mirror', name: r.name, host: m.host, state: 'gone' });
      }
  }

  /**
   * The session's host went (deregistered or silent): its freshest mirror, if it has one, is the host from now on,
   * so joiners still find the session. True if one was.
   */
  private promote(now: number, gone: Registration): boolean {
    this.pruneMirrors(now, gone);
    let next: Mirror | undefined;
    for (const m of gone.mirrors.values())
      if (next === undefined || m.expires > next.expires) next = m;
    if (next === undefined) return false;
    gone.mirrors.delete(addressKey(next.host));
    const source = sourcePrefix(next.host.address);
    const r: Registration = {
      ...gone,
      host: next.host,
      source,
      users: next.users,
      candidates: next.candidates,
      relayed: next.relayed,
      nat: undefined,
      expires: next.expires,
    };
    this.sessions.set(r.key, r);
    this.perSource.set(source, (this.perSource.get(source) ?? 0) + 1);
    this.events.push({ type: 'mirror', name: r.name, host: next.host, state: 'gone' });
    this.events.push({
      type: 'registered',
      name: r.name,
      listed: r.listed,
      host: r.host,
      users: r.users,
    });
    return true;
  }

  /** Relay credentials, if the directory has a relay. */
  private grant(name: string): RelayGrant | undefined {
    const relay = this.options.relay;
    if (relay === undefined) return undefined;
    this.counters.relayGrants++;
    const now = (this.options.wallSeconds ?? (() => Date.now() / 1000))();
    // The name part is for the relay's logs only: no session name, which may be secret (an unlisted link).
    const c = turnRestCredentials(
      relay.secret,
      name.replace(/[^a-z]/gi, '').slice(0, 16),
      relay.ttlSeconds,
      now,
    );
    return { server: relay.server, username: c.username, password: c.password };
  }

  /** The heartbeat interval hosts are asked for now. */
  heartbeatMs(): number {
    const o = this.options;
    return Math.max(o.heartbeatMs, Math.ceil((this.sessions.size * 1000) / o.heartbeatBudget));
  }

  /**
   * How long a silent session stays listed: three heartbeats and a second. (Sessions expire in the order they last
   * heartbeated; when the interval shrinks, a later one may wait for an earlier one by at most the difference.)
   */
  ttlMs(): number {
    return 3 * this.heartbeatMs() + 1_000;
  }

  private listing(request: number, cursor: number): RendezvousMessage {
    const entries: ListingEntry[] = [];
    let bytes = 0;
    let index = 0;
    let next = 0;
    // The cursor counts listed sessions from the start of the table; a table that changed between pages may show
    // a session twice or skip one, as any paged listing of a live table does.
    for (const r of this.sessions.values()) {
      if (!r.listed) continue;
      if (index++ < cursor) continue;
      const size = new TextEncoder().encode(r.name).length + 6;
      if (entries.length >= MAX_LISTING_ENTRIES || bytes + size > LISTING_BYTES) {
        next = index - 1;
        break;
      }
      entries.push({ name: r.name, version: r.version, users: r.users });
      bytes += size;
    }
    return { type: 'listing', request, entries, next };
  }

  private remove(r: Registration): void {
    if (this.sessions.get(r.key) === r) this.sessions.delete(r.key);
    const n = (this.perSource.get(r.source) ?? 1) - 1;
    if (n <= 0) this.perSource.delete(r.source);
    else this.perSource.set(r.source, n);
  }

  private expire(now: number): void {
    for (const r of this.sessions.values()) {
      if (r.expires > now) break;
      this.remove(r);
      // A promoted mirror goes to the end of the order (its own heartbeat is later than any expired one's).
      if (this.promote(now, r)) continue;
      this.counters.expired++;
      this.events.push({ type: 'expired', name: r.name });
    }
  }

  private cookie(now: number, from: PeerAddress, period = this.period(now)): Uint8Array {
    const mac = createHmac('sha256', this.options.secret);
    mac.update(`${period}|${addressKey(from)}`);
    return new Uint8Array(mac.digest().subarray(0, DIRECTORY_COOKIE_SIZE));
  }

  private cookieValid(now: number, from: PeerAddress, cookie: Uint8Array): boolean {
    const p = this.period(now);
    return (
      sameBytes(cookie, this.cookie(now, from, p)) ||
      sameBytes(cookie, this.cookie(now, from, p - 1))
    );
  }

  private period(now: number): number {
    return Math.floor(now / this.options.cookiePeriodMs);
  }

  private reply(to: PeerAddress, m: RendezvousMessage): void {
    // Bounded: a caller that never drains loses replies, not memory.
    if (this.outbox.length < 8192) this.outbox.push({ to, bytes: encodeRendezvous(m) });
  }

  handleTimeout(now: number): void {
    this.expire(now);
  }

  nextTimeout(): number {
    const first = this.sessions.values().next();
    return first.done === true ? Infinity : first.value.expires;
  }

  pollTransmit(): Transmit | undefined {
    return this.outbox.shift();
  }

  pollEvent(): DirectoryEvent | undefined {
    return this.events.shift();
  }
}

/** The session as joiners are told of it: its mirrors that still heartbeat (`now`) among its hosts. */
function info(r: Registration, now = -Infinity): SessionInfo {
  const mirrors = [...r.mirrors.values()]
    .filter((m) => m.expires > now)
    .map((m) => ({
      host: m.host,
      candidates: m.candidates,
      ...(m.relayed === undefined ? {} : { relayed: m.relayed }),
    }));
  return {
    name: r.name,
    version: r.version,
    users: r.users,
    listed: r.listed,
    host: r.host,
    candidates: r.candidates,
    ...(r.relayed === undefined ? {} : { relayed: r.relayed }),
    ...(r.nat === undefined ? {} : { nat: r.nat }),
    ...(mirrors.length === 0 ? {} : { mirrors }),
  };
}

/** A host's candidate addresses as the directory keeps them: canonical, with a port. */
function usableCandidates(candidates: readonly PeerAddress[]): PeerAddress[] {
  return candidates.flatMap((c) => {
    const a = canonicalAddress(c);
    return a === undefined || a.port === 0 ? [] : [a];
  });
}
