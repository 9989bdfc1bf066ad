import { describe, expect, it } from 'vitest';
import type { NearestHosts } from '../../shared/api';
import { mergeProbes } from './session-reach';

const A = '10.0.0.1:7350';
const B = '10.0.0.2:7350';
const C = '10.0.0.3:7350';

function host(address: string, rttMs: number | null) {
  return { address, rttMs, incompatible: false };
}

describe('mergeProbes', () => {
  it('is the later probe when there was none before', () => {
    const later: NearestHosts = { hosts: [host(A, 4)], chosen: 0 };
    expect(mergeProbes(undefined, later)).toBe(later);
  });

  it('keeps the hosts the later probe left out, takes its answers and its choice', () => {
    // The second look found A nearer than B (joined); the move probes A alone.
    const earlier: NearestHosts = { hosts: [host(A, 9), host(B, 61), host(C, null)], chosen: 0 };
    const later: NearestHosts = { hosts: [host(A, 3.5)], chosen: 0 };
    expect(mergeProbes(earlier, later)).toEqual({
      hosts: [host(A, 3.5), host(B, 61), host(C, null)],
      chosen: 0,
    });
  });

  it('adds hosts it did not know, and points its choice at the merged list', () => {
    const earlier: NearestHosts = { hosts: [host(A, 9), host(B, 61)], chosen: 0 };
    const later: NearestHosts = { hosts: [host(C, 2), host(B, 58)], chosen: 0 };
    expect(mergeProbes(earlier, later)).toEqual({
      hosts: [host(A, 9), host(B, 58), host(C, 2)],
      chosen: 2,
    });
  });

  it('chose nothing when the later probe joined none', () => {
    const earlier: NearestHosts = { hosts: [host(A, 9), host(B, 61)], chosen: 0 };
    const later: NearestHosts = { hosts: [host(A, null)], chosen: null };
    expect(mergeProbes(earlier, later)).toEqual({
      hosts: [host(A, null), host(B, 61)],
      chosen: null,
    });
  });
});
