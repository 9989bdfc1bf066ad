// The select tool's marquee, driven with plain events: no browser, no timers.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../../shared/board';
import { at, boardObject, editorWith, OTHER } from '../testing/fake-editor';
import { Tools } from '../Tools';

function selectTools(...objects: BoardObject[]) {
  const e = editorWith(...objects);
  return { e, tools: new Tools(e) };
}

/** Three 100 × 50 rectangles in a row at x = 0, 200 and 400 (y = 0), stroke 2. */
const ROW = [
  boardObject(1, { x: 0, y: 0 }),
  boardObject(2, { x: 200, y: 0 }),
  boardObject(3, { x: 400, y: 0 }),
];

describe('SelectTool: marquee', () => {
  it('a drag on the bare canvas selects the objects it wholly contains, and shows the marquee meanwhile', () => {
    const { e, tools } = selectTools(...ROW);
    tools.handle({ type: 'pointerDown', pointer: at(-10, -10) });
    expect(tools.path()).toBe('tools.select.marquee');
    tools.handle({ type: 'pointerMove', pointer: at(320, 60) });
    expect(e.state().marquee).toEqual({ x: -10, y: -10, w: 330, h: 70 });
    expect(e.state().selection).toEqual([1, 2]);
    // Object 3 is crossed but not contained: not selected.
    tools.handle({ type: 'pointerMove', pointer: at(450, 60) });
    expect(e.state().selection).toEqual([1, 2]);
    tools.handle({ type: 'pointerUp' });
    expect(e.state().marquee).toBeNull();
    expect(e.state().selection).toEqual([1, 2]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('shrinking the marquee lets go of what it no longer contains; it works dragged up and left too', () => {
    const { e, tools } = selectTools(...ROW);
    tools.handle({ type: 'pointerDown', pointer: at(600, 100) });
    tools.handle({ type: 'pointerMove', pointer: at(-20, -20) });
    expect(e.state().selection).toEqual([1, 2, 3]);
    tools.handle({ type: 'pointerMove', pointer: at(180, -20) });
    expect(e.state().selection).toEqual([2, 3]);
  });

  it('a click without moving (under the slop) clears the selection and draws no marquee', () => {
    const { e, tools } = selectTools(...ROW);
    e.dispatch({ type: 'select', ids: [1] });
    tools.handle({ type: 'pointerDown', pointer: at(700, 700) });
    tools.handle({ type: 'pointerMove', pointer: at(701, 701) });
    tools.handle({ type: 'pointerUp' });
    expect(e.state().selection).toEqual([]);
    expect(e.state().marquee).toBeNull();
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('with Shift the marquee adds to the selection', () => {
    const { e, tools } = selectTools(...ROW);
    e.dispatch({ type: 'select', ids: [3] });
    tools.handle({ type: 'pointerDown', pointer: at(-10, -10, { shift: true }) });
    expect(e.state().selection).toEqual([3]);
    tools.handle({ type: 'pointerMove', pointer: at(120, 60) });
    expect(e.state().selection).toEqual([3, 1]);
  });

  it('objects someone else holds are left out', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2, { lockedBy: OTHER }));
    tools.handle({ type: 'pointerDown', pointer: at(-10, -10) });
    tools.handle({ type: 'pointerMove', pointer: at(200, 200) });
    expect(e.state().selection).toEqual([1]);
  });

  it('a rotated object counts by its rotated box', () => {
    // 100 × 50 turned 90° about (0, 0): it covers x -50..0, y 0..100.
    const { e, tools } = selectTools(boardObject(1, { rotation: 900 }));
    tools.handle({ type: 'pointerDown', pointer: at(-60, -5) });
    tools.handle({ type: 'pointerMove', pointer: at(5, 90) });
    expect(e.state().selection).toEqual([]);
    tools.handle({ type: 'pointerMove', pointer: at(5, 110) });
    expect(e.state().selection).toEqual([1]);
  });

  it('Escape ends the marquee and clears the selection; leaving the board ends it and keeps it', () => {
    const { e, tools } = selectTools(...ROW);
    tools.handle({ type: 'pointerDown', pointer: at(-10, -10) });
    tools.handle({ type: 'pointerMove', pointer: at(320, 60) });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    expect(e.state().selection).toEqual([]);
    expect(e.state().marquee).toBeNull();
    expect(tools.path()).toBe('tools.select.idle');

    tools.handle({ type: 'pointerDown', pointer: at(-10, -10) });
    tools.handle({ type: 'pointerMove', pointer: at(120, 60) });
    tools.handle({ type: 'pointerLeave' });
    expect(e.state().selection).toEqual([1]);
    expect(e.state().marquee).toBeNull();
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('a tool key mid-marquee removes it', () => {
    const { e, tools } = selectTools(...ROW);
    tools.handle({ type: 'pointerDown', pointer: at(-10, -10) });
    tools.handle({ type: 'pointerMove', pointer: at(120, 60) });
    e.setTool('pen');
    expect(e.state().marquee).toBeNull();
    expect(tools.path()).toBe('tools.pen.idle');
  });
});
