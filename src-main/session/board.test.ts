import { describe, expect, it } from 'vitest';
import type { NewObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { parseColor, colorToCss, WORLD_EXTENT } from '../../shared/board';
import { Board, isRefusal } from './board';
import { Rng } from '../net/rng';

const rect = (x: number, y: number): NewObject => newRect({ x, y, h: 50 });

describe('Board', () => {
  it('creates objects with fresh ids on top, edits and deletes them, announcing each change', () => {
    const b = new Board();
    const changes: string[] = [];
    b.subscribe((c) =>
      changes.push(c.type === 'upsert' ? `upsert ${c.object.id}` : `delete ${c.id}`),
    );
    const a = b.create(rect(0, 0));
    const c = b.create(rect(10, 10));
    if (isRefusal(a) || isRefusal(c)) throw new Error('refused');
    expect([a.id, c.id]).toEqual([1, 2]);
    expect(c.z).toBeGreaterThan(a.z);
    const moved = b.update(a.id, { x: 500, y: -500 });
    expect(isRefusal(moved) ? moved : moved.x).toBe(500);
    expect(b.restack(a.id, 'front')).toMatchObject({ id: a.id });
    expect(b.all().map((o) => o.id)).toEqual([c.id, a.id]);
    expect(b.restack(a.id, 'back')).toMatchObject({ id: a.id });
    expect(b.all().map((o) => o.id)).toEqual([a.id, c.id]);
    expect(b.delete(c.id)).toBe(true);
    expect(b.delete(c.id)).toBe(false);
    expect(changes).toEqual([
      'upsert 1',
      'upsert 2',
      'upsert 1',
      'upsert 1',
      'upsert 1',
      'delete 2',
    ]);
  });

  it('refuses out-of-range fields with a reason and changes nothing', () => {
    const b = new Board();
    expect(b.create(rect(WORLD_EXTENT + 1, 0))).toEqual({ refused: 'position outside the board' });
    expect(b.create({ ...rect(0, 0), w: -1 })).toEqual({ refused: 'size out of range' });
    expect(b.create({ ...rect(0, 0), points: [1, 2, 3] })).toEqual({ refused: 'bad points' });
    expect(b.create({ ...rect(0, 0), stroke: 0x1000000 })).toEqual({ refused: 'bad colour' });
    expect(b.update(99, { x: 1 })).toEqual({ refused: 'no object 99' });
    expect(b.size).toBe(0);
  });

  it('hashes content independently of the order it was built in', () => {
    const rng = new Rng(5);
    const a = new Board();
    for (let i = 0; i < 50; i++) a.create(rect(rng.range(-1000, 1000), rng.range(-1000, 1000)));
    const b = new Board();
    for (const o of [...a.all()].reverse()) b.mirror(o);
    expect(b.hash()).toBe(a.hash());
    b.update(3, { x: 12345 });
    expect(b.hash()).not.toBe(a.hash());
  });

  it('round-trips through its save file and refuses damaged files', () => {
    const a = new Board();
    a.create(rect(1, 2));
    a.create({ ...rect(3, 4), kind: 'stroke', points: [0, 0, 5, 5, 10, 2] });
    a.create({ ...rect(5, 6), kind: 'note', text: 'héllo 👋', fill: 0xffee88 });
    a.setLock(1, 7);
    const b = Board.fromFile(a.toFile());
    if (isRefusal(b)) throw new Error(b.refused);
    expect(b.all().map((o) => o.id)).toEqual([1, 2, 3]);
    expect(b.get(1)?.lockedBy).toBe(null);
    expect(b.get(3)?.text).toBe('héllo 👋');
    const next = b.create(rect(0, 0));
    expect(isRefusal(next) ? 0 : next.id).toBe(4);
    expect(Board.fromFile('{')).toEqual({ refused: 'board file is not valid JSON' });
    expect(isRefusal(Board.fromFile(a.toFile().replace('"rect"', '"hexagon"')))).toBe(true);
    expect(
      isRefusal(
        Board.fromFile(JSON.stringify({ format: 'ghostboard-board', version: 3, objects: [] })),
      ),
    ).toBe(true);
  });

  it('parses and prints colours', () => {
    expect(parseColor('#fff')).toBe(0xffffff);
    expect(parseColor('#12aBef')).toBe(0x12abef);
    expect(parseColor('none')).toBe(null);
    expect(parseColor('red')).toBeUndefined();
    expect(colorToCss(0x00ff00)).toBe('#00ff00');
  });
});
