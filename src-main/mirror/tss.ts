// Trailing state synchronization (the distributed-game-server paper, §3.5) of the board: a leading state that
// executes each command the moment it arrives, and trailing states at increasing delays that execute commands in
// (stamp, origin, seq) order once stamp + delay has passed, each comparing a command's outcome with the one its
// predecessor recorded and, on a difference, copying itself over the predecessor, which re-executes what it had
// executed past that point (a rollback; it may cascade up to the leading state). Sans-IO: time is a number passed
// in, outputs are polled. Knows nothing of links, CRIMP, sessions or clients' connections.
import type { PeerId } from '../../shared/board';
import type { BoardEffect, BoardRefusal, BoardState } from '../board';
import { emptyBoard, hashBoard } from '../board';
import type { CommandOpType, MirrorCommand, MirrorId } from './command';
import { compareCommands, MAX_MIRROR_ID } from './command';
import type { Outcome } from './execute';
import type { Writers } from './execute';
import { execute, sameObject, sameOutcome } from './execute';

export interface TssConfig {
  /** This mirror: its own clients' commands are the ones whose refusals it reports. */
  readonly self: MirrorId;
  /** The trailing states' delays in ms, increasing (e.g. [100, 1000]); at least one. */
  readonly delays: readonly number[];
  /**
   * How far ahead of `now` a stamp may be (ms): a command stamped further ahead is refused unexecuted (a broken
   * clock or a hostile origin would otherwise park it, uncollectable, until then).
   */
  readonly maxAhead?: number;
  /** Commands held at most (those within the last delay, and ahead); more are refused unexecuted. */
  readonly maxHeld?: number;
  /** A microsecond clock for the rollback-cost figure (benchmarks); absent, none is taken. */
  readonly micros?: () => number;
  /**
   * A joiner's start (board-transfer.ts): the time the given board is final at (every state starts there, the last
   * trailing state exactly at its horizon), and the commands already seen per origin (in the board or to come).
   */
  readonly start?: {
    readonly final: number;
    readonly seen: readonly SeenExport[];
    /** Every command held past `final`, in order (finalCut). */
    readonly commands: readonly MirrorCommand[];
  };
}

/** The seqs of one origin a synchronizer has seen: every one below `floor`, and those in `above`. */
export interface SeenExport {
  readonly origin: MirrorId;
  readonly floor: number;
  readonly above: readonly number[];
}

/** What a joiner takes: the last trailing state's board (final) and every command held past it, in order. */
export interface FinalCut {
  readonly board: BoardState;
  /** The last trailing state's time: every command stamped up to it is in the board. */
  readonly final: number;
  readonly commands: readonly MirrorCommand[];
  readonly seen: readonly SeenExport[];
}

export const DEFAULT_MAX_AHEAD_MS = 10_000;
export const DEFAULT_MAX_HELD = 200_000;
/** Out-of-order seqs remembered per origin beyond its contiguous prefix (duplicate detection). */
const MAX_SEQ_GAP = 65_536;

/** What the host is told: the leading state's changes, and what each of this mirror's clients must learn. */
export type TssOutput =
  /** The leading state's changes, as ordinary board effects; `rollback` when a rollback made them. */
  | {
      readonly type: 'effects';
      readonly effects: readonly BoardEffect[];
      readonly rollback: boolean;
    }
  /**
   * One of this mirror's clients' commands was refused; `revised` when it had been reported done and a rollback
   * found an earlier command that wins (e.g. "your grab lost to an earlier one").
   */
  | {
      readonly type: 'refused';
      readonly client: PeerId;
      readonly seq: number;
      readonly refusal: BoardRefusal;
      readonly revised: boolean;
    }
  /** One of this mirror's clients' commands, reported refused, is done after all (a rollback reordered it). */
  | { readonly type: 'granted'; readonly client: PeerId; readonly seq: number }
  /** A chat line, delivered once on arrival and never rolled back. */
  | {
      readonly type: 'chat';
      readonly origin: MirrorId;
      readonly stamp: number;
      readonly client: PeerId;
      readonly text: string;
    };

export interface TssStats {
  /** Commands received (chat included), duplicates not. */
  received: number;
  duplicates: number;
  /** Arrived after the last trailing state had passed their stamp (see receive). */
  late: number;
  /** Refused unexecuted: stamped too far ahead, or more than maxHeld held, or too many seqs out of order. */
  dropped: number;
  /** Rollbacks at every level, and those that reached the leading state (what clients see). */
  rollbacks: number;
  leadingRollbacks: number;
  /** Commands re-executed by rollbacks (all levels): the rollback depth, summed. */
  reexecuted: number;
  /** The most commands one rollback re-executed. */
  maxDepth: number;
  /** Microseconds spent in rollbacks (copy, re-execution, diff), when a clock was given. */
  rollbackMicros: number;
  /** Rollbacks by the kind of command whose outcome differed (what conflicts cost rollbacks). */
  readonly causes: Partial<Record<CommandOpType, number>>;
}

