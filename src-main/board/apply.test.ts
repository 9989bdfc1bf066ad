import { describe, expect, it } from 'vitest';
import type { BoardObject, NewObject, ObjectPatch } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { OBJECT_FIELDS, WORLD_EXTENT } from '../../shared/board';
import { apply, refusalText } from './apply';
import { emptyBoard, HASH_ORDER, hashBoard, objectsByZ, sameBoard } from './state';
import type { ApplyResult, BoardOp, BoardState } from './types';

/** mulberry32: a small seeded PRNG (board/ imports nothing outside shared/, not even the stack's Rng). */
function rng(seed: number): { int(lo: number, hi: number): number; pick<T>(xs: readonly T[]): T } {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    pick: <T>(xs: readonly T[]): T => {
      const x = xs[int(0, xs.length - 1)];
      if (x === undefined) throw new Error('empty');
      return x;
    },
  };
}
type Rand = ReturnType<typeof rng>;

const rect = (x = 0, y = 0): NewObject => newRect({ x, y, h: 50 });

function snapshot(s: BoardState): BoardState {
  return { objects: new Map(s.objects), nextId: s.nextId, topZ: s.topZ };
}

function ok(r: ApplyResult): Extract<ApplyResult, { ok: true }> {
  if (!r.ok) throw new Error(`refused: ${refusalText(r.refusal, String)}`);
  return r;
}

function randomFields(r: Rand): NewObject {
  return {
    kind: r.pick(['rect', 'ellipse', 'line', 'arrow', 'stroke', 'text', 'note'] as const),
    x: r.int(-5000, 5000),
    y: r.int(-5000, 5000),
    w: r.int(0, 400),
    h: r.int(0, 400),
    rotation: r.int(0, 3599),
    stroke: r.pick([null, 0, 0xffffff, r.int(0, 0xffffff)]),
    fill: r.pick([null, r.int(0, 0xffffff)]),
    strokeWidth: r.int(0, 64),
    text: r.pick(['', 'note', 'héllo 👋']),
    points: r.pick([[], [0, 0, 10, 10], [1, 2, 3, 4, -5, -6]]),
    blob: '',
  };
}

function randomPatch(r: Rand): ObjectPatch {
  return r.pick<ObjectPatch>([
    { x: r.int(-5000, 5000), y: r.int(-5000, 5000) },
    { w: r.int(0, 400), h: r.int(0, 400), rotation: r.int(0, 3599) },
    { stroke: r.pick([null, r.int(0, 0xffffff)]), strokeWidth: r.int(0, 64) },
    { text: r.pick(['', 'typed', 'ü'.repeat(20)]) },
    { points: [r.int(-100, 100), r.int(-100, 100)] },
    { x: WORLD_EXTENT + 1 }, // refused
    { points: [1, 2, 3] }, // refused
  ]);
}

/** Any op, aimed at an object that is there most of the time and at one that is not now and then. */
function randomOp(r: Rand, s: BoardState): BoardOp {
  const ids = [...s.objects.keys()];
  const id = ids.length > 0 && r.int(0, 9) > 0 ? r.pick(ids) : r.int(1, s.nextId + 2);
  const peer = r.int(0, 3);
  const existing = s.objects.get(id);
  const ops: BoardOp[] = [
    { type: 'create', fields: randomFields(r) },
    { type: 'create', fields: randomFields(r) },
    { type: 'patch', id, patch: randomPatch(r), by: peer },
    { type: 'patch', id, patch: randomPatch(r) },
    { type: 'delete', id, by: peer },
    { type: 'restack', id, to: r.pick(['front', 'back'] as const) },
    { type: 'restack', id, to: { z: r.int(-50, 60) }, by: peer },
    { type: 'grab', id, peer },
    { type: 'grab', id, peer },
    { type: 'drop', id, peer, x: r.int(-5000, 5000), y: r.int(-5000, 5000) },
    { type: 'release', peer },
    { type: 'lock', id, holder: r.pick([null, peer]) },
    { type: 'place', id, z: r.int(-50, 50) },
    { type: 'remove', id },
    { type: 'restore', id: r.int(0, s.nextId), fields: randomFields(r), z: r.int(-50, 50) },
    { type: 'counters', nextId: s.nextId + r.int(0, 3), topZ: s.topZ + r.int(0, 3) },
    {
      type: 'batch',
      ops: [
        { type: 'create', fields: randomFields(r) },
        { type: 'patch', id, patch: randomPatch(r) },
        { type: 'restack', id, to: 'front' },
      ],
    },
  ];
  if (existing !== undefined) ops.push({ type: 'put', object: { ...existing, x: r.int(-9, 9) } });
  return r.pick(ops);
}

