// Nearest mirror over the simulated network: a joiner probes every host of a session in parallel and joins the one
// with the lowest RTT; a dead one is skipped, an incompatible one never joined, none alive is a clear failure; hosts
// answer probes statelessly, smaller than asked, and only so often per source. Seeded; a failure prints its seed.
import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { EndpointEvent } from './endpoint';
import { Endpoint } from './endpoint';
import type { Impairment } from './impairment';
import { NO_IMPAIRMENT } from './impairment';
import { NearestProbe } from './nearest-probe';
import { encodeProbe, encodeProbeReply, PROBE_REPLY_SIZE, PROBE_SIZE } from './probe-wire';
import { Rng } from './rng';
import { SimHarness } from './testing/harness';
import { SimNetwork } from './testing/network';

const CODE = 'NEAR-MIRROR-7';
const VERSION = 1;
const JOINER: PeerAddress = { address: '100.64.0.9', port: 50_000 };
/** Three sites' mirrors, at 60, 5 and 30 ms one way from the joiner. */
const FAR: PeerAddress = { address: '198.51.100.1', port: 7350 };
const NEAR: PeerAddress = { address: '198.51.100.2', port: 7350 };
const MID: PeerAddress = { address: '198.51.100.3', port: 7350 };
const ONE_WAY = new Map([
  [addressKey(FAR), 60],
  [addressKey(NEAR), 5],
  [addressKey(MID), 30],
]);

const quiet = () => ({ onPayload: () => undefined, onNotify: () => undefined });

function endpoint(role: 'host' | 'client', version = VERSION, full = false): Endpoint<number> {
  return new Endpoint<number>(
    role,
    { joinCode: CODE, protocolVersion: version, ...(full ? { maxConnections: 0 } : {}) },
    quiet,
    0,
  );
}

interface World {
  readonly sim: SimHarness;
  readonly joiner: Endpoint<number>;
  readonly hosts: Map<string, Endpoint<number>>;
  /** The joiner's events, drained every ms of virtual time, with when. */
  readonly events: { at: number; e: EndpointEvent<number> }[];
}

function world(
  seed: number,
  o: {
    extra?: Partial<Impairment>;
    dead?: readonly PeerAddress[];
    /** Hosts that answer probes but refuse every join ('full'). */
    full?: readonly PeerAddress[];
    versions?: ReadonlyMap<string, number>;
  } = {},
): World {
  const net = new SimNetwork(new Rng(seed), NO_IMPAIRMENT);
  const sim = new SimHarness(net);
  const hosts = new Map<string, Endpoint<number>>();
  for (const h of [FAR, NEAR, MID]) {
    const c = { ...NO_IMPAIRMENT, ...o.extra, delayMs: ONE_WAY.get(addressKey(h)) ?? 0 };
    net.setConditions(JOINER, h, c);
    net.setConditions(h, JOINER, c);
    if (o.dead?.some((d) => addressKey(d) === addressKey(h)) === true) continue;
    const full = o.full?.some((d) => addressKey(d) === addressKey(h)) === true;
    const e = endpoint('host', o.versions?.get(addressKey(h)) ?? VERSION, full);
    hosts.set(addressKey(h), e);
    sim.add(h, e);
  }
  const joiner = endpoint('client');
  sim.add(JOINER, joiner);
  const events: World['events'] = [];
  sim.every(1, (now) => {
    for (let e = joiner.pollEvent(); e !== undefined; e = joiner.pollEvent())
      events.push({ at: now, e });
  });
  return { sim, joiner, hosts, events };
}

function probed(w: World) {
  const p = w.events.find((x) => x.e.type === 'probed');
  return p?.e.type === 'probed' ? { at: p.at, outcome: p.e.outcome } : undefined;
}

function connectedTo(w: World): string | undefined {
  return [...w.joiner.connections()].find((c) => c.isOpen)?.peer;
}

