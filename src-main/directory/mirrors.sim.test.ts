// A session's mirrors at a directory, over the simulated network: more hosts register under the session's owner key,
// a joiner is told of every host (and each is told of the joiner), probes them and joins the nearest; a stranger
// cannot add a host, the count is bounded, a silent mirror is forgotten, and when the first host goes a mirror
// carries the session on. Seeded; a failure prints its seed.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import { Endpoint } from '../net/endpoint';
import type { EndpointEvent } from '../net/endpoint';
import { NO_IMPAIRMENT } from '../net/impairment';
import type { RendezvousEvent } from '../net/rendezvous-client';
import { RendezvousClient } from '../net/rendezvous-client';
import { Rng } from '../net/rng';
import { SimHarness } from '../net/testing/harness';
import { SimNetwork } from '../net/testing/network';
import type { DirectoryEvent } from './directory';
import { Directory } from './directory';

const CODE = '7-orbit-lantern';
const VERSION = 4;
const DIR: PeerAddress = { address: '203.0.113.1', port: 7340 };
const HOST: PeerAddress = { address: '203.0.113.50', port: 41_000 };
const JOINER: PeerAddress = { address: '198.51.100.77', port: 52_000 };
const mirrorAt = (i: number): PeerAddress => ({ address: `192.0.2.${i + 1}`, port: 41_000 });
const NAME = 'Design review';
const registration = { name: NAME, listed: false, version: VERSION, users: 1, candidates: [] };

interface Party {
  readonly endpoint: Endpoint<number>;
  readonly client: RendezvousClient;
  readonly events: RendezvousEvent[];
  readonly endpointEvents: EndpointEvent<number>[];
}

function world(seed: number) {
  const rng = new Rng(seed);
  const random = (n: number): Uint8Array =>
    Uint8Array.from({ length: n }, () => rng.uint32() & 0xff);
  const net = new SimNetwork(rng, { ...NO_IMPAIRMENT, delayMs: 20 });
  const sim = new SimHarness(net);
  const directory = new Directory({ secret: random(32) });
  sim.add(DIR, directory);
  const dirEvents: DirectoryEvent[] = [];
  const parties: Party[] = [];
  const add = (role: 'host' | 'client', at: PeerAddress, ownerKey?: Uint8Array): Party => {
    const endpoint = new Endpoint<number>(
      role,
      { joinCode: CODE, protocolVersion: VERSION },
      () => ({ onPayload: () => undefined, onNotify: () => undefined }),
      sim.now,
    );
    const client = new RendezvousClient({
      directories: [DIR],
      random,
      ...(ownerKey ? { ownerKey } : {}),
    });
    endpoint.tenant = client;
    sim.add(at, endpoint);
    const p = { endpoint, client, events: [], endpointEvents: [] };
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
    for (let e = directory.pollEvent(); e !== undefined; e = directory.pollEvent())
      dirEvents.push(e);
  });
  return { net, sim, directory, dirEvents, add };
}

/** A host and `n` mirrors of its session, registered. */
function session(seed: number, n: number) {
  const w = world(seed);
  const host = w.add('host', HOST);
  host.client.register(w.sim.now, registration);
  w.sim.runUntil(500);
  const key = host.client.registrationKey;
  const mirrors = Array.from({ length: n }, (_, i) => {
    const m = w.add('host', mirrorAt(i), key);
    m.client.register(w.sim.now, { ...registration, mirror: true });
    return m;
  });
  w.sim.runUntil(1_000);
  return { ...w, host, mirrors };
}

