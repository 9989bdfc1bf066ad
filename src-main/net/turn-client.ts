// A TURN client (RFC 8656 over UDP) sharing the endpoint's socket, so relayed game traffic leaves by the same NAT
// mapping as the rest: it allocates a relayed address with long-term credentials, keeps it, its permissions and its
// channels refreshed, and wraps / unwraps peers' datagrams (ChannelData once a channel is bound, Send and Data
// indications before). Knows no sessions or connections; sans-IO: datagrams and time in, datagrams and events out.
//
// Use: `allocate(now)`; feed every datagram whose source `isServer` to `handleDatagram`, then drain `pollInbound`
// (the peers' datagrams inside, with the peer as source); `permit(now, peer)` each peer to talk to; `wrap(peer,
// bytes)` gives the datagram to send the server instead of sending `bytes` to the peer; drive `handleTimeout` at
// `nextTimeout`, and send everything `pollTransmit` gives. A client allocates once: after 'failed' or 'closed', make
// a new one (with fresh credentials if they were time-limited).
import { createHmac } from 'node:crypto';
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { Transmit } from './endpoint';
import type { DecodedStun, StunAttribute } from './stun';
import {
  decodeChannelData,
  decodeStun,
  encodeChannelData,
  encodeStun,
  findAttribute,
  isStunDecodeError,
  longTermKey,
  MAX_CHANNEL,
  MIN_CHANNEL,
  serverDatagramKind,
  StunMethod,
  TRANSACTION_ID_SIZE,
  UDP_PROTOCOL,
  verifyIntegrity,
} from './stun';
import { canonicalAddress } from './wire-address';

/** RFC 8489 §6.2.1: the first retransmission timeout, doubled after each send; Rc requests in all, then Rm RTOs. */
const DEFAULT_RTO_MS = 500;
const DEFAULT_MAX_SENDS = 7;
const LAST_WAIT_RTOS = 16;
/** An allocation is refreshed when this share of its lifetime has passed. */
const REFRESH_AT = 0.8;
/** RFC 8656's default lifetime, when the server names none. */
const DEFAULT_LIFETIME_S = 600;
/** Permissions last 300 s and channel bindings 600 s (RFC 8656): refreshed a minute early. */
const PERMISSION_REFRESH_MS = 240_000;
const CHANNEL_REFRESH_MS = 540_000;
/** 401 / 438 challenges answered for one request before giving up: a server can't keep us looping. */
const MAX_CHALLENGES = 3;
export const MAX_TURN_PEERS = 64;
const MAX_OUTBOX = 256;
const MAX_INBOUND = 256;
const MAX_EVENTS = 256;

export interface TurnClientOptions {
  readonly server: PeerAddress;
  readonly username: string;
  readonly password: string;
  /** Random bytes (crypto in the app, a seeded generator under test): transaction ids. */
  readonly random: (n: number) => Uint8Array;
  /** Sent as SOFTWARE in Allocate requests. */
  readonly software?: string;
  /** Overrides of RFC 8489's RTO (500 ms) and Rc (7), for tests and impatient callers. */
  readonly rtoMs?: number;
  readonly maxSends?: number;
  /** False: never bind channels, relay with Send / Data indications only (36+ bytes each instead of 4). */
  readonly channels?: boolean;
}

export type TurnFailure =
  | 'timeout'
  /** The server refused our credentials. */
  | 'unauthorized'
  /** An error response; `code` says which. */
  | 'rejected'
  /** The server no longer knows our allocation (437). */
  | 'allocation-lost'
  /** A success response lacking what it must carry. */
  | 'bad-response';

export type TurnEvent =
  | {
      readonly type: 'allocated';
      /** Where peers send to reach us. */
      readonly relayed: PeerAddress;
      /** Our public address as the server sees it. */
      readonly mapped: PeerAddress;
      readonly lifetimeMs: number;
    }
  | { readonly type: 'refreshed'; readonly lifetimeMs: number }
  /** The server relays between us and the peer (Send / Data indications from now on). */
  | { readonly type: 'permitted'; readonly peer: PeerAddress }
  /** ChannelData from now on: 4 bytes of overhead instead of 36 or more. */
  | { readonly type: 'channel-bound'; readonly peer: PeerAddress; readonly channel: number }
  /** The peer is forgotten: its permission could not be made or refreshed. */
  | {
      readonly type: 'permit-failed';
      readonly peer: PeerAddress;
      readonly code: number | undefined;
    }
  | { readonly type: 'failed'; readonly reason: TurnFailure; readonly code: number | undefined }
  /** After `close`: the allocation is released (or its release went unanswered). */
  | { readonly type: 'closed' };

