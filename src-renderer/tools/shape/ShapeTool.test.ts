// The box and line tools' transitions, driven with plain events: no browser, no timers.
import { describe, expect, it } from 'vitest';
import { at, FakeEditor } from '../testing/fake-editor';
import { Tools } from '../Tools';

function rectTools(): { e: FakeEditor; tools: Tools } {
  const e = new FakeEditor();
  e.dispatch({ type: 'tool', tool: 'rect' });
  return { e, tools: new Tools(e) };
}

describe('ShapeTool', () => {
  it('a drag creates one rectangle with the dragged bounds, then the select tool is back', () => {
    const { e, tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(300, 200) });
    expect(tools.path()).toBe('tools.rect.drawing');
    tools.handle({ type: 'pointerMove', pointer: at(350, 240) });
    tools.handle({ type: 'pointerMove', pointer: at(420, 290) });
    tools.handle({ type: 'pointerUp' });

    const created = e.of('create');
    expect(created).toHaveLength(1);
    expect(created[0]?.object).toMatchObject({ kind: 'rect', x: 300, y: 200, w: 120, h: 90 });
    expect(e.state().tool).toBe('select');
    expect(tools.path()).toBe('tools.select.idle');
    expect(e.state().preview).toBeNull();
  });

  it('shows the shape being drawn as the preview, normalised when dragged up and left', () => {
    const { e, tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(100, 100) });
    tools.handle({ type: 'pointerMove', pointer: at(40, 70) });
    expect(e.state().preview).toMatchObject({ kind: 'rect', x: 40, y: 70, w: 60, h: 30 });
  });

  it('Shift squares the box', () => {
    const { e, tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerMove', pointer: at(50, 20, { shift: true }) });
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')[0]?.object).toMatchObject({ w: 50, h: 50 });
  });

  it('Escape cancels the drag: nothing created, no preview, still the rectangle tool', () => {
    const { e, tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerMove', pointer: at(80, 60) });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    expect(e.state().preview).toBeNull();
    expect(tools.path()).toBe('tools.rect.idle');
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')).toEqual([]);
    expect(e.state().tool).toBe('rect');
  });

  it('Escape at rest goes back to the select tool', () => {
    const { e, tools } = rectTools();
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    expect(e.state().tool).toBe('select');
    expect(tools.path()).toBe('tools.select.idle');
  });

  it('a click (no drag, or a tiny one) creates nothing and keeps the tool', () => {
    const { e, tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(10, 10) });
    tools.handle({ type: 'pointerUp' });
    tools.handle({ type: 'pointerDown', pointer: at(10, 10) });
    tools.handle({ type: 'pointerMove', pointer: at(12, 11) });
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')).toEqual([]);
    expect(tools.path()).toBe('tools.rect.idle');
  });

  it('only the main button draws', () => {
    const { tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(10, 10, { button: 2 }) });
    expect(tools.path()).toBe('tools.rect.idle');
  });

  it('leaving the board mid-drag finishes the shape there', () => {
    const { e, tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerMove', pointer: at(30, 40) });
    tools.handle({ type: 'pointerLeave' });
    expect(e.of('create')).toHaveLength(1);
    expect(e.of('pointerLeft')).toHaveLength(1);
  });

  it('a line keeps its direction in the points, relative to its top-left corner', () => {
    const e = new FakeEditor();
    e.dispatch({ type: 'tool', tool: 'arrow' });
    const tools = new Tools(e);
    tools.handle({ type: 'pointerDown', pointer: at(100, 50) });
    tools.handle({ type: 'pointerMove', pointer: at(40, 90) });
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')[0]?.object).toMatchObject({
      kind: 'arrow',
      x: 40,
      y: 50,
      w: 60,
      h: 40,
      fill: null,
      points: [60, 0, 0, 40],
    });
  });

  it('switching tools mid-drag drops the shape being drawn', () => {
    const { e, tools } = rectTools();
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerMove', pointer: at(80, 60) });
    e.setTool('ellipse');
    expect(tools.path()).toBe('tools.ellipse.idle');
    expect(e.state().preview).toBeNull();
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')).toEqual([]);
  });
});
