// The select tool's transitions, driven with plain events: no browser, no timers.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../../shared/board';
import type { DragInfo } from '../events';
import { at, boardObject, editorWith, fakeNode, onObject, OTHER } from '../testing/fake-editor';
import { Tools } from '../Tools';

function selectTools(...objects: BoardObject[]) {
  const e = editorWith(...objects);
  return { e, tools: new Tools(e) };
}

function drag(id: number, x: number, y: number, node = fakeNode().node): DragInfo {
  return { id, at: { x, y }, pointer: { x: x + 5, y: y + 5 }, node };
}

describe('SelectTool: selecting', () => {
  it('a click on an object selects it; a click on the bare canvas clears the selection', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2));
    tools.handle({ type: 'pointerDown', pointer: at(10, 10, { target: onObject(1) }) });
    expect(e.state().selection).toEqual([1]);
    tools.handle({ type: 'pointerDown', pointer: at(10, 10, { target: onObject(2) }) });
    expect(e.state().selection).toEqual([2]);
    tools.handle({ type: 'pointerDown', pointer: at(900, 900) });
    expect(e.state().selection).toEqual([]);
  });

  it('Shift-click adds to and removes from the selection', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2));
    const shiftOn = (id: number) => at(0, 0, { target: onObject(id), shift: true });
    tools.handle({ type: 'pointerDown', pointer: shiftOn(1) });
    tools.handle({ type: 'pointerDown', pointer: shiftOn(2) });
    expect(e.state().selection).toEqual([1, 2]);
    tools.handle({ type: 'pointerDown', pointer: shiftOn(1) });
    expect(e.state().selection).toEqual([2]);
  });

  it('a press on a selected object keeps the whole selection (to drag it)', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2));
    e.dispatch({ type: 'select', ids: [1, 2] });
    tools.handle({ type: 'pointerDown', pointer: at(0, 0, { target: onObject(2) }) });
    expect(e.state().selection).toEqual([1, 2]);
  });

  it('a click on an object someone else holds says who and selects nothing', () => {
    const { e, tools } = selectTools(boardObject(1, { lockedBy: OTHER }));
    tools.handle({ type: 'pointerDown', pointer: at(0, 0, { target: onObject(1) }) });
    expect(e.state().selection).toEqual([]);
    expect(e.of('toast')).toEqual([
      { kind: 'toast', level: 'info', text: 'Olga is moving this right now.' },
    ]);
  });

  it('a press on a handle or a ghost changes nothing; a secondary press on the canvas neither', () => {
    const { e, tools } = selectTools(boardObject(1));
    e.dispatch({ type: 'select', ids: [1] });
    tools.handle({ type: 'pointerDown', pointer: at(0, 0, { target: { kind: 'chrome' } }) });
    tools.handle({ type: 'pointerDown', pointer: at(0, 0, { button: 2 }) });
    expect(e.state().selection).toEqual([1]);
  });

  it('Escape clears the selection', () => {
    const { e, tools } = selectTools(boardObject(1));
    e.dispatch({ type: 'select', ids: [1] });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    expect(e.state().selection).toEqual([]);
  });

  it('double-click or Enter opens a text or note for typing, not a rectangle', () => {
    const { e, tools } = selectTools(boardObject(1, { kind: 'note' }), boardObject(2));
    tools.handle({ type: 'doubleClick', id: 2 });
    expect(e.state().editing).toBeNull();
    tools.handle({ type: 'doubleClick', id: 1 });
    expect(e.state().editing).toBe(1);

    e.dispatch({ type: 'editing', id: null });
    e.dispatch({ type: 'select', ids: [2] });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Enter' } })).toBe(false);
    e.dispatch({ type: 'select', ids: [1] });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Enter' } })).toBe(true);
    expect(e.state().editing).toBe(1);
  });

  // Resizing and rotating through the handles: Transforming.test.ts.
});