/** A peer's datagram that came through the relay. */
export interface TurnInbound {
  readonly from: PeerAddress;
  readonly bytes: Uint8Array;
}

export type TurnState =
  | { readonly type: 'idle' }
  | { readonly type: 'allocating' }
  | {
      readonly type: 'allocated';
      readonly relayed: PeerAddress;
      readonly mapped: PeerAddress;
      /** When the next Refresh goes out (Infinity while one is in flight). */
      refreshAt: number;
    }
  | { readonly type: 'closing' }
  | { readonly type: 'closed' }
  | { readonly type: 'failed'; readonly reason: TurnFailure };

interface Peer {
  readonly address: PeerAddress;
  readonly key: string;
  /** Undefined once channels ran out (4096 per allocation): Send indications only. */
  channel: number | undefined;
  permitted: boolean;
  bound: boolean;
  /** Next refresh times (Infinity while a request is in flight). */
  permissionAt: number;
  channelAt: number;
}

type Purpose =
  | { readonly kind: 'allocate' }
  | { readonly kind: 'refresh'; readonly lifetimeS: number | undefined }
  | { readonly kind: 'permission'; readonly peer: Peer }
  | { readonly kind: 'channel-bind'; readonly peer: Peer; readonly channel: number };

interface Transaction {
  readonly key: string;
  readonly purpose: Purpose;
  readonly bytes: Uint8Array;
  /** Whether it carried MESSAGE-INTEGRITY, and with which nonce. */
  readonly nonce: string | undefined;
  readonly challenges: number;
  sends: number;
  rtoMs: number;
  due: number;
}

interface Credentials {
  readonly realm: string;
  readonly nonce: string;
  readonly key: Uint8Array;
}

export class TurnClient {
  readonly counters = {
    /** Server datagrams that did not decode. */
    malformed: 0,
    /** Well-formed but answering nothing we asked, or of a kind a server doesn't send. */
    unexpected: 0,
    /** Success responses whose MESSAGE-INTEGRITY was missing or wrong: ignored. */
    badIntegrity: 0,
    /** ChannelData on a channel we never bound. */
    unknownChannel: 0,
    /** Datagrams handed to us that were not from the server. */
    foreign: 0,
    /** 401 and 438 challenges answered by sending the request again (a nonce expired, typically). */
    challenges: 0,
    retransmits: 0,
    relayedIn: 0,
    relayedOut: 0,
    inboundDropped: 0,
    outboxDropped: 0,
    peersRefused: 0,
  };
  readonly server: PeerAddress;
  private readonly serverKey: string;
  private readonly username: string;
  private readonly password: string;
  private readonly random: (n: number) => Uint8Array;
  private readonly software: string | undefined;
  private readonly rtoMs: number;
  private readonly maxSends: number;
  private current: TurnState = { type: 'idle' };
  private credentials: Credentials | undefined;
  private readonly transactions = new Map<string, Transaction>();
  private readonly peers = new Map<string, Peer>();
  private readonly byChannel = new Map<number, Peer>();
  private nextChannel: number;
  private readonly outbox: Transmit[] = [];
  private readonly inbound: TurnInbound[] = [];
  private readonly events: TurnEvent[] = [];

  constructor(options: TurnClientOptions) {
    const server = canonicalAddress(options.server);
    if (server === undefined || server.port === 0)
      throw new RangeError(`TURN server is not an address: ${addressKey(options.server)}`);
    this.server = server;
    this.serverKey = addressKey(server);
    this.username = options.username;
    this.password = options.password;
    this.random = options.random;
    this.software = options.software;
    this.rtoMs = options.rtoMs ?? DEFAULT_RTO_MS;
    this.maxSends = options.maxSends ?? DEFAULT_MAX_SENDS;
    this.nextChannel = options.channels === false ? MAX_CHANNEL + 1 : MIN_CHANNEL;
    if (!(this.rtoMs > 0) || !Number.isInteger(this.maxSends) || this.maxSends < 1)
      throw new RangeError('TURN retransmission settings out of range');
  }

