// The directory and the rendezvous client over the simulated network: registration, heartbeats and expiry,
// several directories, introductions that end in an end-to-end handshake, and hostile traffic. Seeded; a failure
// prints its seed.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import { Endpoint } from '../net/endpoint';
import type { EndpointEvent } from '../net/endpoint';
import type { RendezvousMessage } from '../net/rendezvous';
import {
  decodeRendezvous,
  encodeRendezvous,
  isRendezvousDecodeError,
  MAX_RENDEZVOUS_SIZE,
} from '../net/rendezvous';
import type { RendezvousEvent } from '../net/rendezvous-client';
import { RendezvousClient } from '../net/rendezvous-client';
import { Rng } from '../net/rng';
import { SimHarness } from '../net/testing/harness';
import { NO_IMPAIRMENT } from '../net/impairment';
import { SimNetwork } from '../net/testing/network';
import type { DirectoryEvent } from './directory';
import { Directory } from './directory';
import { Reflector } from './reflector';

const CODE = '7-orbit-lantern';
const VERSION = 4;
const DIR_A: PeerAddress = { address: '203.0.113.1', port: 7340 };
const DIR_B: PeerAddress = { address: '198.51.100.1', port: 7340 };
const HOST: PeerAddress = { address: '203.0.113.50', port: 41_000 };
const JOINER: PeerAddress = { address: '198.51.100.77', port: 52_000 };

function randomFrom(rng: Rng): (n: number) => Uint8Array {
  return (n) => Uint8Array.from({ length: n }, () => rng.uint32() & 0xff);
}

interface Party {
  readonly endpoint: Endpoint<number>;
  readonly client: RendezvousClient;
  readonly events: RendezvousEvent[];
  readonly endpointEvents: EndpointEvent<number>[];
}

/** `reflector`: each directory has one on its next port (`silent`: announced, but nothing answers there). */
function world(
  seed: number,
  directories: readonly PeerAddress[] = [DIR_A, DIR_B],
  reflector: 'none' | 'answering' | 'silent' = 'none',
) {
  const rng = new Rng(seed);
  const net = new SimNetwork(rng, { ...NO_IMPAIRMENT, delayMs: 20 });
  const sim = new SimHarness(net);
  const dirs = directories.map((address) => {
    const reflectorPort = address.port + 1;
    const d = new Directory({
      secret: randomFrom(rng)(32),
      ...(reflector === 'none' ? {} : { reflectorPort }),
    });
    sim.add(address, d);
    if (reflector === 'answering') sim.add({ ...address, port: reflectorPort }, new Reflector());
    return { address, d, events: [] as DirectoryEvent[] };
  });
  const party = (role: 'host' | 'client', at: PeerAddress, code = CODE): Party => {
    const endpoint = new Endpoint<number>(
      role,
      { joinCode: code, protocolVersion: VERSION },
      () => ({ onPayload: () => undefined, onNotify: () => undefined }),
      sim.now,
    );
    const client = new RendezvousClient({ directories, random: randomFrom(rng) });
    endpoint.tenant = client;
    sim.add(at, endpoint);
    return { endpoint, client, events: [], endpointEvents: [] };
  };
  const parties: Party[] = [];
  const add = (role: 'host' | 'client', at: PeerAddress, code?: string): Party => {
    const p = party(role, at, code);
    parties.push(p);
    return p;
  };
  sim.every(10, () => {
    for (const p of parties) {
      for (let e = p.client.pollEvent(); e !== undefined; e = p.client.pollEvent())
        p.events.push(e);
      for (let e = p.endpoint.pollEvent(); e !== undefined; e = p.endpoint.pollEvent())
        p.endpointEvents.push(e);
    }
    for (const x of dirs)
      for (let e = x.d.pollEvent(); e !== undefined; e = x.d.pollEvent()) x.events.push(e);
  });
  return { rng, net, sim, dirs, add };
}

const registration = {
  name: 'Design review',
  listed: true,
  version: VERSION,
  users: 1,
  candidates: [],
};

