// Keys that reach the window while a text or note is open for typing: each is the edit's (the box takes focus,
// or the key is held until the box shows), never a shortcut. Driven with the real tool machines: N, a click,
// and "quick brown fox" typed at once.
import { describe, expect, it } from 'vitest';
import type { ApiCommand, GhostboardBridge } from '../../shared/api';
import { Store } from '../store/store';
import { at, FakeEditor } from '../tools/testing/fake-editor';
import { Tools } from '../tools/Tools';
import { Controller } from './controller';
import { EditorKeys, holdKey, type KeyPress, type KeyRoute } from './editor-keys';

const press = (key: string, modified = false): KeyPress => ({ key, modified });

/** The keys a user types for `text` (Shift shows up as a key of its own before a capital). */
function keysOf(text: string): KeyPress[] {
  return Array.from(text).flatMap((ch) =>
    ch === ch.toUpperCase() && ch !== ch.toLowerCase() ? [press('Shift'), press(ch)] : [press(ch)],
  );
}

/** A user on the `tool` tool who clicks the canvas: the edit opened, as the window's key handler reads it. */
function clickedWith(tool: 'note' | 'text'): { e: FakeEditor; open: () => number | null } {
  const e = new FakeEditor();
  const tools = new Tools(e);
  e.setTool(tool);
  tools.handle({ type: 'pointerDown', pointer: at(100, 100) });
  tools.handle({ type: 'pointerUp' });
  const open = (): number | null => {
    const s = e.state();
    return s.editing === null ? null : s.editKey;
  };
  return { e, open };
}

describe('holdKey', () => {
  it('adds characters (spaces, capitals, an emoji) and Enter, Backspace takes the last away', () => {
    let held = '';
    for (const k of [
      ...keysOf('Hi you'),
      press('Enter'),
      press('😀'),
      press('x'),
      press('Backspace'),
    ])
      held = holdKey(held, k);
    expect(held).toBe('Hi you\n😀');
    expect(holdKey('😀', press('Backspace'))).toBe('');
  });

  it('adds nothing for named keys and commands', () => {
    for (const k of [press('Shift'), press('ArrowLeft'), press('Escape'), press('a', true)])
      expect(holdKey('ab', k)).toBe('ab');
  });
});

describe('EditorKeys', () => {
  it('with no edit open, keys are the app’s (tools and shortcuts)', () => {
    expect(new EditorKeys().route(null, press('c'))).toBe('app');
  });

  it('N, click, "quick brown fox" at once: no key is the app’s, all of it is held for the box', () => {
    const { e, open } = clickedWith('note');
    expect(e.state().tool).toBe('select');
    expect(open()).not.toBeNull();
    const keys = new EditorKeys();
    const routes: KeyRoute[] = keysOf('quick brown fox').map((k) => keys.route(open(), k));
    expect(new Set(routes)).toEqual(new Set(['held']));
    expect(keys.heldFor(open() ?? -1)).toBe('quick brown fox');
    // Nothing ran: no panel opened, no tool changed.
    expect(e.state().panels.size).toBe(0);
    expect(e.state().tool).toBe('select');
  });

  it('once the box is on screen, a key that reached the window focuses it and goes on to it', () => {
    const { open } = clickedWith('text');
    const keys = new EditorKeys();
    expect(keys.route(open(), press('f'))).toBe('held');
    let focused = 0;
    const detach = keys.attach(open() ?? -1, { focus: () => (focused += 1) });
    expect(keysOf('ast Text').map((k) => keys.route(open(), k))).toEqual(
      keysOf('ast Text').map(() => 'box'),
    );
    expect(focused).toBe(9);
    expect(keys.heldFor(open() ?? -1)).toBe('f');
    detach();
    expect(keys.route(open(), press('x'))).toBe('held');
  });

  it('a box or held text of another opening is not this one’s (only the latest opening holds keys)', () => {
    const keys = new EditorKeys();
    keys.route(1, press('a'));
    let focused = false;
    keys.attach(1, { focus: () => (focused = true) });
    expect(keys.route(2, press('b'))).toBe('held');
    expect(focused).toBe(false);
    expect(keys.heldFor(2)).toBe('b');
    expect(keys.heldFor(1)).toBe('');
  });

  it('the editor’s typing session starts with what was held for its opening', async () => {
    const sent: ApiCommand[] = [];
    const bridge: GhostboardBridge = {
      invoke: (c) => {
        sent.push(c);
        return Promise.resolve(c.cmd === 'create' ? { ok: true, id: 8 } : { ok: true });
      },
      subscribe: () => () => undefined,
    };
    const store = new Store();
    const c = new Controller(bridge, store);
    const { id } = c.createProvisional({
      kind: 'note',
      x: 0,
      y: 0,
      w: 10,
      h: 10,
      rotation: 0,
      stroke: 0,
      fill: null,
      strokeWidth: 2,
      text: '',
      points: [],
      blob: '',
    });
    store.dispatch({ type: 'editing', id });
    const edit = store.getState().editKey;
    for (const k of keysOf('quick')) c.editorKeys.route(edit, k);
    const typing = c.textSession(edit, id, '');
    expect(typing.text).toBe('quick');
    await Promise.resolve();
    await Promise.resolve();
    expect(sent.filter((x) => x.cmd.startsWith('text'))).toEqual([
      { cmd: 'text-open', id: 8, base: '' },
      { cmd: 'text-edit', id: 8, seen: 0, at: 0, remove: 0, insert: 'quick' },
    ]);
  });
});
