// Unit tests of the event intake: board changes wait for the frame, folded into one store update, and nothing
// overtakes them.
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { EventIntake } from './event-intake';

const obj = (id: number): BoardObject => ({
  ...newRect({ x: id }),
  id,
  z: id,
  lockedBy: null,
  pinned: 0,
});
const upsert = (id: number): ApiEvent => ({ type: 'objects', upserts: [obj(id)], deletes: [] });

function manualFrames() {
  const due: (() => void)[] = [];
  const slow: boolean[] = [];
  return {
    frame: (fn: () => void, download: boolean) => {
      due.push(fn);
      slow.push(download);
    },
    slow,
    run: () => due.splice(0).forEach((fn) => fn()),
    pending: () => due.length,
  };
}

describe('EventIntake', () => {
  it('lets a frame’s board changes in as one event, asking for one frame', () => {
    const f = manualFrames();
    const got: ApiEvent[] = [];
    const intake = new EventIntake((e) => got.push(e), f.frame);
    for (let id = 1; id <= 100; id++) intake.push(upsert(id));
    expect(got).toEqual([]);
    expect(f.pending()).toBe(1);
    f.run();
    expect(got).toHaveLength(1);
    const e = got[0];
    expect(e?.type === 'objects' ? e.upserts.map((o) => o.id) : []).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    f.run();
    expect(got).toHaveLength(1);
  });

  it('anything else lets the waiting changes in first, in the order the core said them', () => {
    const f = manualFrames();
    const got: string[] = [];
    const intake = new EventIntake((e) => got.push(e.type), f.frame);
    intake.push(upsert(1));
    intake.push({ type: 'notice', level: 'info', text: 'x' });
    intake.push(upsert(2));
    expect(got).toEqual(['objects', 'notice']);
    f.run();
    expect(got).toEqual(['objects', 'notice', 'objects']);
  });

  it('while a board comes down, objects wait longer, and only the last step waits for them', () => {
    const f = manualFrames();
    const got: string[] = [];
    const intake = new EventIntake((e) => {
      got.push(
        e.type === 'status' && e.status.phase === 'joined' ? `${e.status.received}` : e.type,
      );
    }, f.frame);
    const joined = (received: number): ApiEvent => ({
      type: 'status',
      status: { phase: 'joined', address: 'a', hostName: 'h', you: 1, received, total: 2 },
    });
    intake.push(joined(0));
    intake.push(upsert(1));
    intake.push(joined(1));
    expect(got).toEqual(['0', '1']);
    expect(f.slow).toEqual([true]);
    intake.push(upsert(2));
    intake.push(joined(2));
    expect(got).toEqual(['0', '1', 'objects', '2']);
    f.run();
    intake.push(upsert(3));
    expect(f.slow).toEqual([true, false]);
  });

  it('without frames, every event goes in at once', () => {
    const got: ApiEvent[] = [];
    const intake = new EventIntake((e) => got.push(e), null);
    intake.push(upsert(1));
    intake.push(upsert(2));
    expect(got).toEqual([upsert(1), upsert(2)]);
  });
});
