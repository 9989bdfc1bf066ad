// TURN client against a small in-process fake TURN server in virtual time: the 401 challenge, stale nonces,
// retransmission on loss, allocation / permission / channel refresh timing, wrap and unwrap, close, hostile input.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import { Rng } from './rng';
import type { DecodedStun, StunAttribute } from './stun';
import {
  decodeChannelData,
  decodeStun,
  encodeChannelData,
  encodeStun,
  findAttribute,
  isStunDecodeError,
  longTermKey,
  serverDatagramKind,
  StunMethod,
  verifyIntegrity,
} from './stun';
import type { TurnEvent } from './turn-client';
import { MAX_TURN_PEERS, TurnClient, turnRestCredentials } from './turn-client';

const SERVER: PeerAddress = { address: '203.0.113.2', port: 3478 };
const CLIENT: PeerAddress = { address: '100.64.1.2', port: 40000 };
const RELAYED: PeerAddress = { address: '203.0.113.2', port: 49160 };
const PEER: PeerAddress = { address: '203.0.113.6', port: 49170 };
const REALM = 'ghostboard';
const USER = '1700000600:alice';
const PASSWORD = 'secret-password';

/** What the fake server did with one request: when, which method, whether it carried MESSAGE-INTEGRITY. */
interface Seen {
  readonly at: number;
  readonly method: number;
  readonly authenticated: boolean;
  readonly lifetime: number | undefined;
}

/** Just enough of a TURN server (RFC 8656) to hold a client to the protocol; trusts nothing it gets. */
class FakeTurnServer {
  nonce = 'nonce-1';
  lifetimeS = 600;
  password = PASSWORD;
  allocated = false;
  readonly seen: Seen[] = [];
  readonly permissions = new Set<string>();
  readonly channels = new Map<number, string>();
  /** Datagrams relayed to peers: (peer "ip:port", bytes, how they came). */
  readonly relayed: { peer: string; bytes: Uint8Array; via: 'send' | 'channel' }[] = [];
  /** An error to answer the next request of a method with, once. */
  readonly failNext = new Map<number, number>();
  /** When the allocation ('allocation'), each permission ('ip') and channel (its number) expire, in ms. */
  readonly expiry = new Map<string, number>();
  /** What expired while the client still counted on it. */
  readonly lapses: string[] = [];
  private allocateTransaction = '';
  private readonly rng = new Rng(99);

  /** Forgets whatever expired by `now` (RFC 8656: allocations, permissions 300 s, channels 600 s). */
  expire(now: number): void {
    for (const [what, at] of this.expiry) {
      if (at >= now) continue;
      this.expiry.delete(what);
      this.lapses.push(`${what} at ${at}`);
      if (what === 'allocation') this.allocated = false;
      else if (/^\d+$/.test(what)) this.channels.delete(Number(what));
      else this.permissions.delete(what);
    }
  }

  handle(now: number, bytes: Uint8Array): Uint8Array[] {
    this.expire(now);
    if (serverDatagramKind(bytes) === 'channel-data') {
      const cd = decodeChannelData(bytes);
      if (isStunDecodeError(cd)) return [];
      const peer = this.channels.get(cd.channel);
      if (peer !== undefined) this.relayed.push({ peer, bytes: cd.data, via: 'channel' });
      return [];
    }
    const m = decodeStun(bytes);
    if (isStunDecodeError(m)) return [];
    if (m.cls === 'indication' && m.method === StunMethod.send) {
      const peer = findAttribute(m, 'xor-peer-address')?.address;
      const data = findAttribute(m, 'data')?.bytes;
      if (peer !== undefined && data !== undefined && this.permissions.has(peer.address))
        this.relayed.push({ peer: `${peer.address}:${peer.port}`, bytes: data, via: 'send' });
      return [];
    }
    if (m.cls !== 'request') return [];
    this.seen.push({
      at: now,
      method: m.method,
      authenticated: m.integrity !== undefined,
      lifetime: findAttribute(m, 'lifetime')?.seconds,
    });
    return [this.answer(now, m)];
  }

