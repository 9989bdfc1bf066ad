// Opening a direct path when one side's NAT gives every destination a new port ("hard" NATs, RFC 4787's
// address-and-port-dependent mapping), as Tailscale describes: the hard side opens many mappings of its own
// towards the easy side's one address (a fan of local ports), the easy side sends to many ports of the hard side's
// address (a spray: the predicted ports first when the NAT allocates in sequence, then random ones), and the first
// spray datagram that lands on a fan mapping opens the path. Sans-IO: it says what to send from which local port,
// and remembers which peer answers behind which port. Knows no directories or sessions.
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { Transmit } from './endpoint-types';
import type { NatMapping } from './nat-mapping';
import { predictedPorts } from './nat-mapping';
import { sameBytes } from './host-handshake';
import { encodeRendezvous } from './rendezvous';

/** Local ports (besides the main one) the hard side opens; the transport numbers them 1..FAN_PORTS. */
export const FAN_PORTS = 256;
/**
 * Datagrams one spray sends at most. With FAN_PORTS mappings among the 64,512 ports a NAT picks from, each random
 * one hits with p ≈ 1/252: 1,024 open the path 98 % of the time, 2,048 all but 3 in 10,000.
 */
export const SPRAY_BUDGET = 2048;
/** The spray's pace: this many datagrams every SPRAY_EVERY_MS (500/s, about 20 kB/s). */
const SPRAY_BATCH = 5;
const SPRAY_EVERY_MS = 10;
/** Predicted ports are tried first, this many steps ahead (other flows of the NAT take some in between). */
const PREDICTED_STEPS = 32;
/** The fan primes its mappings at once and again after this (a priming datagram lost opens nothing). */
const FAN_REPRIME_MS = 1_000;
/** Ephemeral ports a NAT picks from (Linux's masquerade range for a source port ≥ 1024). */
const LOWEST_PORT = 1024;
/** Traversals at once: each spray costs a few thousand datagrams, so a flood of introductions can't multiply it. */
const MAX_TRAVERSALS = 4;
/** Peers remembered behind a fan port (the connections that opened that way); the oldest go first. */
const MAX_ROUTES = 256;

export interface TraversalOpened {
  /** Where the peer answered from: the address to dial (spray side) or the one now routed through `via`. */
  readonly address: PeerAddress;
  /** The local port it answered on: 0 the main one, else a fan port. */
  readonly via: number;
}

interface Spray {
  readonly kind: 'spray';
  readonly nonce: Uint8Array;
  readonly peer: PeerAddress;
  readonly ports: number[];
  sent: number;
  next: number;
  done: boolean;
}

interface Fan {
  readonly kind: 'fan';
  readonly nonce: Uint8Array;
  readonly peer: PeerAddress;
  readonly peerKey: string;
  reprimeAt: number;
  done: boolean;
}

type Traversal = Spray | Fan;

export class NatTraversal {
  readonly counters = { sprayed: 0, fanPrimes: 0, opened: 0, ignored: 0 };
  private readonly active: Traversal[] = [];
  private readonly routes = new Map<string, number>();
  private readonly outbox: Transmit[] = [];

  /**
   * @param random random bytes (crypto in the app, seeded under test) for the spray's ports.
   * @param primeTtl the TTL of fan primes: they open our NAT's mappings and die before the other NAT, which would
   *   otherwise take them as unsolicited and spoil the very mappings the spray must find (NETLAB.md).
   */
  constructor(
    private readonly random: (n: number) => Uint8Array,
    private readonly primeTtl: number,
  ) {}

  /** Easy side: sprays the ports of `peer`'s address (its NAT is hard), the predicted ones first. */
  spray(
    now: number,
    nonce: Uint8Array,
    peer: PeerAddress,
    peerNat: NatMapping,
    startAt: number,
  ): void {
    const ports = predictedPorts(peerNat, PREDICTED_STEPS);
    const seen = new Set(ports);
    seen.add(peer.port);
    // Whatever is left of the budget: distinct random ports from the NAT's range.
    for (let tries = 0; ports.length < SPRAY_BUDGET && tries < SPRAY_BUDGET * 4; tries++) {
      const b = this.random(2);
      const port = ((b[0] ?? 0) << 8) | (b[1] ?? 0);
      if (port < LOWEST_PORT || seen.has(port)) continue;
      seen.add(port);
      ports.push(port);
    }
    this.add({
      kind: 'spray',
      nonce,
      peer,
      ports,
      sent: 0,
      next: Math.max(now, startAt),
      done: false,
    });
  }

