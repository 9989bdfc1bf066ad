// The `hosts` message: its codec round-trips and refuses hostile counts with a typed error, and joiners learn the
// session's hosts after their welcome and each time the list changes (on the simulator, with loss).
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { NO_IMPAIRMENT } from '../net/impairment';
import { Rng } from '../net/rng';
import { HOST_KEEPALIVE_MS } from './host';
import { hostList, MAX_SESSION_HOSTS, normalHostList } from './host-list';
import type { SessionEvent } from './session-events';
import { makeSimSession } from './testing/sim-session';

const NO_STRINGS = {
  writeTableString: () => undefined,
  readTableString: () => '',
};

function encode(hosts: Parameters<ReturnType<typeof hostList>['write']>[1]): Uint8Array {
  const w = new BitWriter();
  hostList().write(w, hosts, NO_STRINGS);
  return w.finish();
}

function hostsEvents(events: readonly SessionEvent[]): string[][] {
  return events.flatMap((e) =>
    e.type === 'hosts' ? [e.hosts.map((h) => `${h.address}:${h.port}`)] : [],
  );
}

describe('the hosts list on the wire', () => {
  it('round-trips random lists of IPv4 and IPv6 hosts (seeded)', () => {
    const seed = 2201;
    const rng = new Rng(seed);
    for (let round = 0; round < 200; round++) {
      const n = rng.int(MAX_SESSION_HOSTS + 1);
      const hosts = Array.from({ length: n }, () =>
        rng.int(2) === 0
          ? {
              address: `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`,
              port: 1 + rng.int(65535),
            }
          : {
              address: `2001:db8::${(1 + rng.int(0xfffe)).toString(16)}`,
              port: 1 + rng.int(65535),
            },
      );
      const back = hostList().read(new BitReader(encode(hosts)), NO_STRINGS);
      expect(back, `seed ${seed} round ${round}`).toEqual(hosts);
    }
  });

  it('refuses a count past the bound, a cut list and port 0 with a DecodeError', () => {
    const over = new BitWriter();
    over.writeUint(MAX_SESSION_HOSTS + 1, 5);
    const cases = [
      over.finish(),
      encode([{ address: '10.0.0.1', port: 7350 }]).slice(0, 2),
      (() => {
        const w = new BitWriter();
        w.writeUint(1, 5);
        w.writeBool(false);
        w.writeBytes(new Uint8Array([10, 0, 0, 1]));
        w.writeUint(0, 16);
        return w.finish();
      })(),
    ];
    for (const bytes of cases)
      expect(() => hostList().read(new BitReader(bytes), NO_STRINGS)).toThrow(DecodeError);
  });

  it('sends each host once, canonical, at most the bound', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ address: '10.0.0.1', port: 7000 + i }));
    expect(normalHostList(many)).toHaveLength(MAX_SESSION_HOSTS);
    expect(
      normalHostList([
        { address: '::ffff:10.0.0.1', port: 1 },
        { address: '10.0.0.1', port: 1 },
        { address: 'not-an-ip', port: 2 },
      ]),
    ).toEqual([{ address: '10.0.0.1', port: 1 }]);
  });
});

describe('a joiner learns the session hosts', () => {
  it('after its welcome and on each change, once per change, at 10 % loss', () => {
    const seed = 2202;
    const s = makeSimSession({
      seed,
      conditions: { ...NO_IMPAIRMENT, loss: 0.1, delayMs: 30, jitterMs: 5 },
    });
    const a = { address: '10.0.0.1', port: 7350 };
    const b = { address: '10.0.0.2', port: 7350 };
    const c = { address: '2001:db8::3', port: 7351 };
    s.host.setHosts([a, b]);
    s.addPeer('Early');
    s.sim.runUntil(3_000);
    expect(s.peers[0]?.hosts, `seed ${seed}`).toEqual([a, b]);
    // The same list again is no news; a new one is.
    s.host.setHosts([a, b]);
    s.host.setHosts([a, c]);
    s.addPeer('Late');
    s.sim.runUntil(6_000);
    expect(hostsEvents(s.peerEvents[0] ?? []), `seed ${seed}`).toEqual([
      ['10.0.0.1:7350', '10.0.0.2:7350'],
      ['10.0.0.1:7350', '2001:db8::3:7351'],
    ]);
    expect(s.peers[1]?.hosts, `seed ${seed}`).toEqual([a, c]);
    expect(hostsEvents(s.peerEvents[1] ?? [])).toHaveLength(1);
  });
});

describe('an idle host', () => {
  it('is heard by a joined peer at least every keepalive (a joiner’s failover silence counts on it)', () => {
    const seed = 2203;
    const s = makeSimSession({ seed });
    s.addPeer('Idle');
    s.sim.runUntil(2_000);
    const conn = s.peers[0]?.connection?.conn;
    expect(conn?.isOpen, `seed ${seed}`).toBe(true);
    let last = conn?.heardAt ?? 0;
    let longest = 0;
    s.sim.every(5, () => {
      const at = conn?.heardAt ?? 0;
      if (at !== last) longest = Math.max(longest, at - last);
      last = at;
    });
    s.sim.runUntil(12_000);
    // Nothing happens on the board: only keepalives (and acks) come, each after a keepalive interval at most.
    // (Virtual times are sums of float steps: compared to the ms.)
    expect(Math.round(longest), `seed ${seed}`).toBeLessThanOrEqual(HOST_KEEPALIVE_MS);
  });
});
