import { describe, expect, it } from 'vitest';
import type { BoardObject } from './board';
import { newRect } from './testing/rect';
import { ObjectBatch } from './object-batch';

const obj = (id: number, x = 0): BoardObject => ({
  ...newRect({ x }),
  id,
  z: id,
  lockedBy: null,
  pinned: 0,
});

describe('ObjectBatch', () => {
  it('gathers upserts into one event, the latest state of each object once', () => {
    const b = new ObjectBatch();
    expect(b.take()).toBeUndefined();
    b.add({ type: 'objects', upserts: [obj(1), obj(2)], deletes: [] });
    b.add({ type: 'objects', upserts: [obj(1, 50)], deletes: [] });
    expect(b.take()).toEqual({ type: 'objects', upserts: [obj(1, 50), obj(2)], deletes: [] });
    expect(b.empty).toBe(true);
    expect(b.take()).toBeUndefined();
  });

  it('an upsert then a delete is the delete; a delete then an upsert keeps both (deletes apply first)', () => {
    const b = new ObjectBatch();
    b.add({ type: 'objects', upserts: [obj(1), obj(2)], deletes: [] });
    b.add({ type: 'objects', upserts: [], deletes: [1] });
    b.add({ type: 'objects', upserts: [], deletes: [2] });
    b.add({ type: 'objects', upserts: [obj(2, 7)], deletes: [] });
    expect(b.take()).toEqual({ type: 'objects', upserts: [obj(2, 7)], deletes: [1, 2] });
  });
});
