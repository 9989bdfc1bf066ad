import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import { addressKey } from './address';
import { clearlyNearer, NearestJoin, RECHECK_AFTER_MS } from './nearest-join';
import { MAX_PROBE_CANDIDATES } from './nearest-probe';
import type { ProbeOutcome } from './nearest-probe';

const A: PeerAddress = { address: '198.51.100.1', port: 7350 };
const B: PeerAddress = { address: '198.51.100.2', port: 7350 };

/** A probe of A and B with these RTTs (null: no answer), the lower one chosen. */
function outcome(a: number | null, b: number | null): ProbeOutcome {
  const candidates = [
    { address: A, rttMs: a, sent: 3, replies: a === null ? 0 : 3, incompatible: false },
    { address: B, rttMs: b, sent: 3, replies: b === null ? 0 : 3, incompatible: false },
  ];
  const chosen = a === null ? (b === null ? undefined : 1) : b === null || a <= b ? 0 : 1;
  return chosen === undefined
    ? { chosen, at: 0, failure: 'unreachable', candidates }
    : { chosen, at: 0, candidates };
}

describe('clearlyNearer', () => {
  it('names a host 20 ms and 40 % nearer than the joined one', () => {
    expect(clearlyNearer(outcome(130, 10), addressKey(A))).toEqual(B);
    expect(clearlyNearer(outcome(60, 36), addressKey(A))).toEqual(B);
  });

  it('keeps the joined host for a small gain, in ms or in share', () => {
    expect(clearlyNearer(outcome(25, 6), addressKey(A))).toBeUndefined(); // 19 ms
    expect(clearlyNearer(outcome(130, 100), addressKey(A))).toBeUndefined(); // 77 %
  });

  it('keeps the joined host when it is the nearest, or when it did not answer (failover is for that)', () => {
    expect(clearlyNearer(outcome(130, 10), addressKey(B))).toBeUndefined();
    expect(clearlyNearer(outcome(null, 10), addressKey(A))).toBeUndefined();
    expect(clearlyNearer(outcome(null, null), addressKey(A))).toBeUndefined();
  });
});

describe('the second look once joined', () => {
  /** Where the probes it sends now go, each address once. */
  function probed(j: NearestJoin): string[] {
    const to = new Set<string>();
    for (let t = j.pollTransmit(); t !== undefined; t = j.pollTransmit()) to.add(addressKey(t.to));
    return [...to];
  }

  it('probes the hosts the joined host names, the joined one always among them however many there are', () => {
    const hosts = Array.from({ length: 12 }, (_, i) => ({
      address: `198.51.100.${i + 1}`,
      port: 7350,
    }));
    const j = new NearestJoin(1);
    j.knownHosts(hosts);
    const last = addressKey(hosts[11] ?? A);
    j.joined(0, last);
    j.handleTimeout(RECHECK_AFTER_MS);
    const to = probed(j);
    expect(to).toHaveLength(MAX_PROBE_CANDIDATES);
    expect(to).toContain(last);
    expect(to.slice(0, MAX_PROBE_CANDIDATES - 1)).toEqual(
      hosts.slice(0, MAX_PROBE_CANDIDATES - 1).map(addressKey),
    );
  });

  it('probes the hosts known before the join too, after those the joined host names', () => {
    const C: PeerAddress = { address: '198.51.100.3', port: 7350 };
    const j = new NearestJoin(1);
    // A failover's join to B alone: A, silent then, is known from the link; B's own list names B and C.
    j.linkHosts([A, B]);
    j.knownHosts([B, C]);
    j.joined(0, addressKey(B));
    j.handleTimeout(RECHECK_AFTER_MS);
    expect(probed(j)).toEqual([B, C, A].map(addressKey));
  });

  it('probes nothing when the joined host is not among the hosts it knows, or is the only one', () => {
    const stranger = new NearestJoin(1);
    stranger.knownHosts([A, B]);
    stranger.joined(0, '203.0.113.5:7350');
    stranger.handleTimeout(RECHECK_AFTER_MS);
    expect(probed(stranger)).toEqual([]);

    const alone = new NearestJoin(1);
    alone.knownHosts([A]);
    alone.joined(0, addressKey(A));
    alone.handleTimeout(RECHECK_AFTER_MS);
    expect(probed(alone)).toEqual([]);
    expect(alone.nextTimeout()).toBe(Infinity);
  });
});
