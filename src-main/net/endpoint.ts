// One UDP socket's worth of connections, sans-IO: routes datagrams by source, runs handshakes (host and
// client side), enforces caps, and hands out datagrams to send. Knows nothing of sockets, timers or sessions.
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { ConnectionHandler } from './connection';
import { Connection } from './connection';
import type { HandshakePacket, RejectReason } from './handshake';
import { decodeHandshake, HANDSHAKE_MARKER, HELLO_SIZE, isHandshakeDecodeError } from './handshake';
import { HostHandshake, reject, sameBytes } from './host-handshake';
import { HostAdmission } from './host-admission';
import { sourcePrefix } from './rate-limiter';
import { RENDEZVOUS_MARKER } from './rendezvous';
import { DeadlineCache } from './deadline-cache';
import type { Entry } from './endpoint-entry';
import { hasRoomFor } from './endpoint-entry';
import { MovedConnections } from './moved-connections';
import type { Dialing } from './dial-group';
import { dialHandshake, GroupFailures } from './dial-group';
import { NearestJoin } from './nearest-join';
import type { NearestProbeOptions } from './nearest-probe';
import { isProbeByte } from './probe-wire';
import { ProbeReplies } from './probe-replies';
import type {
  DatagramRelay,
  DatagramTenant,
  EndpointCounters,
  EndpointEvent,
  EndpointOptions,
  Transmit,
} from './endpoint-types';
import { DEFAULT_ENDPOINT_OPTIONS, newEndpointCounters } from './endpoint-types';

export type {
  DatagramRelay,
  DatagramTenant,
  EndpointCounters,
  EndpointEvent,
  EndpointOptions,
  Transmit,
} from './endpoint-types';
export { DEFAULT_ENDPOINT_OPTIONS } from './endpoint-types';

const MAX_QUEUED_REPLIES = 4096;

export class Endpoint<R> {
  readonly counters: EndpointCounters = newEndpointCounters();
  private readonly entries = new Map<string, Entry<R>>();
  private readonly dialing = new Map<string, Dialing>();
  private readonly host: HostHandshake | undefined;
  /** Host: bans, failed attempts and the code's lock, answered RESPONSEs. */
  private readonly admission: HostAdmission;
  /** The latest time any call brought: when a failure is counted from a path that has no clock of its own. */
  private lastNow: number;
  private readonly outbox: Transmit[] = [];
  private readonly withOutput = new Set<string>();
  private readonly events: EndpointEvent<R>[] = [];
  /** Each connection's next timeout, cached (a host can't ask hundreds of them on every datagram). */
  private readonly deadlines = new DeadlineCache(this.entries);
  readonly options: EndpointOptions;
  /** Rendezvous on the same socket, if any (datagrams from 0xE0 up); unrendezvoused endpoints count and drop them. */
  tenant: DatagramTenant | undefined;
  /** The local port of the datagram being handled: replies to it leave from there. */
  private arrivedOn = 0;
  /** A TURN relay on the same socket, if any. */
  relay: DatagramRelay | undefined;
  /** Connections moved to a new path: their old addresses, and the rate of trials to move one. */
  private readonly moved = new MovedConnections(this.entries);
  /** Host: replies to RTT probes, a bucket's worth per source. */
  private readonly probeReplies: ProbeReplies;
  /** Client: the probe of a session's hosts before the dial (nearest mirror), and the next to try. */
  private readonly nearest: NearestJoin;
  /** Client: the most telling failure of each dial group's dials that ended before the rest. */
  private readonly groupFailures = new GroupFailures();

  constructor(
    readonly role: 'host' | 'client',
    options: Partial<EndpointOptions> & Pick<EndpointOptions, 'joinCode' | 'protocolVersion'>,
    private readonly makeHandler: (conn: Connection<R>) => ConnectionHandler<R>,
    now: number,
  ) {
    this.options = { ...DEFAULT_ENDPOINT_OPTIONS, ...options };
    this.nearest = new NearestJoin(this.options.protocolVersion);
    this.host =
      role === 'host'
        ? new HostHandshake(
            this.options.joinCode,
            this.options.protocolVersion,
            now,
            this.options.channel,
          )
        : undefined;
    this.admission = new HostAdmission(this.options, this.counters);
    this.probeReplies = new ProbeReplies(this.options.protocolVersion, this.counters);
    this.lastNow = now;
  }