describe('joining the nearest host', () => {
  it('probes every host in parallel and joins the one with the lowest RTT, without waiting out the bound', () => {
    const seed = 1;
    const w = world(seed);
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(400);
    const p = probed(w);
    expect(p, `seed ${seed}`).toBeDefined();
    const rtts = p?.outcome.candidates.map((c) => c.rttMs);
    expect(rtts, `seed ${seed}`).toEqual([120, 10, 60]);
    expect(p?.outcome.chosen).toBe(1);
    // Chosen (and dialled) once the last round (at 40 ms) had been out the nearest's 10 ms; the report waited
    // for the far one's last answer.
    expect(p?.outcome.at).toBe(50);
    expect(p?.at).toBe(160);
    expect(connectedTo(w), `seed ${seed}`).toBe(addressKey(NEAR));
    // Only the chosen host saw a handshake; the others only probes.
    expect(w.hosts.get(addressKey(NEAR))?.connectionCount).toBe(1);
    expect(w.hosts.get(addressKey(FAR))?.connectionCount).toBe(0);
    expect(w.hosts.get(addressKey(FAR))?.counters.probesAnswered).toBe(3);
  });

  it('chooses the nearest through loss, jitter and reordering (100 seeds)', () => {
    const extra = { loss: 0.1, jitterMs: 3, reorder: 0.1 };
    for (let seed = 100; seed < 200; seed++) {
      const w = world(seed, { extra });
      w.joiner.connectNearest(0, [FAR, MID, NEAR]);
      w.sim.runUntil(3_000);
      const p = probed(w);
      // All three probes to the nearest lost (one in a thousand): the middle one is the best any prober could do.
      const nearestHeard = (p?.outcome.candidates[2]?.replies ?? 0) > 0;
      expect(p?.outcome.chosen, `seed ${seed}`).toBe(nearestHeard ? 2 : 1);
      expect(connectedTo(w), `seed ${seed}`).toBe(addressKey(nearestHeard ? NEAR : MID));
    }
  });

  it('skips a host that does not answer', () => {
    const seed = 2;
    const w = world(seed, { dead: [NEAR] });
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(2_000);
    const p = probed(w);
    expect(
      p?.outcome.candidates.map((c) => c.rttMs),
      `seed ${seed}`,
    ).toEqual([120, null, 60]);
    expect(p?.outcome.chosen).toBe(2);
    // The silent one stopped mattering once the last round had been out 60 ms (the middle one's RTT); the report
    // waited for it until the bound.
    expect(p?.outcome.at).toBe(100);
    expect(p?.at).toBe(1_500);
    expect(connectedTo(w)).toBe(addressKey(MID));
  });

  it('moves on to a host that answered late at first: probed again once joined, the nearer one is named', () => {
    const seed = 3;
    // The nearest host is not up for the first probe (a mirror just starting): the middle one is joined.
    const w = world(seed, { dead: [NEAR] });
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(1_000);
    expect(connectedTo(w), `seed ${seed}`).toBe(addressKey(MID));
    w.sim.add(NEAR, endpoint('host'));
    w.sim.runUntil(6_000);
    const nearer = w.events.flatMap((x) => (x.e.type === 'nearer' ? [{ at: x.at, e: x.e }] : []));
    expect(nearer, `seed ${seed}`).toHaveLength(1);
    expect(addressKey(nearer[0]?.e.to ?? FAR), `seed ${seed}`).toBe(addressKey(NEAR));
    expect(
      nearer[0]?.e.outcome.candidates.map((c) => c.rttMs),
      `seed ${seed}`,
    ).toEqual([120, 10, 60]);
    // RECHECK_AFTER_MS after the join (the middle host's handshake done by 1 s), then every answer in.
    expect(nearer[0]?.at, `seed ${seed}`).toBeGreaterThan(3_000);
    expect(nearer[0]?.at, `seed ${seed}`).toBeLessThan(4_500);
    // Naming it is all the endpoint does: whoever runs the session moves.
    expect(connectedTo(w), `seed ${seed}`).toBe(addressKey(MID));
  });

  it('names no other host when the joined one is still the nearest', () => {
    const seed = 4;
    const w = world(seed);
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(10_000);
    expect(connectedTo(w), `seed ${seed}`).toBe(addressKey(NEAR));
    expect(
      w.events.filter((x) => x.e.type === 'nearer'),
      `seed ${seed}`,
    ).toEqual([]);
    // It did look again: each host answered three probes more than the join's three.
    expect(w.hosts.get(addressKey(FAR))?.counters.probesAnswered, `seed ${seed}`).toBe(6);
  });

  it('never joins a host of another protocol version, however near', () => {
    const seed = 3;
    const w = world(seed, { versions: new Map([[addressKey(NEAR), VERSION + 1]]) });
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(2_000);
    const p = probed(w);
    expect(p?.outcome.candidates[1]).toMatchObject({ rttMs: 10, incompatible: true });
    expect(p?.outcome.chosen).toBe(2);
    expect(connectedTo(w)).toBe(addressKey(MID));
  });

  it('fails clearly when no host answers, at the bound', () => {
    const seed = 4;
    const w = world(seed, { dead: [FAR, NEAR, MID] });
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(3_000);
    const p = probed(w);
    expect(p?.at).toBe(1_500);
    expect(p?.outcome).toMatchObject({ chosen: undefined, failure: 'unreachable', at: 1_500 });
    expect(p?.outcome.candidates.every((c) => c.rttMs === null && c.sent === 3)).toBe(true);
    expect(w.events.map((x) => x.e)).toContainEqual({
      type: 'connect-failed',
      peer: FAR,
      reason: 'unreachable',
    });
    expect(w.joiner.connectionCount).toBe(0);
  });

  it('says version-mismatch when every host that answered speaks another version', () => {
    const seed = 5;
    const w = world(seed, {
      dead: [FAR],
      versions: new Map([
        [addressKey(NEAR), 9],
        [addressKey(MID), 9],
      ]),
    });
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(3_000);
    expect(w.events.map((x) => x.e)).toContainEqual({
      type: 'connect-failed',
      peer: FAR,
      reason: 'version-mismatch',
    });
  });

  it('joins the next nearest when the nearest refuses the join (full), and fails only when every one does', () => {
    const seed = 7;
    const w = world(seed, { full: [NEAR] });
    w.joiner.connectNearest(0, [FAR, NEAR, MID]);
    w.sim.runUntil(2_000);
    expect(probed(w)?.outcome.chosen, `seed ${seed}`).toBe(1);
    expect(connectedTo(w), `seed ${seed}`).toBe(addressKey(MID));
    expect(w.events.some((x) => x.e.type === 'connect-failed')).toBe(false);

    const all = world(seed, { full: [FAR, NEAR, MID] });
    all.joiner.connectNearest(0, [FAR, NEAR, MID]);
    all.sim.runUntil(10_000);
    const failed = all.events.filter((x) => x.e.type === 'connect-failed').map((x) => x.e);
    expect(failed, `seed ${seed}`).toEqual([{ type: 'connect-failed', peer: FAR, reason: 'full' }]);
  });

  it('looks again at the hosts the joined host names too: one left out of the join (gone silent, back) is found', () => {
    const seed = 8;
    // A failover's join probes the hosts other than the one that went silent: NEAR, now back, is not among them.
    const w = world(seed);
    w.joiner.connectNearest(0, [FAR, MID]);
    w.sim.runUntil(1_000);
    expect(connectedTo(w), `seed ${seed}`).toBe(addressKey(MID));
    // The joined host tells the session's hosts (PeerSession passes its `hosts` message on).
    w.joiner.sessionHosts([MID, NEAR, FAR]);
    w.sim.runUntil(6_000);
    const nearer = w.events.flatMap((x) => (x.e.type === 'nearer' ? [x.e] : []));
    expect(nearer, `seed ${seed}`).toHaveLength(1);
    expect(addressKey(nearer[0]?.to ?? FAR), `seed ${seed}`).toBe(addressKey(NEAR));
    expect(
      nearer[0]?.outcome.candidates.map((c) => [addressKey(c.address), c.rttMs]),
      `seed ${seed}`,
    ).toEqual([
      [addressKey(FAR), 120],
      [addressKey(MID), 60],
      [addressKey(NEAR), 10],
    ]);
  });

  it('a host dialled alone is looked at again only with others the host names', () => {
    const seed = 9;
    const alone = world(seed);
    alone.joiner.connectNearest(0, [MID]);
    alone.sim.runUntil(10_000);
    expect(alone.hosts.get(addressKey(MID))?.counters.probesAnswered, `seed ${seed}`).toBe(0);
    expect(alone.events.some((x) => x.e.type === 'nearer')).toBe(false);

    const named = world(seed);
    named.joiner.connectNearest(0, [MID]);
    named.sim.runUntil(500);
    named.joiner.sessionHosts([MID, NEAR]);
    named.sim.runUntil(6_000);
    const nearer = named.events.flatMap((x) => (x.e.type === 'nearer' ? [x.e] : []));
    expect(
      nearer.map((e) => addressKey(e.to)),
      `seed ${seed}`,
    ).toEqual([addressKey(NEAR)]);
  });

  it('dials a single host at once: no probe, no delay', () => {
    const seed = 6;
    const w = world(seed);
    w.joiner.connectNearest(0, [MID]);
    w.sim.runUntil(400);
    expect(probed(w)).toBeUndefined();
    expect(w.hosts.get(addressKey(MID))?.counters.probesAnswered).toBe(0);
    expect(connectedTo(w)).toBe(addressKey(MID));
  });
});