interface Entry {
  readonly command: MirrorCommand;
  /** The stamp it is ordered by: its own, or for a late command just past the last trailing state. */
  readonly stamp: number;
  /** What each state recorded of executing it (0 leading, then the trailing states); undefined until it did. */
  readonly outcomes: (Outcome | undefined)[];
  /** For this mirror's own commands: what the client was last told (true done, false refused). */
  told?: boolean;
}

export class TrailingStateSync {
  readonly config: TssConfig;
  readonly stats: TssStats = {
    received: 0,
    duplicates: 0,
    late: 0,
    dropped: 0,
    rollbacks: 0,
    leadingRollbacks: 0,
    reexecuted: 0,
    maxDepth: 0,
    rollbackMicros: 0,
    causes: {},
  };
  /** states[0] leading, states[j] the trailing state at delays[j - 1]. */
  private readonly states: BoardState[];
  /** Each state's objects' last writers (execute.ts), copied with it on a rollback. */
  private readonly writers: Writers[];
  /** Held commands in execution order. */
  private readonly entries: Entry[] = [];
  /** cursors[j]: entries before it are executed by state j, those from it on are not. */
  private readonly cursors: number[];
  private readonly seen = new Map<MirrorId, SeenSeqs>();
  private readonly outputs: TssOutput[] = [];
  /** Outputs before this index have been polled. */
  private polled = 0;
  private now = -Infinity;
  /** Rollbacks in progress (a cascade nests them); the cost clock times the outermost only. */
  private rolling = 0;

  constructor(config: TssConfig, board: BoardState = emptyBoard()) {
    const d = config.delays;
    if (d.length === 0 || d.some((x, i) => !(x > 0) || (i > 0 && x <= (d[i - 1] ?? 0))))
      throw new RangeError('trailing delays must be positive and increasing');
    if (!Number.isInteger(config.self) || config.self < 0 || config.self > MAX_MIRROR_ID)
      throw new RangeError(`mirror id ${config.self}`);
    this.config = config;
    this.states = [board, ...d.map(() => copyOf(board))];
    this.writers = this.states.map((): Writers => new Map());
    this.cursors = this.states.map(() => 0);
    if (config.start !== undefined) {
      this.now = config.start.final + (d[d.length - 1] ?? 0);
      for (const e of config.start.seen) this.seen.set(e.origin, SeenSeqs.from(e));
      // Seen already (the giver had them): executed here, quietly (the host gives its clients the board whole).
      for (const c of config.start.commands) if (c.op.type !== 'chat') this.place(c, true);
    }
  }

  /**
   * The last trailing state's board and what it has yet to execute: a joiner that starts there (start option) and
   * receives the commands holds the same states as this one will. Immutable objects are shared, not copied.
   */
  finalCut(): FinalCut {
    const last = this.states.length - 1;
    return {
      board: copyOf(this.state(last)),
      final: this.horizon(last),
      commands: this.entries.slice(this.cursors[last] ?? 0).map((e) => e.command),
      seen: [...this.seen].map(([origin, s]) => ({ origin, ...s.export() })),
    };
  }

  /** The state clients see. Not to be changed: only commands change it. */
  get leading(): Readonly<BoardState> {
    return this.state(0);
  }

  /** State j: 0 leading, then the trailing states in delay order. */
  state(j: number): Readonly<BoardState> {
    const s = this.states[j];
    if (s === undefined) throw new RangeError(`no state ${j}`);
    return s;
  }

  hash(j = 0): string {
    return hashBoard(this.state(j));
  }

  /** Commands held (executed by some state but not yet by the last). */
  get held(): number {
    return this.entries.length;
  }

  /**
   * A command from any mirror (this one's own clients' included), executed at once in the leading state, and in
   * every trailing state whose time is already past its stamp. A command arriving after the last trailing state
   * passed its stamp is late: no state is left to put it in its place, so it is ordered as if stamped just past
   * the last trailing state (every state of this mirror executes it there, the same way; a mirror that had it in
   * time ran it at its stamp, and the two agree unless it conflicts with what ran in between — the paper's
   * assumption that the last delay exceeds every transit, §3.5). Returns false for a duplicate or a refusal.
   */
  receive(now: number, command: MirrorCommand): boolean {
    this.advance(now);
    const seen = this.seen.get(command.origin) ?? new SeenSeqs();
    this.seen.set(command.origin, seen);
    if (seen.has(command.seq)) {
      this.stats.duplicates++;
      return false;
    }
    const maxAhead = this.config.maxAhead ?? DEFAULT_MAX_AHEAD_MS;
    if (
      command.stamp > this.now + maxAhead ||
      this.entries.length >= (this.config.maxHeld ?? DEFAULT_MAX_HELD) ||
      !seen.add(command.seq)
    ) {
      this.stats.dropped++;
      return false;
    }
    this.stats.received++;
    if (command.op.type === 'chat') {
      const { origin, stamp, client } = command;
      this.outputs.push({ type: 'chat', origin, stamp, client, text: command.op.text });
      return true;
    }
    this.place(command, false);
    return true;
  }

