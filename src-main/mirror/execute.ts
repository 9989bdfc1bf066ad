// Executing a mirror command on a board state: the command as a board operation (the issuing client is the op's
// `by` / `peer`; a create takes the id its origin allocated), and what a synchronizer records of the result to
// compare with its predecessor's (the paper's "changes in game state that the execution of a command produced",
// §3.5). Pure over board/: knows nothing of time, delays or other mirrors.
import type { BoardObject, FieldSpec, ObjectId } from '../../shared/board';
import { MAX_OBJECT_ID, OBJECT_FIELDS } from '../../shared/board';
import type { ApplyResult, BoardEffect, BoardOp, BoardRefusal, BoardState } from '../board';
import { apply, createWithId } from '../board';
import type { MirrorCommand } from './command';
import { MAX_MIRROR_ID } from './command';

/**
 * What one state recorded of executing a command: the outcome, the counters it left (no effect shows them) and,
 * per effect, the command that had written that object before (its writer number, or -1 for none). Effects alone
 * do not show an order: two patches of one field each leave the same object whichever runs first, yet the board
 * ends with the last one's value; the writer before each effect tells the two orders apart. When every command's
 * record agrees, every object had the same writers in the same order, so the two boards are the same.
 */
export type Outcome =
  | {
      readonly ok: true;
      readonly effects: readonly BoardEffect[];
      readonly prior: readonly number[];
      readonly nextId: number;
      readonly topZ: number;
    }
  | { readonly ok: false; readonly refusal: BoardRefusal };

/** The board operation a command is, on this state; undefined for a chat (no board effect). */
export function boardOpOf(state: BoardState, c: MirrorCommand): BoardOp | undefined {
  const op = c.op;
  const by = c.client;
  switch (op.type) {
    case 'create':
      return createWithId(state, op.id, op.fields);
    case 'patch':
      return { type: 'patch', id: op.id, patch: op.patch, by };
    case 'delete':
      return { type: 'delete', id: op.id, by };
    case 'restack':
      return { type: 'restack', id: op.id, to: op.to, by };
    case 'pin':
      return { type: 'pin', id: op.id, pinned: op.pinned, by };
    case 'grab':
      return { type: 'grab', id: op.id, peer: by };
    case 'drop':
      return { type: 'drop', id: op.id, peer: by, x: op.x, y: op.y };
    case 'release':
      return { type: 'release', peer: by };
    case 'restore':
      return { type: 'restore', id: op.id, fields: op.fields, z: op.z };
    case 'chat':
      return undefined;
  }
}

/** Each object's last writer: a command's writer number (writerOf), kept for deleted ids too. */
export type Writers = Map<ObjectId, number>;

/** A command's number as an object's writer: unique per command (origin < 16, seq < 2^48: under 2^53). */
export function writerOf(c: Pick<MirrorCommand, 'origin' | 'seq'>): number {
  return c.seq * (MAX_MIRROR_ID + 1) + c.origin;
}

/** Executes the command on the state (in place) and notes it as the writer of what it changed; undefined for a chat. */
export function execute(
  state: BoardState,
  c: MirrorCommand,
  writers: Writers = new Map(),
): Outcome | undefined {
  // An id is never reused (the origin allocates above every id it has seen) and carries its origin in its low bits:
  // a create onto a taken one, another mirror's or one out of range is a broken or hostile origin's, refused alike
  // everywhere (it can take no other mirror's id).
  if (c.op.type === 'create') {
    const id = c.op.id;
    if (
      state.objects.has(id) ||
      id < 1 ||
      id > MAX_OBJECT_ID ||
      id % (MAX_MIRROR_ID + 1) !== c.origin
    )
      return { ok: false, refusal: { type: 'id-not-free', id } };
  }
  const op = boardOpOf(state, c);
  if (op === undefined) return undefined;
  const r: ApplyResult = apply(state, op);
  if (!r.ok) return { ok: false, refusal: r.refusal };
  const me = writerOf(c);
  const prior = r.effects.map((e) => {
    const id = e.type === 'delete' ? e.id : e.object.id;
    const before = writers.get(id) ?? -1;
    writers.set(id, me);
    return before;
  });
  return { ok: true, effects: r.effects, prior, nextId: state.nextId, topZ: state.topZ };
}

/** Whether two states' records of one command agree: the same outcome, effect for effect, counters included. */
export function sameOutcome(a: Outcome | undefined, b: Outcome | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (!a.ok || !b.ok) return !a.ok && !b.ok && sameRefusal(a.refusal, b.refusal);
  // The id counter is left out: creates take their origin's ids, so the counter ends at the same maximum in any
  // order, and a restore that it lets through in one order and not the other differs in its own outcome.
  if (a.topZ !== b.topZ || a.effects.length !== b.effects.length) return false;
  if (a.prior.some((w, i) => b.prior[i] !== w)) return false;
  return a.effects.every((e, i) => {
    const f = b.effects[i];
    if (f === undefined || f.type !== e.type) return false;
    return e.type === 'delete'
      ? f.type === 'delete' && f.id === e.id
      : f.type === 'upsert' && sameObject(e.object, f.object);
  });
}

function sameRefusal(a: BoardRefusal, b: BoardRefusal): boolean {
  const x = a as Readonly<Record<string, unknown>>;
  const y = b as Readonly<Record<string, unknown>>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/** Field for field over the table (objects are immutable, so the same reference is the same object). */
export function sameObject(a: BoardObject, b: BoardObject): boolean {
  if (a === b) return true;
  const x = a as Readonly<Record<string, unknown>>;
  const y = b as Readonly<Record<string, unknown>>;
  for (const f of OBJECT_FIELDS as readonly FieldSpec[]) {
    const u = x[f.name];
    const v = y[f.name];
    if (u === v) continue;
    if (!Array.isArray(u) || !Array.isArray(v) || u.length !== v.length) return false;
    for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return false;
  }
  return true;
}
