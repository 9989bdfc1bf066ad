// Re-executing a command trace deterministically: the board every mirror must end with (the commands in
// (stamp, origin, seq) order on an empty board), and what a trailing state synchronizer under a given
// configuration does on the way there (rollbacks, re-executed commands, late commands), in virtual time. Knows
// nothing of files or of the command line.
import { Rng } from '../net/rng';
import type { BoardState } from '../board';
import { emptyBoard, hashBoard } from '../board';
import type { MirrorCommand } from './command';
import { compareCommands } from './command';
import { execute } from './execute';
import type { TraceRecord } from './trace';
import type { TssStats } from './tss';
import { TrailingStateSync } from './tss';

export interface ReplayOptions {
  /** The trailing states' delays (ms). */
  readonly delays: readonly number[];
  /**
   * Re-deliver instead of using the recorded arrivals: the recording mirror's own commands arrive at their stamp,
   * every other one after a one-way delay drawn uniformly from [spread / 2, 3 x spread / 2] ms (jitter reorders).
   */
  readonly spread?: number;
  /** Seeds the drawn delays. */
  readonly seed?: number;
  /** The synchronizer's time step (ms): trailing states move on every step. */
  readonly tick?: number;
  /** A microsecond clock for the rollback-cost figure. */
  readonly micros?: () => number;
  /** The board the trace started on (a fresh one each call); empty when absent. */
  readonly board?: () => BoardState;
}

export interface ReplayResult {
  readonly commands: number;
  /** The board of the commands in order: what every mirror converges to. */
  readonly hash: string;
  /** The synchronizer's leading state once every trailing state has passed the last command. */
  readonly leadingHash: string;
  readonly consistent: boolean;
  readonly stats: TssStats;
}

/** The board the commands make in the group's order, from an empty one or the one given. */
export function orderedHash(
  commands: readonly MirrorCommand[],
  state: BoardState = emptyBoard(),
): string {
  for (const c of [...commands].sort(compareCommands)) execute(state, c);
  return hashBoard(state);
}

export function replay(
  mirror: number,
  records: readonly TraceRecord[],
  options: ReplayOptions,
): ReplayResult {
  const rng = new Rng(options.seed ?? 1);
  const spread = options.spread;
  const arrivals = records
    .map((r, i) => ({
      i,
      command: r.command,
      at:
        spread === undefined
          ? r.arrival
          : r.command.origin === mirror
            ? r.command.stamp
            : r.command.stamp + Math.round(spread / 2 + rng.next() * spread),
    }))
    .sort((a, b) => a.at - b.at || a.i - b.i);
  const board = options.board ?? emptyBoard;
  const tss = new TrailingStateSync(
    {
      self: mirror,
      delays: options.delays,
      // A replay re-runs what happened; no stamp is refused as ahead of its time.
      maxAhead: Number.MAX_SAFE_INTEGER / 2,
      ...(options.micros === undefined ? {} : { micros: options.micros }),
    },
    board(),
  );
  const tick = options.tick ?? 10;
  const first = arrivals[0]?.at ?? 0;
  let t = first;
  const drain = (): void => {
    while (tss.poll() !== undefined);
  };
  for (const a of arrivals) {
    for (; t < a.at; t += tick) tss.advance(t);
    tss.receive(a.at, a.command);
    drain();
  }
  const end = (arrivals[arrivals.length - 1]?.at ?? first) + Math.max(...options.delays) + tick;
  for (; t <= end; t += tick) tss.advance(t);
  tss.advance(end);
  drain();
  const hash = orderedHash(
    records.map((r) => r.command),
    board(),
  );
  const leadingHash = tss.hash();
  return {
    commands: records.length,
    hash,
    leadingHash,
    consistent: hash === leadingHash,
    stats: { ...tss.stats, causes: { ...tss.stats.causes } },
  };
}