  /** Puts a command in its place in the order and executes it in every state whose time is past its stamp. */
  private place(command: MirrorCommand, quiet: boolean): void {
    const lastHorizon = this.horizon(this.states.length - 1);
    const late = command.stamp <= lastHorizon;
    if (late) this.stats.late++;
    const entry: Entry = {
      command,
      stamp: late ? Math.floor(lastHorizon) + 1 : command.stamp,
      outcomes: this.states.map(() => undefined),
    };
    const at = this.insertionPoint(entry);
    this.entries.splice(at, 0, entry);
    for (let j = 0; j < this.states.length; j++) {
      const cursor = this.cursors[j] ?? 0;
      if (j > 0 && at >= cursor && entry.stamp > this.horizon(j)) continue;
      this.cursors[j] = cursor + 1;
      this.run(j, entry, quiet);
    }
  }

  /** Moves time on: each trailing state executes what its delay lets it, in order; what all have done is released. */
  advance(now: number): void {
    if (now <= this.now) return;
    this.now = now;
    for (let j = 1; j < this.states.length; j++) {
      const h = this.horizon(j);
      for (;;) {
        const cursor = this.cursors[j] ?? 0;
        const entry = this.entries[cursor];
        if (entry === undefined || entry.stamp > h) break;
        this.cursors[j] = cursor + 1;
        this.run(j, entry);
      }
    }
    this.release();
  }

  /** The next output, oldest first. */
  poll(): TssOutput | undefined {
    const o = this.outputs[this.polled];
    if (o === undefined) return undefined;
    this.polled++;
    // Taken ones are dropped in bulk: shifting one at a time would cost the queue's length each.
    if (this.polled === this.outputs.length || this.polled >= 1024) {
      this.outputs.splice(0, this.polled);
      this.polled = 0;
    }
    return o;
  }

  /** The time the last trailing state is at: every command stamped up to it is final here. */
  get finalThrough(): number {
    return this.horizon(this.states.length - 1);
  }

  private horizon(j: number): number {
    return j === 0 ? Infinity : this.now - (this.config.delays[j - 1] ?? 0);
  }

