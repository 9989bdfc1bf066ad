// Recent sessions: newest first, bounded, one per address, never a join code, and saved across page loads.
import { describe, expect, it } from 'vitest';
import {
  MAX_RECENT,
  RECENT_KEY,
  type RecentSession,
  RecentSessions,
  recentAdd,
  recentParse,
  recentRemove,
  type StringStorage,
} from './recent';

function entry(address: string, at = 1): RecentSession {
  return { address, name: 'Grace', host: 'Ada', at };
}

function memoryStorage(): StringStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      data.set(k, v);
    },
  };
}

describe('recent sessions', () => {
  it('keeps the newest first, one entry per address, at most five', () => {
    let list: RecentSession[] = [];
    for (let i = 0; i < 8; i++) list = recentAdd(list, entry(`10.0.0.${i}:7350`, i));
    expect(list).toHaveLength(MAX_RECENT);
    expect(list.map((r) => r.at)).toEqual([7, 6, 5, 4, 3]);
    list = recentAdd(list, entry('10.0.0.5:7350', 9));
    expect(list.map((r) => r.at)).toEqual([9, 7, 6, 4, 3]);
  });

  it('never keeps a join code: a link is remembered without its #code', () => {
    const list = recentAdd([], entry('ghostboard://join/127.0.0.1:7340/s-1#7-orbit-lantern'));
    expect(list[0]?.address).toBe('ghostboard://join/127.0.0.1:7340/s-1');
    expect(JSON.stringify(list)).not.toContain('orbit');
    // The same session joined again with another code is still one entry.
    const again = recentAdd(list, entry('ghostboard://join/127.0.0.1:7340/s-1#9-new-code', 2));
    expect(again).toHaveLength(1);
  });

  it('removes one by address', () => {
    const list = [entry('a:1'), entry('b:2')];
    expect(recentRemove(list, 'a:1')).toEqual([entry('b:2')]);
    expect(recentRemove(list, 'c:3')).toEqual(list);
  });

  it('reads back what it saved and drops anything malformed without throwing', () => {
    const good = [entry('a:1', 2), entry('b:2', 1)];
    expect(recentParse(JSON.stringify(good))).toEqual(good);
    expect(recentParse(null)).toEqual([]);
    expect(recentParse('not json')).toEqual([]);
    expect(recentParse('{"a":1}')).toEqual([]);
    const mixed = [entry('a:1'), { address: 5 }, null, { ...entry(''), at: 3 }, 'x'];
    expect(recentParse(JSON.stringify(mixed))).toEqual([entry('a:1')]);
    // A code written by hand (or an older version) is stripped on the way in; the list stays bounded.
    const many = Array.from({ length: 9 }, (_, i) =>
      entry(`ghostboard://direct/1.2.3.4:${i + 1}#c`),
    );
    const read = recentParse(JSON.stringify(many));
    expect(read).toHaveLength(MAX_RECENT);
    expect(read.every((r) => !r.address.includes('#'))).toBe(true);
    expect(read[0]?.address).toBe('ghostboard://direct/1.2.3.4:1');
  });

  it('remembers a join only once it got in, saves it, and a new page load lists it', () => {
    const storage = memoryStorage();
    const recent = new RecentSessions(storage);
    let changes = 0;
    recent.subscribe(() => (changes += 1));
    recent.joined('Ada', 5); // no join under way: nothing to remember
    expect(recent.get()).toEqual([]);
    recent.attempting('ghostboard://join/127.0.0.1:7340/s-1#secret-code', 'Grace');
    expect(recent.get()).toEqual([]);
    recent.joined('Ada', 7);
    expect(recent.get()).toEqual([
      { address: 'ghostboard://join/127.0.0.1:7340/s-1', name: 'Grace', host: 'Ada', at: 7 },
    ]);
    expect(changes).toBe(1);
    expect(storage.data.get(RECENT_KEY)).not.toContain('secret');
    recent.joined('Ada', 8); // the same session's status again: no second entry
    expect(recent.get()).toHaveLength(1);
    expect(new RecentSessions(storage).get()).toEqual(recent.get());
    recent.remove('ghostboard://join/127.0.0.1:7340/s-1');
    expect(new RecentSessions(storage).get()).toEqual([]);
  });

  it('still works when storage throws (private mode, quota)', () => {
    const broken: StringStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    const recent = new RecentSessions(broken);
    recent.remember(entry('a:1'));
    expect(recent.get()).toEqual([entry('a:1')]);
    expect(new RecentSessions(null).get()).toEqual([]);
  });
});