  get state(): TurnState {
    return this.current;
  }

  /** Our relayed address, once allocated. */
  get relayed(): PeerAddress | undefined {
    return this.current.type === 'allocated' ? this.current.relayed : undefined;
  }

  allocate(now: number): void {
    if (this.current.type !== 'idle') throw new Error(`allocate in state ${this.current.type}`);
    this.current = { type: 'allocating' };
    this.request(now, { kind: 'allocate' }, 0);
  }

  /** Releases the allocation (a Refresh with LIFETIME 0); 'closed' follows. */
  close(now: number): void {
    const s = this.current.type;
    if (s === 'closing' || s === 'closed' || s === 'failed') return;
    this.transactions.clear();
    this.dropPeers();
    if (s === 'allocated') {
      this.current = { type: 'closing' };
      this.request(now, { kind: 'refresh', lifetimeS: 0 }, 0);
    } else {
      this.current = { type: 'closed' };
      this.event({ type: 'closed' });
    }
  }

  /**
   * Lets `peer` talk to us through the relay: CreatePermission for its IP and ChannelBind for its address, both
   * kept refreshed until `forget`. Before allocation it is remembered and sent once allocated. False if refused:
   * the client is closing, closed or failed, the address is not one, or MAX_TURN_PEERS are permitted already.
   */
  permit(now: number, peer: PeerAddress): boolean {
    const s = this.current.type;
    const address = canonicalAddress(peer);
    if (
      s === 'closing' ||
      s === 'closed' ||
      s === 'failed' ||
      address === undefined ||
      address.port === 0
    )
      return false;
    const key = addressKey(address);
    if (this.peers.has(key)) return true;
    if (this.peers.size >= MAX_TURN_PEERS) {
      this.counters.peersRefused++;
      return false;
    }
    // Channels are never reused within an allocation: a number stays tied to its peer for 10 min after its last
    // refresh (RFC 8656), and 4096 of them outlast any session's peers.
    const channel = this.nextChannel <= MAX_CHANNEL ? this.nextChannel++ : undefined;
    const p: Peer = {
      address,
      key,
      channel,
      permitted: false,
      bound: false,
      permissionAt: now,
      channelAt: channel === undefined ? Infinity : now,
    };
    this.peers.set(key, p);
    if (channel !== undefined) this.byChannel.set(channel, p);
    if (s === 'allocated') this.refreshPeer(now, p);
    return true;
  }

  /** Stops refreshing the peer's permission and channel; the server lets them lapse. */
  forget(peer: PeerAddress): void {
    const address = canonicalAddress(peer);
    const p = address === undefined ? undefined : this.peers.get(addressKey(address));
    if (p !== undefined) this.removePeer(p);
  }

  /** Whether a datagram from `from` is the server's (demultiplex by source: TURN's first bytes overlap ours). */
  isServer(from: PeerAddress): boolean {
    const a = canonicalAddress(from);
    return a !== undefined && addressKey(a) === this.serverKey;
  }

  /** Whether `to` is a permitted peer, so `wrap` will give a datagram for it. */
  isRelayed(to: PeerAddress): boolean {
    return this.current.type === 'allocated' && this.peerOf(to) !== undefined;
  }

  /**
   * The datagram to send the server so it relays `bytes` to `to`: ChannelData once the channel is bound, a Send
   * indication before. Undefined unless allocated and `to` is permitted.
   */
  wrap(to: PeerAddress, bytes: Uint8Array): Transmit | undefined {
    if (this.current.type !== 'allocated' || bytes.length > 0xffff) return undefined;
    const p = this.peerOf(to);
    if (p === undefined) return undefined;
    this.counters.relayedOut++;
    if (p.bound && p.channel !== undefined)
      return { to: this.server, bytes: encodeChannelData(p.channel, bytes) };
    const attributes: StunAttribute[] = [
      { type: 'xor-peer-address', address: p.address },
      { type: 'data', bytes },
    ];
    const transactionId = this.transactionId();
    return {
      to: this.server,
      bytes: encodeStun({ method: StunMethod.send, cls: 'indication', transactionId, attributes }),
    };
  }

  handleDatagram(now: number, from: PeerAddress, bytes: Uint8Array): void {
    if (!this.isServer(from)) {
      this.counters.foreign++;
      return;
    }
    switch (serverDatagramKind(bytes)) {
      case 'channel-data':
        this.onChannelData(bytes);
        return;
      case 'stun':
        this.onStun(now, bytes);
        return;
      case 'other':
        this.counters.malformed++;
        return;
    }
  }

