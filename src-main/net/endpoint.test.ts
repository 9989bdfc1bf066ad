import { describe, expect, it } from 'vitest';
import { encodeHandshake, HELLO_SIZE } from './handshake';
import { NO_IMPAIRMENT } from './impairment';
import { makePair, makeSimPair, SIM_CLIENT, SIM_HOST } from './testing/pair';
import type { Connection } from './connection';
import type { EndpointEvent } from './endpoint';
import { Endpoint } from './endpoint';
import { SIM_VERSION } from './testing/pair';

function events<R>(poll: () => EndpointEvent<R> | undefined): EndpointEvent<R>[] {
  const out: EndpointEvent<R>[] = [];
  for (let e = poll(); e !== undefined; e = poll()) out.push(e);
  return out;
}

describe('handshake', () => {
  it('connects with the right code, both sides announce it', () => {
    const pair = makePair({ seed: 1 });
    pair.sim.runUntil(500);
    expect(events(() => pair.client.pollEvent()).map((e) => e.type)).toEqual(['connected']);
    expect(events(() => pair.host.pollEvent()).map((e) => e.type)).toEqual(['connected']);
    expect(pair.clientSide.conn?.isOpen).toBe(true);
    expect(pair.hostSide.conn?.isOpen).toBe(true);
  });

  it('connects through 30 % loss by retrying handshake packets', () => {
    const pair = makePair({ seed: 2, conditions: { ...NO_IMPAIRMENT, loss: 0.3, delayMs: 40 } });
    pair.sim.runUntil(8000);
    expect(pair.clientSide.conn?.isOpen).toBe(true);
    expect(pair.hostSide.conn?.isOpen).toBe(true);
  });

  it('fails a wrong code on the client, and the host counts the attempt once its reply goes unanswered', () => {
    const pair = makePair({ seed: 3, clientJoinCode: 'WRONG-CODE1' });
    pair.sim.runUntil(3000);
    const ev = events(() => pair.client.pollEvent());
    expect(ev).toEqual([{ type: 'connect-failed', peer: SIM_HOST, reason: 'wrong-code' }]);
    expect(pair.client.connectionCount).toBe(0);
    // The host cannot tell a wrong code (CPace shows it nothing to check): its reply waits for a sealed packet.
    expect([...pair.host.connections()].map((c) => c.state)).toEqual(['pending']);
    expect(pair.host.counters.failedAttempts).toBe(0);
    pair.sim.runUntil(15_000);
    expect(pair.host.connectionCount).toBe(0);
    expect(pair.host.counters.failedAttempts).toBe(1);
    // A pending attempt that never opened is not announced as a connection.
    expect(events(() => pair.host.pollEvent())).toEqual([]);
  });

  it('rejects a protocol version mismatch', () => {
    const pair = makePair({ seed: 4 });
    // A client of another version: a raw HELLO with version 99.
    const hello = encodeHandshake({ type: 'hello', version: 99, clientNonce: new Uint8Array(16) });
    pair.host.handleDatagram(0, SIM_CLIENT, hello);
    const reply = pair.host.pollTransmit();
    expect(reply?.bytes[0]).toBe(0xc5);
    expect(reply?.bytes[17]).toBe(1); // version-mismatch
  });

  it('refuses connections beyond the cap with "full"', () => {
    const pair = makePair({ seed: 5, endpoint: { maxConnections: 0 } });
    pair.sim.runUntil(3000);
    expect(events(() => pair.client.pollEvent())).toEqual([
      { type: 'connect-failed', peer: SIM_HOST, reason: 'full' },
    ]);
  });

  it('refuses a source (an IPv4 address) after 8 failed attempts until they drain, and no other source', () => {
    const pair = makePair({ seed: 6, joinCode: 'LONG-CODE-THAT-NEVER-LOCKS' });
    pair.sim.runUntil(500);
    const attempt = (address: string, port: number, code: string): string => {
      const c = new Endpoint<number>(
        'client',
        { joinCode: code, protocolVersion: SIM_VERSION },
        () => ({ onPayload: () => undefined, onNotify: () => undefined }),
        pair.sim.now,
      );
      pair.sim.add({ address, port }, c);
      c.connect(pair.sim.now, SIM_HOST);
      pair.sim.runUntil(pair.sim.now + 2_000);
      const e = c.pollEvent();
      return e?.type === 'connect-failed' ? e.reason : String(e?.type);
    };
    // Eight guesses at once from one address (other ports): each gets the host's reply, none follows it up.
    const guessers = Array.from({ length: 8 }, (_, i) => {
      const c = new Endpoint<number>(
        'client',
        { joinCode: `BAD-${i}`, protocolVersion: SIM_VERSION },
        () => ({ onPayload: () => undefined, onNotify: () => undefined }),
        pair.sim.now,
      );
      pair.sim.add({ address: SIM_CLIENT.address, port: 6000 + i }, c);
      c.connect(pair.sim.now, SIM_HOST);
      return c;
    });
    pair.sim.runUntil(pair.sim.now + 2_000);
    expect(guessers.map((c) => c.pollEvent())).toEqual(
      guessers.map(() => ({ type: 'connect-failed', peer: SIM_HOST, reason: 'wrong-code' })),
    );
    // The host's replies go unanswered; once those attempts expire they count against the address.
    pair.sim.runUntil(pair.sim.now + 9_000);
    expect(pair.host.counters.failedAttempts).toBe(8);
    expect(attempt(SIM_CLIENT.address, 6100, 'BAD-9')).toBe('rate-limited');
    // The right code from that address waits too (one failure drains every 10 s) ...
    expect(attempt(SIM_CLIENT.address, 6101, 'LONG-CODE-THAT-NEVER-LOCKS')).toBe('rate-limited');
    // ... and gets in once one has drained.
    pair.sim.runUntil(pair.sim.now + 10_000);
    expect(attempt(SIM_CLIENT.address, 6102, 'LONG-CODE-THAT-NEVER-LOCKS')).toBe('connected');
    // Another address was never affected.
    expect(attempt('127.0.0.9', 7000, 'LONG-CODE-THAT-NEVER-LOCKS')).toBe('connected');
  });

  it('locks a weak code after 30 failed attempts from many addresses, says so once, and a new code unlocks', () => {
    const code = '7-orbit-lantern';
    const pair = makePair({ seed: 8, joinCode: code });
    pair.sim.runUntil(500);
    events(() => pair.host.pollEvent());
    const attempt = (address: string, joinCode: string): string => {
      const c = new Endpoint<number>(
        'client',
        { joinCode, protocolVersion: SIM_VERSION },
        () => ({ onPayload: () => undefined, onNotify: () => undefined }),
        pair.sim.now,
      );
      pair.sim.add({ address, port: 5000 }, c);
      c.connect(pair.sim.now, SIM_HOST);
      pair.sim.runUntil(pair.sim.now + 2_000);
      const e = c.pollEvent();
      return e?.type === 'connect-failed' ? e.reason : String(e?.type);
    };
    // Guessers at 30 addresses, one guess each: no per-source limit is reached.
    for (let i = 0; i < 30; i++)
      expect(attempt(`10.0.${i}.1`, `${i}-wrong-guess`)).toBe('wrong-code');
    pair.sim.runUntil(pair.sim.now + 11_000);
    expect(pair.host.isCodeLocked).toBe(true);
    expect(events(() => pair.host.pollEvent())).toEqual([{ type: 'code-locked', failures: 30 }]);
    // Now even the right code is refused, from anywhere, without the host running CPace.
    expect(attempt('10.1.0.1', code)).toBe('code-locked');
    // The host sets a new code: people who have it get in.
    pair.host.setJoinCode('9-amber-violin');
    expect(pair.host.isCodeLocked).toBe(false);
    expect(attempt('10.1.0.2', '9-amber-violin')).toBe('connected');
  });

  it('times out as unreachable when the host never answers', () => {
    const pair = makePair({ seed: 7, conditions: { ...NO_IMPAIRMENT, loss: 1 } });
    pair.sim.runUntil(11_000);
    expect(events(() => pair.client.pollEvent())).toEqual([
      { type: 'connect-failed', peer: SIM_HOST, reason: 'unreachable' },
    ]);
  });
});

