// Dragging a selection of several objects: each is grabbed and dropped through its own commands, by the offset
// of the node under the pointer (the lead); only the lead's moves go out live (the others are quiet: the other
// users see them follow the lead because this user holds them), and the lead is dropped last.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../../shared/board';
import type { DragInfo } from '../events';
import { boardObject, editorWith, fakeNode, OTHER } from '../testing/fake-editor';
import { Tools } from '../Tools';

function selectTools(...objects: BoardObject[]) {
  const e = editorWith(...objects);
  return { e, tools: new Tools(e) };
}

function drag(id: number, x: number, y: number, node = fakeNode().node): DragInfo {
  return { id, at: { x, y }, pointer: { x: x + 5, y: y + 5 }, node };
}

const THREE = [
  boardObject(1, { x: 10, y: 20 }),
  boardObject(2, { x: 200, y: 0 }),
  boardObject(3, { x: -50, y: 300 }),
];

describe('SelectTool: dragging a selection', () => {
  it('grabs every selected object (the one under the pointer first), moves and drops each by its offset', () => {
    const { e, tools } = selectTools(...THREE);
    e.dispatch({ type: 'select', ids: [1, 2, 3] });
    const lead = fakeNode();
    const other = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(2, 200, 0, lead.node) });
    // The canvas moves the other selected nodes along and says so.
    tools.handle({ type: 'dragStart', drag: drag(3, -50, 300, other.node) });
    tools.handle({ type: 'dragMove', drag: drag(2, 230.4, 9.6, lead.node) });
    tools.handle({ type: 'dragMove', drag: drag(3, -20, 310, other.node) });
    tools.handle({ type: 'dragEnd', drag: drag(2, 300, -100, lead.node) });

    expect(e.calls.filter((c) => c.kind !== 'pointerMoved')).toEqual([
      { kind: 'startDrag', id: 2 },
      { kind: 'startDrag', id: 1, quiet: true },
      { kind: 'startDrag', id: 3, quiet: true },
      { kind: 'moveDrag', id: 2, x: 230, y: 10 },
      { kind: 'moveDrag', id: 1, x: 40, y: 30 },
      { kind: 'moveDrag', id: 3, x: -20, y: 310 },
      { kind: 'endDrag', id: 1, x: 110, y: -80 },
      { kind: 'endDrag', id: 3, x: 50, y: 200 },
      { kind: 'endDrag', id: 2, x: 300, y: -100 },
    ]);
    // The pointer is reported once per move, from the node under it.
    expect(e.of('pointerMoved')).toHaveLength(1);
    expect(lead.puts).toEqual([{ x: 300, y: -100, stop: false }]);
    expect(other.puts).toEqual([{ x: 50, y: 200, stop: false }]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('an object outside the selection is dragged alone', () => {
    const { e, tools } = selectTools(...THREE);
    e.dispatch({ type: 'select', ids: [1, 2] });
    tools.handle({ type: 'dragStart', drag: drag(3, -50, 300) });
    expect(e.of('startDrag')).toEqual([{ kind: 'startDrag', id: 3 }]);
  });

  it('a selected object someone else took since stays out of the drag and where the board has it', () => {
    const { e, tools } = selectTools(...THREE);
    e.dispatch({ type: 'select', ids: [1, 2] });
    e.dispatch({
      type: 'event',
      event: {
        type: 'objects',
        upserts: [boardObject(2, { x: 200, lockedBy: OTHER })],
        deletes: [],
      },
    });
    const taken = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20) });
    tools.handle({ type: 'dragStart', drag: drag(2, 200, 0, taken.node) });
    expect(e.of('startDrag')).toEqual([{ kind: 'startDrag', id: 1 }]);
    expect(taken.puts).toEqual([{ x: 200, y: 0, stop: true }]);
  });

  it('Escape drops every object back where the drag started and stops their nodes', () => {
    const { e, tools } = selectTools(...THREE);
    e.dispatch({ type: 'select', ids: [1, 2] });
    const lead = fakeNode();
    const other = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20, lead.node) });
    tools.handle({ type: 'dragStart', drag: drag(2, 200, 0, other.node) });
    tools.handle({ type: 'dragMove', drag: drag(1, 60, 70, lead.node) });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);

    expect(e.of('endDrag')).toEqual([
      { kind: 'endDrag', id: 2, x: 200, y: 0 },
      { kind: 'endDrag', id: 1, x: 10, y: 20 },
    ]);
    expect(lead.puts).toEqual([{ x: 10, y: 20, stop: true }]);
    expect(other.puts).toEqual([{ x: 200, y: 0, stop: true }]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('a refused grab of another selected object puts that one back; the rest keep moving', () => {
    const { e, tools } = selectTools(...THREE);
    e.dispatch({ type: 'select', ids: [1, 2] });
    const other = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20) });
    tools.handle({ type: 'dragStart', drag: drag(2, 200, 0, other.node) });
    tools.handle({ type: 'dragMove', drag: drag(1, 20, 20) });
    e.refusals.get(2)?.('Olga has it');
    tools.handle({ type: 'dragMove', drag: drag(1, 30, 20) });
    tools.handle({ type: 'dragEnd', drag: drag(1, 40, 20) });

    expect(other.puts).toEqual([{ x: 200, y: 0, stop: true }]);
    expect(e.of('endDrag')).toEqual([
      { kind: 'endDrag', id: 2, x: 210, y: 0 },
      { kind: 'endDrag', id: 1, x: 40, y: 20 },
    ]);
    expect(e.of('moveDrag').filter((c) => c.id === 2)).toHaveLength(1);
    expect(e.of('toast')).toEqual([{ kind: 'toast', level: 'warn', text: 'Olga has it' }]);
  });

  it('a refused grab of the object under the pointer ends the drag: the others are dropped where they are', () => {
    const { e, tools } = selectTools(...THREE);
    e.dispatch({ type: 'select', ids: [1, 2] });
    const lead = fakeNode();
    const other = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20, lead.node) });
    tools.handle({ type: 'dragStart', drag: drag(2, 200, 0, other.node) });
    tools.handle({ type: 'dragMove', drag: drag(1, 20, 30, lead.node) });
    e.refusals.get(1)?.('Olga has it');

    expect(tools.path()).toBe('tools.select.idle');
    expect(e.of('endDrag')).toEqual([
      { kind: 'endDrag', id: 2, x: 210, y: 10 },
      { kind: 'endDrag', id: 1, x: 20, y: 30 },
    ]);
    expect(lead.puts).toEqual([{ x: 10, y: 20, stop: true }]);
    expect(other.puts).toEqual([{ x: 210, y: 10, stop: true }]);
  });

  it('a drop refused after the drag undoes that object’s predicted move, even without a node', () => {
    const { e, tools } = selectTools(...THREE);
    e.dispatch({ type: 'select', ids: [1, 3] });
    tools.handle({ type: 'dragStart', drag: drag(1, 10, 20) });
    tools.handle({ type: 'dragEnd', drag: drag(1, 20, 20) });
    e.dispatch({ type: 'moved', id: 3, x: -40, y: 300 });
    e.refusals.get(3)?.('locked');
    expect(e.state().moves.has(3)).toBe(false);
    expect(e.of('endDrag')).toHaveLength(2);
  });
});
