// The seam between a host and whatever executes its board operations: the host validates a participant's command
// (roles, rates, budgets, locks as it sees them) and hands the operation to an executor, which changes the session's
// Board and says what came of it; what the executor changes on its own later (another host's commands, a revised
// decision) it tells the host through a sink. The default executes at once on the Board, as a lone host does; a
// mirror-backed one (mirrored/mirror-executor.ts) executes through a mirror group. Knows nothing of mirrors or the wire.
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';
import type { BoardEffect, BoardOp, BoardOpType, BoardRefusal } from '../board';
import { allocateObjectId, createWithId } from '../board';
import type { Board } from './board';

/** What came of an operation: its effects on the Board (already applied), or why it was refused. */
export type Executed =
  | { readonly ok: true; readonly effects: readonly BoardEffect[] }
  | { readonly ok: false; readonly refusal: BoardRefusal };

/** A command the executor decided later, named for the participant who sent it. */
export interface LaterCommand {
  readonly type: BoardOpType;
  /** The object it named (0 for none, e.g. a release). */
  readonly id: ObjectId;
}

/** What an executor tells its host of what happened without a call of the host's. */
export interface ExecutorSink {
  /** An object changed on the Board (already applied): another host's command, or a rollback's repair. */
  changed(before: BoardObject | undefined, after: BoardObject | undefined): void;
  /** A command reported done is refused after all (e.g. its grab lost to an earlier one elsewhere). */
  refused(by: PeerId, command: LaterCommand, refusal: BoardRefusal): void;
  /** A command reported refused is done after all (a rollback put it before what had stopped it). */
  granted(by: PeerId, command: LaterCommand): void;
  /** A chat line to show and pass on to every participant (this host's and, through the group, others'). */
  chat(peer: PeerId, text: string): void;
}

export interface BoardExecutor {
  /** Called once by the host, before anything else. */
  attach(sink: ExecutorSink): void;
  /**
   * Executes `op` for participant `by` (the host has validated it) and applies its effects to the Board before it
   * returns. A create's `fields` are placed under an id the executor allocates.
   */
  execute(by: PeerId, op: BoardOp, now: number): Executed;
  /** A chat line by `peer`: comes back through the sink (at once, or once the group has it). */
  chat(peer: PeerId, text: string, now: number): void;
  /** Whether this host may give participant id `id` to a joiner (a group splits the id space among its hosts). */
  ownsPeerId(id: PeerId): boolean;
  /** The host's periodic tick: time for work the executor paces itself. */
  tick(now: number): void;
  /**
   * Runs `acknowledge` once everything executed so far would outlive this host's crash: at once for a lone host,
   * once another mirror holds it in a group. A participant is told its command is done only then, so a client that
   * moves to another host after a crash loses nothing it was told was done.
   */
  whenSafe(acknowledge: () => void): void;
}

/**
 * A lone host: operations applied to the Board at once, as they always were. Creates take ids by the per-origin
 * rule as origin 0 (board/ids.ts), so the session is a mirror group of one: its command log replays as mirror 0's
 * trace, and it can gain mirrors later without renumbering anything.
 */
export class DirectExecutor implements BoardExecutor {
  private sink: ExecutorSink | undefined;
  private lastId = 0;

  constructor(private readonly board: Board) {}

  attach(sink: ExecutorSink): void {
    this.sink = sink;
  }

  execute(_by: PeerId, op: BoardOp, _now: number): Executed {
    if (op.type !== 'create') return this.board.apply(op);
    const state = this.board.state;
    const id = allocateObjectId(0, state.nextId, this.lastId);
    if (id === undefined) return { ok: false, refusal: { type: 'out-of-ids' } };
    const r = this.board.apply(createWithId(state, id, op.fields));
    if (r.ok) this.lastId = id;
    return r;
  }

  chat(peer: PeerId, text: string): void {
    this.sink?.chat(peer, text);
  }

  ownsPeerId(): boolean {
    return true;
  }

  tick(): void {
    // Nothing paced: every operation is done when execute returns.
  }

  whenSafe(acknowledge: () => void): void {
    // Nothing could hold it but this host: done is as safe as it gets.
    acknowledge();
  }
}

/** The executor of a lone host on this Board. */
export function directExecutor(board: Board): BoardExecutor {
  return new DirectExecutor(board);
}
