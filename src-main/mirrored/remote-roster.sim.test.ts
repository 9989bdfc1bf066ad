// The seam where participants served by other mirrors are relayed (session/remote-roster.ts), driven by an
// in-process relay that maps ids through the group's: every joiner sees every participant of every mirror under the
// id its own host gives them, sees a remote joiner's pointer move, and a refusal over a remote holder's lock names
// them. Seeded, virtual time.
import { describe, expect, it } from 'vitest';
import { isRefusal } from '../session/board';
import type { Joiner, MirrorHostsRun } from './testing/mirror-hosts';
import { DEFAULT_MIRROR_HOSTS, peerIdOf, runMirrorHosts } from './testing/mirror-hosts';

/** The id `j` has in the session of `at`'s mirror. */
function idAt(run: MirrorHostsRun, j: Joiner, at: Joiner): number {
  const from = run.mirrors[j.mirror];
  const to = run.mirrors[at.mirror];
  if (from === undefined || to === undefined) throw new Error('no such mirror');
  return to.executor.ids.toLocal(from.executor.ids.toGroup(peerIdOf(j)));
}

describe('participants relayed between mirror-backed hosts', () => {
  it.each([
    ['in-process', 'loopback'],
    ['over the mirror links as ghosts', 'presence'],
  ] as const)(
    '%s: shows every participant everywhere, remote pointers, and remote holders by name',
    (_, relay) => {
      const seed = 5;
      const run = runMirrorHosts({ ...DEFAULT_MIRROR_HOSTS, seed, commands: 20, relay });
      expect(run.ready, `seed ${seed}`).toBe(true);
      const joiners = run.mirrors.flatMap((m) => m.joiners);
      const everyone = [
        ...run.mirrors.map((m) => m.host.options.name),
        ...joiners.map((j) => j.peer.options.name),
      ].sort();
      for (const j of joiners) {
        const seen = j.peer.participants;
        expect(seen.map((p) => p.name).sort(), j.peer.options.name).toEqual(everyone);
        for (const other of joiners)
          expect(seen.find((p) => p.name === other.peer.options.name)?.peer).toBe(
            idAt(run, other, j),
          );
      }
      const [a, b] = [run.mirrors[0]?.joiners[0], run.mirrors[2]?.joiners[1]];
      if (a === undefined || b === undefined) throw new Error('no joiners');
      // A pointer crosses mirrors.
      b.peer.pointer(1234, -567);
      run.sim.runUntil(run.sim.now + 1000);
      const seenB = idAt(run, b, a);
      expect(
        a.events.some(
          (e) =>
            e.type === 'pointer' && e.pointer.peer === seenB && e.pointer.x === 1234 && e.moved,
        ),
        `seed ${seed}`,
      ).toBe(true);
      // A lock a remote participant holds is refused in their name.
      const target = a.peer.board.all()[0];
      if (target === undefined) throw new Error('an empty board');
      b.peer.grab(target.id);
      run.sim.runUntil(run.sim.now + 2000);
      const from = a.events.length;
      a.peer.edit(target.id, { x: 5 });
      run.sim.runUntil(run.sim.now + 1000);
      expect(a.events.slice(from)).toContainEqual({
        type: 'refused',
        cmd: 'edit',
        reason: `held by ${b.peer.options.name}`,
        id: target.id,
      });
      // Mirror 2's own user holds an object: mirror 0's joiner sees that host user under mirror 0's id for it (2),
      // its own joiners under 0 (their host), and an edit from mirror 0 is refused in that host's name.
      b.peer.drop(target.id, 0, 0);
      const hostOf2 = run.mirrors[2]?.host;
      if (hostOf2 === undefined) throw new Error('no mirror 2');
      run.sim.runUntil(run.sim.now + 2000);
      expect(isRefusal(hostOf2.grab(target.id, run.sim.now))).toBe(false);
      run.sim.runUntil(run.sim.now + 2000);
      expect(a.peer.board.get(target.id)?.lockedBy).toBe(2);
      expect(b.peer.board.get(target.id)?.lockedBy).toBe(0);
      const before = a.events.length;
      a.peer.edit(target.id, { x: 6 });
      run.sim.runUntil(run.sim.now + 1000);
      expect(a.events.slice(before)).toContainEqual({
        type: 'refused',
        cmd: 'edit',
        reason: `held by ${hostOf2.options.name}`,
        id: target.id,
      });
      hostOf2.drop(target.id, 10, 10, run.sim.now);
      run.sim.runUntil(run.sim.now + 2000);
      expect(a.peer.board.get(target.id)?.lockedBy).toBeNull();
      // When a joiner leaves, the other mirrors' joiners see it go.
      b.peer.leave(run.sim.now);
      run.sim.runUntil(run.sim.now + 2000);
      expect(a.events.some((e) => e.type === 'left' && e.peer === seenB)).toBe(true);
      expect(a.peer.participants.some((p) => p.peer === seenB)).toBe(false);
      for (const m of run.mirrors) expect(m.host.remote.refused).toBe(0);
      // With no lock held, every host's board is its leading state, the same everywhere.
      const leading = run.mirrors[0]?.mirror.tss.hash();
      for (const m of run.mirrors) {
        expect(m.mirror.tss.hash(), `mirror ${m.id}`).toBe(leading);
        expect(m.host.board.hash(), `mirror ${m.id}'s host`).toBe(leading);
      }
    },
  );
});
