// Objects locked in place (pinned) in the select tool: they can be selected, but a drag puts them back with a
// notice, the arrows leave them where they are, Enter and double-click do not open them for typing, and a group
// drag leaves them out; a right click (the context menu's) draws nothing with a drawing tool. Plain events: no browser, no timers.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../../shared/board';
import type { DragInfo } from '../events';
import { at, boardObject, editorWith, fakeNode, onObject } from '../testing/fake-editor';
import { Tools } from '../Tools';

function selectTools(...objects: BoardObject[]) {
  const e = editorWith(...objects);
  return { e, tools: new Tools(e) };
}

function drag(id: number, x: number, y: number, node = fakeNode().node): DragInfo {
  return { id, at: { x, y }, pointer: { x: x + 5, y: y + 5 }, node };
}

describe('SelectTool: locked objects', () => {
  it('are selected by a click, but a drag of one puts it back with a notice and grabs nothing', () => {
    const { e, tools } = selectTools(boardObject(1, { pinned: 1, x: 10, y: 20 }));
    tools.handle({ type: 'pointerDown', pointer: at(15, 25, { target: onObject(1) }) });
    expect(e.state().selection).toEqual([1]);
    const { node, puts } = fakeNode();
    tools.handle({ type: 'dragStart', drag: drag(1, 30, 40, node) });
    expect(puts).toEqual([{ x: 10, y: 20, stop: true }]);
    expect(e.calls.filter((c) => c.kind === 'startDrag')).toEqual([]);
    expect(e.calls.flatMap((c) => (c.kind === 'toast' ? [c.text] : []))).toEqual([
      'It is locked: unlock it to move it.',
    ]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('a group drag and the arrows leave the locked ones where they are', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2, { pinned: 1 }), boardObject(3));
    e.dispatch({ type: 'select', ids: [1, 2, 3] });
    tools.handle({ type: 'keyDown', key: { key: 'ArrowRight' } });
    expect(e.calls.flatMap((c) => (c.kind === 'edit' ? [c.id] : []))).toEqual([1, 3]);
    tools.handle({ type: 'dragStart', drag: drag(1, 0, 0) });
    expect(e.calls.flatMap((c) => (c.kind === 'startDrag' ? [c.id] : []))).toEqual([1, 3]);
  });

  it('Enter and a double click do not open a locked note for typing', () => {
    const { e, tools } = selectTools(boardObject(1, { kind: 'note', pinned: 1 }));
    e.dispatch({ type: 'select', ids: [1] });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Enter' } })).toBe(true);
    tools.handle({ type: 'doubleClick', id: 1 });
    expect(e.state().editing).toBeNull();
  });
});

describe('Tools: the secondary button', () => {
  it('draws nothing with a drawing tool (it opens the context menu)', () => {
    const { e, tools } = selectTools();
    e.setTool('rect');
    expect(tools.handle({ type: 'pointerDown', pointer: at(0, 0, { button: 2 }) })).toBe(false);
    tools.handle({ type: 'pointerMove', pointer: at(80, 60) });
    tools.handle({ type: 'pointerUp' });
    expect(tools.path()).toBe('tools.rect.idle');
    expect(e.of('create')).toEqual([]);
    expect(e.state().preview).toBeNull();
  });
});
