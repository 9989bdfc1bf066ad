// The field table reaches every wire record: a field added to shared/board.ts's OBJECT_FIELDS is in the create
// call, the edit call (if edits carry it), its ghost group and the blank ghost, with nothing else to write.
import { describe, expect, it } from 'vitest';
import type { BoardObject, FieldSpec } from '../../shared/board';
import { EDIT_FIELDS, NEW_OBJECT_FIELDS, OBJECT_FIELDS } from '../../shared/board';
import { BitWriter } from '../net/bitstream';
import { BoardItem, changedGroups } from './ghost-classes';
import { buildRegistry, editCall, editPatch } from './protocol';

const FIELDS: readonly FieldSpec[] = OBJECT_FIELDS;

const object: BoardObject = {
  id: 7,
  kind: 'note',
  x: 1,
  y: 2,
  w: 3,
  h: 4,
  rotation: 5,
  stroke: 6,
  fill: null,
  strokeWidth: 8,
  text: 'nine',
  points: [10, 11],
  z: 12,
  lockedBy: null,
  pinned: 0,
  blob: '',
};

/** Another valid value of each field. */
const other: BoardObject = {
  id: 70,
  kind: 'rect',
  x: -1,
  y: -2,
  w: 30,
  h: 40,
  rotation: 50,
  stroke: null,
  fill: 0xabcdef,
  strokeWidth: 1,
  text: 'ten',
  points: [],
  z: -3,
  lockedBy: 4,
  pinned: 1,
  blob: 'ab'.repeat(32),
};

function groupBytes(o: BoardObject): string[] {
  return BoardItem.groups.map((g) => {
    const w = new BitWriter();
    g.pack(w, { o });
    return Buffer.from(w.finish()).toString('hex');
  });
}

describe('the field table on the wire', () => {
  it('a create carries every field an editor sets, an edit the masked ones, in table order', () => {
    const p = buildRegistry();
    expect(Object.keys(p.create.params)).toEqual(['req', ...NEW_OBJECT_FIELDS]);
    expect(Object.keys(p.edit.params)).toEqual(['id', 'mask', ...EDIT_FIELDS]);
  });

  it('each field is in its group, only there; an update carries the group of each field that changed', () => {
    const groups = [...new Set(FIELDS.map((f) => f.group))];
    expect(BoardItem.groups.map((g) => g.name)).toEqual(groups);
    const base = groupBytes(object);
    for (const f of FIELDS) {
      const k = f.name as keyof BoardObject;
      const changed = { ...object, [k]: other[k] } as BoardObject;
      const differ = groupBytes(changed).flatMap((b, i) => (b === base[i] ? [] : [i]));
      expect(differ, f.name).toEqual([groups.indexOf(f.group)]);
      expect(changedGroups(object, changed), f.name).toBe(
        f.fixed === true ? 0 : BoardItem.maskOf(f.group),
      );
    }
    expect(Object.keys(BoardItem.createGhost())).toEqual(FIELDS.map((f) => f.name));
  });

  it('an edit call and the patch it carries are twins', () => {
    for (let bits = 0; bits < 1 << EDIT_FIELDS.length; bits++) {
      const patch: Record<string, unknown> = {};
      EDIT_FIELDS.forEach((f, i) => {
        if ((bits >> i) & 1) patch[f] = other[f];
      });
      const call = editCall(object.id, object, patch);
      if (bits === 0) {
        expect(call).toBeUndefined();
        continue;
      }
      expect(call?.mask).toBe(bits);
      if (call !== undefined) expect(editPatch(call)).toEqual(patch);
    }
    // Text and points go by calls of their own.
    expect(editCall(object.id, object, { text: 'x', points: [] })).toBeUndefined();
  });
});
