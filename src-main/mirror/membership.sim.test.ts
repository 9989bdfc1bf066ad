// Mirror group membership, seeded (issues 21/22): 2 founders with clients editing, a third mirror joining
// mid-session and taking the board, then one mirror drawn at random (the coordinator, the joiner or the other)
// killed without a goodbye, and the editing going on, over lossy (5 %), jittery, reordering links with skewed,
// drifting clocks. After quiescence the survivors agree on the view, hold the same set of the dead mirror's
// commands, and every state of every survivor and every client replica is the board those commands make in the
// group's order; nothing is executed twice and every buffer is empty. Also: two joiners at once get distinct ids,
// a clean close is a leave with its reason, and a 20,000-object board reaches a joiner in chunks.
import { describe, expect, it } from 'vitest';
import { emptyBoard } from '../board';
import type { BoardState } from '../board';
import { commandName } from './command';
import type { MirrorCommand } from './command';
import { orderedHash } from './replay';
import type { MembershipRun, RunMirror } from './testing/membership-group';
import { DEFAULT_MEMBERSHIP_RUN, runMembership } from './testing/membership-group';
import { replicaHash } from './testing/sim';

const SEEDS = Number(process.env.GB_MEMBERSHIP_SEEDS ?? 12);
/** Seeds of the two-joiner run (looped further by hand when a change touches joins). */
const JOIN_SEEDS = Number(process.env.GB_MEMBERSHIP_JOIN_SEEDS ?? 4);

/** The seqs of one origin a mirror has seen (executed, or in the board it took). */
function seenOf(m: RunMirror, origin: number): (seq: number) => boolean {
  const s = m.mirror.tss.finalCut().seen.find((x) => x.origin === origin);
  const above = new Set(s?.above ?? []);
  return (seq) => s !== undefined && (seq < s.floor || above.has(seq));
}

/** Checks a finished run: one view, one board, the dead mirror's commands alike everywhere, empty buffers. */
function checkRun(
  run: MembershipRun,
  msg: string,
  board: () => BoardState = emptyBoard,
): { dead: MirrorCommand[]; survivors: RunMirror[]; late: number } {
  const survivors = run.mirrors.filter((m) => m.stoppedAt === undefined);
  const ids = survivors.map((m) => m.mirror.self).sort((a, b) => (a ?? 0) - (b ?? 0));
  for (const m of survivors) {
    const where = `${msg}, slot ${m.slot} (mirror ${String(m.mirror.self)})`;
    expect(m.mirror.ready, where).toBe(true);
    expect(
      m.mirror.membership?.view?.members.map((x) => x.id),
      where,
    ).toEqual(ids);
  }
  for (const m of survivors)
    expect(m.mirror.groupStats(), `${msg}, slot ${m.slot}`).toMatchObject({
      members: ids,
      coordinator: ids[0],
      suspected: [],
      changing: null,
      phase: 'member',
      queued: 0,
    });
  const views = new Set(survivors.map((m) => m.mirror.membership?.view?.number));
  expect(views.size, `${msg}: one view`).toBe(1);
  const deadId = run.stopped?.mirror.self;
  const alsoDeadId = run.alsoStopped?.mirror.self;
  // What survivors hold of the dead mirror's commands is one set: the union any of them had.
  const deadCommands = run.commands.filter((c) => c.origin === deadId);
  const first = survivors[0];
  if (first === undefined) throw new Error('no survivor');
  const kept = deadId === undefined ? () => true : seenOf(first, deadId);
  for (const m of survivors) {
    if (deadId === undefined) break;
    const seen = seenOf(m, deadId);
    for (const c of deadCommands)
      expect(seen(c.seq), `${msg}, slot ${m.slot}: ${commandName(c)}`).toBe(kept(c.seq));
  }
  const alsoKept = alsoDeadId === undefined ? () => true : seenOf(first, alsoDeadId);
  for (const m of survivors) {
    if (alsoDeadId === undefined) break;
    const seen = seenOf(m, alsoDeadId);
    for (const c of run.commands.filter((x) => x.origin === alsoDeadId))
      expect(seen(c.seq), `${msg}, slot ${m.slot}: ${commandName(c)}`).toBe(alsoKept(c.seq));
  }
  const executed = run.commands.filter(
    (c) => (c.origin !== deadId || kept(c.seq)) && (c.origin !== alsoDeadId || alsoKept(c.seq)),
  );
  // A command that reached a survivor after its last trailing state passed its stamp (a repair slower than the
  // last delay: its origin died before it could answer) is ordered there just past that state (tss.ts): the
  // survivors still agree, but with the group's order only when none was late.
  const late = survivors.reduce((n, m) => n + m.mirror.tss.stats.late, 0);
  const ordered = late === 0 ? orderedHash(executed, board()) : first.mirror.tss.hash(0);
  for (const m of survivors) {
    const where = `${msg}, slot ${m.slot} (mirror ${String(m.mirror.self)})`;
    for (let j = 0; j <= DEFAULT_MEMBERSHIP_RUN.delays.length; j++)
      expect(m.mirror.tss.hash(j), `${where}, state ${j}`).toBe(ordered);
    expect(replicaHash(m.replica), `${where}, replica`).toBe(ordered);
    expect(m.mirror.counters, where).toEqual({
      undecodable: 0,
      forged: 0,
      unsent: 0,
      badTransfer: 0,
    });
    // Nothing executed twice: each command reached the synchronizer once (a joiner's board holds the rest).
    const names = m.trace.map((r) => commandName(r.command));
    expect(new Set(names).size, where).toBe(names.length);
    // Every buffer released: the synchronizer's commands and CRIMP's payloads and requests.
    expect(m.mirror.tss.held, where).toBe(0);
    const crimp = m.mirror.node.stats(run.sim.now).crimp;
    expect(crimp?.bufferedBytes, where).toBe(0);
    expect(crimp?.pendingRequests, where).toBe(0);
  }
  return { dead: deadCommands, survivors, late };
}