describe('the probe itself', () => {
  it('takes an answer only from the address it asked, with the nonce it sent', () => {
    const probe = new NearestProbe([NEAR, FAR], VERSION, 0, { rounds: 1 });
    const sent = [probe.pollTransmit(), probe.pollTransmit()];
    const toNear = sent.find((t) => t?.to === NEAR);
    const nonce = toNear?.bytes.slice(3, 11) ?? new Uint8Array(8);
    const reply = encodeProbeReply({ version: VERSION, nonce });
    // The right nonce from the wrong address (a stranger who saw it), or a guessed nonce from the right one.
    expect(probe.handleReply(1, FAR, reply)).toBe(false);
    expect(
      probe.handleReply(1, NEAR, encodeProbeReply({ version: VERSION, nonce: new Uint8Array(8) })),
    ).toBe(false);
    expect(probe.handleReply(10, NEAR, reply)).toBe(true);
    // Each probe is answered once.
    expect(probe.handleReply(11, NEAR, reply)).toBe(false);
    // FAR's probe has been out as long as NEAR's RTT: it can no longer beat it, so NEAR is chosen now; the report
    // waits for FAR until the bound.
    expect(probe.choice).toEqual({ chosen: 0, at: 10 });
    expect(probe.outcome).toBeUndefined();
    expect(probe.nextTimeout()).toBe(1_500);
    probe.handleTimeout(1_500);
    expect(probe.outcome?.candidates.map((c) => c.rttMs)).toEqual([10, null]);
    expect(probe.handleReply(1_600, NEAR, reply)).toBe(false);
  });

  it('bounds what it is given', () => {
    expect(() => new NearestProbe([], VERSION, 0)).toThrow(RangeError);
    expect(
      () =>
        new NearestProbe(
          Array.from({ length: 9 }, () => NEAR),
          VERSION,
          0,
        ),
    ).toThrow(RangeError);
  });
});