describe('SelectTool: dragging', () => {
  it('grabs, reports moves (rounded) and drops where released, putting the node there', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20 }));
    const { node, puts } = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20, node) });
    expect(tools.path()).toBe('tools.select.dragging');
    tools.handle({ type: 'dragMove', drag: drag(1, 40.4, 60.6, node) });
    tools.handle({ type: 'dragEnd', drag: drag(1, 90.2, 100.7, node) });

    expect(e.calls.filter((c) => c.kind !== 'pointerMoved')).toEqual([
      { kind: 'startDrag', id: 1 },
      { kind: 'moveDrag', id: 1, x: 40, y: 61 },
      { kind: 'endDrag', id: 1, x: 90, y: 101 },
    ]);
    expect(e.of('pointerMoved')).toEqual([{ kind: 'pointerMoved', x: 45.4, y: 65.6 }]);
    expect(puts).toEqual([{ x: 90, y: 101, stop: false }]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('clamps the drop to the world', () => {
    const { e, tools } = selectTools(boardObject(1));
    tools.handle({ type: 'dragStart', drag: drag(1, 0, 0) });
    tools.handle({ type: 'dragEnd', drag: drag(1, 1e9, -1e9) });
    const end = e.of('endDrag')[0];
    expect(end && Math.abs(end.x) < 1e9 && Math.abs(end.y) < 1e9).toBe(true);
  });

  it('Escape drops the object back where the drag started, and the stopped drag reports nothing more', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20 }));
    const { node, puts } = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20, node) });
    tools.handle({ type: 'dragMove', drag: drag(1, 300, 300, node) });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    // Stopping the node makes the canvas report its end at once: it must not drop it a second time.
    tools.handle({ type: 'dragEnd', drag: drag(1, 300, 300, node) });

    expect(e.of('endDrag')).toEqual([{ kind: 'endDrag', id: 1, x: 10, y: 20 }]);
    expect(puts).toEqual([{ x: 10, y: 20, stop: true }]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('a refused grab ends the drag, puts the node back where the board has it and says why', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20 }));
    const { node, puts } = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20, node) });
    tools.handle({ type: 'dragMove', drag: drag(1, 50, 50, node) });
    e.refusals.get(1)?.('Olga has it');

    expect(tools.path()).toBe('tools.select.idle');
    expect(e.of('endDrag')).toEqual([{ kind: 'endDrag', id: 1, x: 50, y: 50 }]);
    expect(puts).toEqual([{ x: 10, y: 20, stop: true }]);
    expect(e.of('toast')).toEqual([{ kind: 'toast', level: 'warn', text: 'Olga has it' }]);
  });

  it('a drop refused after the drag ended puts the node back and undoes the predicted move', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20 }));
    const { node, puts } = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20, node) });
    tools.handle({ type: 'dragEnd', drag: drag(1, 70, 80, node) });
    e.dispatch({ type: 'moved', id: 1, x: 70, y: 80 });
    e.refusals.get(1)?.('locked');

    expect(e.state().moves.has(1)).toBe(false);
    expect(puts.at(-1)).toEqual({ x: 10, y: 20, stop: true });
    expect(e.of('endDrag')).toHaveLength(1);
  });

  it('a drag of an object someone else holds snaps back without grabbing', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20, lockedBy: OTHER }));
    const { node, puts } = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20, node) });
    expect(e.of('startDrag')).toEqual([]);
    expect(puts).toEqual([{ x: 10, y: 20, stop: true }]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('a tool key mid-drag drops the object where it is', () => {
    const { e, tools } = selectTools(boardObject(1));
    const { node, puts } = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 0, 0, node) });
    tools.handle({ type: 'dragMove', drag: drag(1, 33, 44, node) });
    e.setTool('rect');
    expect(tools.path()).toBe('tools.rect.idle');
    expect(e.of('endDrag')).toEqual([{ kind: 'endDrag', id: 1, x: 33, y: 44 }]);
    expect(puts).toEqual([{ x: 33, y: 44, stop: true }]);
  });
});
