// Host sessions served from mirrors, seeded (issue 21 point 4's seam): 3 mirror-backed HostSessions with skewed,
// drifting clocks over lossy, jittery, reordering links, each serving real joiners (PeerSessions over simulated
// links) who edit, delete, restore, restack and race each other's grabs across mirrors. After quiescence every
// mirror's every state, every host's board and every joiner's board is the board the commands make in the group's
// order; a grab race resolves the same way everywhere and the joiner whose grab lost was told.
import { describe, expect, it } from 'vitest';
import { emptyBoard } from '../board';
import type { MirrorCommand } from '../mirror/command';
import { commandName, compareCommands } from '../mirror/command';
import { execute } from '../mirror/execute';
import { orderedHash } from '../mirror/replay';
import type { MirrorHostsRun, SentGrab } from './testing/mirror-hosts';
import { DEFAULT_MIRROR_HOSTS, peerIdOf, runMirrorHosts } from './testing/mirror-hosts';

const SEEDS = Number(process.env.GB_MIRROR_HOST_SEEDS ?? 6);

/** Every mirror's own commands: what the group executed. */
function commandsOf(run: MirrorHostsRun): MirrorCommand[] {
  return run.mirrors.flatMap((m) =>
    m.trace.filter((r) => r.command.origin === m.id).map((r) => r.command),
  );
}

/** For each grab in the group's order, who held the object just before it ran. */
function holdersBefore(commands: readonly MirrorCommand[]): Map<string, number | null> {
  const state = emptyBoard();
  const held = new Map<string, number | null>();
  for (const c of [...commands].sort(compareCommands)) {
    if (c.op.type === 'grab')
      held.set(commandName(c), state.objects.get(c.op.id)?.lockedBy ?? null);
    execute(state, c);
  }
  return held;
}

/** The command a sent grab became: its joiner's index-th grab of the object at its mirror. */
function commandOf(run: MirrorHostsRun, g: SentGrab, id: number): MirrorCommand {
  const m = run.mirrors[g.joiner.mirror];
  const client = m?.executor.ids.toGroup(peerIdOf(g.joiner));
  const grabs = (m?.trace ?? [])
    .map((r) => r.command)
    .filter(
      (c) => c.origin === m?.id && c.client === client && c.op.type === 'grab' && c.op.id === id,
    );
  const c = grabs[g.index];
  if (c === undefined) throw new Error(`no command for grab ${g.index} of ${id}`);
  return c;
}

describe('host sessions served from mirrors', () => {
  it(
    `converge for ${SEEDS} seeds: every state, host and joiner shows the ordered board`,
    () => {
      let races = 0;
      let rollbacks = 0;
      let remoteChanges = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const msg = `seed ${seed}`;
        // The session: 3 mirrors, 12 clients.
        const run = runMirrorHosts({ ...DEFAULT_MIRROR_HOSTS, seed, joinersPerMirror: 4 });
        expect(run.ready, msg).toBe(true);
        const commands = commandsOf(run);
        const ordered = orderedHash(commands);
        for (const m of run.mirrors) {
          const where = `${msg}, mirror ${m.id}`;
          for (let j = 0; j <= DEFAULT_MIRROR_HOSTS.delays.length; j++)
            expect(m.mirror.tss.hash(j), `${where}, state ${j}`).toBe(ordered);
          expect(m.host.board.hash(), `${where}, host`).toBe(ordered);
          for (const j of m.joiners)
            expect(j.peer.board.hash(), `${where}, ${j.peer.options.name}`).toBe(ordered);
          expect(m.mirror.tss.stats.late, where).toBe(0);
          expect(m.mirror.tss.stats.received, where).toBe(commands.length);
          // Every grab a joiner sent became a command (none was refused for its rate before).
          expect(m.host.counters.rateLimited, where).toBe(0);
          expect(m.executor.counters.unsent, where).toBe(0);
          rollbacks += m.mirror.tss.stats.leadingRollbacks;
          remoteChanges += m.executor.counters.rollbackEffects;
        }
        // A race's later grab lost whenever the earlier one held the object then; its joiner was told.
        const held = holdersBefore(commands);
        for (const r of run.races) {
          const a = commandOf(run, r.first, r.id);
          const b = commandOf(run, r.second, r.id);
          const [first, second, loser] =
            compareCommands(a, b) < 0 ? [a, b, r.second] : [b, a, r.first];
          if (held.get(commandName(second)) !== first.client) continue;
          const told = loser.joiner.events
            .slice(loser.eventsBefore)
            .some((e) => e.type === 'refused' && e.cmd === 'grab' && e.id === r.id);
          expect(told, `${msg}, ${commandName(second)} lost the grab of ${r.id}`).toBe(true);
          races++;
        }
      }
      // The runs must race grabs across mirrors and roll leading states back, or they prove nothing of either.
      expect(races).toBeGreaterThan(SEEDS);
      expect(rollbacks).toBeGreaterThan(0);
      expect(remoteChanges).toBeGreaterThan(0);
      // A seed takes a second or two: many seeds (GB_MIRROR_HOST_SEEDS) outlast the default guard.
    },
    Math.max(300_000, SEEDS * 10_000),
  );
});
