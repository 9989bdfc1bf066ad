import { describe, expect, it } from 'vitest';
import type { BoardObject, ObjectId, ObjectPatch } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { apply } from './apply';
import type { HistoryOp, Part } from './history';
import { ABSENT, fieldsSide, History, objectSide, rebaseText } from './history';
import { emptyBoard } from './state';
import type { BoardState } from './types';

const ME = 1;
const OTHER = 2;

/** A board and one user's history over it, driven as the session drives them: record, then send what undo says. */
function setup(): {
  s: BoardState;
  h: History;
  create(x: number): ObjectId;
  edit(id: ObjectId, patch: ObjectPatch, into?: ReturnType<History['record']>): Part;
  remove(id: ObjectId): void;
  restack(id: ObjectId, front: boolean): Part;
  undo(): HistoryOp[] | undefined;
  redo(): HistoryOp[] | undefined;
} {
  const s = emptyBoard();
  const h = new History();
  const get = (id: ObjectId): BoardObject => {
    const o = s.objects.get(id);
    if (o === undefined) throw new Error(`no object ${id}`);
    return o;
  };
  /** A restack as the session records it: the z before, then the z the board gave it. */
  const restack = (id: ObjectId, front: boolean, part?: Part): Part => {
    const was = get(id).z;
    if (!apply(s, { type: 'restack', id, to: front ? 'front' : 'back', by: ME }).ok)
      throw new Error('refused');
    const to = front ? ('front' as const) : ('back' as const);
    const done = part ?? { id, before: fieldsSide({ z: was }), after: ABSENT, restack: to };
    done.after = fieldsSide({ z: get(id).z });
    return done;
  };
  const send = (ops: HistoryOp[] | undefined): HistoryOp[] | undefined => {
    for (const op of ops ?? []) {
      if (op.type === 'restack') {
        restack(op.id, op.front, op.part);
        continue;
      }
      if (op.type === 'place') {
        if (!apply(s, { type: 'restack', id: op.id, to: { z: op.z }, by: ME }).ok)
          throw new Error(`refused ${JSON.stringify(op)}`);
        continue;
      }
      const r = apply(
        s,
        op.type === 'patch'
          ? { type: 'patch', id: op.id, patch: op.patch, by: ME }
          : op.type === 'delete'
            ? { type: 'delete', id: op.id, by: ME }
            : op.type === 'pin'
              ? { type: 'pin', id: op.id, pinned: op.pinned, by: ME }
              : { type: 'restore', id: op.id, fields: op.fields, z: 1 },
      );
      if (!r.ok) throw new Error(`refused ${JSON.stringify(op)}`);
    }
    return ops;
  };
  return {
    s,
    h,
    create(x) {
      const r = apply(s, { type: 'create', fields: newRect({ x }) });
      if (!r.ok || r.effects[0]?.type !== 'upsert') throw new Error('refused');
      const o = r.effects[0].object;
      h.record({ id: o.id, before: ABSENT, after: objectSide(o) });
      return o.id;
    },
    edit(id, patch, into) {
      const before: Record<string, unknown> = {};
      for (const k of Object.keys(patch)) before[k] = (get(id) as Record<string, unknown>)[k];
      const part = { id, before: fieldsSide(before), after: fieldsSide(patch) };
      if (!apply(s, { type: 'patch', id, patch, by: ME }).ok) throw new Error('refused');
      h.record(part, into);
      return part;
    },
    remove(id) {
      h.record({ id, before: objectSide(get(id)), after: ABSENT });
      apply(s, { type: 'remove', id });
    },
    restack(id, front) {
      const part = restack(id, front);
      h.record(part);
      return part;
    },
    undo: () => send(h.undo((id) => s.objects.get(id), ME)),
    redo: () => send(h.redo((id) => s.objects.get(id), ME)),
  };
}

