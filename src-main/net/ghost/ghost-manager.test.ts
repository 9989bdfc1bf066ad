import { describe, expect, it } from 'vitest';
import { BitReader } from '../bitstream';
import { GhostLoop, POINTER } from '../testing/ghost-classes';
import type { Shape } from '../testing/ghost-classes';
import { SHAPE } from '../testing/ghost-classes';
import { ID_WIDTH_FIELD_BITS } from './ghost-wire';

const POS = SHAPE.maskOf('position');
const SIZE = SHAPE.maskOf('size');
const STYLE = SHAPE.maskOf('style');

function idWidthOf(bytes: Uint8Array): number {
  return new BitReader(bytes).readUint(ID_WIDTH_FIELD_BITS) + 1;
}

describe('ghost manager lifecycle', () => {
  it('creates with every group, then sends only dirty groups', () => {
    const loop = new GhostLoop();
    const s = loop.addShape(7);
    loop.exchange();
    expect(loop.shapes.get(7)).toEqual(s.obj);
    expect(loop.sender.stats().sent?.creates).toBe(1);
    s.obj.x = 123_456;
    s.obj.label = 'moved';
    s.markDirty(POS);
    loop.exchange();
    expect(loop.updates).toEqual([{ key: 7, mask: POS }]);
    expect(loop.shapes.get(7)?.x).toBe(123_456);
    expect(loop.shapes.get(7)?.label).toBe('s7'); // style was clean: never written
    expect(loop.sender.demand(loop.now)).toBe('none');
    expect(loop.write().record).toBeUndefined();
  });

  it('keeps a dropped bit only if no later packet carried it (TRIBES Figure 5)', () => {
    const loop = new GhostLoop();
    const a = loop.addShape(1);
    const b = loop.addShape(2);
    loop.exchange();
    a.markDirty(POS | SIZE | STYLE);
    b.markDirty(POS | STYLE);
    const p1 = loop.write();
    const p2 = loop.write(); // nothing dirty: no entries
    a.markDirty(SIZE);
    const p3 = loop.write();
    loop.notify(p1, false);
    const ra = loop.sender.sender?.recordOf(a);
    const rb = loop.sender.sender?.recordOf(b);
    expect(ra?.mask).toBe(POS | STYLE);
    expect(rb?.mask).toBe(POS | STYLE);
    loop.notify(p2, true);
    loop.notify(p3, true);
    const st = loop.sender.stats().sent;
    expect(st?.restoredBits).toBe(4);
    expect(st?.staleBitsSkipped).toBe(1);
  });

  it('redoes a lost create with the full state current then', () => {
    const loop = new GhostLoop();
    const s = loop.addShape(3);
    const p1 = loop.write();
    expect(loop.write().record).toBeUndefined(); // unchanged: nothing to add while the create is in flight
    s.obj.x = 55;
    loop.notify(p1, false);
    expect(loop.sender.stats().sent?.recreates).toBe(1);
    loop.exchange();
    expect(loop.shapes.get(3)).toEqual(s.obj);
    expect(loop.updates).toEqual([]);
    expect(loop.sender.demand(loop.now)).toBe('none');
  });

  it('repeats an unacknowledged create as a refresh while the object changes', () => {
    const loop = new GhostLoop();
    const s = loop.addShape(3);
    const p1 = loop.write();
    s.obj.x = 55;
    s.markDirty(POS);
    const p2 = loop.write(); // a refresh: the peer may not have the ghost, so no plain update yet
    expect(loop.sender.stats().sent?.refreshes).toBe(1);
    loop.notify(p1, false); // the refresh is still in flight: no recreate
    expect(loop.sender.stats().sent?.recreates).toBe(0);
    loop.read(p2);
    loop.notify(p2, true);
    expect(loop.shapes.get(3)).toEqual(s.obj);
    // Both delivered: the second is a full update of the ghost the first created.
    s.obj.y = 77;
    s.markDirty(POS);
    const t = loop.addShape(4);
    const q1 = loop.write();
    t.obj.w = 1;
    t.markDirty(SIZE);
    const q2 = loop.write();
    loop.read(q1);
    loop.read(q2);
    loop.notify(q1, true);
    loop.notify(q2, true);
    expect(loop.shapes.get(3)?.y).toBe(77);
    expect(loop.shapes.get(4)).toEqual(t.obj);
    expect(loop.updates).toEqual([
      { key: 3, mask: POS },
      { key: 4, mask: SHAPE.allMask },
    ]);
  });

  it('keeps groups lost while a delete was in flight if the delete is lost and the object returns', () => {
    let inScope = true;
    const loop = new GhostLoop({
      scopeIntervalMs: 0,
      scope: (_now, scope) => {
        if (inScope) scope.add(s, 1);
      },
    });
    const s = loop.addShape(1, true);
    loop.exchange();
    s.obj.label = 'new';
    s.markDirty(STYLE);
    const u = loop.write();
    inScope = false;
    const d = loop.write();
    loop.notify(u, false); // lost while deleting
    loop.notify(d, false); // and the delete lost too: the ghost survives remotely
    inScope = true;
    loop.exchange();
    expect(loop.shapes.get(1)?.label).toBe('new');
    expect(loop.sender.demand(loop.now)).toBe('none');
  });

  it('sends updates dirtied while the create was in flight once it is delivered', () => {
    const loop = new GhostLoop();
    const s = loop.addShape(3);
    const p1 = loop.write();
    loop.read(p1);
    s.obj.w = 99;
    s.markDirty(SIZE);
    loop.notify(p1, true);
    loop.exchange();
    expect(loop.updates).toEqual([{ key: 3, mask: SIZE }]);
    expect(loop.shapes.get(3)?.w).toBe(99);
  });

  it('redoes a lost delete and reuses the id only after the delete is delivered', () => {
    const loop = new GhostLoop();
    const s = loop.addShape(1);
    loop.exchange();
    const id = loop.sender.sender?.recordOf(s)?.id;
    s.destroy();
    const d1 = loop.write();
    const t = loop.addShape(2);
    loop.exchange(); // t gets a fresh id while the delete is in flight
    expect(loop.sender.sender?.recordOf(t)?.id).not.toBe(id);
    loop.notify(d1, false);
    expect(loop.sender.stats().sent?.redeletes).toBe(1);
    loop.exchange();
    expect([...loop.shapes.keys()]).toEqual([2]);
    const u = loop.addShape(3);
    loop.exchange();
    expect(loop.sender.sender?.recordOf(u)?.id).toBe(id);
    expect([...loop.shapes.keys()].sort()).toEqual([2, 3]);
  });

  it('never sends a delete for a create that was lost after the object left', () => {
    const loop = new GhostLoop();
    const s = loop.addShape(1);
    const p1 = loop.write();
    s.destroy();
    expect(loop.write().record).toBeUndefined();
    loop.notify(p1, false);
    expect(loop.sender.demand(loop.now)).toBe('none');
    expect(loop.sender.stats().sent?.liveIds).toBe(0);
    // And one delivered while leaving is deleted after its create.
    const t = loop.addShape(2);
    const p2 = loop.write();
    loop.read(p2);
    t.destroy();
    loop.notify(p2, true);
    expect(loop.shapes.has(2)).toBe(true);
    loop.exchange();
    expect(loop.shapes.size).toBe(0);
  });

  it("says 'urgent' for a dirty pointer position, 'normal' for other dirty state, else 'none'", () => {
    const loop = new GhostLoop();
    const p = loop.domain.add(POINTER, { x: 0, y: 0, tool: 0 }, { always: true });
    expect(loop.sender.demand(0)).toBe('normal'); // the create
    loop.exchange();
    expect(loop.sender.demand(loop.now)).toBe('none');
    p.markDirty(POINTER.maskOf('tool'));
    expect(loop.sender.demand(loop.now)).toBe('normal');
    p.markDirty(POINTER.maskOf('position'));
    expect(loop.sender.demand(loop.now)).toBe('urgent');
    loop.exchange();
    expect(loop.sender.demand(loop.now)).toBe('none');
  });

  it('counts bits per class', () => {
    const loop = new GhostLoop();
    loop.addShape(1);
    const p = loop.domain.add(POINTER, { x: 5, y: 6, tool: 1 }, { always: true });
    loop.exchange();
    p.markDirty(POINTER.maskOf('position'));
    const pkt = loop.exchange();
    const st = loop.sender.stats().sent;
    const total =
      (st?.bitsByClass.shape ?? 0) + (st?.bitsByClass.pointer ?? 0) + (st?.overheadBits ?? 0);
    expect(st?.bitsByClass.pointer).toBeGreaterThan(42);
    expect(total).toBe(loop.receiver.stats().received.bits);
    expect(pkt.record?.bits).toBe(pkt.bits);
  });
});

