// A mirror command: one participant's board operation as the mirror group orders it (origin mirror, per-origin
// seq, stamp on the group clock), the key that orders it, and the per-origin object id scheme. Data and pure
// helpers only: knows nothing of the wire, of time passing or of how commands travel between mirrors.
import type { NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import type { MirrorId } from './mirror-id';

export type { MirrorId } from './mirror-id';
export { MAX_MIRROR_ID, MIRROR_ID_BITS } from './mirror-id';
/** Chat text at most (as the session's chat RPC). */
export const MAX_COMMAND_CHAT_BYTES = 1000;

/**
 * What a participant asked for. The issuing client is the command's `client`, so no op repeats it (the board op's
 * `by` / `peer`). Undo and redo travel as what they send: restore, patch, delete. Drag positions and pointers are
 * not commands: they are current state (ghosts) and never rolled back (DESIGN.md §9).
 */
export type CommandOp =
  /** `id` is allocated by the origin mirror (allocateObjectId), not by the executing order: see there. */
  | { readonly type: 'create'; readonly id: ObjectId; readonly fields: NewObject }
  | { readonly type: 'patch'; readonly id: ObjectId; readonly patch: ObjectPatch }
  | { readonly type: 'delete'; readonly id: ObjectId }
  | {
      readonly type: 'restack';
      readonly id: ObjectId;
      readonly to: 'front' | 'back' | { readonly z: number };
    }
  | { readonly type: 'pin'; readonly id: ObjectId; readonly pinned: boolean }
  | { readonly type: 'grab'; readonly id: ObjectId }
  | { readonly type: 'drop'; readonly id: ObjectId; readonly x: number; readonly y: number }
  /** Every lock the client holds (it left, or went quiet). */
  | { readonly type: 'release' }
  | {
      readonly type: 'restore';
      readonly id: ObjectId;
      readonly fields: NewObject;
      readonly z: number;
    }
  /**
   * Ordered (stamped like the rest) but with no board effect: delivered once, when it reaches the leading state,
   * and never rolled back (a chat line cannot conflict with anything, so there is nothing to re-execute).
   */
  | { readonly type: 'chat'; readonly text: string };

export type CommandOpType = CommandOp['type'];

export interface MirrorCommand {
  /** The ingress mirror: the one the client is connected to, which stamped and numbered the command. */
  readonly origin: MirrorId;
  /** Per-origin sequence number, from 0, one per command. */
  readonly seq: number;
  /** Milliseconds on the mirror group's clock when the origin received it; never decreases per origin. */
  readonly stamp: number;
  readonly client: PeerId;
  readonly op: CommandOp;
}

/**
 * The order every synchronizer executes commands in: stamp, then origin mirror (a tie between two mirrors goes the
 * same way everywhere), then seq. Negative when `a` goes first.
 */
export function compareCommands(
  a: Pick<MirrorCommand, 'stamp' | 'origin' | 'seq'>,
  b: Pick<MirrorCommand, 'stamp' | 'origin' | 'seq'>,
): number {
  return a.stamp - b.stamp || a.origin - b.origin || a.seq - b.seq;
}

/** A command's identity in the group: its origin and seq. */
export function commandName(c: Pick<MirrorCommand, 'origin' | 'seq'>): string {
  return `${c.origin}:${c.seq}`;
}

/**
 * The id a create of mirror `origin` takes (board/ids.ts): a single host allocates by the same rule as mirror 0, so
 * its session is a mirror group of one.
 */
export { allocateObjectId } from '../board';