describe('a mirror group whose members change', () => {
  it(`a mirror joins, one dies silently, for ${SEEDS} seeds: the survivors agree`, () => {
    const killed = { coordinator: 0, joiner: 0, other: 0 };
    let deadKept = 0;
    let deadLost = 0;
    let lateSeeds = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const msg = `seed ${seed}`;
      const run = runMembership({ ...DEFAULT_MEMBERSHIP_RUN, seed });
      const dead = run.stopped;
      if (dead === undefined) throw new Error(`${msg}: nothing stopped`);
      const deadId = dead.mirror.self;
      if (deadId === 0) killed.coordinator++;
      else if (dead.slot >= DEFAULT_MEMBERSHIP_RUN.founders) killed.joiner++;
      else killed.other++;
      const { dead: deadCommands, survivors, late } = checkRun(run, msg);
      if (late > 0) lateSeeds++;
      const kept = seenOf(survivors[0] ?? dead, deadId ?? 0);
      for (const c of deadCommands) if (kept(c.seq)) deadKept++;
      deadLost += deadCommands.filter((c) => !kept(c.seq)).length;
      // The joiner's id is fresh, and everyone was told who joined and who left, with the view.
      const joiner = run.mirrors.find((m) => m.slot === DEFAULT_MEMBERSHIP_RUN.founders);
      expect(joiner?.mirror.self, msg).toBe(DEFAULT_MEMBERSHIP_RUN.founders);
      for (const m of survivors) {
        const left = m.events.find((e) => e.type === 'left');
        expect(left, `${msg}, slot ${m.slot}`).toEqual({
          type: 'left',
          id: deadId,
          reason: 'silent',
          view: m.mirror.membership?.view?.number,
        });
        if (m !== joiner)
          expect(m.events.some((e) => e.type === 'joined' && e.id === joiner?.mirror.self)).toBe(
            true,
          );
      }
    }
    // The runs must kill each kind of member, and the dead must have left commands behind, or they prove little.
    if (SEEDS >= 12) {
      expect(killed.coordinator, JSON.stringify(killed)).toBeGreaterThan(0);
      expect(killed.joiner, JSON.stringify(killed)).toBeGreaterThan(0);
      expect(killed.other, JSON.stringify(killed)).toBeGreaterThan(0);
    }
    expect(deadKept).toBeGreaterThan(SEEDS * 10);
    // Late commands are the rare exception (1 seed in 200 here), not the way a death is handled.
    expect(lateSeeds).toBeLessThanOrEqual(1 + Math.floor(SEEDS / 50));
    // The rare command only the dead mirror held is lost with it, alike everywhere: counted, not forbidden.
    expect(deadLost).toBeGreaterThanOrEqual(0);
  });

  it(`two joiners at once get distinct fresh ids and the board, for ${JOIN_SEEDS} seeds`, () => {
    for (let seed = 1; seed <= JOIN_SEEDS; seed++) {
      const run = runMembership({
        ...DEFAULT_MEMBERSHIP_RUN,
        seed,
        joiners: 2,
        stopAt: undefined,
        editMs: 6_000,
      });
      checkRun(run, `seed ${seed}`);
      const ids = run.mirrors.map((m) => m.mirror.self);
      expect(new Set(ids).size, `seed ${seed}`).toBe(4);
      expect([...ids].sort(), `seed ${seed}`).toEqual([0, 1, 2, 3]);
    }
  });

  it('a mirror that closes its links leaves at once, with its reason', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const run = runMembership({ ...DEFAULT_MEMBERSHIP_RUN, seed, stop: 'close' });
      const { survivors } = checkRun(run, `seed ${seed}`);
      const stopped = run.stopped;
      for (const m of survivors) {
        const left = m.events.find((e) => e.type === 'left');
        expect(left, `seed ${seed}`).toMatchObject({ id: stopped?.mirror.self, reason: 'closed' });
      }
    }
  });

  it('a second death while the first view change may be under way (the coordinator too): the rest agree', () => {
    let changes = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const run = runMembership({
        ...DEFAULT_MEMBERSHIP_RUN,
        seed,
        founders: 3,
        // CRIMP calls a member silent after 5 s; the second death comes as the first change runs.
        alsoStopAfter: 5_000 + (seed % 4) * 40,
      });
      const { survivors } = checkRun(run, `seed ${seed}`);
      expect(survivors.length, `seed ${seed}`).toBe(2);
      for (const m of survivors) {
        const left = m.events.filter((e) => e.type === 'left').map((e) => e.id);
        expect(left.sort(), `seed ${seed}`).toEqual(
          [run.stopped?.mirror.self, run.alsoStopped?.mirror.self].sort(),
        );
        changes += m.mirror.groupStats()?.counters.attempts ?? 0;
      }
    }
    expect(changes).toBeGreaterThan(0);
  });

  it('a 20,000-object board reaches a joiner in chunks', () => {
    const board = (): BoardState => {
      const s = emptyBoard();
      for (let id = 1; id <= 20_000; id++)
        s.objects.set(id, {
          id,
          kind: 'rect',
          x: (id * 37) % 4000,
          y: (id * 91) % 4000,
          w: 20 + (id % 50),
          h: 20,
          rotation: 0,
          stroke: id % 0xffffff,
          fill: null,
          strokeWidth: 2,
          text: id % 7 === 0 ? `note ${id}` : '',
          points: [],
          z: id,
          lockedBy: null,
          pinned: 0,
          blob: '',
        });
      s.nextId = 20_017;
      s.topZ = 20_000;
      return s;
    };
    const run = runMembership({
      ...DEFAULT_MEMBERSHIP_RUN,
      seed: 7,
      board,
      stopAt: undefined,
      editMs: 8_000,
    });
    checkRun(run, 'big board', board);
    const joiner = run.mirrors[2];
    expect(joiner?.mirror.tss.leading.objects.size).toBeGreaterThan(19_000);
  });
});