describe('ghost ids', () => {
  it('uses ids just wide enough for the live count, and narrows again as ghosts go', () => {
    const loop = new GhostLoop();
    const shapes = Array.from({ length: 40 }, (_, i) => loop.addShape(i));
    const first = loop.exchange(true, 100_000);
    expect(idWidthOf(first.bytes)).toBe(6);
    expect(loop.shapes.size).toBe(40);
    for (const s of shapes.slice(3)) s.destroy();
    loop.exchange(true, 100_000);
    shapes[0]?.markDirty(POS);
    const later = loop.exchange();
    expect(idWidthOf(later.bytes)).toBe(2);
    expect(loop.sender.stats().sent?.idBits).toBe(2);
  });

  it('ghosts 16,384 live objects and refuses the next one', () => {
    const loop = new GhostLoop();
    for (let i = 0; i < 16_385; i++) loop.addShape(i);
    for (let n = 0; n < 1000 && loop.sender.demand(loop.now) !== 'none'; n++) {
      loop.exchange(true, 9600);
    }
    expect(loop.shapes.size).toBe(16_384);
    expect(loop.receiver.stats().received.live).toBe(16_384);
    const st = loop.sender.stats().sent;
    expect(st?.idBits).toBe(14);
    expect(st?.idExhausted).toBeGreaterThan(0);
    const g: Shape | undefined = loop.shapes.get(16_000);
    expect(g?.label).toBe('s16000');
  });
});

describe('ghost scope passes', () => {
  it('space out by scopeMsPerObject with many objects, and rescope at once when invalidated', () => {
    const passes = (objects: number): { periodic: number; invalidated: boolean } => {
      let calls = 0;
      const shapes: ReturnType<GhostLoop['addShape']>[] = [];
      const loop = new GhostLoop({
        scopeIntervalMs: 100,
        scopeMsPerObject: 1,
        scope: (_now, scope) => {
          calls++;
          for (const s of shapes) scope.add(s, 1);
        },
      });
      for (let i = 0; i < objects; i++) shapes.push(loop.addShape(i, true));
      loop.sender.demand(loop.now); // the first pass ghosts them all
      calls = 0;
      for (let ms = 0; ms < 10_000; ms++) loop.sender.demand(loop.now++);
      const periodic = calls;
      loop.sender.sender?.invalidateScope();
      loop.sender.demand(loop.now++);
      return { periodic, invalidated: calls === periodic + 1 };
    };
    expect(passes(10)).toEqual({ periodic: 99, invalidated: true }); // the floor: every 100 ms after the first
    expect(passes(400)).toEqual({ periodic: 24, invalidated: true }); // 400 objects: every 400 ms
  });
});