  private onChannelData(bytes: Uint8Array): void {
    const cd = decodeChannelData(bytes);
    if (isStunDecodeError(cd)) {
      this.counters.malformed++;
      return;
    }
    // A channel counts from its ChannelBind on: the server may use it before our success response arrives.
    const p = this.byChannel.get(cd.channel);
    if (p === undefined) {
      this.counters.unknownChannel++;
      return;
    }
    this.deliver(p.address, cd.data);
  }

  private onStun(now: number, bytes: Uint8Array): void {
    const m = decodeStun(bytes);
    if (isStunDecodeError(m)) {
      this.counters.malformed++;
      return;
    }
    if (m.cls === 'indication' && m.method === StunMethod.data) {
      const peer = findAttribute(m, 'xor-peer-address')?.address;
      const data = findAttribute(m, 'data')?.bytes;
      if (peer === undefined || data === undefined) this.counters.malformed++;
      else this.deliver(peer, data);
      return;
    }
    const tx =
      m.cls === 'success' || m.cls === 'error'
        ? this.transactions.get(hex(m.transactionId))
        : undefined;
    if (tx === undefined || m.method !== methodOf(tx.purpose)) {
      this.counters.unexpected++;
      return;
    }
    if (m.cls === 'success') {
      const c = this.credentials;
      if (tx.nonce !== undefined && (c === undefined || !verifyIntegrity(m, c.key))) {
        this.counters.badIntegrity++;
        return;
      }
      this.transactions.delete(tx.key);
      this.onSuccess(now, tx.purpose, m);
      return;
    }
    const code = findAttribute(m, 'error-code')?.code;
    if (code === undefined) {
      this.counters.malformed++;
      return;
    }
    this.transactions.delete(tx.key);
    if ((code === 401 || code === 438) && this.takeChallenge(tx, m, code)) {
      this.counters.challenges++;
      this.request(now, tx.purpose, tx.challenges + 1);
      return;
    }
    this.onError(tx.purpose, code);
  }

  /** Learns the realm and nonce of a 401 or 438; whether the request is worth sending again with them. */
  private takeChallenge(tx: Transaction, m: DecodedStun, code: 401 | 438): boolean {
    const nonce = findAttribute(m, 'nonce')?.value;
    const realm = findAttribute(m, 'realm')?.value ?? this.credentials?.realm;
    if (nonce === undefined || realm === undefined || tx.challenges >= MAX_CHALLENGES) return false;
    // A 401 to a request that carried this very nonce means the credentials themselves are wrong.
    if (code === 401 && tx.nonce === nonce) return false;
    const key =
      this.credentials?.realm === realm
        ? this.credentials.key
        : longTermKey(this.username, realm, this.password);
    this.credentials = { realm, nonce, key };
    return true;
  }

  private onSuccess(now: number, purpose: Purpose, m: DecodedStun): void {
    switch (purpose.kind) {
      case 'allocate': {
        const relayed = findAttribute(m, 'xor-relayed-address')?.address;
        const mapped = findAttribute(m, 'xor-mapped-address')?.address;
        if (relayed === undefined || mapped === undefined) {
          this.fail('bad-response', undefined);
          return;
        }
        const lifetimeMs = lifetimeOf(m);
        this.current = {
          type: 'allocated',
          relayed,
          mapped,
          refreshAt: now + lifetimeMs * REFRESH_AT,
        };
        this.event({ type: 'allocated', relayed, mapped, lifetimeMs });
        for (const p of this.peers.values()) this.refreshPeer(now, p);
        return;
      }
      case 'refresh': {
        if (this.current.type === 'closing') {
          this.finishClose();
          return;
        }
        if (this.current.type !== 'allocated') return;
        const lifetimeMs = lifetimeOf(m);
        this.current.refreshAt = now + lifetimeMs * REFRESH_AT;
        this.event({ type: 'refreshed', lifetimeMs });
        return;
      }
      case 'permission': {
        const p = purpose.peer;
        if (this.peers.get(p.key) !== p) return;
        p.permissionAt = now + PERMISSION_REFRESH_MS;
        if (!p.permitted) {
          p.permitted = true;
          this.event({ type: 'permitted', peer: p.address });
        }
        return;
      }
      case 'channel-bind': {
        const p = purpose.peer;
        if (this.peers.get(p.key) !== p) return;
        p.channelAt = now + CHANNEL_REFRESH_MS;
        if (!p.bound) {
          p.bound = true;
          this.event({ type: 'channel-bound', peer: p.address, channel: purpose.channel });
        }
        return;
      }
    }
  }

