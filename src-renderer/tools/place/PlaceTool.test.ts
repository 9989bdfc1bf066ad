// The text and note tools' transitions, driven with plain events: no browser, no timers.
import { describe, expect, it } from 'vitest';
import { NOTE_FILL, NOTE_SIZE, TEXT_SIZE } from '../../board/shapes';
import { provisionalId } from '../../store/drafts';
import { at, FakeEditor } from '../testing/fake-editor';
import { Tools } from '../Tools';

function placeTools(tool: 'text' | 'note'): { e: FakeEditor; tools: Tools } {
  const e = new FakeEditor();
  e.dispatch({ type: 'tool', tool });
  return { e, tools: new Tools(e) };
}

describe('PlaceTool', () => {
  it('a click places a note there, back on the select tool, open for typing at once (provisional id, then its own)', async () => {
    const { e, tools } = placeTools('note');
    tools.handle({ type: 'pointerDown', pointer: at(120.4, 80.6) });
    expect(tools.path()).toBe('tools.note.pointing');
    tools.handle({ type: 'pointerUp' });

    expect(e.of('create').map((c) => c.object)).toEqual([
      expect.objectContaining({ kind: 'note', x: 120, y: 81, ...NOTE_SIZE, fill: NOTE_FILL }),
    ]);
    expect(e.state().tool).toBe('select');
    expect(e.state().editing).toBe(provisionalId(1));
    const opened = e.state().editKey;
    await Promise.resolve();
    expect(e.state().editing).toBe(100);
    expect(e.state().editKey).toBe(opened);
  });

  it('a text box takes the stroke colour and has no fill', () => {
    const { e, tools } = placeTools('text');
    e.dispatch({ type: 'style', style: { stroke: 0x00ff00 } });
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')[0]?.object).toMatchObject({
      kind: 'text',
      stroke: 0x00ff00,
      fill: null,
      ...TEXT_SIZE,
    });
  });

  it('Escape between press and release places nothing', () => {
    const { e, tools } = placeTools('text');
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    expect(tools.handle({ type: 'keyDown', key: { key: 'Escape' } })).toBe(true);
    tools.handle({ type: 'pointerUp' });
    expect(e.of('create')).toEqual([]);
    expect(e.state().tool).toBe('text');
  });

  it('the editor closes and the draft goes when the host refused the object', async () => {
    const { e, tools } = placeTools('note');
    e.create = (object) => {
      e.calls.push({ kind: 'create', object });
      return Promise.resolve(null);
    };
    tools.handle({ type: 'pointerDown', pointer: at(0, 0) });
    tools.handle({ type: 'pointerUp' });
    expect(e.state().editing).toBe(provisionalId(1));
    await Promise.resolve();
    expect(e.state().editing).toBeNull();
    expect(e.state().drafts).toEqual([]);
  });
});