  /** Established and pending connections. */
  connections(): IterableIterator<Connection<R>> {
    return Array.from(this.entries.values(), (e) => e.conn).values();
  }

  get connectionCount(): number {
    return this.entries.size;
  }

  /** Sizes of every table that hostile traffic could try to grow. */
  tableSizes(): {
    connections: number;
    dialing: number;
    failures: number;
    answered: number;
    outbox: number;
  } {
    return {
      connections: this.entries.size,
      dialing: this.dialing.size,
      failures: this.admission.failureSources,
      answered: this.admission.answeredCount,
      outbox: this.outbox.length,
    };
  }

  /** Host: whether the code is locked after too many failed attempts (until `setJoinCode`). */
  get isCodeLocked(): boolean {
    return this.admission.isCodeLocked;
  }

  /**
   * Client: starts a handshake with a host, at one address or at several at once (its LAN address, its public
   * one): the first whose handshake completes is the connection, the others stop without a word, and only if all
   * fail is one `connect-failed` reported, with the most telling reason any of them learnt.
   */
  connect(
    now: number,
    to: PeerAddress | readonly PeerAddress[],
    /**
     * Dial as more addresses of the host being dialled at these (a relayed path that opened later): it joins the
     * race of whichever of them is still dialling; if none is (connected, or every one failed), nothing is done.
     */
    alongside?: readonly PeerAddress[],
  ): void {
    this.lastNow = Math.max(this.lastNow, now);
    const targets = 'port' in to ? [to] : to;
    const joined =
      alongside === undefined
        ? undefined
        : alongside.map((a) => this.dialing.get(addressKey(a))).find((d) => d !== undefined);
    if (alongside !== undefined && joined === undefined) return; // that dial is over: connected, or failed
    const group = joined?.group ?? new Set<string>();
    const fresh: [string, Dialing][] = [];
    for (const peer of targets) {
      const key = addressKey(peer);
      if (this.dialing.has(key) || this.entries.has(key) || group.has(key)) continue;
      group.add(key);
      fresh.push([key, { peer, handshake: dialHandshake(this.options, now), group, via: 0 }]);
    }
    for (const [key, d] of fresh) this.dialing.set(key, d);
    for (const [key, d] of fresh) this.drainHandshake(now, key, d);
  }

  /**
   * Client: joins the nearest of a session's hosts (its mirrors): probes each a few times in parallel and dials
   * the one with the lowest RTT (a `probed` event says what each answered); none answering ends in `connect-failed`.
   * One host is dialled at once, with no probing delay.
   */
  connectNearest(
    now: number,
    hosts: readonly PeerAddress[],
    options: Partial<NearestProbeOptions> = {},
  ): void {
    this.lastNow = Math.max(this.lastNow, now);
    if (hosts.length <= 1 || this.nearest.probing) {
      if (hosts.length === 1) this.connect(now, hosts);
      return;
    }
    this.nearest.start(now, hosts, options);
  }

  /**
   * Client: the session's hosts as the joined host told them. A second look at the nearest host, a few seconds
   * after the join, probes them too (NearestJoin.knownHosts).
   */
  sessionHosts(hosts: readonly PeerAddress[]): void {
    this.nearest.knownHosts(hosts);
  }

  /** Client: the session's hosts known before this join, for that second look too (NearestJoin.linkHosts). */
  linkHosts(hosts: readonly PeerAddress[]): void {
    this.nearest.linkHosts(hosts);
  }

  /** `via`: the local port it came in on, 0 the main one (see Transmit). */
  handleDatagram(now: number, from: PeerAddress, bytes: Uint8Array, via = 0): void {
    this.lastNow = Math.max(this.lastNow, now);
    if (via !== 0) {
      this.arrivedOn = via;
      try {
        this.fromExtraPort(now, from, bytes, via);
      } finally {
        this.arrivedOn = 0;
      }
      return;
    }
    const relay = this.relay;
    if (relay?.isServer(from) === true) {
      relay.handleDatagram(now, from, bytes);
      for (let i = relay.pollInbound(); i !== undefined; i = relay.pollInbound()) {
        // It came through the relay, so replies go back through it (bounded by the relay's peer table).
        if (!relay.isRelayed(i.from)) relay.permit(now, i.from);
        if (!relay.isServer(i.from)) this.route(now, i.from, i.bytes);
      }
      return;
    }
    this.route(now, from, bytes);
  }

