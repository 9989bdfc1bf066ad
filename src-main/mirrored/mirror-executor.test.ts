// The group's participant ids as mirrors split them (peerIdsOf): no two mirrors give out one id, every session's
// own user is its 0, and the map between a session's ids and the group's is its own inverse.
import { describe, expect, it } from 'vitest';
import { MAX_PEER_ID } from '../../shared/board';
import { MAX_MIRRORS } from '../mirror/mirror-id';
import { peerIdsOf } from './mirror-executor';

describe('participant ids of a mirror group', () => {
  it('splits the id space among the mirrors and swaps each host user with its mirror id', () => {
    const owner = new Map<number, number>();
    for (let m = 0; m < MAX_MIRRORS; m++) {
      const ids = peerIdsOf(m);
      expect(ids.toGroup(0), `mirror ${m}'s host user`).toBe(m);
      expect(ids.toLocal(m)).toBe(0);
      expect(ids.toLocal(0), `mirror 0's host user at mirror ${m}`).toBe(m);
      let joiners = 0;
      for (let id = 0; id <= MAX_PEER_ID; id++) {
        expect(ids.toLocal(ids.toGroup(id))).toBe(id);
        if (!ids.owns(id)) continue;
        joiners++;
        // A joiner's id is the same in the group, and no other mirror gives it out.
        expect(ids.toGroup(id)).toBe(id);
        expect(owner.get(id), `id ${id}`).toBeUndefined();
        owner.set(id, m);
      }
      expect(joiners).toBe(63);
      // The host user's id in the group is never a joiner's of any mirror.
      expect(owner.has(ids.toGroup(0))).toBe(false);
    }
  });
});