  private onError(purpose: Purpose, code: number | undefined): void {
    switch (purpose.kind) {
      case 'allocate':
        this.fail(
          code === 401 ? 'unauthorized' : code === undefined ? 'timeout' : 'rejected',
          code,
        );
        return;
      case 'refresh':
        if (this.current.type === 'closing') this.finishClose();
        else if (code === undefined) this.fail('timeout', code);
        else if (code === 401) this.fail('unauthorized', code);
        else this.fail(code === 437 ? 'allocation-lost' : 'rejected', code);
        return;
      case 'permission':
      case 'channel-bind':
        if (code === 437) {
          this.fail('allocation-lost', code);
          return;
        }
        if (purpose.kind === 'channel-bind' && code !== undefined && purpose.peer.permitted) {
          // The channel was refused but the permission stands: go on with Send indications.
          this.dropChannel(purpose.peer);
          return;
        }
        if (this.peers.get(purpose.peer.key) !== purpose.peer) return;
        this.removePeer(purpose.peer);
        this.event({ type: 'permit-failed', peer: purpose.peer.address, code });
        return;
    }
  }

  handleTimeout(now: number): void {
    for (const tx of [...this.transactions.values()]) {
      // A failure earlier in this loop may have cleared the rest.
      if (tx.due > now || !this.transactions.has(tx.key)) continue;
      if (tx.sends >= this.maxSends) {
        this.transactions.delete(tx.key);
        this.onError(tx.purpose, undefined);
        continue;
      }
      tx.sends++;
      tx.rtoMs *= 2;
      tx.due = now + (tx.sends >= this.maxSends ? LAST_WAIT_RTOS * this.rtoMs : tx.rtoMs);
      this.counters.retransmits++;
      this.send(tx.bytes);
    }
    const s = this.current;
    if (s.type !== 'allocated') return;
    if (s.refreshAt <= now) {
      s.refreshAt = Infinity;
      this.request(now, { kind: 'refresh', lifetimeS: undefined }, 0);
    }
    for (const p of this.peers.values()) this.refreshPeer(now, p);
  }

  nextTimeout(): number {
    let t = Infinity;
    for (const tx of this.transactions.values()) t = Math.min(t, tx.due);
    if (this.current.type === 'allocated') {
      t = Math.min(t, this.current.refreshAt);
      for (const p of this.peers.values()) t = Math.min(t, p.permissionAt, p.channelAt);
    }
    return t;
  }

  pollTransmit(): Transmit | undefined {
    return this.outbox.shift();
  }

  pollEvent(): TurnEvent | undefined {
    return this.events.shift();
  }

  /** The next peer datagram unwrapped from a Data indication or ChannelData. */
  pollInbound(): TurnInbound | undefined {
    return this.inbound.shift();
  }

  /** Sends whatever of the peer's permission and channel is due. */
  private refreshPeer(now: number, p: Peer): void {
    if (p.permissionAt <= now) {
      p.permissionAt = Infinity;
      this.request(now, { kind: 'permission', peer: p }, 0);
    }
    if (p.channel !== undefined && p.channelAt <= now) {
      p.channelAt = Infinity;
      this.request(now, { kind: 'channel-bind', peer: p, channel: p.channel }, 0);
    }
  }