describe('board operations', () => {
  it('every op applied then its inverse restores the state exactly (300 seeds of 60 ops)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const s = emptyBoard();
      for (let i = 0; i < 60; i++) {
        const op = randomOp(r, s);
        const before = snapshot(s);
        const first = apply(s, op);
        const msg = `seed ${seed} step ${i} ${JSON.stringify(op)}`;
        if (!first.ok) {
          expect(sameBoard(s, before), `refused but changed: ${msg}`).toBe(true);
          continue;
        }
        const after = snapshot(s);
        const back = ok(apply(s, first.inverse));
        expect(sameBoard(s, before), `inverse: ${msg}`).toBe(true);
        // The inverse's inverse redoes the op exactly (redo).
        ok(apply(s, back.inverse));
        expect(sameBoard(s, after), `redo: ${msg}`).toBe(true);
      }
    }
  });

  it('a sequence undone in reverse order gives back the original state and hash (200 seeds)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = rng(seed * 7919);
      const s = emptyBoard();
      for (let i = 0; i < 20; i++) apply(s, { type: 'create', fields: randomFields(r) });
      const original = snapshot(s);
      const hash = hashBoard(s);
      const inverses: BoardOp[] = [];
      for (let i = 0; i < 100; i++) {
        const res = apply(s, randomOp(r, s));
        if (res.ok) inverses.push(res.inverse);
      }
      for (const inverse of inverses.reverse()) ok(apply(s, inverse));
      expect(sameBoard(s, original), `seed ${seed}`).toBe(true);
      expect(hashBoard(s), `seed ${seed}`).toBe(hash);
    }
  });

  it('refusals are typed results that change nothing', () => {
    const s = emptyBoard();
    const a = ok(apply(s, { type: 'create', fields: rect() }));
    const id = a.effects[0]?.type === 'upsert' ? a.effects[0].object.id : 0;
    ok(apply(s, { type: 'grab', id, peer: 1 }));
    const before = snapshot(s);
    const refusals = [
      apply(s, { type: 'create', fields: { ...rect(), w: -1 } }),
      apply(s, { type: 'patch', id: 99, patch: { x: 1 } }),
      apply(s, { type: 'patch', id, patch: { x: 1 }, by: 2 }),
      apply(s, { type: 'patch', id, patch: { stroke: 0x1000000 }, by: 1 }),
      apply(s, { type: 'delete', id, by: 2 }),
      apply(s, { type: 'grab', id, peer: 2 }),
      apply(s, { type: 'drop', id, peer: 2, x: 0, y: 0 }),
      apply(s, { type: 'drop', id, peer: 1, x: WORLD_EXTENT + 1, y: 0 }),
      apply(s, { type: 'restack', id: 99, to: 'front' }),
      apply(s, {
        type: 'batch',
        ops: [
          { type: 'create', fields: rect() },
          { type: 'restack', id, to: 'front' },
          { type: 'remove', id: 99 },
        ],
      }),
    ];
    expect(sameBoard(s, before)).toBe(true);
    const names = (p: number): string => `peer ${p}`;
    expect(refusals.map((r) => (r.ok ? 'applied' : refusalText(r.refusal, names)))).toEqual([
      'size out of range',
      'no object 99',
      'held by peer 1',
      'bad colour',
      'held by peer 1',
      'held by peer 1',
      'you are not holding it',
      'position outside the board',
      'no object 99',
      'no object 99',
    ]);
    const full = emptyBoard();
    full.nextId = 2 ** 24;
    expect(apply(full, { type: 'create', fields: rect() })).toEqual({
      ok: false,
      refusal: { type: 'out-of-ids' },
    });
  });

  it('restores a deleted id only: never issued, on the board or bad fields are refused', () => {
    const s = emptyBoard();
    for (let i = 0; i < 3; i++) ok(apply(s, { type: 'create', fields: rect(i, i) }));
    ok(apply(s, { type: 'remove', id: 2 }));
    const before = snapshot(s);
    const refusals = [
      apply(s, { type: 'restore', id: 4, fields: rect(), z: 2 }),
      apply(s, { type: 'restore', id: 0, fields: rect(), z: 2 }),
      apply(s, { type: 'restore', id: 1, fields: rect(), z: 2 }),
      apply(s, { type: 'restore', id: 2, fields: { ...rect(), w: -1 }, z: 2 }),
      apply(s, { type: 'restore', id: 2, fields: rect(), z: 0.5 }),
    ];
    expect(sameBoard(s, before)).toBe(true);
    expect(refusals.map((r) => (r.ok ? 'applied' : refusalText(r.refusal, String)))).toEqual([
      'object 4 was never deleted here, or is on the board',
      'object 0 was never deleted here, or is on the board',
      'object 1 was never deleted here, or is on the board',
      'size out of range',
      'bad stacking order',
    ]);
    // Its own z while free; a fresh top z once another object took it.
    ok(apply(s, { type: 'restore', id: 2, fields: rect(7, 7), z: 2 }));
    expect(s.objects.get(2)).toMatchObject({ x: 7, z: 2, lockedBy: null });
    ok(apply(s, { type: 'remove', id: 2 }));
    ok(apply(s, { type: 'place', id: 1, z: 2 }));
    ok(apply(s, { type: 'restore', id: 2, fields: rect(), z: 2 }));
    expect([s.objects.get(2)?.z, s.topZ]).toEqual([4, 4]);
  });

  it('creates on top with fresh ids; restacks to the front and below the lowest', () => {
    const s = emptyBoard();
    for (let i = 0; i < 3; i++) ok(apply(s, { type: 'create', fields: rect(i, i) }));
    expect(objectsByZ(s).map((o) => [o.id, o.z])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    ok(apply(s, { type: 'restack', id: 1, to: 'front' }));
    ok(apply(s, { type: 'restack', id: 3, to: 'back' }));
    expect(objectsByZ(s).map((o) => [o.id, o.z])).toEqual([
      [3, -1],
      [2, 2],
      [1, 4],
    ]);
    expect([s.nextId, s.topZ]).toEqual([4, 4]);
  });

  it('restacks to an exact z only while no other object has it; past the top it raises the top', () => {
    const s = emptyBoard();
    for (let i = 0; i < 3; i++) ok(apply(s, { type: 'create', fields: rect(i, i) }));
    const taken = apply(s, { type: 'restack', id: 1, to: { z: 3 }, by: 1 });
    expect(taken).toEqual({ ok: false, refusal: { type: 'z-taken', z: 3, by: 3 } });
    expect(objectsByZ(s).map((o) => o.z)).toEqual([1, 2, 3]);
    // Its own z is not taken by another.
    ok(apply(s, { type: 'restack', id: 1, to: { z: 1 }, by: 1 }));
    ok(apply(s, { type: 'restack', id: 3, to: { z: -7 }, by: 1 }));
    const up = ok(apply(s, { type: 'restack', id: 2, to: { z: 9 } }));
    expect(objectsByZ(s).map((o) => [o.id, o.z])).toEqual([
      [3, -7],
      [1, 1],
      [2, 9],
    ]);
    expect(s.topZ).toBe(9);
    ok(apply(s, { type: 'create', fields: rect() }));
    expect(s.objects.get(4)?.z).toBe(10);
    ok(apply(s, { type: 'remove', id: 4 }));
    ok(apply(s, { type: 'counters', nextId: 4, topZ: 9 }));
    ok(apply(s, up.inverse));
    expect([s.objects.get(2)?.z, s.topZ]).toEqual([2, 3]);
    const bad = apply(s, { type: 'restack', id: 2, to: { z: 0.5 } });
    expect(bad.ok).toBe(false);
  });

  it('a drop moves then releases (two effects); a grab of a lock already held says nothing', () => {
    const s = emptyBoard();
    ok(apply(s, { type: 'create', fields: rect() }));
    expect(ok(apply(s, { type: 'grab', id: 1, peer: 2 })).effects).toHaveLength(1);
    expect(ok(apply(s, { type: 'grab', id: 1, peer: 2 })).effects).toEqual([]);
    const d = ok(apply(s, { type: 'drop', id: 1, peer: 2, x: 40, y: 50 }));
    const seen = d.effects.map((e) =>
      e.type === 'upsert' ? [e.object.x, e.object.y, e.object.lockedBy] : e.id,
    );
    expect(seen).toEqual([
      [40, 50, 2],
      [40, 50, null],
    ]);
  });

  it('patches and deletes by the holder or with no actor pass a lock; by anyone else they do not', () => {
    const s = emptyBoard();
    ok(apply(s, { type: 'create', fields: rect() }));
    ok(apply(s, { type: 'grab', id: 1, peer: 3 }));
    expect(apply(s, { type: 'patch', id: 1, patch: { x: 5 }, by: 3 }).ok).toBe(true);
    expect(apply(s, { type: 'patch', id: 1, patch: { x: 6 } }).ok).toBe(true);
    expect(apply(s, { type: 'delete', id: 1, by: 0 }).ok).toBe(false);
    expect(apply(s, { type: 'delete', id: 1, by: 3 }).ok).toBe(true);
  });

  it('releases a peer’s locks bottom to top', () => {
    const s = emptyBoard();
    for (let i = 0; i < 4; i++) ok(apply(s, { type: 'create', fields: rect() }));
    for (const id of [4, 1, 3]) ok(apply(s, { type: 'grab', id, peer: 1 }));
    ok(apply(s, { type: 'grab', id: 2, peer: 2 }));
    ok(apply(s, { type: 'restack', id: 4, to: 'back' }));
    const r = ok(apply(s, { type: 'release', peer: 1 }));
    expect(r.effects.map((e) => (e.type === 'upsert' ? e.object.id : -e.id))).toEqual([4, 1, 3]);
    expect(objectsByZ(s).map((o) => o.lockedBy)).toEqual([null, null, 2, null]);
  });

  it('the hash covers every field of the table, and changes with each', () => {
    expect([...HASH_ORDER].sort()).toEqual(OBJECT_FIELDS.map((f) => f.name).sort());
    const s = emptyBoard();
    ok(apply(s, { type: 'create', fields: rect() }));
    const o = s.objects.get(1) as BoardObject;
    const base = hashBoard(s);
    const other: BoardObject = {
      id: 1,
      kind: 'note',
      x: 1,
      y: 1,
      w: 1,
      h: 1,
      rotation: 1,
      stroke: 1,
      fill: 1,
      strokeWidth: 1,
      text: 'x',
      points: [1, 1],
      z: 9,
      lockedBy: 1,
      pinned: 1,
      blob: 'ab'.repeat(32),
    };
    for (const k of HASH_ORDER) {
      if (k === 'id') continue;
      s.objects.set(1, { ...o, [k]: other[k] });
      expect(hashBoard(s), k).not.toBe(base);
    }
  });
});