describe('directory', () => {
  it('lists a host with every directory, introduces a joiner through one, and the handshake runs end to end', () => {
    const seed = 11;
    const w = world(seed);
    const host = w.add('host', HOST);
    const joiner = w.add('client', JOINER);
    host.client.register(w.sim.now, registration);
    w.sim.runUntil(1_000);
    expect(host.client.registeredWith.map(addressKey), `seed ${seed}`).toEqual(
      [DIR_A, DIR_B].map(addressKey),
    );
    expect(host.client.observed).toEqual(HOST);
    for (const x of w.dirs) expect(x.d.session('design REVIEW')?.host).toEqual(HOST);

    const lan = { address: '192.168.1.20', port: 41_000 };
    joiner.client.introduce(w.sim.now, 'Design review', []);
    w.sim.runUntil(1_500);
    const intro = joiner.events.find((e) => e.type === 'intro');
    expect(intro?.type === 'intro' && intro.session.host).toEqual(HOST);
    expect(
      host.events.some((e) => e.type === 'peer' && addressKey(e.observed) === addressKey(JOINER)),
    ).toBe(true);
    // The host's punches reach the joiner (they would open the host's NAT towards it).
    expect(joiner.client.counters.punchesHeard).toBeGreaterThan(0);
    // The joiner tries a LAN address that goes nowhere and the public one at once: the public one wins, alone.
    joiner.endpoint.connect(w.sim.now, [lan, HOST]);
    w.sim.runUntil(3_000);
    expect(joiner.endpointEvents.filter((e) => e.type === 'connected')).toHaveLength(1);
    expect(joiner.endpointEvents.some((e) => e.type === 'connect-failed')).toBe(false);
    expect(host.endpointEvents.filter((e) => e.type === 'connected')).toHaveLength(1);
    // Directories never saw a byte of the handshake.
    for (const x of w.dirs) expect(x.d.counters.malformed + x.d.counters.unexpected).toBe(0);
  });

  it("measures each party's NAT mapping against a reflector and passes it on with the introduction", () => {
    const seed = 17;
    const w = world(seed, [DIR_A], 'answering');
    const host = w.add('host', HOST);
    const joiner = w.add('client', JOINER);
    host.client.register(w.sim.now, registration);
    w.sim.runUntil(1_000);
    // The simulated network has no NAT: both ports see the same address.
    expect(host.client.mapping, `seed ${seed}`).toEqual({ kind: 'independent' });
    expect(host.events).toContainEqual({ type: 'nat', mapping: { kind: 'independent' } });
    expect(w.dirs[0]?.d.session('Design review')?.nat).toEqual({ kind: 'independent' });
    const asked = w.sim.now;
    joiner.client.introduce(asked, 'Design review', []);
    w.sim.runUntil(asked + 1_000);
    expect(joiner.client.mapping).toEqual({ kind: 'independent' });
    const intro = joiner.events.find((e) => e.type === 'intro');
    expect(intro?.type === 'intro' && intro.session.nat).toEqual({ kind: 'independent' });
    // Plain punching between two easy NATs: no spray, no fan.
    expect(host.client.traversal.counters.sprayed + joiner.client.traversal.counters.sprayed).toBe(
      0,
    );
    expect(
      host.client.traversal.counters.fanPrimes + joiner.client.traversal.counters.fanPrimes,
    ).toBe(0);
    for (const x of w.dirs) expect(x.d.counters.malformed + x.d.counters.unexpected).toBe(0);
  });

  it('introduces a joiner whose reflector never answers after a short wait, its mapping unknown', () => {
    const seed = 18;
    const w = world(seed, [DIR_A], 'silent');
    const host = w.add('host', HOST);
    const joiner = w.add('client', JOINER);
    host.client.register(w.sim.now, registration);
    w.sim.runUntil(1_000);
    const asked = w.sim.now;
    joiner.client.introduce(asked, 'Design review', []);
    w.sim.runUntil(asked + 2_000);
    expect(joiner.client.mapping, `seed ${seed}`).toEqual({ kind: 'unknown' });
    const intro = joiner.events.find((e) => e.type === 'intro');
    expect(intro?.type).toBe('intro');
    expect(host.events.some((e) => e.type === 'peer')).toBe(true);
  });

  it('lets a path found later join a dial in progress, and none once the dial is over', () => {
    const seed = 16;
    const w = world(seed, [DIR_A]);
    const host = w.add('host', HOST);
    const joiner = w.add('client', JOINER);
    const nowhere = { address: '192.168.9.9', port: 7350 };
    joiner.endpoint.connect(w.sim.now, [nowhere]);
    w.sim.runUntil(w.sim.now + 300);
    // The host's address turns up while the first dial still waits (a relayed path, in the app).
    joiner.endpoint.connect(w.sim.now, [HOST], [nowhere]);
    w.sim.runUntil(w.sim.now + 20_000);
    expect(
      joiner.endpointEvents.filter((e) => e.type === 'connected'),
      `seed ${seed}`,
    ).toHaveLength(1);
    expect(joiner.endpointEvents.some((e) => e.type === 'connect-failed')).toBe(false);
    expect(host.endpointEvents.filter((e) => e.type === 'connected')).toHaveLength(1);
    // Too late: the dial it would join is over, so nothing starts.
    joiner.endpoint.connect(w.sim.now, [{ address: '192.168.9.10', port: 7350 }], [nowhere]);
    w.sim.runUntil(w.sim.now + 12_000);
    expect(joiner.endpointEvents.filter((e) => e.type === 'connect-failed')).toHaveLength(0);
  });

  it('forgets a host that stops heartbeating within the TTL, and a host that leaves at once', () => {
    const seed = 12;
    const w = world(seed, [DIR_A]);
    const host = w.add('host', HOST);
    host.client.register(w.sim.now, registration);
    w.sim.runUntil(10_000);
    const d = w.dirs[0];
    if (d === undefined) throw new Error('no directory');
    expect(d.d.sessionCount, `seed ${seed}`).toBe(1);
    // Heartbeats flowed all along without new announcements.
    expect(d.d.counters.heartbeats).toBeGreaterThanOrEqual(4);
    expect(d.events.filter((e) => e.type === 'registered')).toHaveLength(1);
    // The host goes silent (crashed, unplugged).
    w.net.setConditions(HOST, DIR_A, { ...NO_IMPAIRMENT, loss: 1 });
    const silentAt = w.sim.now;
    w.sim.runUntilTrue(() => d.d.sessionCount === 0, silentAt + 30_000);
    expect(d.d.sessionCount).toBe(0);
    expect(w.sim.now - silentAt).toBeLessThanOrEqual(7_000 + 2_000);
    expect(d.events.some((e) => e.type === 'expired')).toBe(true);
    // It comes back, registers again, and then leaves properly: gone at once.
    w.net.setConditions(HOST, DIR_A, NO_IMPAIRMENT);
    w.sim.runUntilTrue(() => d.d.sessionCount === 1, w.sim.now + 30_000);
    expect(d.d.sessionCount).toBe(1);
    host.client.deregister();
    w.sim.runUntil(w.sim.now + 100);
    expect(d.d.sessionCount).toBe(0);
    expect(d.events.some((e) => e.type === 'deregistered')).toBe(true);
  });

  it('keeps introducing through the other directory when one is down', () => {
    const seed = 13;
    const w = world(seed);
    w.net.setConditions(HOST, DIR_B, { ...NO_IMPAIRMENT, loss: 1 });
    w.net.setConditions(JOINER, DIR_B, { ...NO_IMPAIRMENT, loss: 1 });
    const host = w.add('host', HOST);
    const joiner = w.add('client', JOINER);
    host.client.register(w.sim.now, registration);
    w.sim.runUntil(2_000);
    joiner.client.introduce(w.sim.now, 'design review', []);
    w.sim.runUntil(4_000);
    const intro = joiner.events.find((e) => e.type === 'intro');
    expect(intro?.type === 'intro' && addressKey(intro.directory), `seed ${seed}`).toBe(
      addressKey(DIR_A),
    );
  });

  it('says not-found for a session nobody hosts, and sends no one anything on its behalf', () => {
    const seed = 14;
    const w = world(seed);
    const joiner = w.add('client', JOINER);
    joiner.client.introduce(w.sim.now, 'nobody here', []);
    w.sim.runUntil(3_000);
    expect(joiner.events).toEqual([{ type: 'intro-failed', reason: 'not-found' }]);
    const dirKeys = w.dirs.map((x) => addressKey(x.address));
    expect(w.net.log.some((l) => dirKeys.includes(l.from) && l.to !== addressKey(JOINER))).toBe(
      false,
    );
    for (const x of w.dirs) expect(x.d.counters.introductions).toBe(0);
  });

  it("punches only towards the joiner's address the directory saw, never an address the joiner merely lists", () => {
    const seed = 17;
    const w = world(seed, [DIR_A]);
    const host = w.add('host', HOST);
    const joiner = w.add('client', JOINER);
    host.client.register(w.sim.now, registration);
    w.sim.runUntil(1_000);
    const victim = { address: '192.168.50.50', port: 9 };
    joiner.client.introduce(w.sim.now, 'Design review', [victim]);
    w.sim.runUntil(6_000);
    expect(
      host.events.some((e) => e.type === 'peer'),
      `seed ${seed}`,
    ).toBe(true);
    const fromHost = w.net.log.filter((l) => l.from === addressKey(HOST));
    expect(fromHost.some((l) => l.to === addressKey(JOINER))).toBe(true);
    expect(fromHost.some((l) => l.to === addressKey(victim))).toBe(false);
  });

  it('keeps a name for its owner: another host asking for it is told it is taken', () => {
    const seed = 15;
    const w = world(seed, [DIR_A]);
    const first = w.add('host', HOST);
    const second = w.add('host', { address: '203.0.113.60', port: 41_000 });
    first.client.register(w.sim.now, registration);
    w.sim.runUntil(500);
    second.client.register(w.sim.now, { ...registration, name: 'DESIGN REVIEW' });
    w.sim.runUntil(1_500);
    expect(second.events, `seed ${seed}`).toContainEqual({
      type: 'register-failed',
      directory: DIR_A,
      reason: 'taken',
    });
    expect(w.dirs[0]?.d.session('design review')?.host).toEqual(HOST);
  });
});