  /**
   * An extra port (a fan opened through a hard NAT) carries rendezvous for the tenant, and connection traffic only
   * from the peer the tenant routes through that very port: anyone else there is a stranger.
   */
  private fromExtraPort(now: number, from: PeerAddress, bytes: Uint8Array, via: number): void {
    const tenant = this.tenant;
    if ((bytes[0] ?? 0) >= RENDEZVOUS_MARKER) {
      if (tenant === undefined) this.counters.unexpectedHandshake++;
      else tenant.handleDatagram(now, from, bytes, via);
      return;
    }
    if (tenant?.routeOf?.(from) !== via) {
      this.counters.unknownSource++;
      return;
    }
    this.route(now, from, bytes);
  }

  private route(now: number, from: PeerAddress, bytes: Uint8Array): void {
    const first = bytes[0];
    if (first === undefined) {
      this.counters.empty++;
      return;
    }
    const key = addressKey(from);
    if (first >= RENDEZVOUS_MARKER) {
      if (this.tenant === undefined) this.counters.unexpectedHandshake++;
      else this.tenant.handleDatagram(now, from, bytes);
      return;
    }
    if (isProbeByte(first)) {
      this.onProbe(now, from, bytes);
      return;
    }
    if (first >= HANDSHAKE_MARKER) {
      this.onHandshakeDatagram(now, from, key, bytes);
      return;
    }
    const entry = this.entries.get(key) ?? this.moved.aliasOf(now, key);
    if (
      entry !== undefined &&
      !entry.opened &&
      this.relay !== undefined &&
      !entry.conn.authenticates(bytes) &&
      this.migrate(now, from, key, bytes, entry)
    )
      return;
    if (entry === undefined) {
      if (this.migrate(now, from, key, bytes)) return;
      // No reply to strangers: a reply would be an amplification and a probe oracle.
      this.counters.unknownSource++;
      return;
    }
    if (entry.via !== this.arrivedOn && entry.conn.authenticates(bytes))
      // Its peer reaches us on another of our ports now (its side of a hard NAT's path moved): answer there.
      entry.via = this.arrivedOn;
    entry.conn.handleDatagram(now, bytes);
    this.afterActivity(entry.conn.peer, entry);
  }

  /**
   * A sealed packet from an unknown address may be a relayed connection's peer reaching us directly: a path that
   * opened later. If it is a new packet under one of those connections' keys, the connection moves to this
   * address (its session sees nothing but a better path); its old address stays an alias for a few seconds, for
   * packets still on their way. Only relayed connections are tried, a few packets per source and second, so
   * strangers cannot make us decrypt much; an off-path attacker cannot make such a packet, and one on the path
   * could drop the traffic anyway.
   *
   * `shadowed`: a handshake we answered at this address whose client never took it up (its relayed path won the
   * race); if the datagram moves a relayed connection here, that unused handshake is dropped (not counted as a
   * failed attempt: the same client proved the code on the other path).
   */
  private migrate(
    now: number,
    from: PeerAddress,
    key: string,
    bytes: Uint8Array,
    shadowed?: Entry<R>,
  ): boolean {
    const relay = this.relay;
    if (relay === undefined || (bytes[0] ?? 0) >= HANDSHAKE_MARKER) return false;
    // Rate-limited before anything else: a stranger's flood costs a token lookup per datagram, not a scan.
    if (!this.moved.mayTry(now, from.address)) return false;
    for (const entry of this.entries.values()) {
      if (!entry.opened || !relay.isRelayed(entry.peer)) continue;
      if (!entry.conn.authenticates(bytes)) continue;
      if (shadowed !== undefined && this.entries.get(key) === shadowed) {
        this.entries.delete(key);
        shadowed.version++;
      }
      const old = entry.conn.peer;
      this.entries.delete(old);
      entry.peer = from;
      entry.ip = from.address;
      entry.conn.peer = key;
      entry.via = this.arrivedOn;
      this.entries.set(key, entry);
      if (this.withOutput.delete(old)) this.withOutput.add(key);
      this.moved.moved(now, old, entry);
      this.counters.migrated++;
      entry.conn.handleDatagram(now, bytes);
      this.afterActivity(key, entry);
      return true;
    }
    return false;
  }