describe('sealed data packets', () => {
  function connected(seed: number) {
    const pair = makePair({ seed });
    pair.sim.runUntil(500);
    events(() => pair.host.pollEvent());
    events(() => pair.client.pollEvent());
    return pair;
  }

  it('drops a replayed packet and processes it only once', () => {
    const pair = connected(10);
    const conn = pair.clientSide.conn;
    if (!conn) throw new Error('not connected');
    pair.clientSide.sendOne(pair.sim.now);
    const datagram = pair.client.pollTransmit();
    if (!datagram) throw new Error('nothing sent');
    pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, datagram.bytes);
    pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, datagram.bytes);
    expect(pair.hostSide.received.size).toBe(1);
    expect(pair.hostSide.conn?.discards.duplicateOrLate).toBe(1);
  });

  it('drops forged, truncated and wrong-key packets, counting each', () => {
    const pair = connected(11);
    pair.clientSide.sendOne(pair.sim.now, 4);
    const datagram = pair.client.pollTransmit();
    if (!datagram) throw new Error('nothing sent');
    const good = datagram.bytes;
    let forged = 0;
    for (let i = 0; i < good.length * 8; i++) {
      const bad = good.slice();
      bad[i >> 3] = (bad[i >> 3] ?? 0) ^ (0x80 >> (i & 7));
      pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, bad);
      forged++;
    }
    for (let n = 0; n < good.length; n++)
      pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, good.slice(0, n));
    expect(pair.hostSide.received.size).toBe(0);
    const d = pair.hostSide.conn?.discards;
    expect((d?.authFailed ?? 0) + (d?.malformed ?? 0) + (d?.duplicateOrLate ?? 0)).toBe(
      forged + good.length - 1,
    );
    expect(pair.host.counters.empty).toBe(1);
    // The genuine packet still gets through afterwards.
    pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, good);
    expect(pair.hostSide.received.size).toBe(1);
    // A packet sealed under another connection's key is dropped.
    const other = connected(12);
    other.clientSide.sendOne(other.sim.now);
    const foreign = other.client.pollTransmit();
    if (!foreign) throw new Error('nothing sent');
    pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, foreign.bytes);
    expect(pair.hostSide.received.size).toBe(1);
  });

  it("never answers a stranger's data packet, and answers a spoofed HELLO with no more bytes than it got", () => {
    const pair = connected(13);
    const stranger = { address: '127.0.0.50', port: 9999 };
    pair.host.handleDatagram(pair.sim.now, stranger, new Uint8Array([0x12, 0x34, 0x56]));
    expect(pair.host.pollTransmit()).toBeUndefined();
    expect(pair.host.counters.unknownSource).toBe(1);
    const hello = encodeHandshake({
      type: 'hello',
      version: SIM_VERSION,
      clientNonce: new Uint8Array(16),
    });
    expect(hello).toHaveLength(HELLO_SIZE);
    pair.host.handleDatagram(pair.sim.now, stranger, hello);
    const reply = pair.host.pollTransmit();
    expect(reply).toBeDefined();
    expect(reply?.bytes.length).toBeLessThanOrEqual(hello.length);
    // An unpadded HELLO gets no answer at all.
    pair.host.handleDatagram(pair.sim.now, stranger, hello.slice(0, HELLO_SIZE - 1));
    expect(pair.host.pollTransmit()).toBeUndefined();
    // And no state was kept for the stranger.
    expect(pair.host.connectionCount).toBe(1);
  });
});

