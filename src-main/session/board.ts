// The board a session holds: the board core's state, changed only through apply, with each change told to
// subscribers (the ghost replica, the budget). The host drives it with commands; a peer mirrors the host's objects
// into it. Knows nothing of the network, peers' connections or Electron.
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import type { ApplyResult, BoardEffect, BoardOp, BoardState } from '../board';
import { apply, emptyBoard, hashBoard, objectsByZ, refusalText } from '../board';
import { decodeBoardFile, encodeBoardFile } from '../files/board-codec';
import type { ImageBlob } from '../../shared/images';

export { MAX_OBJECTS } from '../board';
export { MAX_BOARD_FILE_BYTES, MAX_Z } from '../files/board-codec';

export type BoardChange = BoardEffect;

/** A refused operation, with a reason a person can read. */
export interface Refusal {
  readonly refused: string;
}

export function isRefusal(r: object): r is Refusal {
  return 'refused' in r;
}

export class Board {
  private readonly listeners = new Set<(c: BoardChange) => void>();

  constructor(readonly state: BoardState = emptyBoard()) {}

  get size(): number {
    return this.state.objects.size;
  }

  get(id: ObjectId): BoardObject | undefined {
    return this.state.objects.get(id);
  }

  /** Every object, bottom to top. */
  all(): BoardObject[] {
    return objectsByZ(this.state);
  }

  subscribe(fn: (c: BoardChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Applies an operation and tells subscribers its effects, in order. */
  apply(op: BoardOp): ApplyResult {
    const r = apply(this.state, op);
    if (r.ok) for (const c of r.effects) for (const fn of this.listeners) fn(c);
    return r;
  }

  /** Host: adds an object on top, with a fresh id. */
  create(fields: NewObject): BoardObject | Refusal {
    const r = this.apply({ type: 'create', fields });
    if (!r.ok) return { refused: refusalText(r.refusal, String) };
    const made = r.effects[0];
    if (made?.type !== 'upsert') throw new Error('a create upserts its object');
    return made.object;
  }

  /** Host: changes fields of an existing object. */
  update(id: ObjectId, patch: ObjectPatch): BoardObject | Refusal {
    return this.result(id, this.apply({ type: 'patch', id, patch }));
  }

  delete(id: ObjectId): boolean {
    return this.apply({ type: 'remove', id }).ok;
  }

  /** Host: moves an object to the top or the bottom of the stack. */
  restack(id: ObjectId, to: 'front' | 'back'): BoardObject | Refusal {
    return this.result(id, this.apply({ type: 'restack', id, to }));
  }

  setLock(id: ObjectId, holder: PeerId | null): BoardObject | Refusal {
    return this.result(id, this.apply({ type: 'lock', id, holder }));
  }

  /** Replica: takes an object as the host has it (id, z and lock included). */
  mirror(object: BoardObject): void {
    this.apply({ type: 'put', object });
  }

  /** A hash of the content (order-independent): equal boards hash equal. */
  hash(): string {
    return hashBoard(this.state);
  }

  /** The save-file text (locks are not saved: they belong to a live session). */
  toFile(blobOf?: (hash: string) => ImageBlob | undefined): string {
    return encodeBoardFile(this.state, blobOf);
  }

  /** Reads a save file, validating every field; a damaged or hostile file is refused whole. */
  static fromFile(text: string): Board | Refusal {
    const state = decodeBoardFile(text);
    return 'refused' in state ? state : new Board(state);
  }

  /** The object as an operation left it, or the refusal in words. */
  private result(id: ObjectId, r: ApplyResult): BoardObject | Refusal {
    if (!r.ok) return { refused: refusalText(r.refusal, String) };
    const o = this.state.objects.get(id);
    if (o === undefined) throw new Error(`object ${id} vanished`);
    return o;
  }
}