  /** Where the entry goes: after every entry ordered before it (mostly at the end: binary search from there). */
  private insertionPoint(e: Entry): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = this.entries[mid];
      if (m !== undefined && orderOf(m, e) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** State j executes the entry; a trailing state compares with its predecessor's record and repairs it. */
  private run(j: number, e: Entry, quiet = false): void {
    const state = this.states[j];
    if (state === undefined) throw new Error(`no state ${j}`);
    const outcome = execute(state, e.command, this.writers[j]);
    e.outcomes[j] = outcome;
    if (j === 0) {
      if (!quiet && outcome?.ok === true && outcome.effects.length > 0)
        this.outputs.push({ type: 'effects', effects: outcome.effects, rollback: false });
      this.tell(e, outcome);
      return;
    }
    const before = e.outcomes[j - 1];
    if (!sameOutcome(outcome, before)) this.rollback(j - 1, e);
    else if (outcome?.ok === true && before?.ok === true)
      share(state, outcome.effects, before.effects);
  }

  /**
   * State i is replaced by a copy of state i + 1 (which has just executed `at`), then re-executes, in order, what it
   * had executed that i + 1 has not. A copy, as the paper does, rather than undoing with inverses: state i ran
   * commands in another order, so no prefix of its inverses leads back to state i + 1's state; the copy shares the
   * immutable objects (a map of references, O(objects) pointers) and costs less than re-executing even a short
   * window. Re-executed commands are compared in turn by state i with state i - 1 (a cascade, §3.5).
   */
  private rollback(i: number, at: Entry): void {
    const started = this.rolling++ === 0 ? this.config.micros?.() : undefined;
    const from = i + 1;
    const source = this.states[from];
    const old = this.states[i];
    if (source === undefined || old === undefined) throw new Error('no such state');
    this.stats.rollbacks++;
    if (i === 0) this.stats.leadingRollbacks++;
    const cause = at.command.op.type;
    this.stats.causes[cause] = (this.stats.causes[cause] ?? 0) + 1;
    this.states[i] = copyOf(source);
    this.writers[i] = new Map(this.writers[from]);
    const first = this.cursors[from] ?? 0;
    const last = this.cursors[i] ?? 0;
    // State i now holds what state i + 1 executed; the rest is cleared before any is re-executed, so that a
    // cascade from one of them sees the rest as not executed here.
    for (let k = first; k < last; k++) {
      const e = this.entries[k];
      if (e !== undefined) e.outcomes[i] = undefined;
    }
    this.cursors[i] = first;
    // State i's record of `at` is now i + 1's: news for this mirror's client, or for state i - 1 a difference to
    // repair, though no later command may show it (the predecessor agreed with what state i had wrongly done).
    at.outcomes[i] = at.outcomes[from];
    if (i === 0) this.tell(at, at.outcomes[0]);
    else if (!sameOutcome(at.outcomes[i], at.outcomes[i - 1])) this.rollback(i - 1, at);
    for (let k = first; k < last; k++) {
      const e = this.entries[k];
      this.cursors[i] = k + 1;
      if (e !== undefined) this.run(i, e, true);
    }
    const depth = last - first;
    this.stats.reexecuted += depth;
    this.stats.maxDepth = Math.max(this.stats.maxDepth, depth);
    if (i === 0) {
      const effects = diff(old, this.states[0] ?? old);
      if (effects.length > 0) this.outputs.push({ type: 'effects', effects, rollback: true });
    }
    if (started !== undefined && this.config.micros !== undefined)
      this.stats.rollbackMicros += this.config.micros() - started;
    this.rolling--;
  }

  /** This mirror's client learns its command's outcome when it differs from what it was last told. */
  private tell(e: Entry, outcome: Outcome | undefined): void {
    const c = e.command;
    if (c.origin !== this.config.self || outcome === undefined || e.told === outcome.ok) return;
    // Done is what a client assumes of its own command: only a refusal, or a change of outcome, is news.
    const revised = e.told !== undefined;
    e.told = outcome.ok;
    if (outcome.ok && revised) this.outputs.push({ type: 'granted', client: c.client, seq: c.seq });
    if (!outcome.ok)
      this.outputs.push({
        type: 'refused',
        client: c.client,
        seq: c.seq,
        refusal: outcome.refusal,
        revised,
      });
  }

  /** Entries every state has executed are never compared or re-executed again. */
  private release(): void {
    const done = Math.min(...this.cursors);
    if (done === 0) return;
    this.entries.splice(0, done);
    for (let j = 0; j < this.cursors.length; j++) this.cursors[j] = (this.cursors[j] ?? 0) - done;
  }
}

function orderOf(a: Entry, b: Entry): number {
  return compareCommands(
    { stamp: a.stamp, origin: a.command.origin, seq: a.command.seq },
    { stamp: b.stamp, origin: b.command.origin, seq: b.command.seq },
  );
}

/**
 * A trailing state that agreed with its predecessor takes the predecessor's (equal, immutable) objects for what the
 * command wrote: the states then share most objects, and a rollback's diff finds what changed by reference.
 */
function share(
  state: BoardState,
  mine: readonly BoardEffect[],
  theirs: readonly BoardEffect[],
): void {
  for (let i = 0; i < mine.length; i++) {
    const m = mine[i];
    const t = theirs[i];
    if (m?.type === 'upsert' && t?.type === 'upsert' && state.objects.get(m.object.id) === m.object)
      state.objects.set(m.object.id, t.object);
  }
}

function copyOf(s: BoardState): BoardState {
  return { objects: new Map(s.objects), nextId: s.nextId, topZ: s.topZ };
}

/** What turns board `a` into board `b`, as effects: deletions, then upserts. */
function diff(a: BoardState, b: BoardState): BoardEffect[] {
  const out: BoardEffect[] = [];
  for (const id of a.objects.keys()) if (!b.objects.has(id)) out.push({ type: 'delete', id });
  for (const [id, o] of b.objects) {
    const before = a.objects.get(id);
    if (before === undefined || !sameObject(before, o)) out.push({ type: 'upsert', object: o });
  }
  return out;
}

/** The seqs seen from one origin: every one below `floor`, and those in `above`. */
class SeenSeqs {
  private floor = 0;
  private readonly above = new Set<number>();

  static from(e: SeenExport): SeenSeqs {
    const s = new SeenSeqs();
    s.floor = e.floor;
    for (const seq of e.above) if (seq > e.floor && s.above.size < MAX_SEQ_GAP) s.above.add(seq);
    return s;
  }

  export(): { floor: number; above: number[] } {
    return { floor: this.floor, above: [...this.above].sort((a, b) => a - b) };
  }

  has(seq: number): boolean {
    return seq < this.floor || this.above.has(seq);
  }

  /** False when too many are out of order to remember one more. */
  add(seq: number): boolean {
    if (seq === this.floor) {
      this.floor++;
      while (this.above.delete(this.floor)) this.floor++;
      return true;
    }
    if (this.above.size >= MAX_SEQ_GAP) return false;
    this.above.add(seq);
    return true;
  }
}