  /** Hard side: opens FAN_PORTS mappings towards `peer` (whose NAT is easy), for its spray to land on. */
  fan(now: number, nonce: Uint8Array, peer: PeerAddress): void {
    const f: Fan = {
      kind: 'fan',
      nonce,
      peer,
      peerKey: addressKey(peer),
      reprimeAt: now + FAN_REPRIME_MS,
      done: false,
    };
    this.add(f);
    this.prime(f);
  }

  /**
   * A punch carrying `nonce` came from `from` on local port `via`. A fan port that hears its peer now routes that
   * peer (and answers from there, so a spraying peer learns the port); the main port hearing the sprayed address
   * from a new port has found the path. Returns the path opened, if this punch opened one.
   */
  heard(nonce: Uint8Array, from: PeerAddress, via: number): TraversalOpened | undefined {
    const t = this.active.find((x) => sameBytes(x.nonce, nonce));
    if (t === undefined || t.done) {
      this.counters.ignored++;
      return undefined;
    }
    if (t.kind === 'fan') {
      if (via === 0 || addressKey(from) !== t.peerKey) return undefined;
      this.setRoute(t.peerKey, via);
      for (let i = 0; i < 2; i++) this.send(from, t.nonce, via);
    } else if (via !== 0 || from.address !== t.peer.address) return undefined;
    t.done = true;
    this.counters.opened++;
    return { address: from, via };
  }

  /** The fan port a peer answers behind, if it opened that way. */
  routeOf(to: PeerAddress): number | undefined {
    return this.routes.size === 0 ? undefined : this.routes.get(addressKey(to));
  }

  get hasRoutes(): boolean {
    return this.routes.size > 0;
  }

  /** Ends every spray and fan (a path opened some other way); routes stay. */
  stop(): void {
    for (const t of this.active) t.done = true;
    this.active.length = 0;
  }

  handleTimeout(now: number): void {
    for (let k = this.active.length - 1; k >= 0; k--) {
      const t = this.active[k];
      if (t === undefined) continue;
      if (t.kind === 'fan') {
        if (!t.done && now >= t.reprimeAt) {
          this.prime(t);
          t.reprimeAt = Infinity;
        }
      } else if (!t.done && now >= t.next) {
        const end = Math.min(t.ports.length, t.sent + SPRAY_BATCH);
        for (; t.sent < end; t.sent++) {
          const port = t.ports[t.sent] ?? 0;
          this.send({ address: t.peer.address, port }, t.nonce, 0);
          this.counters.sprayed++;
        }
        t.next = now + SPRAY_EVERY_MS;
        if (t.sent >= t.ports.length) t.done = true;
      }
    }
  }

  nextTimeout(): number {
    let at = Infinity;
    for (const t of this.active) {
      if (t.done) continue;
      at = Math.min(at, t.kind === 'fan' ? t.reprimeAt : t.next);
    }
    return at;
  }

  pollTransmit(): Transmit | undefined {
    return this.outbox.shift();
  }

  private add(t: Traversal): void {
    // Finished ones are kept only while room allows: a late punch for them is then ignored, not misread.
    while (this.active.length >= MAX_TRAVERSALS) this.active.shift();
    this.active.push(t);
  }

  private prime(f: Fan): void {
    for (let via = 1; via <= FAN_PORTS; via++) {
      this.send(f.peer, f.nonce, via, this.primeTtl);
      this.counters.fanPrimes++;
    }
  }

  private setRoute(key: string, via: number): void {
    this.routes.delete(key);
    this.routes.set(key, via);
    while (this.routes.size > MAX_ROUTES) {
      const oldest = this.routes.keys().next();
      if (oldest.done === true) break;
      this.routes.delete(oldest.value);
    }
  }

  private send(to: PeerAddress, nonce: Uint8Array, via: number, ttl?: number): void {
    if (this.outbox.length >= 4 * FAN_PORTS + SPRAY_BATCH * 4) return;
    const bytes = encodeRendezvous({ type: 'punch', nonce });
    this.outbox.push({
      to,
      bytes,
      ...(via === 0 ? {} : { via }),
      ...(ttl === undefined ? {} : { ttl }),
    });
  }
}
