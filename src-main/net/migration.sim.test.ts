// A relayed connection moves to a direct path that opens later, and its session never notices: over the
// simulated network, with a minimal relay standing in for TURN (each party has an address on it; the relay
// forwards between them). Seeded; a failure prints its seed.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { Connection } from './connection';
import type { DatagramRelay, EndpointOptions, Transmit } from './endpoint';
import { Endpoint } from './endpoint';
import { Rng } from './rng';
import { SimHarness } from './testing/harness';
import { NO_IMPAIRMENT } from './impairment';
import { SimNetwork } from './testing/network';

const CODE = 'MIGRA-TION1';
const HOST: PeerAddress = { address: '198.51.100.10', port: 7350 };
const JOINER: PeerAddress = { address: '100.64.7.20', port: 51_000 };
const RELAY: PeerAddress = { address: '203.0.113.9', port: 3478 };
const HOST_RELAYED: PeerAddress = { address: RELAY.address, port: 40_001 };
const JOINER_RELAYED: PeerAddress = { address: RELAY.address, port: 40_002 };
const BLOCKED = { ...NO_IMPAIRMENT, loss: 1 };

/** The relay server: [u16 port on the relay][payload] in, the same framing out with the sender's relay port. */
class MiniRelayServer {
  private readonly outbox: Transmit[] = [];
  constructor(private readonly owners: ReadonlyMap<number, PeerAddress>) {}
  handleDatagram(_now: number, from: PeerAddress, bytes: Uint8Array): void {
    const to = this.owners.get(((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0));
    const fromPort = [...this.owners].find(([, a]) => addressKey(a) === addressKey(from))?.[0];
    if (to === undefined || fromPort === undefined) return;
    const out = new Uint8Array(bytes.length);
    out.set(bytes);
    out[0] = fromPort >> 8;
    out[1] = fromPort & 0xff;
    this.outbox.push({ to, bytes: out });
  }
  handleTimeout(): void {}
  nextTimeout(): number {
    return Infinity;
  }
  pollTransmit(): Transmit | undefined {
    return this.outbox.shift();
  }
}

/** A party's side of the mini relay, as the endpoint sees a TURN client. */
class MiniRelayClient implements DatagramRelay {
  private readonly permitted = new Set<string>();
  private readonly inbound: { from: PeerAddress; bytes: Uint8Array }[] = [];
  isServer(from: PeerAddress): boolean {
    return addressKey(from) === addressKey(RELAY);
  }
  handleDatagram(_now: number, _from: PeerAddress, bytes: Uint8Array): void {
    const port = ((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0);
    this.inbound.push({ from: { address: RELAY.address, port }, bytes: bytes.slice(2) });
  }
  pollInbound(): { from: PeerAddress; bytes: Uint8Array } | undefined {
    return this.inbound.shift();
  }
  isRelayed(to: PeerAddress): boolean {
    return this.permitted.has(addressKey(to));
  }
  wrap(to: PeerAddress, bytes: Uint8Array): Transmit | undefined {
    if (!this.isRelayed(to)) return undefined;
    const out = new Uint8Array(bytes.length + 2);
    out[0] = to.port >> 8;
    out[1] = to.port & 0xff;
    out.set(bytes, 2);
    return { to: RELAY, bytes: out };
  }
  permit(_now: number, peer: PeerAddress): boolean {
    this.permitted.add(addressKey(peer));
    return true;
  }
  handleTimeout(): void {}
  nextTimeout(): number {
    return Infinity;
  }
  pollTransmit(): Transmit | undefined {
    return undefined;
  }
}

interface Party {
  readonly endpoint: Endpoint<number>;
  conn: Connection<number> | undefined;
  /** Every connection its endpoint made, in order (`conn` is the latest). */
  readonly conns: Connection<number>[];
  adopted: number;
  readonly received: number[];
}

function party(
  role: 'host' | 'client',
  code = CODE,
  options: Partial<EndpointOptions> = {},
): Party {
  const p: Party = {
    endpoint: undefined as unknown as Endpoint<number>,
    conn: undefined,
    conns: [],
    adopted: 0,
    received: [],
  };
  const endpoint = new Endpoint<number>(
    role,
    { joinCode: code, protocolVersion: 1, ...options },
    (conn) => {
      p.conn = conn;
      p.conns.push(conn);
      p.adopted++;
      return {
        onPayload: (_now, r) => {
          p.received.push(r.readUint(32));
        },
        onNotify: () => undefined,
      };
    },
    0,
  );
  endpoint.relay = new MiniRelayClient();
  return Object.assign(p, { endpoint });
}

function send(p: Party, now: number, value: number): void {
  p.conn?.send(now, (w) => {
    w.writeUint(value, 32);
    return value;
  });
  if (p.conn !== undefined) p.endpoint.touch(p.conn);
}

/** A host and a joiner, each with an address on the mini relay, 20 ms apart on every link. */
function hostAndJoiner(seed: number) {
  const net = new SimNetwork(new Rng(seed), { ...NO_IMPAIRMENT, delayMs: 20 });
  const sim = new SimHarness(net);
  sim.add(
    RELAY,
    new MiniRelayServer(
      new Map([
        [HOST_RELAYED.port, HOST],
        [JOINER_RELAYED.port, JOINER],
      ]),
    ),
  );
  const host = party('host');
  const joiner = party('client');
  sim.add(HOST, host.endpoint);
  sim.add(JOINER, joiner.endpoint);
  return { net, sim, host, joiner };
}

describe('a relayed connection', () => {
  it('moves to a direct path that opens later, both ways, and keeps going when the relay is gone', () => {
    const seed = 31;
    const { net, sim, host, joiner } = hostAndJoiner(seed);
    // No direct path yet (both NATs symmetric, say): only the relay.
    net.setConditions(HOST, JOINER, BLOCKED);
    net.setConditions(JOINER, HOST, BLOCKED);
    joiner.endpoint.relay?.permit(0, HOST_RELAYED);
    joiner.endpoint.connect(0, HOST_RELAYED);
    sim.runUntil(2_000);
    expect(joiner.conn?.isOpen, `seed ${seed}`).toBe(true);
    expect(host.conn?.peer).toBe(addressKey(JOINER_RELAYED));
    expect(joiner.conn?.peer).toBe(addressKey(HOST_RELAYED));

    // Probes go nowhere while the direct path is closed.
    const conn = joiner.conn;
    if (conn === undefined) throw new Error(`seed ${seed}: no connection`);
    joiner.endpoint.probe(sim.now, conn, HOST);
    sim.runUntil(sim.now + 500);
    expect(host.endpoint.counters.migrated).toBe(0);

    // The direct path opens; the next probe moves the host's side, and the host's packets move the joiner's.
    net.setConditions(HOST, JOINER, NO_IMPAIRMENT);
    net.setConditions(JOINER, HOST, NO_IMPAIRMENT);
    joiner.endpoint.probe(sim.now, conn, HOST);
    sim.runUntil(sim.now + 200);
    expect(host.endpoint.counters.migrated).toBe(1);
    expect(host.conn?.peer).toBe(addressKey(JOINER));
    send(host, sim.now, 7);
    sim.runUntil(sim.now + 200);
    expect(joiner.endpoint.counters.migrated).toBe(1);
    expect(joiner.conn?.peer).toBe(addressKey(HOST));

    // The relay goes away: the connection (the same object, never closed) carries on directly.
    net.setConditions(RELAY, HOST, BLOCKED);
    net.setConditions(RELAY, JOINER, BLOCKED);
    net.setConditions(HOST, RELAY, BLOCKED);
    net.setConditions(JOINER, RELAY, BLOCKED);
    for (let i = 0; i < 20; i++) {
      send(host, sim.now, 100 + i);
      send(joiner, sim.now, 200 + i);
      sim.runUntil(sim.now + 50);
    }
    sim.runUntil(sim.now + 1_000);
    expect(joiner.received).toEqual(
      expect.arrayContaining([7, ...Array.from({ length: 20 }, (_, i) => 100 + i)]),
    );
    expect(host.received).toEqual(
      expect.arrayContaining(Array.from({ length: 20 }, (_, i) => 200 + i)),
    );
    // One connection on each side all along: the session saw no new one.
    expect(host.adopted).toBe(1);
    expect(joiner.adopted).toBe(1);
    expect(host.conn?.isOpen).toBe(true);
    expect(joiner.conn).toBe(conn);
  });

  it('moves onto an address where it answered a direct handshake the joiner dropped when the relay won', () => {
    const seed = 34;
    const { net, sim, host, joiner } = hostAndJoiner(seed);
    // The direct path is slow towards the host: its CHALLENGE still comes back before the relayed ACCEPT, so the
    // joiner answers it, and the host's ACCEPT for it arrives after the relayed one won.
    net.setConditions(JOINER, HOST, { ...NO_IMPAIRMENT, delayMs: 100 });
    joiner.endpoint.relay?.permit(0, HOST_RELAYED);
    joiner.endpoint.connect(0, [HOST_RELAYED, HOST]);
    sim.runUntil(1_000);
    expect(joiner.conn?.peer, `seed ${seed}`).toBe(addressKey(HOST_RELAYED));
    // The host holds the relayed connection and the direct handshake it answered, never taken up.
    const [relayed, unused] = host.conns;
    expect(relayed?.peer).toBe(addressKey(JOINER_RELAYED));
    expect(unused?.peer).toBe(addressKey(JOINER));
    expect(host.endpoint.connectionCount).toBe(2);
    const conn = joiner.conn;
    if (conn === undefined) throw new Error(`seed ${seed}: no connection`);
    joiner.endpoint.probe(sim.now, conn, HOST);
    sim.runUntil(sim.now + 300);
    expect(host.endpoint.counters.migrated, `seed ${seed}`).toBe(1);
    expect(relayed?.peer).toBe(addressKey(JOINER));
    expect(host.endpoint.connectionCount).toBe(1);
    // The dropped handshake was the same client on another path: no failed attempt against its address.
    sim.runUntil(sim.now + 15_000);
    expect(host.endpoint.counters.failedAttempts).toBe(0);
    host.conn = relayed;
    send(host, sim.now, 9);
    sim.runUntil(sim.now + 300);
    expect(joiner.received).toContain(9);
    expect(joiner.conn).toBe(conn);
    expect(relayed?.isOpen).toBe(true);
  });

  it('does not move for a stranger, nor for a replayed packet, and a stranger costs few decryptions', () => {
    const seed = 32;
    const { sim, host, joiner } = hostAndJoiner(seed);
    joiner.endpoint.relay?.permit(0, HOST_RELAYED);
    joiner.endpoint.connect(0, HOST_RELAYED);
    sim.runUntil(2_000);
    const hostConn = host.conn;
    expect(hostConn?.isOpen, `seed ${seed}`).toBe(true);
    // Capture a packet the joiner sends through the relay, then replay it from another address.
    const captured: Uint8Array[] = [];
    const original = joiner.endpoint.pollTransmit.bind(joiner.endpoint);
    joiner.endpoint.pollTransmit = () => {
      const t = original();
      if (t !== undefined && addressKey(t.to) === addressKey(RELAY))
        captured.push(t.bytes.slice(2));
      return t;
    };
    send(joiner, sim.now, 1);
    sim.runUntil(sim.now + 300);
    const replay = captured[captured.length - 1];
    if (replay === undefined) throw new Error(`seed ${seed}: nothing captured`);
    const attacker = { address: '192.168.66.6', port: 6666 };
    for (let i = 0; i < 100; i++) host.endpoint.handleDatagram(sim.now, attacker, replay);
    const rng = new Rng(seed);
    for (let i = 0; i < 1_000; i++) {
      const junk = Uint8Array.from({ length: 40 }, () => rng.uint32() & 0x7f);
      host.endpoint.handleDatagram(sim.now, attacker, junk);
    }
    expect(host.endpoint.counters.migrated).toBe(0);
    expect(host.conn?.peer).toBe(addressKey(JOINER_RELAYED));
    // 1,100 packets from one source at one instant: only the first few were tried against the connection.
    expect(host.endpoint.counters.unknownSource).toBeGreaterThanOrEqual(1_100 - 4);
  });

  it('counts each relayed peer as its own source: per-address caps, failure limits and bans do not lump them', () => {
    const seed = 33;
    const net = new SimNetwork(new Rng(seed), { ...NO_IMPAIRMENT, delayMs: 10 });
    const sim = new SimHarness(net);
    const joiners = [40_002, 40_003, 40_004, 40_005].map((port, i) => ({
      relayed: { address: RELAY.address, port },
      real: { address: `100.64.9.${i + 1}`, port: 50_000 },
    }));
    const relay = new MiniRelayServer(
      new Map([
        [HOST_RELAYED.port, HOST],
        ...joiners.map((j) => [j.relayed.port, j.real] as const),
      ]),
    );
    sim.add(RELAY, relay);
    // One connection per source and two failures: were the relay's IP one source, only one joiner would get in.
    const host = party('host', CODE, {
      maxConnectionsPerIp: 1,
      maxFailuresPerSource: 2,
      failureRefillMs: 1e9,
    });
    host.endpoint.relay?.permit(0, HOST_RELAYED);
    sim.add(HOST, host.endpoint);
    const parties = joiners.map((j, i) => {
      // The third guesses wrong, again and again.
      const p = party('client', i === 2 ? 'WRONG-GUESS' : CODE);
      sim.add(j.real, p.endpoint);
      p.endpoint.relay?.permit(0, HOST_RELAYED);
      return p;
    });
    const guesser = parties[2];
    if (guesser === undefined) throw new Error('no guesser');
    for (let k = 0; k < 4; k++) {
      guesser.endpoint.connect(sim.now, HOST_RELAYED);
      sim.runUntil(sim.now + 12_000);
    }
    for (const [i, p] of parties.entries()) if (i !== 2) p.endpoint.connect(sim.now, HOST_RELAYED);
    sim.runUntil(sim.now + 3_000);
    expect(
      parties.map((p) => p.conn?.isOpen === true),
      `seed ${seed}`,
    ).toEqual([true, true, false, true]);
    expect(host.endpoint.counters.rateLimited).toBeGreaterThan(0);
    // A ban of one relayed joiner leaves the others.
    const first = joiners[0];
    if (first === undefined) throw new Error('no joiner');
    host.endpoint.ban(sim.now, addressKey(first.relayed));
    sim.runUntil(sim.now + 1_000);
    expect(parties.map((p) => p.conn?.isOpen === true)).toEqual([false, true, false, true]);
  });
});