describe('life cycle', () => {
  it('a clean close reaches the peer with its reason', () => {
    const pair = makePair({ seed: 20 });
    pair.sim.runUntil(500);
    events(() => pair.host.pollEvent());
    const conn = pair.clientSide.conn;
    if (!conn) throw new Error('not connected');
    conn.close(pair.sim.now, 'closed', 'bye');
    pair.client.touch(conn);
    pair.sim.runUntil(1000);
    const ev = events(() => pair.host.pollEvent());
    expect(ev).toHaveLength(1);
    expect(ev[0]?.type === 'closed' && ev[0].info).toEqual({
      reason: 'closed',
      detail: 'bye',
      byPeer: true,
    });
    expect(pair.host.connectionCount).toBe(0);
  });

  it('a kicked client learns it was kicked', () => {
    const pair = makePair({ seed: 21 });
    pair.sim.runUntil(500);
    events(() => pair.client.pollEvent());
    const hostConn = pair.hostSide.conn;
    if (!hostConn) throw new Error('not connected');
    pair.host.kick(pair.sim.now, hostConn, 'be nice');
    pair.sim.runUntil(1000);
    const ev = events(() => pair.client.pollEvent());
    expect(ev[0]?.type === 'closed' && ev[0].info).toEqual({
      reason: 'kicked',
      detail: 'be nice',
      byPeer: true,
    });
  });

  it('times out a silent peer within the timeout and keeps a live one with keepalives', () => {
    const pair = makePair({ seed: 22 });
    pair.sim.runUntil(500);
    events(() => pair.host.pollEvent());
    // Idle but alive: keepalives hold the connection for a minute.
    pair.sim.runUntil(60_000);
    expect(pair.hostSide.conn?.isOpen).toBe(true);
    // The client vanishes (its datagrams are lost from now on).
    pair.net.setConditions(SIM_CLIENT, SIM_HOST, { ...NO_IMPAIRMENT, loss: 1 });
    pair.sim.runUntil(70_001);
    const ev = events(() => pair.host.pollEvent());
    expect(ev[0]?.type === 'closed' && ev[0].info.reason).toBe('timeout');
  });

  it('a packet after a quiet spell goes without a probe, and an ack rides on data sent within the ack delay', () => {
    const pair = makePair({ seed: 24 });
    pair.sim.runUntil(3_000);
    const host = `${SIM_HOST.address}:${SIM_HOST.port}`;
    const client = `${SIM_CLIENT.address}:${SIM_CLIENT.port}`;
    for (let i = 0; i < 20; i++) {
      const t = 3_000 + i * 100 + 0.5;
      pair.sim.after(t - pair.sim.now, () => pair.hostSide.sendOne(pair.sim.now));
      pair.sim.after(t + 20 - pair.sim.now, () => pair.clientSide.sendOne(pair.sim.now));
      pair.sim.runUntil(t + 99);
    }
    const window = pair.net.log.filter((e) => e.sentAt >= 3_000 && e.sentAt < 5_000);
    // Per 100 ms: the host's data, then (70 ms on, past the ack delay) an ack-only packet for the client's
    // data; the client's data 20 ms after the host's carries its ack. No probes on either side.
    expect(window.filter((e) => e.from === host).length).toBeLessThanOrEqual(2 * 20 + 2);
    expect(window.filter((e) => e.from === client).length).toBeLessThanOrEqual(20 + 2);
  });

  it('an ack waits for data the sender has scheduled within 250 ms rather than going alone (a starved link)', () => {
    // The host's rate lets a packet out every 200 ms; the client sends 30 a second, each owed an ack.
    let next = 3_000;
    const pair = makeSimPair<number>({ seed: 25 }, (role) => (conn) => ({
      onPayload: () => undefined,
      onNotify: () => undefined,
      ...(role === 'host'
        ? {
            nextSendAt: () => next,
            onSendTime: (now: number) => {
              conn.send(now, (w) => {
                w.writeUint(1, 32);
                return 1;
              });
              next = now + 200;
            },
          }
        : {}),
    }));
    pair.sim.runUntil(2_000);
    let clientConn: Connection<number> | undefined;
    for (const c of pair.client.connections()) clientConn = c;
    pair.sim.every(
      1000 / 30,
      (now) =>
        clientConn?.send(now, (w) => {
          w.writeUint(2, 32);
          return 2;
        }),
      3_000,
    );
    pair.sim.runUntil(5_000);
    const host = `${SIM_HOST.address}:${SIM_HOST.port}`;
    const fromHost = pair.net.log.filter((e) => e.from === host && e.sentAt >= 3_000);
    const fromClient = pair.net.log.filter((e) => e.from !== host && e.sentAt >= 3_000);
    // Five data packets a second carry every ack: no ack-only packets between them (waiting at most 60 ms, 29
    // went in these 2 s). The client probes now and then for acks 200 ms apart (a few empty packets a second).
    expect(fromHost.length).toBeLessThanOrEqual(12);
    expect(fromClient.length).toBeLessThanOrEqual(60 + 15);
  });

  it('a reconnect from the same address replaces the old connection', () => {
    const pair = makePair({ seed: 23 });
    pair.sim.runUntil(500);
    events(() => pair.host.pollEvent());
    const again = new Endpoint<number>(
      'client',
      { joinCode: 'TEST1-CODE2', protocolVersion: SIM_VERSION },
      () => ({ onPayload: () => undefined, onNotify: () => undefined }),
      pair.sim.now,
    );
    // Same address as the first client: a restarted app on the same port.
    const sim2 = pair.sim;
    sim2.add(SIM_CLIENT, again);
    again.connect(sim2.now, SIM_HOST);
    sim2.runUntil(sim2.now + 500);
    expect(again.pollEvent()?.type).toBe('connected');
    const ev = events(() => pair.host.pollEvent()).map((e) =>
      e.type === 'closed' ? e.info.reason : e.type,
    );
    expect(ev).toEqual(['closed', 'connected'].map((t) => (t === 'closed' ? 'replaced' : t)));
    expect(pair.host.connectionCount).toBe(1);
  });
});

