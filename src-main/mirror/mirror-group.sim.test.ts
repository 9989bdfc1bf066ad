// The mirror group whole, seeded (issue 21's test): 3 mirrors with skewed, drifting clocks, linked by mirror-secret
// connections over lossy, jittery, reordering, duplicating links, multicasting their 12 clients' commands with
// CRIMP and executing them with trailing state synchronization. After quiescence every mirror's every state, and
// every mirror's client replica (what its clients were shown, rollbacks included), is the board the commands make
// in the group's order; and the winner of each grab race holds the same way everywhere.
import { describe, expect, it } from 'vitest';
import { emptyBoard } from '../board';
import type { MirrorCommand } from './command';
import { commandName, compareCommands } from './command';
import { execute } from './execute';
import { orderedHash } from './replay';
import type { GroupMirror } from './testing/mirror-group';
import { DEFAULT_GROUP, runGroup } from './testing/mirror-group';
import { replicaHash } from './testing/sim';

const SEEDS = Number(process.env.GB_MIRROR_SEEDS ?? 20);

/**
 * Whether each command succeeds when the group's order executes them all (chat: undefined), and for each grab who
 * held the object just before it ran.
 */
function inGroupOrder(commands: readonly MirrorCommand[]): {
  done: Map<string, boolean>;
  heldBefore: Map<string, number | null>;
} {
  const state = emptyBoard();
  const done = new Map<string, boolean>();
  const heldBefore = new Map<string, number | null>();
  for (const c of [...commands].sort(compareCommands)) {
    if (c.op.type === 'grab')
      heldBefore.set(commandName(c), state.objects.get(c.op.id)?.lockedBy ?? null);
    const o = execute(state, c);
    if (o !== undefined) done.set(commandName(c), o.ok);
  }
  return { done, heldBefore };
}

/** What a mirror last told the client of each of its commands: refused (false) or, with no word or a grant, done. */
function toldOf(m: GroupMirror, c: MirrorCommand): boolean {
  let told = true;
  for (const o of m.outputs)
    if ((o.type === 'refused' || o.type === 'granted') && o.seq === c.seq && o.client === c.client)
      told = o.type === 'granted';
  return told;
}

function assertNever(): never {
  throw new Error('no such mirror');
}

describe('a mirror group over lossy links', () => {
  it(`converges for ${SEEDS} seeds: every state and every client replica is the ordered board`, () => {
    let rollbacks = 0;
    let commands = 0;
    let races = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const msg = `seed ${seed}`;
      const run = runGroup({ ...DEFAULT_GROUP, seed });
      expect(run.linked, msg).toBe(true);
      const ordered = orderedHash(run.commands);
      for (const m of run.mirrors) {
        const where = `${msg}, mirror ${m.id}`;
        for (let j = 0; j <= DEFAULT_GROUP.delays.length; j++)
          expect(m.mirror.tss.hash(j), `${where}, state ${j}`).toBe(ordered);
        expect(replicaHash(m.replica), where).toBe(ordered);
        expect(m.mirror.tss.stats.late, where).toBe(0);
        expect(m.mirror.counters, where).toEqual({
          undecodable: 0,
          forged: 0,
          unsent: 0,
          badTransfer: 0,
        });
        // Every command reached every mirror once (its own at submission).
        expect(m.mirror.tss.stats.received, where).toBe(run.commands.length);
        rollbacks += m.mirror.tss.stats.leadingRollbacks;
      }
      commands += run.commands.length;
      // Every client was last told what the group's order made of its command; in a race the later grab lost
      // whenever the earlier one held the object then.
      const { done: outcomes, heldBefore } = inGroupOrder(run.commands);
      for (const c of run.commands) {
        const ok = outcomes.get(commandName(c));
        const m = run.mirrors[c.origin];
        if (ok === undefined || m === undefined) continue;
        expect(toldOf(m, c), `${msg}, ${commandName(c)} ${c.op.type}`).toBe(ok);
      }
      for (const [a, b] of run.races) {
        const [first, second] = compareCommands(a, b) < 0 ? [a, b] : [b, a];
        // The earlier grab won and still held the object when the later one came (not yet dropped): it lost.
        if (heldBefore.get(commandName(second)) === first.client) {
          expect(outcomes.get(commandName(second)), `${msg}, ${commandName(second)}`).toBe(false);
          expect(toldOf(run.mirrors[second.origin] ?? assertNever(), second), msg).toBe(false);
          races++;
        }
      }
    }
    // The runs must exercise rollbacks, or they prove nothing about them.
    expect(rollbacks).toBeGreaterThan(0);
    expect(races).toBeGreaterThan(SEEDS);
    expect(commands).toBeGreaterThan(SEEDS * DEFAULT_GROUP.commands * 0.8);
  });
});