  /**
   * Sends one packet of `conn` (a ping) to `to` instead of its peer's address: a probe of a direct path while the
   * connection runs over a relay. If it gets through, the peer moves the connection to it (see `migrate`), and its
   * packets from the new address move ours.
   */
  probe(now: number, conn: Connection<R>, to: PeerAddress): void {
    const entry = this.entries.get(conn.peer);
    if (entry?.conn !== conn || !conn.isOpen) return;
    this.collect(conn.peer, entry);
    conn.ping(now);
    const via = this.routeVia(to);
    for (let b = conn.pollTransmit(); b !== undefined; b = conn.pollTransmit())
      this.outbox.push(withVia({ to, bytes: b }, via));
    this.withOutput.delete(conn.peer);
    this.deadlines.markStale(entry);
  }

  /**
   * A host answers a PROBE with its version and the probe's nonce, from no state: a reply smaller than the probe,
   * at most a bucket's worth per source, none to a banned one. A client takes the replies to its own probes.
   */
  private onProbe(now: number, from: PeerAddress, bytes: Uint8Array): void {
    if (this.role === 'client') {
      if (this.nearest.handleReply(now, from, bytes)) this.afterProbe(now);
      else this.counters.unexpectedHandshake++;
      return;
    }
    const nonce = this.probeReplies.nonceOf(bytes);
    if (nonce === undefined) return;
    if (this.admission.isBanned(this.sourceOf(from))) {
      this.counters.banned++;
      return;
    }
    const reply = this.probeReplies.reply(now, this.failureKey(from), nonce);
    if (reply !== undefined) this.send(from, reply);
  }

  /** What the probe of a session's hosts says to do now: dial the nearest, report, or fail. */
  private afterProbe(now: number): void {
    for (const step of this.nearest.steps())
      if (step.type === 'dial') this.connect(now, step.to);
      else if (step.type === 'probed' || step.type === 'nearer') this.events.push(step);
      else this.events.push({ type: 'connect-failed', peer: step.peer, reason: step.reason });
  }

  private onHandshakeDatagram(
    now: number,
    from: PeerAddress,
    key: string,
    bytes: Uint8Array,
  ): void {
    const p = decodeHandshake(bytes);
    if (isHandshakeDecodeError(p)) {
      this.counters.badHandshake++;
      return;
    }
    if (this.role === 'client') {
      const d = this.dialing.get(key);
      if (d === undefined) {
        this.counters.unexpectedHandshake++;
        return;
      }
      d.handshake.handlePacket(now, p);
      this.drainHandshake(now, key, d);
      return;
    }
    this.onHostHandshake(now, from, key, p, bytes.length);
  }