describe('extra ports (a hard NAT fan)', () => {
  it('carry rendezvous for the tenant, and connection traffic only from the peer routed through that port', () => {
    const pair = makePair({ seed: 14 });
    pair.sim.runUntil(500);
    const heard: number[] = [];
    pair.host.tenant = {
      hasRoutes: true,
      routeOf: (to) =>
        to.address === SIM_CLIENT.address && to.port === SIM_CLIENT.port ? 3 : undefined,
      handleDatagram: (_now, _from, _bytes, via) => heard.push(via ?? 0),
      handleTimeout: () => undefined,
      nextTimeout: () => Infinity,
      pollTransmit: () => undefined,
    };
    pair.clientSide.sendOne(pair.sim.now);
    const first = pair.client.pollTransmit();
    pair.clientSide.sendOne(pair.sim.now);
    const second = pair.client.pollTransmit();
    if (!first || !second) throw new Error('nothing sent');
    const before = pair.host.counters.unknownSource;
    // On the wrong port: a stranger, whatever it carries.
    pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, first.bytes, 4);
    expect(pair.host.counters.unknownSource).toBe(before + 1);
    expect(pair.hostSide.received.size).toBe(0);
    pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, second.bytes, 3);
    expect(pair.hostSide.received.size).toBe(1);
    // Rendezvous on an extra port goes to the tenant, tagged with the port.
    pair.host.handleDatagram(pair.sim.now, SIM_CLIENT, new Uint8Array([0xed, 1, 2]), 5);
    expect(heard).toEqual([5]);
    // And the host answers its peer from port 3.
    pair.hostSide.sendOne(pair.sim.now);
    const reply = pair.host.pollTransmit();
    expect(reply?.to).toEqual(SIM_CLIENT);
    expect(reply?.via).toBe(3);
  });
});