  private request(now: number, purpose: Purpose, challenges: number): void {
    const transactionId = this.transactionId();
    const attributes: StunAttribute[] = [];
    switch (purpose.kind) {
      case 'allocate':
        attributes.push({ type: 'requested-transport', protocol: UDP_PROTOCOL });
        if (this.software !== undefined)
          attributes.push({ type: 'software', value: this.software });
        break;
      case 'refresh':
        if (purpose.lifetimeS !== undefined)
          attributes.push({ type: 'lifetime', seconds: purpose.lifetimeS });
        break;
      case 'permission':
        attributes.push({ type: 'xor-peer-address', address: purpose.peer.address });
        break;
      case 'channel-bind':
        attributes.push(
          { type: 'channel-number', channel: purpose.channel },
          { type: 'xor-peer-address', address: purpose.peer.address },
        );
        break;
    }
    const c = this.credentials;
    if (c !== undefined)
      attributes.push(
        { type: 'username', value: this.username },
        { type: 'realm', value: c.realm },
        { type: 'nonce', value: c.nonce },
      );
    const bytes = encodeStun(
      { method: methodOf(purpose), cls: 'request', transactionId, attributes },
      c === undefined ? {} : { integrityKey: c.key },
    );
    const key = hex(transactionId);
    this.transactions.set(key, {
      key,
      purpose,
      bytes,
      nonce: c?.nonce,
      challenges,
      sends: 1,
      rtoMs: this.rtoMs,
      due: now + (this.maxSends === 1 ? LAST_WAIT_RTOS * this.rtoMs : this.rtoMs),
    });
    this.send(bytes);
  }

  private transactionId(): Uint8Array {
    const id = this.random(TRANSACTION_ID_SIZE);
    if (id.length !== TRANSACTION_ID_SIZE)
      throw new RangeError('random gave the wrong number of bytes');
    return id;
  }

  private peerOf(to: PeerAddress): Peer | undefined {
    // Asked for every datagram the endpoint sends: an IPv4 text is already canonical (or not an address at all), so
    // only IPv6 spellings need the parse.
    const hit = this.peers.get(addressKey(to));
    if (hit !== undefined || !to.address.includes(':')) return hit;
    const a = canonicalAddress(to);
    return a === undefined ? undefined : this.peers.get(addressKey(a));
  }

  private removePeer(p: Peer): void {
    this.peers.delete(p.key);
    // The channel number stays out of use (see permit); inbound ChannelData on it is no longer ours to deliver.
    this.dropChannel(p);
  }

  private dropChannel(p: Peer): void {
    if (p.channel !== undefined) this.byChannel.delete(p.channel);
    p.channel = undefined;
    p.bound = false;
    p.channelAt = Infinity;
  }

  private dropPeers(): void {
    this.peers.clear();
    this.byChannel.clear();
  }

  private fail(reason: TurnFailure, code: number | undefined): void {
    this.current = { type: 'failed', reason };
    this.transactions.clear();
    this.dropPeers();
    this.event({ type: 'failed', reason, code });
  }

  private finishClose(): void {
    this.current = { type: 'closed' };
    this.transactions.clear();
    this.event({ type: 'closed' });
  }

  private deliver(from: PeerAddress, bytes: Uint8Array): void {
    this.counters.relayedIn++;
    if (this.inbound.length >= MAX_INBOUND) this.counters.inboundDropped++;
    else this.inbound.push({ from, bytes });
  }

  private send(bytes: Uint8Array): void {
    if (this.outbox.length >= MAX_OUTBOX) this.counters.outboxDropped++;
    else this.outbox.push({ to: this.server, bytes });
  }

  private event(e: TurnEvent): void {
    if (this.events.length < MAX_EVENTS) this.events.push(e);
  }
}

function methodOf(p: Purpose): number {
  switch (p.kind) {
    case 'allocate':
      return StunMethod.allocate;
    case 'refresh':
      return StunMethod.refresh;
    case 'permission':
      return StunMethod.createPermission;
    case 'channel-bind':
      return StunMethod.channelBind;
  }
}

function lifetimeOf(m: DecodedStun): number {
  return (findAttribute(m, 'lifetime')?.seconds ?? DEFAULT_LIFETIME_S) * 1000;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

/**
 * Time-limited credentials for coturn's `--use-auth-secret` ("TURN REST API"): the username is the expiry in Unix
 * seconds, a colon and a name; the password is base64(HMAC-SHA1(secret, username)). Our directory mints these.
 */
export function turnRestCredentials(
  secret: string,
  name: string,
  ttlSeconds: number,
  nowSeconds: number,
): { readonly username: string; readonly password: string } {
  if (name.includes(':')) throw new RangeError('a TURN REST name may not contain ":"');
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0)
    throw new RangeError(`bad TTL: ${ttlSeconds}`);
  const expiry = Math.floor(nowSeconds) + ttlSeconds;
  const username = name === '' ? String(expiry) : `${expiry}:${name}`;
  const password = createHmac('sha1', secret).update(username).digest('base64');
  return { username, password };
}
