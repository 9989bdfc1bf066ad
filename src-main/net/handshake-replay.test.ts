// A recorded handshake replayed from the client's address must not give the host a working connection (it
// would send under keys and nonces it has used before). Endpoints driven by hand; no network or clock.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import type { Endpoint, EndpointEvent, Transmit } from './endpoint';
import { Endpoint as EndpointClass } from './endpoint';

const HOST: PeerAddress = { address: '127.0.0.1', port: 4000 };
const CLIENT: PeerAddress = { address: '127.0.0.2', port: 4001 };
const CODE = '7-orbit-lantern';
const VERSION = 1;

function endpoint(role: 'host' | 'client', code = CODE): Endpoint<number> {
  return new EndpointClass<number>(
    role,
    { joinCode: code, protocolVersion: VERSION },
    () => ({ onPayload: () => undefined, onNotify: () => undefined }),
    0,
  );
}

function drain(e: Endpoint<number>): Transmit[] {
  const out: Transmit[] = [];
  for (let t = e.pollTransmit(); t !== undefined; t = e.pollTransmit()) out.push(t);
  return out;
}

function events(e: Endpoint<number>): EndpointEvent<number>['type'][] {
  const out: EndpointEvent<number>['type'][] = [];
  for (let ev = e.pollEvent(); ev !== undefined; ev = e.pollEvent()) out.push(ev.type);
  return out;
}

/** Runs a clean handshake by hand at one instant; returns every datagram the client sent, in order. */
function handshake(now: number, host: Endpoint<number>, client: Endpoint<number>): Uint8Array[] {
  const sent: Uint8Array[] = [];
  client.connect(now, HOST);
  for (let round = 0; round < 8; round++) {
    for (const t of drain(client)) {
      sent.push(t.bytes);
      host.handleDatagram(now, CLIENT, t.bytes);
    }
    for (const t of drain(host)) client.handleDatagram(now, HOST, t.bytes);
  }
  return sent;
}

describe('a replayed handshake', () => {
  it('gives the host no connection, even right after the original closed (within the cookie lifetime)', () => {
    const host = endpoint('host');
    const client = endpoint('client');
    const recorded = handshake(1000, host, client);
    expect(events(host)).toEqual(['connected']);
    expect(events(client)).toEqual(['connected']);
    // The client leaves; its connection is gone from the host.
    const conn = [...client.connections()][0];
    if (conn === undefined) throw new Error('client not connected');
    conn.close(1100, 'closed', 'bye');
    client.touch(conn);
    for (const t of drain(client)) host.handleDatagram(1100, CLIENT, t.bytes);
    expect(events(host)).toEqual(['closed']);
    expect(host.connectionCount).toBe(0);
    drain(host);
    // An attacker who recorded the exchange spoofs the client's address and replays every datagram it sent,
    // twice over, a second later (well inside the cookie's lifetime).
    for (const bytes of [...recorded, ...recorded]) host.handleDatagram(2100, CLIENT, bytes);
    expect(events(host)).toEqual([]);
    expect([...host.connections()].filter((c) => c.isOpen)).toEqual([]);
  });
});
