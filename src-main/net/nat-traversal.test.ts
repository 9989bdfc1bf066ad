// Spray and fan across two modelled NATs (RFC 4787 terms): an easy one (endpoint-independent mapping) and a hard
// one (a new port per destination, random or in sequence); both filter by address and port, as Linux does.
// Seeded; a failure prints its seed.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { Transmit } from './endpoint-types';
import type { NatMapping } from './nat-mapping';
import { classifyMapping } from './nat-mapping';
import { FAN_PORTS, NatTraversal, SPRAY_BUDGET } from './nat-traversal';
import type { TraversalOpened } from './nat-traversal';
import { decodeRendezvous, isRendezvousDecodeError } from './rendezvous';
import { Rng } from './rng';

type NatKind = 'easy' | 'random' | 'sequential';

/** One NAT: mappings per (local port, destination) or per local port, and address-and-port filtering. */
class ModelNat {
  private readonly mappings = new Map<string, number>();
  private readonly byPublic = new Map<number, { via: number; allowed: Set<string> }>();
  private nextSequential: number;

  constructor(
    readonly kind: NatKind,
    readonly ip: string,
    private readonly rng: Rng,
  ) {
    this.nextSequential = 20_000 + rng.int(20_000);
  }

  /** The public port `via` sends to `to` from (made on first use). */
  out(via: number, to: PeerAddress): number {
    const key = this.kind === 'easy' ? `${via}` : `${via}>${addressKey(to)}`;
    let port = this.mappings.get(key);
    if (port === undefined) {
      port = this.kind === 'easy' ? 40_000 + via : this.freshPort();
      this.mappings.set(key, port);
      this.byPublic.set(port, { via, allowed: new Set() });
    }
    this.byPublic.get(port)?.allowed.add(addressKey(to));
    return port;
  }

  /** The local port a datagram from `from` to our `port` reaches, if the filter lets it in. */
  in(from: PeerAddress, port: number): number | undefined {
    const m = this.byPublic.get(port);
    return m?.allowed.has(addressKey(from)) === true ? m.via : undefined;
  }

  private freshPort(): number {
    if (this.kind === 'sequential') return this.nextSequential++;
    for (;;) {
      const p = 1024 + this.rng.int(65_536 - 1024);
      if (!this.byPublic.has(p)) return p;
    }
  }
}

interface Side {
  readonly nat: ModelNat;
  readonly traversal: NatTraversal;
  readonly opened: TraversalOpened[];
}

const DIRECTORY: PeerAddress = { address: '198.51.100.1', port: 7340 };
const REFLECTOR: PeerAddress = { address: '198.51.100.1', port: 7341 };
const NONCE = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);

function side(kind: NatKind, ip: string, rng: Rng): Side {
  const random = (n: number) => rng.bytes(n);
  return { nat: new ModelNat(kind, ip, rng), traversal: new NatTraversal(random, 2), opened: [] };
}

/** Where the directory sees a side, and its mapping as it would measure it against the reflector. */
function measure(s: Side): { seen: PeerAddress; mapping: NatMapping } {
  const seen = { address: s.nat.ip, port: s.nat.out(0, DIRECTORY) };
  const second = { address: s.nat.ip, port: s.nat.out(0, REFLECTOR) };
  return { seen, mapping: classifyMapping(seen, second) };
}

/**
 * Carries one side's datagrams to the other: a low TTL only opens the sender's mapping (it dies in between), the
 * rest is filtered by the other NAT and heard on the local port it reaches.
 */
function deliver(from: Side, to: Side, t: Transmit, counts: { crossed: number }): void {
  const via = t.via ?? 0;
  const port = from.nat.out(via, t.to);
  if (t.ttl !== undefined || t.to.address !== to.nat.ip) return;
  const localVia = to.nat.in({ address: from.nat.ip, port }, t.to.port);
  if (localVia === undefined) return;
  counts.crossed++;
  const m = decodeRendezvous(t.bytes);
  if (isRendezvousDecodeError(m) || m.type !== 'punch') throw new Error('not a punch');
  const opened = to.traversal.heard(m.nonce, { address: from.nat.ip, port }, localVia);
  if (opened !== undefined) to.opened.push(opened);
}

/** Runs easy (spraying) against hard (fanning) in virtual time until both have opened or the spray is spent. */
function run(seed: number, hardKind: NatKind) {
  const rng = new Rng(seed);
  const easy = side('easy', '203.0.113.10', rng);
  const hard = side(hardKind, '198.51.100.20', rng);
  const e = measure(easy);
  const h = measure(hard);
  expect(e.mapping).toEqual({ kind: 'independent' });
  expect(h.mapping.kind).toBe('dependent');
  // Both are introduced at 0; the spray waits for the fan's priming to be out.
  hard.traversal.fan(0, NONCE, e.seen);
  easy.traversal.spray(0, NONCE, h.seen, h.mapping, 60);
  const counts = { crossed: 0 };
  let now = 0;
  for (let step = 0; step < 10_000; step++) {
    for (const [a, b] of [
      [easy, hard],
      [hard, easy],
    ] as const) {
      a.traversal.handleTimeout(now);
      for (let t = a.traversal.pollTransmit(); t !== undefined; t = a.traversal.pollTransmit())
        deliver(a, b, t, counts);
    }
    if (easy.opened.length > 0 && hard.opened.length > 0) break;
    const next = Math.min(easy.traversal.nextTimeout(), hard.traversal.nextTimeout());
    if (!Number.isFinite(next)) break;
    now = Math.max(now + 1, next);
  }
  return { easy, hard, e, h, now, counts };
}