describe('directory under hostile traffic', () => {
  const secret = new Uint8Array(32).fill(3);
  const drain = (d: Directory): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (let t = d.pollTransmit(); t !== undefined; t = d.pollTransmit()) out.push(t.bytes);
    return out;
  };

  it('answers an unverified source with no more bytes than it sent, and nothing else', () => {
    const seed = 21;
    const rng = new Rng(seed);
    const d = new Directory({ secret, requestBurst: 1e9, requestsPerSecond: 1e9 });
    const forged = randomFrom(rng);
    const requests: RendezvousMessage[] = [
      { type: 'probe', request: 1 },
      { type: 'lookup', request: 2, cookie: forged(16), name: 'x' },
      { type: 'list', request: 3, cookie: forged(16), cursor: 0 },
      {
        type: 'introduce',
        request: 4,
        cookie: forged(16),
        name: 'x',
        nonce: forged(8),
        candidates: [{ address: '2001:db8::1', port: 1 }],
      },
      {
        type: 'register',
        request: 5,
        cookie: forged(16),
        ownerKey: forged(16),
        version: 4,
        name: 'y',
        listed: true,
        users: 1,
        candidates: [],
      },
    ];
    for (let i = 0; i < 2_000; i++) {
      const m = requests[i % requests.length] as RendezvousMessage;
      const bytes = encodeRendezvous(m);
      const from = {
        address: `2001:db8:${(rng.uint32() & 0xffff).toString(16)}::${i}`,
        port: 1 + (i % 60_000),
      };
      d.handleDatagram(i, from, bytes);
      for (const reply of drain(d)) {
        expect(reply.length, `seed ${seed}, ${m.type}`).toBeLessThanOrEqual(bytes.length);
        const r = decodeRendezvous(reply);
        expect(!isRendezvousDecodeError(r) && r.type).toBe('cookie');
      }
    }
    expect(d.sessionCount).toBe(0);
  });

  it('limits each source and stays bounded under a spoofed flood', () => {
    const d = new Directory({ secret, maxSources: 1_000, requestBurst: 40, requestsPerSecond: 20 });
    const probe = encodeRendezvous({ type: 'probe', request: 9 });
    const one = { address: '198.51.100.9', port: 5 };
    let answered = 0;
    for (let i = 0; i < 1_000; i++) {
      d.handleDatagram(0, one, probe);
      answered += drain(d).length;
    }
    expect(answered).toBe(40);
    // After a second, about 20 more.
    for (let i = 0; i < 100; i++) d.handleDatagram(1_000, one, probe);
    expect(drain(d).length).toBe(20);
    // An IPv6 host rotating addresses inside its /64 is one source.
    for (let i = 0; i < 200; i++)
      d.handleDatagram(5_000, { address: `2001:db8:1:2::${i.toString(16)}`, port: 7 }, probe);
    expect(drain(d).length).toBe(40);
    // 100,000 spoofed sources: the table holds at most its cap.
    for (let i = 0; i < 100_000; i++)
      d.handleDatagram(
        6_000,
        { address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, port: 9 },
        probe,
      );
    drain(d);
    expect(d.counters.malformed).toBe(0);
    expect((d as unknown as { requests: { size: number } }).requests.size).toBeLessThanOrEqual(
      1_000,
    );
    expect(decodeRendezvous(new Uint8Array(MAX_RENDEZVOUS_SIZE + 1).fill(0xe1))).toMatchObject({
      error: 'long',
    });
  });

  it('asks hosts to heartbeat less often as sessions grow, so its load stays within budget', () => {
    const d = new Directory({
      secret,
      heartbeatBudget: 10,
      requestBurst: 1e9,
      requestsPerSecond: 1e9,
    });
    expect(d.heartbeatMs()).toBe(2_000);
    const host = { address: '203.0.113.5', port: 4000 };
    d.handleDatagram(0, host, encodeRendezvous({ type: 'probe', request: 1 }));
    const c = decodeRendezvous(drain(d)[0] ?? new Uint8Array());
    if (isRendezvousDecodeError(c) || c.type !== 'cookie') throw new Error('no cookie');
    for (let i = 0; i < 50; i++)
      d.handleDatagram(
        0,
        host,
        encodeRendezvous({
          type: 'register',
          request: 2 + i,
          cookie: c.cookie,
          ownerKey: new Uint8Array(16).fill(i),
          version: 4,
          name: `s${i}`,
          listed: false,
          users: 1,
          candidates: [],
        }),
      );
    const replies = drain(d).map((b) => decodeRendezvous(b));
    const last = replies[replies.length - 1] ?? { error: 'short', detail: 'none' };
    // 50 sessions at 10 heartbeats/s: one every 5 s each, and listed for three of them and a second.
    expect(!isRendezvousDecodeError(last) && last.type === 'registered' && last).toMatchObject({
      heartbeatMs: 5_000,
      ttlMs: 16_000,
    });
  });

  it('pages through every listed session and no unlisted one', () => {
    const seed = 22;
    const rng = new Rng(seed);
    const d = new Directory({
      secret,
      requestBurst: 1e9,
      requestsPerSecond: 1e9,
      maxSessionsPerSource: 1_000,
    });
    const host = { address: '203.0.113.5', port: 4000 };
    d.handleDatagram(0, host, encodeRendezvous({ type: 'probe', request: 1 }));
    const c = decodeRendezvous(drain(d)[0] ?? new Uint8Array());
    if (isRendezvousDecodeError(c) || c.type !== 'cookie') throw new Error('no cookie');
    const names: string[] = [];
    for (let i = 0; i < 65; i++) {
      const listed = i % 13 !== 0;
      const name = `Board ${i} ${'x'.repeat(rng.uint32() % 30)}`.trim();
      if (listed) names.push(name);
      d.handleDatagram(
        0,
        host,
        encodeRendezvous({
          type: 'register',
          request: 10 + i,
          cookie: c.cookie,
          ownerKey: randomFrom(rng)(16),
          version: 4,
          name,
          listed,
          users: i,
          candidates: [],
        }),
      );
    }
    drain(d);
    const seen: string[] = [];
    let cursor = 0;
    for (let page = 0; page < 20; page++) {
      d.handleDatagram(
        1,
        host,
        encodeRendezvous({ type: 'list', request: 100 + page, cookie: c.cookie, cursor }),
      );
      const r = decodeRendezvous(drain(d)[0] ?? new Uint8Array());
      if (isRendezvousDecodeError(r) || r.type !== 'listing')
        throw new Error(`seed ${seed}: no listing`);
      seen.push(...r.entries.map((e) => e.name));
      if (r.next === 0) break;
      cursor = r.next;
    }
    expect(seen.sort()).toEqual(names.sort());
  });
});