  private onHostHandshake(
    now: number,
    from: PeerAddress,
    key: string,
    p: HandshakePacket,
    size: number,
  ): void {
    const host = this.host;
    if (host === undefined) return;
    if (p.type === 'hello') {
      if (size < HELLO_SIZE) {
        this.counters.unexpectedHandshake++;
        return;
      }
      // Refusals that need no cookie are as small as a CHALLENGE, so answering a spoofed HELLO amplifies nothing.
      const refusal = this.refusal(now, from);
      this.send(from, refusal ? reject(p.clientNonce, refusal) : host.onHello(now, key, p));
      return;
    }
    if (p.type !== 'response') {
      this.counters.unexpectedHandshake++;
      return;
    }
    const existing = this.entries.get(key);
    if (
      existing?.clientShare !== undefined &&
      existing.accept !== undefined &&
      sameBytes(existing.clientShare, p.share)
    ) {
      // Our ACCEPT was lost: answer again, same bytes, no new state.
      this.send(from, existing.accept);
      return;
    }
    // Only a source that got our CHALLENGE (so owns its address) costs any work or state from here on.
    if (!host.cookieValid(now, key, p)) {
      this.counters.badCookie++;
      return;
    }
    const cookieId = Buffer.from(p.cookie).toString('base64');
    if (this.admission.wasAnswered(now, cookieId)) {
      // Answered once already and its connection is gone: a replay (a new answer would only cost CPU and a slot).
      this.counters.replayed++;
      return;
    }
    const refusal = this.refusal(now, from);
    if (refusal !== undefined) {
      this.send(from, reject(p.clientNonce, refusal));
      return;
    }
    if (existing !== undefined) {
      existing.conn.close(now, 'replaced', 'a new connection from the same address');
      this.afterActivity(key, existing);
    }
    if (!hasRoomFor(this.entries, this.sourceOf(from), this.options)) {
      this.counters.full++;
      this.send(from, reject(p.clientNonce, 'full'));
      return;
    }
    const outcome = host.onResponse(p);
    if (outcome.kind === 'drop') {
      this.counters.badShare++;
      return;
    }
    if (outcome.kind === 'reject') {
      this.send(from, outcome.reply);
      return;
    }
    this.admission.rememberAnswered(now, cookieId);
    const conn = new Connection<R>(
      key,
      { send: outcome.keys.hostToClient, receive: outcome.keys.clientToHost },
      now,
      false,
      this.options.connection,
    );
    const entry: Entry<R> = {
      conn,
      peer: from,
      ip: this.sourceOf(from),
      clientShare: p.share,
      accept: outcome.reply,
      attemptFrom: this.failureKey(from),
      opened: false,
      announced: false,
      via: this.arrivedOn,
      version: 0,
    };
    this.adopt(key, entry);
    this.send(from, outcome.reply);
  }

  /**
   * Who a datagram comes from, for bans and per-source caps: its IP, or for a peer on our relay its whole relayed
   * address (everyone relayed shares the relay's IP, and one of them must not stand for all).
   */
  sourceOf(from: PeerAddress): string {
    return this.relay?.isRelayed(from) === true ? addressKey(from) : from.address;
  }

  /** The key failed attempts are counted under: an IPv4 address or IPv6 /64, or a relayed peer's address. */
  private failureKey(from: PeerAddress): string {
    return this.relay?.isRelayed(from) === true ? addressKey(from) : sourcePrefix(from.address);
  }

  /** The source a connection counts under (`sourceOf` its address). */
  sourceOfConnection(conn: Connection<R>): string | undefined {
    return this.entries.get(conn.peer)?.ip;
  }

  /** Why the host refuses a source before any work, if it does: banned, the code locked, too many failures. */
  private refusal(now: number, from: PeerAddress): RejectReason | undefined {
    const address = this.sourceOf(from);
    if (this.admission.isBanned(address)) {
      this.counters.banned++;
      return 'banned';
    }
    if (this.admission.isCodeLocked) {
      this.counters.codeLocked++;
      return 'code-locked';
    }
    if (this.admission.isLimited(now, this.failureKey(from))) {
      this.counters.rateLimited++;
      return 'rate-limited';
    }
    return undefined;
  }

  private drainHandshake(now: number, key: string, d: Dialing): void {
    const via = this.routeVia(d.peer);
    if (via !== d.via && d.handshake.result === undefined) {
      // The host now reaches us on another of our ports (a fan port, through a hard NAT), so its NAT sees us at
      // another address: a CHALLENGE's cookie names the address it went to, so the handshake starts over there.
      d.via = via;
      d.handshake = dialHandshake(this.options, now);
    }
    for (let b = d.handshake.pollTransmit(); b !== undefined; b = d.handshake.pollTransmit())
      if (this.outbox.length < MAX_QUEUED_REPLIES)
        this.outbox.push(withVia({ to: d.peer, bytes: b }, d.via));
    const result = d.handshake.result;
    if (result === undefined) return;
    this.dialing.delete(key);
    d.group.delete(key);
    if (result.kind === 'failed') {
      const reason = this.groupFailures.record(d.group, result.reason);
      if (d.group.size > 0) return;
      // A host of several (mirrors) that fails for its own reason: the next nearest is dialled instead.
      const next = this.nearest.next(key, reason);
      if (next !== undefined) this.connect(now, next);
      else this.events.push({ type: 'connect-failed', peer: d.peer, reason });
      return;
    }
    // This path won: the host's other addresses are dropped (they sent nothing sealed, so nothing to close).
    for (const other of d.group) this.dialing.delete(other);
    d.group.clear();
    const conn = new Connection<R>(
      key,
      { send: result.keys.clientToHost, receive: result.keys.hostToClient },
      now,
      true,
      this.options.connection,
    );
    this.adopt(key, {
      conn,
      peer: d.peer,
      ip: d.peer.address,
      opened: true,
      announced: false,
      via: d.via,
      version: 0,
    });
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    // The first sealed packet tells the host its ACCEPT arrived.
    conn.ping(now);
    this.afterActivity(key, entry);
  }

