import { describe, expect, it } from 'vitest';
import { parseCommand } from './api-validate';
import type { FieldSpec } from './board';
import { newRect } from './testing/rect';
import {
  EDIT_FIELDS,
  NEW_OBJECT_FIELDS,
  OBJECT_FIELDS,
  PATCH_FIELDS,
  validateObjectFields,
} from './board';

const rect = newRect({ w: 10, h: 10, stroke: 0 });

/** A value of the field's type that is out of its range, and one of the wrong JSON type. */
function outOfRange(f: FieldSpec): unknown {
  switch (f.codec.type) {
    case 'int':
      return f.codec.max + 1;
    case 'kind':
      return 'hexagon';
    case 'color':
      return 0x1000000;
    case 'text':
      return 'é'.repeat(501);
    case 'points':
      return [1, 2, 3];
    case 'z':
    case 'holder':
      return 1.5;
    case 'hash':
      return 'ab';
  }
}

const wrongType = (f: FieldSpec): unknown =>
  f.codec.type === 'text' || f.codec.type === 'kind' ? 7 : 'seven';

describe('the object field table', () => {
  it('names the fields each use takes, in wire order', () => {
    expect(NEW_OBJECT_FIELDS).toEqual(Object.keys(rect));
    // Kind and an image's content are given once, at creation.
    expect(PATCH_FIELDS).toEqual(Object.keys(rect).filter((k) => k !== 'kind' && k !== 'blob'));
    expect(EDIT_FIELDS).toEqual(['x', 'y', 'w', 'h', 'rotation', 'stroke', 'fill', 'strokeWidth']);
    expect(new Set(OBJECT_FIELDS.map((f) => f.name)).size).toBe(OBJECT_FIELDS.length);
  });

  it('drives validation: each editor-set field refused out of range, with its reason', () => {
    for (const f of OBJECT_FIELDS as readonly FieldSpec[]) {
      if (f.set === 'host') continue;
      const why = validateObjectFields({ ...rect, [f.name]: outOfRange(f) });
      expect(why, f.name).toBe(f.codec.type === 'kind' ? 'unknown kind hexagon' : f.invalid);
    }
  });

  it('drives the command validator: every field required at create, any subset in a patch', () => {
    for (const f of OBJECT_FIELDS as readonly FieldSpec[]) {
      if (f.set === 'host') {
        expect(parseCommand({ cmd: 'create', object: { ...rect, [f.name]: 1 } })).toHaveProperty(
          'error',
        );
        continue;
      }
      const rest = Object.fromEntries(Object.entries(rect).filter(([k]) => k !== f.name));
      for (const object of [rest, { ...rect, [f.name]: wrongType(f) }]) {
        expect(parseCommand({ cmd: 'create', object }), f.name).toHaveProperty('error');
      }
      const value = (rect as Record<string, unknown>)[f.name];
      const edit = parseCommand({ cmd: 'edit', id: 1, patch: { [f.name]: value } });
      if (f.set === 'create') expect(edit, f.name).toHaveProperty('error');
      else {
        expect(edit, f.name).toEqual({ cmd: 'edit', id: 1, patch: { [f.name]: value } });
        const bad = { cmd: 'edit', id: 1, patch: { [f.name]: wrongType(f) } };
        expect(parseCommand(bad), f.name).toHaveProperty('error');
      }
    }
    // A colour must be given: present and undefined is no colour (the command used to pass).
    expect(parseCommand({ cmd: 'create', object: { ...rect, stroke: undefined } })).toHaveProperty(
      'error',
    );
  });
});
