// The select tool's keys for many objects: Ctrl/Cmd+A selects everything, the arrows nudge the selection.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../../shared/board';
import { WORLD_EXTENT } from '../../../shared/board';
import { boardObject, editorWith, ME, OTHER } from '../testing/fake-editor';
import { Tools } from '../Tools';

function selectTools(...objects: BoardObject[]) {
  const e = editorWith(...objects);
  return { e, tools: new Tools(e) };
}

const SELECT_ALL = { type: 'keyDown', key: { key: 'a', mod: true } } as const;

describe('SelectTool: select all', () => {
  it('Ctrl/Cmd+A selects every object, bottom to top, except those someone else holds', () => {
    const { e, tools } = selectTools(
      boardObject(1, { z: 5 }),
      boardObject(2, { z: 1, lockedBy: ME }),
      boardObject(3, { lockedBy: OTHER }),
      boardObject(4, { z: 9 }),
    );
    expect(tools.handle(SELECT_ALL)).toBe(true);
    expect(e.state().selection).toEqual([2, 1, 4]);
  });

  it('from a drawing tool it switches to the select tool and selects', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2));
    e.setTool('rect');
    expect(tools.handle({ type: 'keyDown', key: { key: 'A', mod: true } })).toBe(true);
    expect(tools.path()).toBe('tools.select.idle');
    expect(e.state().selection).toEqual([1, 2]);
  });

  it('other Ctrl/Cmd keys are left alone', () => {
    const { e, tools } = selectTools(boardObject(1));
    e.dispatch({ type: 'select', ids: [1] });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape', mod: true } })).toBe(false);
    expect(e.state().selection).toEqual([1]);
  });
});

describe('SelectTool: nudge', () => {
  it('an arrow moves every selected object 1 unit, with Shift 10: one edit per object per press', () => {
    const { e, tools } = selectTools(
      boardObject(1, { x: 10, y: 20 }),
      boardObject(2, { x: -5, y: 7 }),
      boardObject(3),
    );
    e.dispatch({ type: 'select', ids: [1, 2] });
    expect(tools.handle({ type: 'keyDown', key: { key: 'ArrowRight' } })).toBe(true);
    expect(tools.handle({ type: 'keyDown', key: { key: 'ArrowUp', shift: true } })).toBe(true);
    expect(e.of('edit')).toEqual([
      { kind: 'edit', id: 1, patch: { x: 11, y: 20 } },
      { kind: 'edit', id: 2, patch: { x: -4, y: 7 } },
      { kind: 'edit', id: 1, patch: { x: 10, y: 10 } },
      { kind: 'edit', id: 2, patch: { x: -5, y: -3 } },
    ]);
  });

  it('starts from where this user sees the object (an unconfirmed edit or drop), clamped to the world', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2, { x: WORLD_EXTENT }));
    e.dispatch({ type: 'edited', id: 1, patch: { x: 50 } });
    e.dispatch({ type: 'moved', id: 2, x: WORLD_EXTENT, y: 3 });
    e.dispatch({ type: 'select', ids: [1, 2] });
    tools.handle({ type: 'keyDown', key: { key: 'ArrowRight', shift: true } });
    expect(e.of('edit')).toEqual([
      { kind: 'edit', id: 1, patch: { x: 60, y: 0 } },
      { kind: 'edit', id: 2, patch: { x: WORLD_EXTENT, y: 3 } },
    ]);
  });

  it('skips what someone else holds; with nothing selected the arrows are not used', () => {
    const { e, tools } = selectTools(boardObject(1), boardObject(2, { lockedBy: OTHER }));
    expect(tools.handle({ type: 'keyDown', key: { key: 'ArrowDown' } })).toBe(false);
    e.dispatch({ type: 'select', ids: [1, 2] });
    tools.handle({ type: 'keyDown', key: { key: 'ArrowDown' } });
    expect(e.of('edit')).toEqual([{ kind: 'edit', id: 1, patch: { x: 0, y: 1 } }]);
  });

  it('a viewer cannot nudge', () => {
    const { e, tools } = selectTools(boardObject(1));
    const me = e
      .state()
      .participants.map((p) => (p.isSelf ? { ...p, role: 'viewer' as const } : p));
    e.dispatch({ type: 'event', event: { type: 'participants', list: me } });
    e.dispatch({ type: 'select', ids: [1] });
    expect(tools.handle({ type: 'keyDown', key: { key: 'ArrowLeft' } })).toBe(false);
    expect(e.of('edit')).toEqual([]);
  });
});