  private adopt(key: string, entry: Entry<R>): void {
    entry.conn.handler = this.makeHandler(entry.conn);
    // A packet sent from outside the endpoint's calls (the app's own send, a close) moves the connection's
    // timers as well: its deadline is worked out again.
    entry.conn.onOutput = () => {
      // By its current key: a connection moved to a new path keeps its callbacks.
      this.withOutput.add(entry.conn.peer);
      this.deadlines.markStale(entry);
    };
    entry.conn.onWake = () => this.deadlines.markStale(entry);
    this.entries.set(key, entry);
    this.deadlines.markStale(entry);
  }

  /** Turns connection state changes into events and forgets closed connections once their output is out. */
  private afterActivity(key: string, entry: Entry<R>): void {
    const conn = entry.conn;
    this.deadlines.markStale(entry);
    // The client's first sealed packet opened under keys only the code could give: its join attempt succeeded.
    if (conn.state === 'open') entry.opened = true;
    if (!entry.announced && entry.opened) {
      entry.announced = true;
      this.events.push({ type: 'connected', conn });
      if (this.role === 'client') this.nearest.joined(this.lastNow, key);
    }
    const info = conn.closeInfo;
    if (info === undefined) return;
    if (!entry.opened && entry.attemptFrom !== undefined) {
      // A host reply the client never followed with a sealed packet: a wrong code, a guess, or an abandoned join.
      const failures = this.admission.attemptFailed(this.lastNow, entry.attemptFrom);
      if (failures !== undefined) this.events.push({ type: 'code-locked', failures });
    }
    // A host reply never followed by a sealed packet was never a connection: nothing to announce.
    if (entry.announced) {
      this.events.push({ type: 'closed', conn, info });
      if (this.role === 'client') this.nearest.left();
    }
    this.collect(key, entry);
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }

  private collect(key: string, entry: Entry<R>): void {
    for (let b = entry.conn.pollTransmit(); b !== undefined; b = entry.conn.pollTransmit()) {
      this.outbox.push(withVia({ to: entry.peer, bytes: b }, entry.via));
    }
    this.withOutput.delete(key);
  }

  /** A reply to the datagram being handled, from the port it came in on. */
  private send(to: PeerAddress, bytes: Uint8Array): void {
    // Handshake replies are one per request and drained after every datagram; the cap only guards a caller that never polls.
    if (this.outbox.length < MAX_QUEUED_REPLIES)
      this.outbox.push(withVia({ to, bytes }, this.arrivedOn));
  }

  /** The local port we reach `to` from when we speak first: the fan port the tenant routes it through, or 0. */
  private routeVia(to: PeerAddress): number {
    const tenant = this.tenant;
    return tenant?.hasRoutes === true ? (tenant.routeOf?.(to) ?? 0) : 0;
  }

  handleTimeout(now: number): void {
    this.lastNow = Math.max(this.lastNow, now);
    this.host?.rotate(now);
    if (this.tenant !== undefined && this.tenant.nextTimeout() <= now)
      this.tenant.handleTimeout(now);
    if (this.relay !== undefined && this.relay.nextTimeout() <= now) this.relay.handleTimeout(now);
    if (this.nearest.nextTimeout() <= now) {
      this.nearest.handleTimeout(now);
      this.afterProbe(now);
    }
    for (const [key, d] of this.dialing) {
      d.handshake.handleTimeout(now);
      this.drainHandshake(now, key, d);
    }
    this.deadlines.refresh();
    for (const entry of this.deadlines.takeDue(now)) {
      if (this.entries.get(entry.conn.peer) !== entry) continue;
      // Its cached deadline is due (worked out since its last change: see DeadlineCache.refresh), so it is not asked
      // again: a connection's timer checks each of its own deadlines against `now` and does nothing early, and on
      // a mirror this second look was a quarter of the deadline work.
      entry.conn.handleTimeout(now);
      this.afterActivity(entry.conn.peer, entry); // caches its next deadline
    }
  }

