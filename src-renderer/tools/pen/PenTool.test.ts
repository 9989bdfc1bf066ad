// The pen's transitions, driven with plain events: no browser, no timers.
import { describe, expect, it } from 'vitest';
import { at, FakeEditor } from '../testing/fake-editor';
import { Tools } from '../Tools';

function penTools(): { e: FakeEditor; tools: Tools } {
  const e = new FakeEditor();
  e.dispatch({ type: 'tool', tool: 'pen' });
  return { e, tools: new Tools(e) };
}

describe('PenTool', () => {
  it('a stroke creates one object through the points drawn, and the pen stays for the next', () => {
    const { e, tools } = penTools();
    tools.handle({ type: 'pointerDown', pointer: at(10, 20) });
    tools.handle({ type: 'pointerMove', pointer: at(30, 20) });
    tools.handle({ type: 'pointerMove', pointer: at(30, 60) });
    expect(e.state().preview).toMatchObject({ kind: 'stroke', x: 10, y: 20 });
    expect(e.state().preview?.points).toEqual([0, 0, 20, 0, 20, 40]);
    tools.handle({ type: 'pointerUp' });

    const created = e.of('create');
    expect(created).toHaveLength(1);
    expect(created[0]?.object).toMatchObject({ kind: 'stroke', x: 10, y: 20, w: 20, h: 40 });
    expect(created[0]?.object.points).toEqual([0, 0, 20, 0, 20, 40]);
    expect(e.state().tool).toBe('pen');
    expect(tools.path()).toBe('tools.pen.idle');
    expect(e.state().preview).toBeNull();
  });

  it('takes the stroke colour and width from the style', () => {
    const { e, tools } = penTools();
    e.dispatch({ type: 'style', style: { stroke: 0xff0000, strokeWidth: 6 } });
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerMove', pointer: at(5, 5) });
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')[0]?.object).toMatchObject({
      stroke: 0xff0000,
      strokeWidth: 6,
      fill: null,
    });
  });

  it('Escape drops the stroke under way', () => {
    const { e, tools } = penTools();
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerMove', pointer: at(5, 5) });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')).toEqual([]);
    expect(e.state().preview).toBeNull();
    expect(e.state().tool).toBe('pen');
  });

  it('moves without a press draw nothing (but still report the pointer)', () => {
    const { e, tools } = penTools();
    tools.handle({ type: 'pointerMove', pointer: at(5, 5) });
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')).toEqual([]);
    expect(e.of('pointerMoved')).toEqual([{ kind: 'pointerMoved', x: 5, y: 5 }]);
  });
});