describe('per-user history', () => {
  it('undoes create, edit and delete in reverse as ordinary ops, and redoes them', () => {
    const b = setup();
    const id = b.create(10);
    b.edit(id, { x: 50, fill: 0xff0000 });
    b.remove(id);
    expect(b.undo()).toEqual([{ type: 'restore', id, fields: newRect({ x: 50, fill: 0xff0000 }) }]);
    expect(b.undo()).toEqual([{ type: 'patch', id, patch: { x: 10, fill: null } }]);
    expect(b.undo()).toEqual([{ type: 'delete', id }]);
    expect(b.undo()).toBeUndefined();
    expect(b.s.objects.size).toBe(0);
    // A redone create brings the object back under its own id.
    expect(b.redo()).toEqual([{ type: 'restore', id, fields: newRect({ x: 10 }) }]);
    expect(b.redo()).toEqual([{ type: 'patch', id, patch: { x: 50, fill: 0xff0000 } }]);
    expect(b.redo()).toEqual([{ type: 'delete', id }]);
    expect(b.redo()).toBeUndefined();
  });

  it('a restack is one step: undo puts the object back at its z, redo restacks it afresh', () => {
    const b = setup();
    const [a, c, d] = [b.create(0), b.create(1), b.create(2)];
    const z = (id: ObjectId): number | undefined => b.s.objects.get(id)?.z;
    b.restack(a, true);
    expect([z(a), z(c), z(d)]).toEqual([4, 2, 3]);
    b.restack(d, false);
    expect(z(d)).toBe(-1);
    expect(b.undo()).toEqual([{ type: 'place', id: d, z: 3 }]);
    expect(b.undo()).toEqual([{ type: 'place', id: a, z: 1 }]);
    expect([z(a), z(c), z(d)]).toEqual([1, 2, 3]);
    const redone = b.redo();
    expect(redone).toMatchObject([{ type: 'restack', id: a, front: true }]);
    expect(z(a)).toBe(5);
    expect(b.redo()).toMatchObject([{ type: 'restack', id: d, front: false }]);
    expect(z(d)).toBe(-1);
    // The redone restack's new z is what the next undo checks against.
    expect(b.undo()).toEqual([{ type: 'place', id: d, z: 3 }]);
    expect(b.undo()).toEqual([{ type: 'place', id: a, z: 1 }]);
    expect(b.undo()).toMatchObject([{ type: 'delete', id: d }]);
  });

  it('while its new z is unknown (on its way to the host) an undo still puts it back', () => {
    const b = setup();
    const a = b.create(0);
    b.create(1);
    b.h.record({ id: a, before: fieldsSide({ z: 1 }), after: ABSENT, restack: 'front' });
    expect(b.undo()).toEqual([{ type: 'place', id: a, z: 1 }]);
  });

  it('skips a restack of an object someone else restacked, deleted or holds since', () => {
    const b = setup();
    const [a, c, d] = [b.create(0), b.create(1), b.create(2)];
    b.restack(a, true);
    b.restack(c, true);
    b.restack(d, false);
    // Someone else sends d to the front, holds c and deletes a.
    apply(b.s, { type: 'restack', id: d, to: 'front', by: OTHER });
    apply(b.s, { type: 'grab', id: c, peer: OTHER });
    apply(b.s, { type: 'delete', id: a, by: OTHER });
    const zs = [...b.s.objects.values()].map((o) => o.z);
    // Every restack step is passed over; the undo lands on d's create.
    expect(b.undo()).toMatchObject([{ type: 'delete', id: d }]);
    expect([...b.s.objects.values()].map((o) => o.z)).toEqual(zs.slice(0, 1));
    expect(new Set([...b.s.objects.values()].map((o) => o.z)).size).toBe(b.s.objects.size);
  });

  it('a drag is one step: the parts of one gesture go into one step, undone together', () => {
    const b = setup();
    const a = b.create(0);
    const c = b.create(100);
    const first = b.edit(a, { x: 5, y: 5 });
    const step = b.h.top;
    b.edit(c, { x: 105, y: 5 }, step);
    b.edit(a, { x: 9, y: 9 }, step);
    expect(b.h.top?.parts).toHaveLength(3);
    expect(b.h.top?.parts[0]).toBe(first);
    expect(b.undo()).toEqual([
      { type: 'patch', id: a, patch: { x: 5, y: 5 } },
      { type: 'patch', id: c, patch: { x: 100, y: 0 } },
      { type: 'patch', id: a, patch: { x: 0, y: 0 } },
    ]);
    expect(b.s.objects.get(a)).toMatchObject({ x: 0, y: 0 });
    // A step that is no longer the newest takes no more parts.
    b.edit(a, { x: 1 });
    b.edit(c, { x: 2 }, step);
    expect(b.h.top?.parts).toHaveLength(1);
  });

  it('typing into one text is one step; anything else in between starts a new one', () => {
    const b = setup();
    const id = b.create(0);
    for (const text of ['h', 'hi', 'hi!']) {
      const part = { id, before: fieldsSide({ text: '' }), after: fieldsSide({ text }) };
      apply(b.s, { type: 'patch', id, patch: { text } });
      if (!b.h.merge(part)) b.h.record(part);
    }
    expect(b.undo()).toEqual([{ type: 'patch', id, patch: { text: '' } }]);
    expect(b.undo()).toEqual([{ type: 'delete', id }]);
    const other = b.create(0);
    expect(
      b.h.merge({ id: other, before: fieldsSide({ x: 0 }), after: fieldsSide({ x: 1 }) }),
    ).toBe(false);
  });

  it('a new operation clears what could be redone', () => {
    const b = setup();
    const id = b.create(0);
    b.edit(id, { x: 1 });
    b.undo();
    expect(b.h.canRedo).toBe(true);
    b.edit(id, { y: 2 });
    expect(b.h.canRedo).toBe(false);
    expect(b.redo()).toBeUndefined();
  });

  it('a field someone else changed since keeps their value; the rest goes back', () => {
    const b = setup();
    const id = b.create(0);
    b.edit(id, { x: 50, y: 60, fill: 0xff });
    apply(b.s, { type: 'patch', id, patch: { x: 999 }, by: OTHER });
    expect(b.undo()).toEqual([{ type: 'patch', id, patch: { y: 0, fill: null } }]);
    expect(b.s.objects.get(id)).toMatchObject({ x: 999, y: 0, fill: null });
    // Redo gives back only what the undo took.
    expect(b.redo()).toEqual([{ type: 'patch', id, patch: { y: 60, fill: 0xff } }]);
  });

  it('takes back this user’s typing around what someone else typed into the same text since', () => {
    const b = setup();
    const id = b.create(0);
    b.edit(id, { text: 'Hello world' });
    b.edit(id, { text: 'Hello brave world' });
    apply(b.s, { type: 'patch', id, patch: { text: 'Hello brave world!' }, by: OTHER });
    expect(b.undo()).toEqual([{ type: 'patch', id, patch: { text: 'Hello world!' } }]);
    apply(b.s, { type: 'patch', id, patch: { text: '>Hello world!' }, by: OTHER });
    // Redo puts the words back where they were, the other's keys staying on both sides of them.
    expect(b.redo()).toEqual([{ type: 'patch', id, patch: { text: '>Hello brave world!' } }]);
    // Where the two changes overlap, whose keys are whose cannot be told: the text is left alone, and the undo
    // goes on to the step before (both typing steps overlap the other's word: the create).
    apply(b.s, { type: 'patch', id, patch: { text: '>Hello bold world!' }, by: OTHER });
    expect(b.undo()).toEqual([{ type: 'delete', id }]);
  });

  it('rebaseText: this user’s change made on a text someone else changed elsewhere', () => {
    expect(rebaseText('abc', 'aXbc', 'abcZ')).toBe('aXbcZ');
    expect(rebaseText('abc', 'aXbc', 'Zabc')).toBe('ZaXbc');
    expect(rebaseText('aXbc', 'abc', 'aXbcZ')).toBe('abcZ');
    expect(rebaseText('aXbc', 'abc', 'aXYbc')).toBe('aYbc');
    expect(rebaseText('aXXbc', 'abc', 'aXbc')).toBeUndefined();
    expect(rebaseText('ab', 'ab!', 'ab')).toBe('ab!');
    // Repeated letters: the text taken back is this user's whichever copy the others' change is read as.
    expect(rebaseText('XabY', 'XY', 'XabbY')).toBe('XbY');
  });

  it('an undo never brings back what someone else deleted: the step is passed over', () => {
    const b = setup();
    const keep = b.create(0);
    const id = b.create(100);
    b.edit(id, { x: 150 });
    apply(b.s, { type: 'delete', id, by: OTHER });
    // The edit and the create of the deleted object no longer apply: the undo goes on to the first create.
    expect(b.undo()).toEqual([{ type: 'delete', id: keep }]);
    expect(b.s.objects.has(id)).toBe(false);
    expect(b.undo()).toBeUndefined();
  });

  it('an object someone else holds is left alone; a field already back counts as applied', () => {
    const b = setup();
    const id = b.create(0);
    b.edit(id, { x: 5 });
    apply(b.s, { type: 'grab', id, peer: OTHER });
    expect(b.undo()).toBeUndefined();
    apply(b.s, { type: 'release', peer: OTHER });
    const id2 = b.create(0);
    b.edit(id2, { x: 7 });
    apply(b.s, { type: 'patch', id: id2, patch: { x: 0 }, by: OTHER });
    // Someone set it back already: sent all the same (this user's edit may still be on its way), and redo sets
    // it again.
    expect(b.undo()).toEqual([{ type: 'patch', id: id2, patch: { x: 0 } }]);
    expect(b.redo()).toEqual([{ type: 'patch', id: id2, patch: { x: 7 } }]);
  });

  it('an undone delete restores the object with others’ later edits undone by nobody; a redo of a create restores it as the undo found it', () => {
    const b = setup();
    const id = b.create(0);
    apply(b.s, { type: 'patch', id, patch: { fill: 0xabcdef }, by: OTHER });
    expect(b.undo()).toEqual([{ type: 'delete', id }]);
    expect(b.redo()).toEqual([{ type: 'restore', id, fields: newRect({ fill: 0xabcdef }) }]);
  });

  it('a create still waiting for its id is passed over; a forgotten part leaves no empty step', () => {
    const h = new History();
    const part: Part = {
      id: undefined,
      before: ABSENT,
      after: objectSide({ ...newRect(), id: 1, z: 1, lockedBy: null, pinned: 0 }),
    };
    h.record(part);
    expect(h.undo(() => undefined, ME)).toBeUndefined();
    const again: Part = { ...part };
    h.record(again);
    h.forget(again);
    expect(h.canUndo).toBe(false);
  });

  it('a group is one step', () => {
    const b = setup();
    const ids = [b.create(0), b.create(1), b.create(2)];
    b.h.begin();
    for (const id of ids) b.remove(id);
    b.h.end();
    expect(b.undo()?.map((op) => [op.type, 'id' in op ? op.id : 0])).toEqual([
      ['restore', 3],
      ['restore', 2],
      ['restore', 1],
    ]);
  });
});
