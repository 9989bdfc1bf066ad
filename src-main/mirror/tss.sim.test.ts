// The synchronizer proven in the simulator: 3 mirrors, 12 clients, random edits and grab races, every command
// delivered to every mirror exactly once in any order within a bounded delay (duplicates dropped): after
// quiescence every mirror's states, and every mirror's client replica, equal the board of the commands in order,
// and every client was last told the outcome its command has in that order. 1,000 of 1,000 seeds.
import { describe, expect, it } from 'vitest';
import type { MirrorCommand } from './command';
import { commandName, compareCommands } from './command';
import { execute } from './execute';
import { emptyBoard, hashBoard } from '../board';
import type { SimConfig } from './testing/sim';
import { DEFAULT_SIM, replicaHash, simulate } from './testing/sim';

const SEEDS = 1000;
const CHUNK = 250;

interface Ordered {
  readonly hash: string;
  /** Each command's outcome (done or not) in the group's order. */
  readonly ok: Map<string, boolean>;
  /** Who held each grab's object just before it (in that order). */
  readonly holderBefore: Map<string, number | null>;
}

function inOrder(commands: readonly MirrorCommand[]): Ordered {
  const state = emptyBoard();
  const ok = new Map<string, boolean>();
  const holderBefore = new Map<string, number | null>();
  for (const c of [...commands].sort(compareCommands)) {
    if (c.op.type === 'grab')
      holderBefore.set(commandName(c), state.objects.get(c.op.id)?.lockedBy ?? null);
    const o = execute(state, c);
    if (o !== undefined) ok.set(commandName(c), o.ok);
  }
  return { hash: hashBoard(state), ok, holderBefore };
}

interface Tally {
  rollbacks: number;
  races: number;
  revised: number;
}

function check(config: SimConfig, tally: Tally): void {
  const msg = `seed ${config.seed}`;
  const r = simulate(config);
  const truth = inOrder(r.commands);
  for (const m of r.mirrors) {
    const at = `${msg} mirror ${m.id}`;
    for (let j = 0; j <= config.delays.length; j++)
      expect(m.tss.hash(j), `${at} state ${j}`).toBe(truth.hash);
    expect(replicaHash(m.replica), `${at} client replica`).toBe(truth.hash);
    expect(m.tss.stats.late, `${at} late`).toBe(0);
    expect(m.tss.held, `${at} held after quiescence`).toBe(0);
    expect(m.tss.stats.received, `${at} received once each`).toBe(r.commands.length);
    // What each of this mirror's clients was last told of its command: done unless told otherwise.
    const told = new Map<string, boolean>();
    for (const o of m.outputs) {
      if (o.type === 'refused' || o.type === 'granted')
        told.set(`${m.id}:${o.seq}`, o.type === 'granted');
      if (o.type === 'refused' && o.revised) tally.revised++;
    }
    for (const c of r.commands) {
      const ok = truth.ok.get(commandName(c));
      if (c.origin !== m.id || ok === undefined) continue;
      expect(
        told.get(commandName(c)) ?? true,
        `${at} outcome of ${commandName(c)} ${c.op.type}`,
      ).toBe(ok);
    }
    tally.rollbacks += m.tss.stats.leadingRollbacks;
  }
  // A grab race: two grabs of one object, issued at two mirrors within a one-way delay of each other, so each
  // mirror's leading state saw its own first. Every mirror agrees on the winner (the hashes and outcomes above):
  // the earlier in (stamp, mirror) order, while it still holds the object when the later one comes.
  for (const pair of r.races) {
    const [a, b] = [...pair].sort(compareCommands) as [MirrorCommand, MirrorCommand];
    if (truth.ok.get(commandName(a)) !== true) continue;
    if (truth.holderBefore.get(commandName(b)) !== a.client) continue;
    tally.races++;
    expect(
      truth.ok.get(commandName(b)),
      `${msg} race ${commandName(a)} before ${commandName(b)}`,
    ).toBe(false);
  }
}

describe('trailing state synchronization, 3 mirrors in the simulator', () => {
  for (let first = 1; first <= SEEDS; first += CHUNK) {
    const last = first + CHUNK - 1;
    it(`converges to the ordered board everywhere, clients told the ordered outcome (seeds ${first}-${last})`, () => {
      const tally: Tally = { rollbacks: 0, races: 0, revised: 0 };
      for (let seed = first; seed <= last; seed++) check({ ...DEFAULT_SIM, seed }, tally);
      // The runs are not trivially consistent: leading states rolled back, grab races were lost and told.
      expect(tally.rollbacks).toBeGreaterThan(CHUNK);
      expect(tally.races).toBeGreaterThan(CHUNK / 4);
      expect(tally.revised).toBeGreaterThan(0);
    });
  }

  it('converges with a single trailing state, three, and every delivery slow (seeds 1-50 each)', () => {
    const tally: Tally = { rollbacks: 0, races: 0, revised: 0 };
    for (let seed = 1; seed <= 50; seed++) {
      check({ ...DEFAULT_SIM, seed, delays: [300] }, tally);
      check({ ...DEFAULT_SIM, seed, delays: [20, 80, 400] }, tally);
      check({ ...DEFAULT_SIM, seed, oneWay: 200, jitter: 300, delays: [100, 1000] }, tally);
    }
    expect(tally.rollbacks).toBeGreaterThan(0);
  });
});