  private answer(now: number, m: DecodedStun): Uint8Array {
    const key = longTermKey(USER, REALM, this.password);
    const error = (code: number, extra: StunAttribute[] = []): Uint8Array =>
      encodeStun({
        method: m.method,
        cls: 'error',
        transactionId: m.transactionId,
        attributes: [{ type: 'error-code', code, reason: 'no' }, ...extra],
      });
    const challenge: StunAttribute[] = [
      { type: 'realm', value: REALM },
      { type: 'nonce', value: this.nonce },
    ];
    if (m.integrity === undefined) return error(401, challenge);
    if (findAttribute(m, 'nonce')?.value !== this.nonce) return error(438, challenge);
    if (findAttribute(m, 'username')?.value !== USER || !verifyIntegrity(m, key))
      return error(401, challenge);
    const failure = this.failNext.get(m.method);
    if (failure !== undefined) {
      this.failNext.delete(m.method);
      return error(failure);
    }
    const ok = (attributes: StunAttribute[]): Uint8Array =>
      encodeStun(
        { method: m.method, cls: 'success', transactionId: m.transactionId, attributes },
        { integrityKey: key, fingerprint: true },
      );
    const peer = findAttribute(m, 'xor-peer-address')?.address;
    switch (m.method) {
      case StunMethod.allocate: {
        // A retransmitted Allocate (its success was lost) is answered again, as RFC 8656 asks.
        const id = Buffer.from(m.transactionId).toString('hex');
        if (this.allocated && id !== this.allocateTransaction) return error(437);
        this.allocated = true;
        this.allocateTransaction = id;
        this.expiry.set('allocation', now + this.lifetimeS * 1000);
        return ok([
          { type: 'xor-relayed-address', address: RELAYED },
          { type: 'lifetime', seconds: this.lifetimeS },
          { type: 'xor-mapped-address', address: CLIENT },
          { type: 'software', value: 'fake' },
        ]);
      }
      case StunMethod.refresh: {
        if (!this.allocated) return error(437);
        const lifetime = findAttribute(m, 'lifetime')?.seconds ?? this.lifetimeS;
        if (lifetime === 0) {
          this.allocated = false;
          this.expiry.delete('allocation');
        } else this.expiry.set('allocation', now + lifetime * 1000);
        return ok([{ type: 'lifetime', seconds: lifetime }]);
      }
      case StunMethod.createPermission:
        if (peer === undefined) return error(400);
        this.permissions.add(peer.address);
        this.expiry.set(peer.address, now + 300_000);
        return ok([]);
      case StunMethod.channelBind: {
        const channel = findAttribute(m, 'channel-number')?.channel;
        if (peer === undefined || channel === undefined) return error(400);
        this.channels.set(channel, `${peer.address}:${peer.port}`);
        this.permissions.add(peer.address);
        this.expiry.set(String(channel), now + 600_000);
        this.expiry.set(peer.address, Math.max(this.expiry.get(peer.address) ?? 0, now + 300_000));
        return ok([]);
      }
      default:
        return error(400);
    }
  }

  /** A peer's datagram towards the client: ChannelData if the peer has a channel, else a Data indication. */
  fromPeer(peer: PeerAddress, data: Uint8Array): Uint8Array {
    for (const [channel, p] of this.channels)
      if (p === `${peer.address}:${peer.port}`) return encodeChannelData(channel, data);
    return encodeStun({
      method: StunMethod.data,
      cls: 'indication',
      transactionId: this.rng.bytes(12),
      attributes: [
        { type: 'xor-peer-address', address: peer },
        { type: 'data', bytes: data },
      ],
    });
  }
}

/** Client and server in virtual time; `lose` decides per client datagram (by its index) whether it is lost. */
class Harness {
  now = 0;
  readonly server = new FakeTurnServer();
  readonly client: TurnClient;
  readonly events: TurnEvent[] = [];
  readonly sentAt: number[] = [];
  lose: (index: number) => boolean = () => false;
  loseReplies = false;
  /** Per reply: whether it is lost on the way back. */
  loseReply: () => boolean = () => false;