describe('NAT traversal: spray and fan', () => {
  it('opens a path through a random hard NAT within the spray budget, and routes the peer through its port', () => {
    const sprayed: number[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const { easy, hard, e, h } = run(seed, 'random');
      const label = `seed ${seed}`;
      expect(easy.opened, label).toHaveLength(1);
      expect(hard.opened, label).toHaveLength(1);
      const [fromHard] = easy.opened;
      const [atHard] = hard.opened;
      // The easy side learns the hard side's new port (a mapping of one of its fan ports), not the directory's.
      expect(fromHard?.address.address, label).toBe(h.seen.address);
      expect(fromHard?.address.port, label).not.toBe(h.seen.port);
      expect(fromHard?.via, label).toBe(0);
      expect(atHard?.via, label).toBeGreaterThanOrEqual(1);
      expect(atHard?.via, label).toBeLessThanOrEqual(FAN_PORTS);
      expect(hard.traversal.routeOf(e.seen), label).toBe(atHard?.via);
      expect(easy.traversal.routeOf(h.seen), label).toBeUndefined();
      // Primed once, and once more only if the spray had not found a mapping within a second.
      expect([FAN_PORTS, 2 * FAN_PORTS], label).toContain(hard.traversal.counters.fanPrimes);
      sprayed.push(easy.traversal.counters.sprayed);
    }
    // Birthday odds: 256 mappings among 64,512 ports, about 250 random datagrams per hit on average.
    const mean = sprayed.reduce((a, b) => a + b, 0) / sprayed.length;
    expect(mean).toBeLessThan(SPRAY_BUDGET / 2);
  });

  it('hits a NAT that allocates in sequence among the first predicted ports', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { easy, hard, h } = run(seed, 'sequential');
      const label = `seed ${seed}`;
      expect(h.mapping, label).toMatchObject({ kind: 'dependent', delta: 1 });
      expect(easy.opened, label).toHaveLength(1);
      expect(hard.opened, label).toHaveLength(1);
      // The first batch of predicted ports already lands on a fan mapping.
      expect(easy.traversal.counters.sprayed, label).toBeLessThanOrEqual(10);
    }
  });

  it('ignores punches with another nonce, and a fan port hearing anyone but its peer', () => {
    const rng = new Rng(7);
    const t = new NatTraversal((n) => rng.bytes(n), 2);
    const peer = { address: '203.0.113.10', port: 40_000 };
    t.fan(0, NONCE, peer);
    expect(t.heard(new Uint8Array(8), peer, 3)).toBeUndefined();
    expect(t.counters.ignored).toBe(1);
    expect(t.heard(NONCE, { address: '203.0.113.66', port: 40_000 }, 3)).toBeUndefined();
    expect(t.heard(NONCE, peer, 0)).toBeUndefined();
    expect(t.routeOf(peer)).toBeUndefined();
    expect(t.heard(NONCE, peer, 9)).toEqual({ address: peer, via: 9 });
    expect(t.routeOf(peer)).toBe(9);
    // Done: a second hit changes nothing.
    expect(t.heard(NONCE, peer, 10)).toBeUndefined();
    expect(t.routeOf(peer)).toBe(9);

    const s = new NatTraversal((n) => rng.bytes(n), 2);
    s.spray(0, NONCE, peer, { kind: 'dependent', delta: 5000, last: 1 }, 0);
    expect(s.heard(NONCE, { address: '203.0.113.99', port: 5 }, 0)).toBeUndefined();
    expect(s.heard(NONCE, { address: peer.address, port: 5 }, 4)).toBeUndefined();
    expect(s.heard(NONCE, { address: peer.address, port: 5 }, 0)).toEqual({
      address: { address: peer.address, port: 5 },
      via: 0,
    });
  });

  it('sprays at a bounded pace, distinct ports in the NAT range, and stops when told', () => {
    const rng = new Rng(11);
    const s = new NatTraversal((n) => rng.bytes(n), 2);
    const peer = { address: '198.51.100.20', port: 33_333 };
    s.spray(0, NONCE, peer, { kind: 'dependent', delta: 9000, last: 1 }, 60);
    expect(s.nextTimeout()).toBe(60);
    const ports = new Set<number>();
    let now = 60;
    let rounds = 0;
    while (Number.isFinite(s.nextTimeout()) && rounds < 10_000) {
      now = s.nextTimeout();
      s.handleTimeout(now);
      for (let t = s.pollTransmit(); t !== undefined; t = s.pollTransmit()) {
        expect(t.to.address).toBe(peer.address);
        expect(t.via).toBeUndefined();
        expect(t.ttl).toBeUndefined();
        ports.add(t.to.port);
      }
      rounds++;
    }
    expect(ports.size).toBe(SPRAY_BUDGET);
    expect(Math.min(...ports)).toBeGreaterThanOrEqual(1024);
    expect(ports.has(peer.port)).toBe(false);
    // 500 datagrams a second: the whole budget takes about four seconds.
    expect(now - 60).toBeGreaterThanOrEqual(4000);

    s.spray(now, NONCE, peer, { kind: 'dependent', delta: 9000, last: 1 }, now);
    s.stop();
    expect(s.nextTimeout()).toBe(Infinity);
  });
});
