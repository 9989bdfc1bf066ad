// The join's progress bar, fed as the core feeds it: objects in batches, a joined status at each step. Its value
// rises step by step to 100 %, and when it says 100 % the store has every object.
import { describe, expect, it } from 'vitest';
import type {
  ApiCommand,
  ApiEvent,
  ApiReply,
  GhostboardBridge,
  SessionStatus,
} from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { Controller } from '../controller/controller';
import { boardProgress } from './board-progress';
import { Store } from './store';

const joined = (received: number, total: number): SessionStatus => ({
  phase: 'joined',
  address: '127.0.0.1:7350',
  hostName: 'Host',
  you: 1,
  received,
  total,
});

const obj = (id: number): BoardObject => ({
  ...newRect({ x: id }),
  id,
  z: id,
  lockedBy: null,
  pinned: 0,
});

describe('boardProgress', () => {
  it('is a joined session’s download in whole percent, and nothing otherwise', () => {
    expect(boardProgress({ phase: 'idle' })).toBeNull();
    expect(boardProgress(joined(0, 0))).toBeNull();
    expect(boardProgress(joined(0, 3))).toEqual({ received: 0, total: 3, percent: 0 });
    expect(boardProgress(joined(2, 3))).toEqual({ received: 2, total: 3, percent: 66 });
    expect(boardProgress(joined(3, 3))?.percent).toBe(100);
    expect(boardProgress(joined(9, 3))).toEqual({ received: 3, total: 3, percent: 100 });
  });

  it('rises to 100 % as the objects land, and at 100 % the store holds them all', () => {
    const listeners = new Set<(e: ApiEvent) => void>();
    const bridge: GhostboardBridge = {
      invoke: (_c: ApiCommand): Promise<ApiReply> => Promise.resolve({ ok: true }),
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const frames: (() => void)[] = [];
    const store = new Store();
    new Controller(bridge, store, (fn) => frames.push(fn)).attach();
    const emit = (e: ApiEvent): void => listeners.forEach((l) => l(e));
    const total = 500;
    const seen: number[] = [];
    store.subscribe(() => {
      const p = boardProgress(store.getState().status);
      if (p !== null && p.percent !== seen.at(-1)) {
        seen.push(p.percent);
        if (p.percent === 100) expect(store.getState().board.size).toBe(total);
      }
    });
    emit({ type: 'status', status: joined(0, total) });
    // As the core sends them: a batch of objects per packet, a status at each 2 % step; a frame now and then.
    for (let id = 1; id <= total; id++) {
      emit({ type: 'objects', upserts: [obj(id)], deletes: [] });
      if (id % 10 === 0) emit({ type: 'status', status: joined(id, total) });
      if (id % 37 === 0) frames.splice(0).forEach((fn) => fn());
    }
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
    expect(seen.length).toBe(51);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] ?? 0);
  });
});
