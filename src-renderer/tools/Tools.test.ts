// The root machine: it follows the store's tool, pans and zooms above the tools, reports this user's pointer,
// and drives the real controller through controllerEditor. Plain events; no browser, no timers.
import { describe, expect, it } from 'vitest';
import type { ApiCommand, ApiReply } from '../../shared/api';
import { Controller } from '../controller/controller';
import { Store } from '../store/store';
import { controllerEditor } from './editor';
import { at, FakeEditor } from './testing/fake-editor';
import { Tools } from './Tools';

describe('Tools', () => {
  it('follows the store: starts on its tool, switches when it changes, stops following once disposed', () => {
    const e = new FakeEditor();
    e.dispatch({ type: 'tool', tool: 'note' });
    const tools = new Tools(e);
    expect(tools.path()).toBe('tools.note.idle');
    e.dispatch({ type: 'tool', tool: 'line' });
    expect(tools.path()).toBe('tools.line.idle');
    tools.dispose();
    e.dispatch({ type: 'tool', tool: 'pen' });
    expect(tools.path()).toBe('tools');
  });

  it('reports the pointer on every move and its leaving the board', () => {
    const e = new FakeEditor();
    const tools = new Tools(e);
    tools.handle({ type: 'pointerMove', pointer: at(3, 4) });
    tools.handle({ type: 'pointerLeave' });
    expect(e.calls).toEqual([{ kind: 'pointerMoved', x: 3, y: 4 }, { kind: 'pointerLeft' }]);
  });

  it('a middle-button drag pans the camera by the screen distance, and the tool sees none of it', () => {
    const e = new FakeEditor();
    e.dispatch({ type: 'tool', tool: 'rect' });
    const tools = new Tools(e);
    const screen = (x: number, y: number) => at(x, y, { button: 1, screen: { x, y } });
    expect(tools.handle({ type: 'pointerDown', pointer: screen(100, 100) })).toBe(true);
    expect(tools.panning).toBe(true);
    tools.handle({ type: 'pointerMove', pointer: screen(130, 90) });
    tools.handle({ type: 'pointerMove', pointer: screen(140, 95) });
    tools.handle({ type: 'pointerUp' });
    expect(e.state().camera).toEqual({ x: 40, y: -5, scale: 1 });
    expect(tools.panning).toBe(false);
    expect(tools.path()).toBe('tools.rect.idle');
    expect(e.calls).toEqual([]);
  });

  it('Space with the main button pans too; without Space the same press draws', () => {
    const e = new FakeEditor();
    e.dispatch({ type: 'tool', tool: 'rect' });
    const tools = new Tools(e);
    tools.handle({ type: 'pointerDown', pointer: at(0, 0, { space: true }) });
    expect(tools.path()).toBe('tools.rect.idle');
    tools.handle({ type: 'pointerUp' });
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    expect(tools.path()).toBe('tools.rect.drawing');
  });

  it('the wheel pans (lines counted as 16 px); with ctrl it zooms about the pointer', () => {
    const e = new FakeEditor();
    const tools = new Tools(e);
    const wheel = { screen: { x: 50, y: 50 }, deltaX: 2, deltaY: 3, lines: true, zoom: false };
    expect(tools.handle({ type: 'wheel', wheel })).toBe(true);
    expect(e.state().camera).toEqual({ x: -32, y: -48, scale: 1 });
    tools.handle({
      type: 'wheel',
      wheel: { ...wheel, deltaX: 0, deltaY: -100, lines: false, zoom: true },
    });
    const c = e.state().camera;
    expect(c.scale).toBeGreaterThan(1);
    // The world point under the pointer stays under it.
    expect((50 - c.x) / c.scale).toBeCloseTo(50 + 32);
    expect((50 - c.y) / c.scale).toBeCloseTo(50 + 48);
  });

  it('keys no tool uses are left to the shortcuts', () => {
    const tools = new Tools(new FakeEditor());
    expect(tools.handle({ type: 'keyDown', key: { key: 'r' } })).toBe(false);
  });

  it('through the controller, a rectangle drag sends one create with the drawn bounds', async () => {
    const sent: ApiCommand[] = [];
    const bridge = {
      invoke: (c: ApiCommand): Promise<ApiReply> => {
        sent.push(c);
        return Promise.resolve(c.cmd === 'create' ? { ok: true, id: 9 } : { ok: true });
      },
      subscribe: () => () => undefined,
    };
    const controller = new Controller(bridge, new Store());
    controller.setTool('rect');
    const tools = new Tools(controllerEditor(controller));
    tools.handle({ type: 'pointerDown', pointer: at(300, 200) });
    tools.handle({ type: 'pointerMove', pointer: at(420, 290) });
    tools.handle({ type: 'pointerUp' });
    await Promise.resolve();

    const creates = sent.filter((c) => c.cmd === 'create');
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ object: { kind: 'rect', x: 300, y: 200, w: 120, h: 90 } });
    expect(sent.filter((c) => c.cmd === 'tool').map((c) => c.tool)).toEqual(['rect', 'select']);
    expect(controller.store.getState().tool).toBe('select');
  });
});
