// The synchronizer's cases one by one, in virtual time: a command executed at once and by each trailing state in
// its turn, a grab race lost at rollback and told, a tie broken by mirror id, a refusal turned into a grant, chat
// delivered once, duplicates, late and far-ahead commands, and memory released behind the last state.
import { describe, expect, it } from 'vitest';
import type { BoardObject, ObjectId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import type { CommandOp, MirrorCommand } from './command';
import type { TssOutput } from './tss';
import { TrailingStateSync } from './tss';
import { applyEffects, replicaHash } from './testing/sim';

const cmd = (
  origin: number,
  seq: number,
  stamp: number,
  client: number,
  op: CommandOp,
): MirrorCommand => ({ origin, seq, stamp, client, op });

/** Origin 1's create of object 17 (17 = 1 x 16 + 1: mirror 1's first id) at stamp 0. */
const CREATE = cmd(1, 0, 0, 5, { type: 'create', id: 17, fields: newRect() });

function drain(tss: TrailingStateSync): TssOutput[] {
  const out: TssOutput[] = [];
  for (let o = tss.poll(); o !== undefined; o = tss.poll()) out.push(o);
  return out;
}

/** A client replica fed every effect output. */
function replicaOf(outputs: readonly TssOutput[]): Map<ObjectId, BoardObject> {
  const r = new Map<ObjectId, BoardObject>();
  for (const o of outputs) if (o.type === 'effects') applyEffects(r, o.effects);
  return r;
}

describe('TrailingStateSync', () => {
  it('executes a command at once in the leading state, and in each trailing state when its delay has passed', () => {
    const tss = new TrailingStateSync({ self: 1, delays: [100, 1000] });
    expect(tss.receive(0, CREATE)).toBe(true);
    const out = drain(tss);
    expect(out).toMatchObject([
      { type: 'effects', rollback: false, effects: [{ type: 'upsert' }] },
    ]);
    expect(tss.leading.objects.get(17)?.x).toBe(0);
    expect(tss.state(1).objects.size).toBe(0);
    tss.advance(100);
    expect(tss.state(1).objects.size).toBe(1);
    expect(tss.state(2).objects.size).toBe(0);
    expect(tss.held).toBe(1);
    tss.advance(1000);
    expect(tss.hash(2)).toBe(tss.hash(0));
    expect(tss.held).toBe(0);
    expect(tss.stats).toMatchObject({ received: 1, rollbacks: 0, late: 0 });
  });

  it('resolves a grab race the same way on both mirrors: the earlier stamp wins, the loser is told at rollback', () => {
    const a = new TrailingStateSync({ self: 1, delays: [100, 1000] });
    const b = new TrailingStateSync({ self: 2, delays: [100, 1000] });
    const aGrab = cmd(1, 1, 100, 5, { type: 'grab', id: 17 });
    const bGrab = cmd(2, 0, 105, 9, { type: 'grab', id: 17 });
    a.receive(0, CREATE);
    b.receive(10, CREATE);
    a.receive(100, aGrab);
    b.receive(105, bGrab);
    // Each has its own grab first: each leading state gave the object to its own client.
    expect(b.leading.objects.get(17)?.lockedBy).toBe(9);
    a.receive(135, bGrab);
    b.receive(140, aGrab);
    const aOut = drain(a);
    const bOut = drain(b);
    expect(aOut.filter((o) => o.type === 'refused')).toEqual([]);
    // b's leading state refused a's grab (held by 9); its first trailing state, in stamp order, will not.
    expect(b.stats.leadingRollbacks).toBe(0);
    for (let t = 150; t <= 1200; t += 10) {
      a.advance(t);
      b.advance(t);
    }
    const later = drain(b);
    expect(b.stats.leadingRollbacks).toBe(1);
    expect(later).toContainEqual({
      type: 'refused',
      client: 9,
      seq: 0,
      refusal: { type: 'held', by: 5 },
      revised: true,
    });
    const rollback = later.find((o) => o.type === 'effects');
    expect(rollback).toMatchObject({ type: 'effects', rollback: true });
    for (const s of [a, b]) expect(s.leading.objects.get(17)?.lockedBy).toBe(5);
    expect(a.hash()).toBe(b.hash());
    // What b's clients were shown, rollback included, is b's board.
    expect(replicaHash(replicaOf([...bOut, ...later]))).toBe(b.hash());
    expect(a.stats.leadingRollbacks).toBe(0);
  });

  it('breaks a tie of stamps by mirror id, everywhere', () => {
    const hashes = [];
    for (const [first, second] of [
      [1, 2],
      [2, 1],
    ] as const) {
      const tss = new TrailingStateSync({ self: 0, delays: [50, 200] });
      tss.receive(0, CREATE);
      const grab = (m: number): MirrorCommand =>
        cmd(m, m === 1 ? 1 : 0, 100, m * 10, { type: 'grab', id: 17 });
      tss.receive(110, grab(first));
      tss.receive(120, grab(second));
      tss.advance(400);
      expect(tss.leading.objects.get(17)?.lockedBy).toBe(10);
      hashes.push(tss.hash());
    }
    expect(hashes[0]).toBe(hashes[1]);
  });

  it('grants after all a command its leading state refused when an earlier one arrives after it', () => {
    const tss = new TrailingStateSync({ self: 2, delays: [100, 1000] });
    const patch = cmd(2, 0, 120, 9, { type: 'patch', id: 17, patch: { x: 55 } });
    tss.receive(120, patch);
    expect(drain(tss)).toEqual([
      {
        type: 'refused',
        client: 9,
        seq: 0,
        refusal: { type: 'no-object', id: 17 },
        revised: false,
      },
    ]);
    tss.receive(150, CREATE);
    tss.advance(230);
    const out = drain(tss);
    expect(out).toContainEqual({ type: 'granted', client: 9, seq: 0 });
    expect(tss.leading.objects.get(17)?.x).toBe(55);
    expect(tss.stats.leadingRollbacks).toBe(1);
  });

  it('delivers chat once, on arrival, with no board effect', () => {
    const tss = new TrailingStateSync({ self: 0, delays: [100] });
    const chat = cmd(1, 0, 50, 5, { type: 'chat', text: 'hello' });
    const before = tss.hash();
    expect(tss.receive(60, chat)).toBe(true);
    expect(tss.receive(70, chat)).toBe(false);
    tss.advance(500);
    expect(drain(tss)).toEqual([{ type: 'chat', origin: 1, stamp: 50, client: 5, text: 'hello' }]);
    expect(tss.hash()).toBe(before);
    expect(tss.held).toBe(0);
  });

  it('drops duplicates, also of commands long released', () => {
    const tss = new TrailingStateSync({ self: 0, delays: [100] });
    expect(tss.receive(0, CREATE)).toBe(true);
    expect(tss.receive(5, CREATE)).toBe(false);
    tss.advance(1000);
    expect(tss.held).toBe(0);
    expect(tss.receive(2000, CREATE)).toBe(false);
    expect(tss.stats).toMatchObject({ received: 1, duplicates: 2, late: 0 });
    expect(tss.leading.objects.size).toBe(1);
  });

  it('orders a late command just past the last trailing state, the same way on every mirror that has it late', () => {
    const hashes = [];
    for (const arrival of [400, 650]) {
      const tss = new TrailingStateSync({ self: 0, delays: [50, 200] });
      tss.receive(0, CREATE);
      tss.receive(10, cmd(0, 0, 10, 1, { type: 'patch', id: 17, patch: { fill: 0xff0000 } }));
      tss.advance(arrival - 1);
      // Stamped 20, long passed by the last state (200 ms behind).
      tss.receive(arrival, cmd(2, 0, 20, 30, { type: 'patch', id: 17, patch: { x: 7 } }));
      tss.advance(arrival + 300);
      expect(tss.stats.late).toBe(1);
      expect(tss.leading.objects.get(17)?.x).toBe(7);
      expect(tss.hash(2)).toBe(tss.hash(0));
      hashes.push(tss.hash());
    }
    expect(hashes[0]).toBe(hashes[1]);
  });

  it('refuses a command stamped far ahead of its time, and more than it may hold', () => {
    const tss = new TrailingStateSync({ self: 0, delays: [100], maxAhead: 1000, maxHeld: 3 });
    tss.advance(5000);
    expect(tss.receive(5000, cmd(1, 0, 7000, 5, { type: 'release' }))).toBe(false);
    for (let i = 0; i < 3; i++)
      expect(tss.receive(5000, cmd(2, i, 5000, 5, { type: 'release' }))).toBe(true);
    expect(tss.receive(5000, cmd(2, 3, 5000, 5, { type: 'release' }))).toBe(false);
    expect(tss.stats.dropped).toBe(2);
  });

  it('holds no more than the last delay’s worth of commands', () => {
    const tss = new TrailingStateSync({ self: 0, delays: [100, 1000] });
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      const t = i * 5;
      tss.receive(t, cmd(0, i, t, 1, { type: 'chat', text: '' }));
      tss.receive(t, cmd(1, i, Math.max(0, t - 40), 2, { type: 'release' }));
      drain(tss);
      most = Math.max(most, tss.held);
    }
    // One release every 5 ms within the last 1000 ms, and those that arrived since.
    expect(most).toBeLessThanOrEqual(1000 / 5 + 10);
  });

  it('refuses a configuration with no trailing state or delays out of order', () => {
    expect(() => new TrailingStateSync({ self: 0, delays: [] })).toThrow(RangeError);
    expect(() => new TrailingStateSync({ self: 0, delays: [100, 100] })).toThrow(RangeError);
    expect(() => new TrailingStateSync({ self: 16, delays: [100] })).toThrow(RangeError);
  });
});