describe('a session with mirrors at a directory', () => {
  it('lists every host, tells a joiner of them all (and each of the joiner), and the joiner joins the nearest', () => {
    const seed = 41;
    const w = session(seed, 2);
    expect(w.directory.hostsOf(NAME), `seed ${seed}`).toEqual([HOST, mirrorAt(0), mirrorAt(1)]);
    expect(w.dirEvents.filter((e) => e.type === 'mirror')).toEqual([
      { type: 'mirror', name: NAME, host: mirrorAt(0), state: 'registered' },
      { type: 'mirror', name: NAME, host: mirrorAt(1), state: 'registered' },
    ]);
    // The joiner's paths: 60 ms to the first host, 5 to the first mirror, 30 to the second.
    for (const [at, ms] of [
      [HOST, 60],
      [mirrorAt(0), 5],
      [mirrorAt(1), 30],
    ] as const) {
      w.net.setConditions(JOINER, at, { ...NO_IMPAIRMENT, delayMs: ms });
      w.net.setConditions(at, JOINER, { ...NO_IMPAIRMENT, delayMs: ms });
    }
    const joiner = w.add('client', JOINER);
    joiner.client.introduce(w.sim.now, NAME, []);
    w.sim.runUntil(1_500);
    const intro = joiner.events.find((e) => e.type === 'intro');
    if (intro?.type !== 'intro') throw new Error(`seed ${seed}: no introduction`);
    expect(intro.session.host).toEqual(HOST);
    expect(intro.session.mirrors?.map((m) => m.host)).toEqual([mirrorAt(0), mirrorAt(1)]);
    for (const p of [w.host, ...w.mirrors])
      expect(
        p.events.some((e) => e.type === 'peer'),
        `seed ${seed}`,
      ).toBe(true);

    joiner.endpoint.connectNearest(w.sim.now, [
      intro.session.host,
      ...(intro.session.mirrors ?? []).map((m) => m.host),
    ]);
    w.sim.runUntil(4_000);
    const probed = joiner.endpointEvents.find((e) => e.type === 'probed');
    expect(probed?.type === 'probed' && probed.outcome.chosen, `seed ${seed}`).toBe(1);
    const open = [...joiner.endpoint.connections()].find((c) => c.isOpen);
    expect(open?.peer).toBe(addressKey(mirrorAt(0)));
  });

  it('refuses a host without the session’s key, and an eighth host', () => {
    const seed = 42;
    const w = session(seed, 7);
    expect(w.directory.hostsOf(NAME)).toHaveLength(8);
    const late = w.add('host', mirrorAt(7), w.host.client.registrationKey);
    late.client.register(w.sim.now, { ...registration, mirror: true });
    const stranger = w.add('host', { address: '192.0.2.200', port: 41_000 });
    stranger.client.register(w.sim.now, { ...registration, mirror: true });
    w.sim.runUntil(w.sim.now + 1_000);
    expect(late.events, `seed ${seed}`).toContainEqual({
      type: 'register-failed',
      directory: DIR,
      reason: 'full',
    });
    expect(stranger.events, `seed ${seed}`).toContainEqual({
      type: 'register-failed',
      directory: DIR,
      reason: 'taken',
    });
    expect(w.directory.hostsOf(NAME)).toHaveLength(8);
  });

  it('forgets a silent mirror; when the first host leaves, a mirror carries the session on', () => {
    const seed = 43;
    const w = session(seed, 2);
    // The first mirror's process dies: silent, it drops out of what joiners are told.
    w.sim.remove(mirrorAt(0));
    w.sim.runUntil(w.sim.now + 10_000);
    expect(w.directory.hostsOf(NAME, w.sim.now), `seed ${seed}`).toEqual([HOST, mirrorAt(1)]);
    const lookup = w.add('client', JOINER);
    lookup.client.introduce(w.sim.now, NAME, []);
    w.sim.runUntil(w.sim.now + 500);
    const intro = lookup.events.find((e) => e.type === 'intro');
    expect(intro?.type === 'intro' && intro.session.mirrors?.map((m) => m.host)).toEqual([
      mirrorAt(1),
    ]);
    // The first host leaves: the other mirror is the session's host, and its heartbeats keep it there.
    w.host.client.deregister();
    w.sim.runUntil(w.sim.now + 20_000);
    expect(w.directory.hostsOf(NAME), `seed ${seed}`).toEqual([mirrorAt(1)]);
    expect(w.dirEvents.some((e) => e.type === 'deregistered' || e.type === 'expired')).toBe(false);
    expect(w.mirrors[1]?.events.filter((e) => e.type === 'register-failed')).toEqual([]);
    // It leaves too: the session is gone.
    w.mirrors[1]?.client.deregister();
    w.sim.runUntil(w.sim.now + 500);
    expect(w.directory.hostsOf(NAME)).toEqual([]);
    expect(w.dirEvents.at(-1)).toEqual({ type: 'deregistered', name: NAME });
  });
});