  nextTimeout(): number {
    let t = Math.min(
      this.host?.nextRotation() ?? Infinity,
      this.tenant?.nextTimeout() ?? Infinity,
      this.relay?.nextTimeout() ?? Infinity,
      this.nearest.nextTimeout(),
    );
    for (const d of this.dialing.values()) t = Math.min(t, d.handshake.nextTimeout());
    this.deadlines.refresh();
    return Math.min(t, this.deadlines.earliest()?.at ?? Infinity);
  }

  /**
   * Test aid: throws if a connection's real next timeout is earlier than the cached one, i.e. some layer
   * queued data without waking its connection (which would delay sending until an unrelated timer).
   */
  auditTimeouts(): void {
    this.deadlines.refresh();
    const cached = this.deadlines.earliest()?.at ?? Infinity;
    for (const e of this.entries.values()) {
      const actual = e.conn.nextTimeout();
      if (actual < cached - 1e-6)
        throw new Error(`endpoint: ${e.conn.peer} is due at ${actual}, the cache says ${cached}`);
    }
  }

  /** Closes every connection with a reason (their CLOSE packets are queued). */
  closeAll(now: number, reason: 'shutdown' | 'closed', detail = ''): void {
    this.lastNow = Math.max(this.lastNow, now);
    for (const [key, entry] of this.entries) {
      entry.conn.close(now, reason, detail);
      this.afterActivity(key, entry);
    }
  }

  /** Host: refuses every later handshake from this source address and closes its connections. */
  ban(now: number, address: string, detail = 'banned by the host'): void {
    this.lastNow = Math.max(this.lastNow, now);
    this.admission.ban(address);
    for (const [key, entry] of this.entries) {
      if (entry.ip !== address) continue;
      entry.conn.close(now, 'kicked', detail);
      this.afterActivity(key, entry);
    }
  }

  isBanned(address: string): boolean {
    return this.admission.isBanned(address);
  }

  /** Host: a new join code for handshakes from now on (connections already open keep their keys). */
  setJoinCode(code: string): void {
    this.host?.setJoinCode(code);
    this.admission.setJoinCode(code);
  }

  /** Kicks one connection (host). */
  kick(now: number, conn: Connection<R>, detail = ''): void {
    this.lastNow = Math.max(this.lastNow, now);
    const entry = this.entries.get(conn.peer);
    if (entry?.conn !== conn) return;
    conn.close(now, 'kicked', detail);
    this.afterActivity(conn.peer, entry);
  }

  /** Re-checks a connection after the layer above used it directly (sent, closed). */
  touch(conn: Connection<R>): void {
    const entry = this.entries.get(conn.peer);
    if (entry?.conn === conn) this.afterActivity(conn.peer, entry);
  }

  pollTransmit(): Transmit | undefined {
    while (this.outbox.length === 0 && this.withOutput.size > 0) {
      const key = this.withOutput.values().next().value;
      if (key === undefined) break;
      this.withOutput.delete(key);
      const entry = this.entries.get(key);
      if (entry !== undefined) this.collect(key, entry);
    }
    const t = this.outbox.shift() ?? this.nearest.pollTransmit() ?? this.tenant?.pollTransmit();
    const relay = this.relay;
    if (relay === undefined) return t;
    if (t === undefined) return relay.pollTransmit();
    // A peer we reach through the relay: wrapped for the relay's server (a priming TTL makes no sense there).
    return relay.isRelayed(t.to) ? (relay.wrap(t.to, t.bytes) ?? t) : t;
  }

  pollEvent(): EndpointEvent<R> | undefined {
    return this.events.shift();
  }
}

/** A transmit from local port `via` (0, the main one, is left implicit). */
function withVia(t: Transmit, via: number): Transmit {
  return via === 0 ? t : { ...t, via };
}
