// Unit tests of remote pointers and live drags: visibility, peers leaving, drag ghosts and their release.
import { describe, expect, it } from 'vitest';
import type { RemotePointer } from '../../shared/api';
import { DROP_LINGER_MS, RemoteLive } from './remote-live';

const OPTS = { delayMs: 100, maxExtrapolateMs: 100, settleMs: 0, maxSamples: 64 };

function ptr(peer: number, x: number, y: number, more: Partial<RemotePointer> = {}): RemotePointer {
  return { peer, x, y, tool: 'select', visible: true, drag: null, ...more };
}

describe('RemoteLive', () => {
  it('interpolates each peer independently', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0), ptr(2, 100, 100)], [], 0);
    live.update([ptr(1, 100, 0)], [], 100);
    live.update([ptr(2, 100, 200)], [], 100);
    const f = live.frame(150);
    expect(f.pointers).toEqual([
      { peer: 1, x: 50, y: 0, tool: 'select' },
      { peer: 2, x: 100, y: 150, tool: 'select' },
    ]);
  });

  it('hides an invisible pointer and shows it where it reappears, without a glide', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0)], [], 0);
    live.update([ptr(1, 0, 0, { visible: false })], [], 100);
    expect(live.frame(200).pointers).toEqual([]);
    live.update([ptr(1, 500, 500, { tool: 'pen' })], [], 1000);
    expect(live.frame(1000).pointers).toEqual([{ peer: 1, x: 500, y: 500, tool: 'pen' }]);
  });

  it('forgets peers that are gone', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0), ptr(2, 0, 0)], [], 0);
    live.update([], [1], 10);
    expect(live.frame(20).pointers.map((p) => p.peer)).toEqual([2]);
  });

  it('interpolates a live drag and keeps its ghost after the drop until released', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0, { drag: { id: 7, x: 0, y: 0 } })], [], 0);
    live.update([ptr(1, 100, 0, { drag: { id: 7, x: 100, y: 0 } })], [], 100);
    expect(live.frame(150).drags).toEqual([{ peer: 1, id: 7, x: 50, y: 0, dropped: false }]);
    live.update([ptr(1, 100, 0)], [], 200);
    expect(live.frame(300).drags).toEqual([{ peer: 1, id: 7, x: 100, y: 0, dropped: true }]);
    expect(live.ghosted(300)).toEqual(new Set([7]));
    live.release(7);
    expect(live.frame(310).drags).toEqual([]);
    expect(live.ghosted(310)).toEqual(new Set());
  });

  it('drops a ghost whose upsert never came after the linger time', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0, { drag: { id: 7, x: 0, y: 0 } })], [], 0);
    live.update([ptr(1, 0, 0)], [], 50);
    expect(live.frame(50 + DROP_LINGER_MS).drags).toHaveLength(1);
    expect(live.frame(51 + DROP_LINGER_MS).drags).toHaveLength(0);
  });

  it('does not release a ghost still being dragged', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0, { drag: { id: 7, x: 0, y: 0 } })], [], 0);
    live.release(7);
    expect(live.frame(10).drags).toHaveLength(1);
  });

  it('starts a fresh ghost (no glide) when the peer drags another object', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0, { drag: { id: 7, x: 0, y: 0 } })], [], 0);
    live.update([ptr(1, 0, 0, { drag: { id: 8, x: 900, y: 900 } })], [], 100);
    expect(live.frame(100).drags).toEqual([{ peer: 1, id: 8, x: 900, y: 900, dropped: false }]);
  });
});

describe('RemoteLive: a live resize or rotate (liveresize)', () => {
  const shaped = (x: number, w: number, rotation: number) => ({
    id: 7,
    x,
    y: 0,
    shape: { w, h: 50, rotation },
  });

  it('interpolates the size and rotation with the place, and keeps them after the drop', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0, { drag: shaped(0, 100, 0) })], [], 0);
    live.update([ptr(1, 0, 0, { drag: shaped(-20, 300, 200) })], [], 100);
    expect(live.frame(150).drags).toEqual([
      { peer: 1, id: 7, x: -10, y: 0, dropped: false, shape: { w: 200, h: 50, rotation: 100 } },
    ]);
    live.update([ptr(1, 0, 0)], [], 200);
    expect(live.frame(400).drags).toEqual([
      { peer: 1, id: 7, x: -20, y: 0, dropped: true, shape: { w: 300, h: 50, rotation: 200 } },
    ]);
  });

  it('a plain move of the same object after a resize carries no stale shape', () => {
    const live = new RemoteLive(OPTS);
    live.update([ptr(1, 0, 0, { drag: shaped(0, 100, 0) })], [], 0);
    live.update([ptr(1, 0, 0, { drag: { id: 7, x: 5, y: 0 } })], [], 100);
    expect(live.frame(200).drags).toEqual([{ peer: 1, id: 7, x: 5, y: 0, dropped: false }]);
  });
});