  constructor(password = PASSWORD, seed = 1, channels = true) {
    const rng = new Rng(seed);
    this.client = new TurnClient({
      server: SERVER,
      username: USER,
      password,
      random: (n) => rng.bytes(n),
      software: 'ghostboard-test',
      channels,
    });
  }

  pump(): void {
    for (let t = this.client.pollTransmit(); t !== undefined; t = this.client.pollTransmit()) {
      expect(t.to).toEqual(SERVER);
      const index = this.sentAt.length;
      this.sentAt.push(this.now);
      if (this.lose(index)) continue;
      for (const reply of this.server.handle(this.now, t.bytes))
        if (!this.loseReplies && !this.loseReply())
          this.client.handleDatagram(this.now, SERVER, reply);
    }
    for (let e = this.client.pollEvent(); e !== undefined; e = this.client.pollEvent())
      this.events.push(e);
  }

  /** Runs timers up to `until` (ms), pumping after each. */
  runUntil(until: number): void {
    this.pump();
    for (;;) {
      const next = this.client.nextTimeout();
      if (next > until) break;
      this.now = Math.max(this.now, next);
      this.client.handleTimeout(this.now);
      this.pump();
    }
    this.now = until;
  }

  allocate(): void {
    this.client.allocate(this.now);
    this.pump();
  }

  times(method: number): number[] {
    return this.server.seen.filter((s) => s.method === method).map((s) => s.at);
  }
}

const bytesOf = (...b: number[]): Uint8Array => Uint8Array.from(b);

