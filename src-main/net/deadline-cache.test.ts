// The endpoint's deadline cache: the earliest live deadline, due entries taken once, stale and removed ones dead.
// Knows nothing of connections: entries are stand-ins with a settable deadline.
import { describe, expect, it } from 'vitest';
import { DeadlineCache } from './deadline-cache';

interface Fake {
  readonly conn: { readonly peer: string; nextTimeout(): number };
  version: number;
  at: number;
}

function fake(peer: string, at: number): Fake {
  const e: Fake = { conn: { peer, nextTimeout: () => e.at }, version: 0, at };
  return e;
}

describe('DeadlineCache', () => {
  it('gives the earliest cached deadline and takes due entries once, earliest first', () => {
    const entries = new Map<string, Fake>();
    const cache = new DeadlineCache(entries);
    for (const e of [fake('a', 30), fake('b', 10), fake('c', 20), fake('d', Infinity)]) {
      entries.set(e.conn.peer, e);
      cache.markStale(e);
    }
    cache.refresh();
    expect(cache.earliest()?.at).toBe(10);
    expect(cache.takeDue(20).map((e) => e.conn.peer)).toEqual(['b', 'c']);
    expect(cache.takeDue(20)).toEqual([]);
    expect(cache.earliest()?.at).toBe(30);
  });

  it('forgets a deadline replaced by a refresh, and an entry no longer in the table', () => {
    const entries = new Map<string, Fake>();
    const cache = new DeadlineCache(entries);
    const a = fake('a', 10);
    const b = fake('b', 20);
    entries.set('a', a).set('b', b);
    cache.markStale(a);
    cache.markStale(b);
    cache.refresh();
    a.at = 50;
    cache.markStale(a);
    cache.refresh();
    expect(cache.earliest()?.at).toBe(20);
    entries.delete('b');
    expect(cache.earliest()?.at).toBe(50);
    expect(cache.takeDue(100)).toEqual([a]);
  });
});
