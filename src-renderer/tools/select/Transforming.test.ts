// Resizing and rotating the selection through its handles, driven with plain events: the lock is taken as for a
// drag, the first object's live place, size and rotation go out, the release is each object's edit then drop,
// and a refusal rolls everything back with one notice. No browser, no timers.
import { describe, expect, it } from 'vitest';
import type { BoardObject, ObjectId } from '../../../shared/board';
import type { TransformResult } from '../../board/shapes';
import type { TransformHandle } from '../events';
import { boardObject, editorWith, fakeTransformNode, OTHER } from '../testing/fake-editor';
import { Tools } from '../Tools';

function selectTools(...objects: BoardObject[]) {
  const e = editorWith(...objects);
  e.dispatch({ type: 'select', ids: objects.map((o) => o.id) });
  return { e, tools: new Tools(e) };
}

const scaled = (x: number, y: number, scaleX: number, scaleY: number, rotation = 0) => ({
  x,
  y,
  scaleX,
  scaleY,
  rotation,
});

function transform(tools: Tools, id: ObjectId, result: TransformResult, node: TransformHandle) {
  tools.handle({
    type: 'transform',
    id,
    pointer: { x: result.x + 1, y: result.y + 1 },
    result,
    node,
  });
}

describe('Transforming: a live resize or rotate', () => {
  it('grabs, sends the live geometry each move, and releases as one edit then the drop', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20, w: 100, h: 50 }));
    const n = fakeTransformNode();
    transform(tools, 1, scaled(10, 20, 1.5, 1), n.node);
    transform(tools, 1, scaled(8, 18, 2, 0.5, 90), n.node);
    expect(tools.path()).toBe('tools.select.transforming');
    expect(e.of('startDrag')).toEqual([{ kind: 'startDrag', id: 1 }]);
    expect(e.of('reshapeDrag')).toEqual([
      { kind: 'reshapeDrag', id: 1, g: { x: 10, y: 20, w: 150, h: 50, rotation: 0 } },
      { kind: 'reshapeDrag', id: 1, g: { x: 8, y: 18, w: 200, h: 25, rotation: 900 } },
    ]);
    expect(e.of('pointerMoved')).toEqual([
      { kind: 'pointerMoved', x: 11, y: 21 },
      { kind: 'pointerMoved', x: 9, y: 19 },
    ]);
    tools.handle({ type: 'transformEnd', id: 1, result: scaled(12, 22, 2, 0.5, 90), last: true });
    expect(e.of('endDrag')).toEqual([
      {
        kind: 'endDrag',
        id: 1,
        x: 12,
        y: 22,
        patch: { x: 12, y: 22, w: 200, h: 25, rotation: 900 },
      },
    ]);
    // The release is the edit: nothing else goes.
    expect(e.of('edit')).toEqual([]);
    expect(tools.path()).toBe('tools.select.idle');
    expect(n.stops).toEqual([]);
  });

  it('a selection: the first object is live, the others follow quietly; the followers are released first', () => {
    const { e, tools } = selectTools(
      boardObject(1, { x: 0, y: 0, w: 100, h: 100 }),
      boardObject(2, { x: 200, y: 0, w: 50, h: 20, points: [0, 0, 50, 20] }),
    );
    const [a, b] = [fakeTransformNode(), fakeTransformNode()];
    transform(tools, 1, scaled(0, 0, 2, 2), a.node);
    transform(tools, 2, scaled(400, 0, 2, 2), b.node);
    expect(e.of('startDrag')).toEqual([
      { kind: 'startDrag', id: 1 },
      { kind: 'startDrag', id: 2, quiet: true },
    ]);
    tools.handle({ type: 'transformEnd', id: 1, result: scaled(0, 0, 2, 2), last: false });
    expect(e.of('endDrag')).toEqual([]);
    tools.handle({ type: 'transformEnd', id: 2, result: scaled(400, 0, 2, 2), last: true });
    expect(e.of('endDrag').map((c) => [c.id, c.patch])).toEqual([
      [2, { x: 400, y: 0, w: 100, h: 40, rotation: 0, points: [0, 0, 100, 40] }],
      [1, { x: 0, y: 0, w: 200, h: 200, rotation: 0 }],
    ]);
  });

  it('a refused grab rolls every object back where the board has it, with one notice', () => {
    const { e, tools } = selectTools(
      boardObject(1, { x: 10, y: 20, rotation: 300 }),
      boardObject(2, { x: 300, y: 40 }),
    );
    const [a, b] = [fakeTransformNode(), fakeTransformNode()];
    transform(tools, 1, scaled(5, 5, 3, 3, 45), a.node);
    transform(tools, 2, scaled(500, 5, 3, 3, 45), b.node);
    e.refusals.get(1)?.('held by Olga');
    e.refusals.get(2)?.('held by Olga');
    // The canvas's gesture is stopped once, every node is shown as the board has it, every lock let go unchanged.
    expect(a.stops.length + b.stops.length).toBe(1);
    expect(a.puts).toEqual([{ x: 10, y: 20, rotation: 300 }]);
    expect(b.puts).toEqual([{ x: 300, y: 40, rotation: 0 }]);
    expect(e.of('endDrag')).toEqual([
      { kind: 'endDrag', id: 2, x: 300, y: 40 },
      { kind: 'endDrag', id: 1, x: 10, y: 20 },
    ]);
    expect(e.of('toast')).toEqual([{ kind: 'toast', level: 'warn', text: 'held by Olga' }]);
    expect(tools.path()).toBe('tools.select.idle');
    // The ends the stopped gesture reports change nothing.
    tools.handle({ type: 'transformEnd', id: 1, result: scaled(5, 5, 3, 3, 45), last: false });
    tools.handle({ type: 'transformEnd', id: 2, result: scaled(500, 5, 3, 3, 45), last: true });
    expect(e.of('endDrag')).toHaveLength(2);
    expect(e.of('edit')).toEqual([]);
  });

  it('a refused release shows that object as the board has it again, with a notice', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20, w: 100, h: 50 }));
    const n = fakeTransformNode();
    transform(tools, 1, scaled(10, 20, 2, 2), n.node);
    tools.handle({ type: 'transformEnd', id: 1, result: scaled(10, 20, 2, 2), last: true });
    e.dispatch({ type: 'edited', id: 1, patch: { w: 200, h: 100 } });
    e.refusals.get(1)?.('no object 1');
    expect(e.state().edits.has(1)).toBe(false);
    expect(n.puts).toEqual([{ x: 10, y: 20, rotation: 0 }]);
    expect(e.of('toast')).toEqual([{ kind: 'toast', level: 'warn', text: 'no object 1' }]);
  });

  it('an object someone else holds is not grabbed: the gesture goes back at once, naming them', () => {
    const { e, tools } = selectTools(
      boardObject(1, { x: 10, y: 20 }),
      boardObject(2, { x: 300, y: 40, lockedBy: OTHER }),
    );
    const [a, b] = [fakeTransformNode(), fakeTransformNode()];
    transform(tools, 1, scaled(5, 5, 3, 3), a.node);
    transform(tools, 2, scaled(500, 5, 3, 3), b.node);
    expect(e.of('startDrag')).toEqual([{ kind: 'startDrag', id: 1 }]);
    expect(a.puts).toEqual([{ x: 10, y: 20, rotation: 0 }]);
    expect(b.puts).toEqual([{ x: 300, y: 40, rotation: 0 }]);
    expect(e.of('endDrag')).toEqual([{ kind: 'endDrag', id: 1, x: 10, y: 20 }]);
    expect(e.of('toast')).toEqual([
      { kind: 'toast', level: 'warn', text: 'Olga is moving this right now.' },
    ]);
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('Escape puts everything back, with no notice', () => {
    const { e, tools } = selectTools(boardObject(1, { x: 10, y: 20 }));
    const n = fakeTransformNode();
    transform(tools, 1, scaled(5, 5, 3, 3), n.node);
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    expect(n.stops).toHaveLength(1);
    expect(n.puts).toEqual([{ x: 10, y: 20, rotation: 0 }]);
    expect(e.of('endDrag')).toEqual([{ kind: 'endDrag', id: 1, x: 10, y: 20 }]);
    expect(e.of('toast')).toEqual([]);
  });
});