describe('TurnClient', () => {
  it('allocates after a 401 challenge, with MESSAGE-INTEGRITY from then on', () => {
    const h = new Harness();
    h.allocate();
    expect(h.events).toEqual([
      { type: 'allocated', relayed: RELAYED, mapped: CLIENT, lifetimeMs: 600_000 },
    ]);
    expect(h.server.seen.map((s) => [s.method, s.authenticated])).toEqual([
      [StunMethod.allocate, false],
      [StunMethod.allocate, true],
    ]);
    expect(h.client.state.type).toBe('allocated');
    expect(h.client.relayed).toEqual(RELAYED);
    expect(h.client.counters).toMatchObject({ malformed: 0, unexpected: 0, badIntegrity: 0 });
  });

  it('fails as unauthorized when the password is wrong (a second 401 for the same nonce)', () => {
    const h = new Harness('wrong');
    h.allocate();
    expect(h.events).toEqual([{ type: 'failed', reason: 'unauthorized', code: 401 }]);
    expect(h.server.seen).toHaveLength(2);
    expect(h.client.nextTimeout()).toBe(Infinity);
  });

  it('answers a stale nonce (438) with the new one, on Allocate and on Refresh', () => {
    const h = new Harness();
    h.client.allocate(0);
    const first = h.client.pollTransmit();
    if (first === undefined) throw new Error('no Allocate');
    for (const r of h.server.handle(0, first.bytes)) h.client.handleDatagram(0, SERVER, r);
    h.server.nonce = 'nonce-2'; // rotated between the challenge and the authenticated Allocate
    h.pump();
    expect(h.events.map((e) => e.type)).toEqual(['allocated']);
    expect(h.server.seen).toHaveLength(3);
    h.server.nonce = 'nonce-3';
    h.runUntil(480_000);
    expect(h.events.map((e) => e.type)).toEqual(['allocated', 'refreshed']);
    expect(h.times(StunMethod.refresh)).toEqual([480_000, 480_000]);
  });

  it('retransmits a lost request after 500, 1000, 2000 ms… and fails after 7 sends and 16 RTOs more', () => {
    const lossy = new Harness();
    lossy.lose = (i) => i < 3; // the first three datagrams are lost
    lossy.allocate();
    lossy.runUntil(10_000);
    expect(lossy.sentAt.slice(0, 4)).toEqual([0, 500, 1500, 3500]);
    expect(lossy.events.map((e) => e.type)).toEqual(['allocated']);
    expect(lossy.client.counters.retransmits).toBe(3);

    const dead = new Harness();
    dead.lose = () => true;
    dead.allocate();
    dead.runUntil(100_000);
    expect(dead.sentAt).toEqual([0, 500, 1500, 3500, 7500, 15_500, 31_500]);
    expect(dead.events).toEqual([{ type: 'failed', reason: 'timeout', code: undefined }]);
    expect(dead.client.nextTimeout()).toBe(Infinity);
  });

  it('a lost response is answered again: the retransmission reuses the transaction', () => {
    const h = new Harness();
    h.client.allocate(0);
    h.loseReplies = true;
    h.pump(); // the unauthenticated Allocate reaches the server; its 401 is lost
    h.loseReplies = false;
    h.runUntil(1_000);
    expect(h.events.map((e) => e.type)).toEqual(['allocated']);
  });

  it('refreshes the allocation at 80 % of its lifetime, and fails when the server has lost it', () => {
    const h = new Harness();
    h.server.lifetimeS = 100;
    h.allocate();
    h.runUntil(300_000);
    expect(h.times(StunMethod.refresh)).toEqual([80_000, 160_000, 240_000]);
    h.server.allocated = false;
    h.runUntil(330_000);
    expect(h.events.at(-1)).toEqual({ type: 'failed', reason: 'allocation-lost', code: 437 });
  });

  it('permits a peer (CreatePermission + ChannelBind) and keeps both refreshed under 5 and 10 minutes', () => {
    const h = new Harness();
    expect(h.client.permit(0, PEER)).toBe(true); // remembered until allocated
    expect(h.client.isRelayed(PEER)).toBe(false);
    h.allocate();
    expect(h.events.map((e) => e.type)).toEqual(['allocated', 'permitted', 'channel-bound']);
    expect(h.events[2]).toEqual({ type: 'channel-bound', peer: PEER, channel: 0x4000 });
    h.runUntil(1_200_000);
    expect(h.times(StunMethod.createPermission)).toEqual([
      0, 240_000, 480_000, 720_000, 960_000, 1_200_000,
    ]);
    expect(h.times(StunMethod.channelBind)).toEqual([0, 540_000, 1_080_000]);
    h.client.forget(PEER);
    h.runUntil(2_000_000);
    expect(h.times(StunMethod.createPermission)).toHaveLength(6);
    expect(h.client.isRelayed(PEER)).toBe(false);
  });

  it('wraps with Send indications until the channel is bound, then ChannelData; unwraps both ways', () => {
    const h = new Harness();
    h.allocate();
    const payload = bytesOf(1, 2, 3, 4, 5, 6, 7, 8);
    expect(h.client.wrap(PEER, payload)).toBeUndefined(); // not permitted
    h.client.permit(0, PEER);
    // Before the responses come back: a Send indication (20 header + 12 XOR-PEER-ADDRESS + 4 DATA header).
    const early = h.client.wrap(PEER, payload);
    expect(early?.to).toEqual(SERVER);
    expect(early?.bytes.length).toBe(payload.length + 36);
    h.pump();
    const late = h.client.wrap(PEER, payload);
    expect(late?.bytes.length).toBe(payload.length + 4);
    for (const t of [early, late]) if (t !== undefined) h.server.handle(h.now, t.bytes);
    expect(h.server.relayed.map((r) => [r.peer, r.via, [...r.bytes]])).toEqual([
      ['203.0.113.6:49170', 'send', [...payload]],
      ['203.0.113.6:49170', 'channel', [...payload]],
    ]);
    h.client.handleDatagram(h.now, SERVER, h.server.fromPeer(PEER, bytesOf(9, 9)));
    const other: PeerAddress = { address: '198.51.100.7', port: 1234 };
    h.client.handleDatagram(h.now, SERVER, h.server.fromPeer(other, bytesOf(7)));
    expect(h.client.pollInbound()).toEqual({ from: PEER, bytes: bytesOf(9, 9) });
    expect(h.client.pollInbound()).toEqual({ from: other, bytes: bytesOf(7) });
    expect(h.client.pollInbound()).toBeUndefined();
    expect(h.client.counters.relayedIn).toBe(2);
  });

  it('falls back to Send indications when a channel is refused, and forgets a peer whose permission is', () => {
    const h = new Harness();
    h.allocate();
    h.server.failNext.set(StunMethod.channelBind, 400);
    h.client.permit(0, PEER);
    h.pump();
    expect(h.events.map((e) => e.type)).toEqual(['allocated', 'permitted']);
    expect(h.client.wrap(PEER, bytesOf(1))?.bytes.length).toBe(1 + 36 + 3); // DATA padded to 4
    const other: PeerAddress = { address: '198.51.100.7', port: 1234 };
    h.server.failNext.set(StunMethod.createPermission, 403);
    h.client.permit(0, other);
    h.pump();
    expect(h.events.at(-1)).toEqual({ type: 'permit-failed', peer: other, code: 403 });
    expect(h.client.isRelayed(other)).toBe(false);
  });

  it('with channels off, permits with CreatePermission only and relays with Send indications', () => {
    const h = new Harness(PASSWORD, 1, false);
    h.allocate();
    h.client.permit(0, PEER);
    h.runUntil(600_000);
    expect(h.events.map((e) => e.type)).toEqual(['allocated', 'permitted', 'refreshed']);
    expect(h.times(StunMethod.channelBind)).toEqual([]);
    expect(h.client.wrap(PEER, bytesOf(1, 2, 3, 4))?.bytes.length).toBe(4 + 36);
  });

  it('a failure stops everything at once: nothing is sent or reported for the requests it cut short', () => {
    const h = new Harness();
    h.server.lifetimeS = 300; // the allocation refresh (at 240 s) meets the permission refresh
    h.allocate();
    h.client.permit(0, PEER);
    h.runUntil(239_000);
    h.lose = () => true;
    h.runUntil(400_000);
    expect(h.events.map((e) => e.type)).toEqual([
      'allocated',
      'permitted',
      'channel-bound',
      'failed',
    ]);
    expect(h.events.at(-1)).toEqual({ type: 'failed', reason: 'timeout', code: undefined });
    expect(Math.max(...h.sentAt)).toBe(240_000 + 31_500);
    expect(h.client.nextTimeout()).toBe(Infinity);
  });

  it('close releases the allocation with a LIFETIME 0 Refresh', () => {
    const h = new Harness();
    h.allocate();
    h.client.permit(0, PEER);
    h.pump();
    h.client.close(h.now);
    h.pump();
    expect(h.server.seen.at(-1)).toMatchObject({ method: StunMethod.refresh, lifetime: 0 });
    expect(h.server.allocated).toBe(false);
    expect(h.events.at(-1)).toEqual({ type: 'closed' });
    expect(h.client.wrap(PEER, bytesOf(1))).toBeUndefined();
    expect(h.client.permit(h.now, PEER)).toBe(false);
    expect(h.client.nextTimeout()).toBe(Infinity);
  });

  it('refuses an Allocate error as rejected with its code', () => {
    const h = new Harness();
    h.server.failNext.set(StunMethod.allocate, 486);
    h.allocate();
    expect(h.events).toEqual([{ type: 'failed', reason: 'rejected', code: 486 }]);
  });

  it('knows the server by address and port in any spelling, so its traffic is told apart by source', () => {
    const h = new Harness();
    expect(h.client.isServer(SERVER)).toBe(true);
    expect(h.client.isServer({ address: '::ffff:203.0.113.2', port: 3478 })).toBe(true);
    expect(h.client.isServer({ address: '203.0.113.2', port: 3479 })).toBe(false);
    expect(h.client.isServer(RELAYED)).toBe(false); // a peer's relayed address: same IP, another port
  });

  it('holds at most 64 peers', () => {
    const h = new Harness();
    h.allocate();
    for (let i = 0; i < MAX_TURN_PEERS; i++)
      expect(h.client.permit(0, { address: `198.51.100.${i + 1}`, port: 5000 })).toBe(true);
    expect(h.client.permit(0, { address: '198.51.100.200', port: 5000 })).toBe(false);
    expect(h.client.counters.peersRefused).toBe(1);
    h.pump();
    expect(h.server.channels.size).toBe(MAX_TURN_PEERS);
  });

  it('ignores a success whose MESSAGE-INTEGRITY is wrong, and datagrams from anyone but the server', () => {
    const h = new Harness();
    h.client.allocate(0);
    const challenge = h.client.pollTransmit();
    if (challenge === undefined) throw new Error('no Allocate');
    for (const r of h.server.handle(0, challenge.bytes)) h.client.handleDatagram(0, SERVER, r);
    const authed = h.client.pollTransmit();
    if (authed === undefined) throw new Error('no authenticated Allocate');
    const m = decodeStun(authed.bytes);
    if (isStunDecodeError(m)) throw new Error('bad Allocate');
    const forged = encodeStun(
      {
        method: StunMethod.allocate,
        cls: 'success',
        transactionId: m.transactionId,
        attributes: [
          { type: 'xor-relayed-address', address: RELAYED },
          { type: 'xor-mapped-address', address: CLIENT },
        ],
      },
      { integrityKey: longTermKey(USER, REALM, 'guess') },
    );
    h.client.handleDatagram(0, SERVER, forged);
    h.client.handleDatagram(0, { address: '198.51.100.1', port: 3478 }, forged);
    expect(h.client.counters).toMatchObject({ badIntegrity: 1, foreign: 1 });
    expect(h.client.pollEvent()).toBeUndefined();
    for (const r of h.server.handle(0, authed.bytes)) h.client.handleDatagram(0, SERVER, r);
    expect(h.client.pollEvent()?.type).toBe('allocated');
  });

  it('over two hours with 10 % loss each way, nothing expires at the server (seeded soak)', () => {
    for (const seed of [21, 22, 23, 24]) {
      const h = new Harness(PASSWORD, seed);
      const loss = new Rng(seed * 7919);
      h.lose = () => loss.bool(0.1);
      h.loseReply = () => loss.bool(0.1);
      h.allocate();
      h.runUntil(40_000);
      h.client.permit(h.now, PEER);
      h.client.permit(h.now, { address: '198.51.100.7', port: 1234 });
      h.runUntil(7_200_000);
      h.server.expire(h.now);
      expect(h.server.lapses, `seed ${seed}`).toEqual([]);
      expect(
        h.events.filter((e) => e.type === 'failed' || e.type === 'permit-failed'),
        `seed ${seed}`,
      ).toEqual([]);
      expect(h.server.channels.size, `seed ${seed}`).toBe(2);
      expect(h.client.counters.retransmits, `seed ${seed}`).toBeGreaterThan(0);
    }
  });

  it('survives hostile datagrams from the server address (seeded; a failure names its seed)', () => {
    for (const seed of [11, 12, 13]) {
      const h = new Harness(PASSWORD, seed);
      h.allocate();
      h.client.permit(0, PEER);
      h.pump();
      const rng = new Rng(seed);
      const valid = [
        h.server.fromPeer(PEER, rng.bytes(30)),
        h.server.fromPeer(RELAYED, rng.bytes(30)),
      ];
      for (let i = 0; i < 2000; i++) {
        const base = rng.bool(0.3) ? rng.bytes(rng.int(80)) : rng.pick(valid).slice();
        for (let n = rng.int(3); n > 0; n--) {
          const at = rng.int(Math.max(1, base.length));
          base[at] = (base[at] ?? 0) ^ (1 << rng.int(8));
        }
        expect(
          () => h.client.handleDatagram(h.now, SERVER, base),
          `seed ${seed}, case ${i}`,
        ).not.toThrow();
        while (h.client.pollInbound() !== undefined);
      }
      expect(h.client.state.type, `seed ${seed}`).toBe('allocated');
      const c = h.client.counters;
      expect(c.malformed + c.unexpected + c.unknownChannel + c.relayedIn, `seed ${seed}`).toBe(
        2000,
      );
    }
  });
});

describe('turnRestCredentials', () => {
  it("mints coturn's --use-auth-secret credentials: expiry:name and base64 HMAC-SHA1", () => {
    // The password was computed independently (Python's hmac) for this secret and username.
    expect(turnRestCredentials('netlab-secret', 'alice', 600, 1_700_000_000)).toEqual({
      username: '1700000600:alice',
      password: '3WZyGBTqweUlxLGrkq00JPYXMaI=',
    });
    expect(() => turnRestCredentials('s', 'a:b', 600, 0)).toThrow(RangeError);
  });
});