describe('a host answering probes', () => {
  const STRANGER: PeerAddress = { address: '203.0.113.66', port: 1234 };
  const nonce = Uint8Array.from([9, 9, 9, 9, 9, 9, 9, 9]);

  it('answers with fewer bytes than it was sent, keeping no state', () => {
    const host = endpoint('host');
    host.handleDatagram(0, STRANGER, encodeProbe({ version: VERSION, nonce }));
    const t = host.pollTransmit();
    expect(t?.to).toEqual(STRANGER);
    expect(t?.bytes).toEqual(encodeProbeReply({ version: VERSION, nonce }));
    expect(t?.bytes.length).toBe(PROBE_REPLY_SIZE);
    expect(PROBE_REPLY_SIZE).toBeLessThan(PROBE_SIZE);
    expect(host.tableSizes()).toEqual({
      connections: 0,
      dialing: 0,
      failures: 0,
      answered: 0,
      outbox: 0,
    });
  });

  it('answers one source only so often, and others still', () => {
    const host = endpoint('host');
    let answered = 0;
    for (let i = 0; i < 100; i++) {
      host.handleDatagram(0, STRANGER, encodeProbe({ version: VERSION, nonce }));
      while (host.pollTransmit() !== undefined) answered++;
    }
    // Ten joiners behind one NAT probing at once get their answers; a flood does not.
    expect(answered).toBe(32);
    expect(host.counters.probesLimited).toBe(68);
    // The same /32 from another port is the same source; another address is not.
    host.handleDatagram(0, { ...STRANGER, port: 999 }, encodeProbe({ version: VERSION, nonce }));
    expect(host.pollTransmit()).toBeUndefined();
    host.handleDatagram(0, JOINER, encodeProbe({ version: VERSION, nonce }));
    expect(host.pollTransmit()?.to).toEqual(JOINER);
    // Tokens come back with time: 16 a second.
    host.handleDatagram(1_000, STRANGER, encodeProbe({ version: VERSION, nonce }));
    expect(host.pollTransmit()?.to).toEqual(STRANGER);
  });

  it('does not answer a short probe, a banned source, or a reply; a joiner ignores replies it did not ask for', () => {
    const host = endpoint('host');
    host.handleDatagram(0, STRANGER, encodeProbe({ version: VERSION, nonce }).slice(0, 20));
    expect(host.counters.badHandshake).toBe(1);
    host.handleDatagram(0, STRANGER, encodeProbeReply({ version: VERSION, nonce }));
    expect(host.counters.unexpectedHandshake).toBe(1);
    host.ban(0, STRANGER.address);
    host.handleDatagram(0, STRANGER, encodeProbe({ version: VERSION, nonce }));
    expect(host.counters.banned).toBe(1);
    expect(host.pollTransmit()).toBeUndefined();

    const joiner = endpoint('client');
    joiner.handleDatagram(0, STRANGER, encodeProbeReply({ version: VERSION, nonce }));
    joiner.handleDatagram(0, STRANGER, encodeProbe({ version: VERSION, nonce }));
    expect(joiner.counters.unexpectedHandshake).toBe(2);
    expect(joiner.pollTransmit()).toBeUndefined();
  });
});