describe('extra ports: handshakes', () => {
  const routedTenant = (routes: Map<string, number>) => ({
    get hasRoutes() {
      return routes.size > 0;
    },
    routeOf: (to: { address: string; port: number }) => routes.get(`${to.address}:${to.port}`),
    handleDatagram: () => undefined,
    handleTimeout: () => undefined,
    nextTimeout: () => Infinity,
    pollTransmit: () => undefined,
  });

  it('answer a HELLO from the port it came in on, whatever the peer is routed through', () => {
    const host = new Endpoint<number>(
      'host',
      { joinCode: '7-orbit-lantern', protocolVersion: SIM_VERSION },
      () => ({ onPayload: () => undefined, onNotify: () => undefined }),
      0,
    );
    host.tenant = routedTenant(new Map([[`${SIM_CLIENT.address}:${SIM_CLIENT.port}`, 7]]));
    const hello = encodeHandshake({
      type: 'hello',
      version: SIM_VERSION,
      clientNonce: new Uint8Array(16),
    });
    host.handleDatagram(0, SIM_CLIENT, hello, 7);
    expect(host.pollTransmit()?.via).toBe(7);
    // The same peer reaching our main port is answered there (it dialled what its spray found there).
    host.handleDatagram(0, SIM_CLIENT, hello, 0);
    expect(host.pollTransmit()?.via).toBeUndefined();
  });

  it('start a dial over from its new port when the host becomes routed through a fan port', () => {
    const client = new Endpoint<number>(
      'client',
      { joinCode: '7-orbit-lantern', protocolVersion: SIM_VERSION },
      () => ({ onPayload: () => undefined, onNotify: () => undefined }),
      0,
    );
    const routes = new Map<string, number>();
    client.tenant = routedTenant(routes);
    client.connect(0, SIM_HOST);
    const first = client.pollTransmit();
    expect(first?.via).toBeUndefined();
    routes.set(`${SIM_HOST.address}:${SIM_HOST.port}`, 5);
    client.handleTimeout(client.nextTimeout());
    const again = client.pollTransmit();
    expect(again?.via).toBe(5);
    // A fresh HELLO (a new nonce): the host's cookie will name the address it sees us at from that port.
    expect(again?.bytes[0]).toBe(first?.bytes[0]);
    expect(again?.bytes.length).toBe(HELLO_SIZE);
    expect(again?.bytes).not.toEqual(first?.bytes);
  });
});
