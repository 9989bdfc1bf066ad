// A mirror command as a board operation: a create takes its origin's id and leaves the counter past it, an id
// taken, foreign or out of range is refused, the client is the lock rule's participant, and a record names the
// writer before each effect (what tells two orders of one field's patches apart).
import { describe, expect, it } from 'vitest';
import { newRect } from '../../shared/testing/rect';
import { emptyBoard } from '../board';
import type { CommandOp, MirrorCommand } from './command';
import { execute, sameOutcome, writerOf } from './execute';
import type { Writers } from './execute';

const cmd = (origin: number, seq: number, client: number, op: CommandOp): MirrorCommand => ({
  origin,
  seq,
  stamp: seq,
  client,
  op,
});

describe('executing mirror commands', () => {
  it('creates under the origin’s id and moves the counter past it', () => {
    const s = emptyBoard();
    expect(execute(s, cmd(2, 0, 1, { type: 'create', id: 34, fields: newRect() }))).toMatchObject({
      ok: true,
      nextId: 35,
      topZ: 1,
    });
    expect(s.objects.get(34)?.z).toBe(1);
    // A lower id of another mirror still goes in; the counter stays past both.
    expect(execute(s, cmd(1, 0, 1, { type: 'create', id: 17, fields: newRect() }))?.ok).toBe(true);
    expect(s.nextId).toBe(35);
  });

  it('refuses a create onto a taken id, another mirror’s id, or one out of range', () => {
    const s = emptyBoard();
    execute(s, cmd(1, 0, 1, { type: 'create', id: 17, fields: newRect() }));
    for (const [origin, id] of [
      [1, 17],
      [2, 33],
      [0, 2 ** 24],
    ] as const)
      expect(execute(s, cmd(origin, 1, 1, { type: 'create', id, fields: newRect() }))).toEqual({
        ok: false,
        refusal: { type: 'id-not-free', id },
      });
    expect(s.objects.size).toBe(1);
  });

  it('holds the issuing client to the lock rule', () => {
    const s = emptyBoard();
    execute(s, cmd(1, 0, 5, { type: 'create', id: 17, fields: newRect() }));
    expect(execute(s, cmd(1, 1, 5, { type: 'grab', id: 17 }))?.ok).toBe(true);
    expect(execute(s, cmd(2, 0, 9, { type: 'patch', id: 17, patch: { x: 3 } }))).toEqual({
      ok: false,
      refusal: { type: 'held', by: 5 },
    });
    expect(execute(s, cmd(2, 1, 9, { type: 'chat', text: 'hi' }))).toBeUndefined();
  });

  it('tells two orders of patches to one field apart by the writer before each', () => {
    const a = cmd(1, 1, 5, { type: 'patch', id: 17, patch: { x: 443 } });
    const b = cmd(2, 0, 9, { type: 'patch', id: 17, patch: { x: -627 } });
    const run = (order: MirrorCommand[]): Map<MirrorCommand, ReturnType<typeof execute>> => {
      const s = emptyBoard();
      const writers: Writers = new Map();
      execute(s, cmd(1, 0, 5, { type: 'create', id: 17, fields: newRect() }), writers);
      return new Map(order.map((c) => [c, execute(s, c, writers)]));
    };
    const ab = run([a, b]);
    const ba = run([b, a]);
    expect(ab.get(a)).toMatchObject({ prior: [writerOf({ origin: 1, seq: 0 })] });
    expect(ab.get(b)).toMatchObject({ prior: [writerOf(a)] });
    // The same effects in either order, yet the records differ: the boards end differently.
    expect(sameOutcome(ab.get(a), ba.get(a))).toBe(false);
    expect(sameOutcome(ab.get(b), ba.get(b))).toBe(false);
    expect(sameOutcome(ab.get(a), run([a, b]).get(a))).toBe(true);
  });
});
