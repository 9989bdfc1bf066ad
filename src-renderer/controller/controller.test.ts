// Unit tests of the drag and text sessions against a scripted invoke.
import { describe, expect, it } from 'vitest';
import type { ApiCommand, ApiReply } from '../../shared/api';
import type { Clock } from '../board/throttle';
import { DragSession } from './drag-session';
import { TextSession } from './text-session';
import type { TextOp } from '../../shared/text-ot';

function scripted() {
  const sent: ApiCommand[] = [];
  const waiting: ((r: ApiReply) => void)[] = [];
  const invoke = (c: ApiCommand): Promise<ApiReply> => {
    sent.push(c);
    if (c.cmd !== 'grab') return Promise.resolve({ ok: true });
    return new Promise((resolve) => waiting.push(resolve));
  };
  const answerGrab = async (r: ApiReply): Promise<void> => {
    waiting.shift()?.(r);
    await Promise.resolve();
    await Promise.resolve();
  };
  return { sent, invoke, answerGrab };
}

const frozen: Clock = { now: () => 0, setTimeout: () => 1, clearTimeout: () => undefined };

describe('DragSession', () => {
  it('grabs, sends the latest position once held, and drops', async () => {
    const { sent, invoke, answerGrab } = scripted();
    const d = new DragSession(5, invoke, { refused: () => undefined }, frozen);
    const started = d.start();
    d.move(10.4, 20.6);
    d.move(11, 21);
    expect(sent).toEqual([{ cmd: 'grab', id: 5 }]);
    await answerGrab({ ok: true });
    await started;
    expect(d.state).toBe('held');
    expect(sent.at(-1)).toEqual({ cmd: 'drag', id: 5, x: 11, y: 21 });
    expect(d.end(30, 40)).toBe(true);
    expect(sent.at(-1)).toEqual({ cmd: 'drop', id: 5, x: 30, y: 40 });
  });

  it('sends the drop after the grab when the user let go first', async () => {
    const { sent, invoke, answerGrab } = scripted();
    const d = new DragSession(5, invoke, { refused: () => undefined }, frozen);
    const started = d.start();
    d.move(1, 1);
    expect(d.end(2, 3)).toBe(true);
    await answerGrab({ ok: true });
    await started;
    expect(sent).toEqual([
      { cmd: 'grab', id: 5 },
      { cmd: 'drop', id: 5, x: 2, y: 3 },
    ]);
  });

  it('a quiet drag (following a selection) grabs and drops but sends no live drags', async () => {
    const { sent, invoke, answerGrab } = scripted();
    const d = new DragSession(5, invoke, { refused: () => undefined, quiet: true }, frozen);
    const started = d.start();
    d.move(10, 20);
    await answerGrab({ ok: true });
    await started;
    d.move(11, 21);
    expect(d.position).toEqual({ x: 11, y: 21 });
    expect(d.end(30, 40)).toBe(true);
    expect(sent).toEqual([
      { cmd: 'grab', id: 5 },
      { cmd: 'drop', id: 5, x: 30, y: 40 },
    ]);
  });

  it('reports a refused grab with the reason and sends nothing more', async () => {
    const { sent, invoke, answerGrab } = scripted();
    const reasons: string[] = [];
    const d = new DragSession(5, invoke, { refused: (r) => reasons.push(r) }, frozen);
    const started = d.start();
    await answerGrab({ ok: false, reason: 'Ada has it' });
    await started;
    d.move(5, 5);
    expect(d.end(6, 6)).toBe(false);
    expect(reasons).toEqual(['Ada has it']);
    expect(sent).toEqual([{ cmd: 'grab', id: 5 }]);
  });
});

describe('DragSession: a resize or rotate (liveresize)', () => {
  it('sends the live geometry (rounded) as reshapes once held, and releases as the edit, then the drop', async () => {
    const { sent, invoke, answerGrab } = scripted();
    const d = new DragSession(5, invoke, { refused: () => undefined }, frozen);
    const started = d.start();
    d.reshape({ x: 9.6, y: 10, w: 120.4, h: 60, rotation: 450 });
    await answerGrab({ ok: true });
    await started;
    expect(sent.at(-1)).toEqual({
      cmd: 'reshape',
      id: 5,
      x: 10,
      y: 10,
      w: 120,
      h: 60,
      rotation: 450,
    });
    expect(d.position).toEqual({ x: 10, y: 10 });
    const patch = { x: 10, y: 10, w: 121, h: 61, rotation: 460 };
    expect(d.end(10, 10, patch)).toBe(true);
    expect(sent.slice(-2)).toEqual([
      { cmd: 'edit', id: 5, patch },
      { cmd: 'drop', id: 5, x: 10, y: 10 },
    ]);
  });

  it('a release before the grab is answered waits for it, edit first', async () => {
    const { sent, invoke, answerGrab } = scripted();
    const d = new DragSession(5, invoke, { refused: () => undefined }, frozen);
    const started = d.start();
    d.end(1, 2, { x: 1, y: 2, w: 3, h: 4, rotation: 0 });
    expect(sent).toEqual([{ cmd: 'grab', id: 5 }]);
    await answerGrab({ ok: true });
    await started;
    expect(sent.map((c) => c.cmd)).toEqual(['grab', 'edit', 'drop']);
  });

  it('a refused release (edit and drop both) is reported once', async () => {
    const reasons: string[] = [];
    const invoke = (c: ApiCommand): Promise<ApiReply> =>
      Promise.resolve(c.cmd === 'grab' ? { ok: true } : { ok: false, reason: 'no object 5' });
    const d = new DragSession(5, invoke, { refused: (r) => reasons.push(r) }, frozen);
    await d.start();
    d.end(1, 2, { x: 1, y: 2, w: 3, h: 4, rotation: 0 });
    for (let i = 0; i < 4; i++) await Promise.resolve();
    expect(reasons).toEqual(['no object 5']);
  });
});

describe('TextSession', () => {
  const collect = (): { sent: ApiCommand[]; invoke: (c: ApiCommand) => Promise<ApiReply> } => {
    const sent: ApiCommand[] = [];
    return {
      sent,
      invoke: (c) => {
        sent.push(c);
        return Promise.resolve({ ok: true });
      },
    };
  };

  it('opens the text and sends one splice per change, each after what it had seen of the core', () => {
    const { sent, invoke } = collect();
    const t = new TextSession(3, 'helo', invoke);
    t.change('hello');
    t.change('hello!');
    t.change('hello!');
    expect(sent).toEqual([
      { cmd: 'text-open', id: 3, base: 'helo' },
      { cmd: 'text-edit', id: 3, seen: 0, at: 3, remove: 0, insert: 'l' },
      { cmd: 'text-edit', id: 3, seen: 0, at: 5, remove: 0, insert: '!' },
    ]);
  });

  it('holds typing until the object has an id, then opens it and sends it as one splice', () => {
    const { sent, invoke } = collect();
    const t = new TextSession(null, '', invoke);
    t.change('a');
    t.change('ab');
    expect(sent).toEqual([]);
    t.setId(9);
    expect(sent).toEqual([
      { cmd: 'text-open', id: 9, base: '' },
      { cmd: 'text-edit', id: 9, seen: 0, at: 0, remove: 0, insert: 'ab' },
    ]);
  });

  it("takes others' typing past its own not yet acknowledged, and tells who listens", () => {
    const { sent, invoke } = collect();
    const t = new TextSession(4, 'ab', invoke);
    const seen: TextOp[] = [];
    t.onRemote = (op) => seen.push(op);
    // We type 'X' at the end; meanwhile the core sends someone's 'Y' at the start, made before it saw our 'X'.
    t.change('abX');
    expect(
      t.remote({
        type: 'text-splice',
        id: 4,
        seen: 0,
        by: 2,
        splice: { at: 0, remove: 0, insert: 'Y' },
      }),
    ).toBe(true);
    expect(t.text).toBe('YabX');
    expect(seen).toHaveLength(1);
    // Someone's 'Z' where our 'X' is (made before it saw it): ours stays first.
    t.remote({
      type: 'text-splice',
      id: 4,
      seen: 0,
      by: 2,
      splice: { at: 3, remove: 0, insert: 'Z' },
    });
    expect(t.text).toBe('YabXZ');
    // Each is acknowledged with a no-op splice; an ack from the core then lets ours go.
    expect(sent.filter((c) => c.cmd === 'text-edit' && c.insert === '')).toHaveLength(2);
    expect(t.remote({ type: 'text-splice', id: 4, seen: 1, by: 0, splice: null })).toBe(true);
    t.change('YabXZ!');
    expect(sent.at(-1)).toEqual({
      cmd: 'text-edit',
      id: 4,
      seen: 2,
      at: 5,
      remove: 0,
      insert: '!',
    });
  });

  it('opens again from what it shows when the core says something that does not fit', () => {
    const { sent, invoke } = collect();
    const t = new TextSession(5, 'ab', invoke);
    expect(
      t.remote({
        type: 'text-splice',
        id: 5,
        seen: 0,
        by: 2,
        splice: { at: 9, remove: 0, insert: 'Y' },
      }),
    ).toBe(false);
    expect(sent.slice(-2)).toEqual([
      { cmd: 'text-close', id: 5 },
      { cmd: 'text-open', id: 5, base: 'ab' },
    ]);
  });

  it('closes once, and a draft closed before its id opens, sends and closes when the id comes', () => {
    const { sent, invoke } = collect();
    const t = new TextSession(null, '', invoke);
    t.change('hi');
    t.close();
    t.close();
    expect(sent).toEqual([]);
    t.setId(7);
    expect(sent.map((c) => c.cmd)).toEqual(['text-open', 'text-edit', 'text-close']);
  });

  it('refuses text longer than the board allows', () => {
    const t = new TextSession(1, '', () => Promise.resolve({ ok: true }));
    expect(t.change('x'.repeat(1001))).toBe(false);
    expect(t.change('é'.repeat(500))).toBe(true);
    expect(t.change('é'.repeat(501))).toBe(false);
    expect(t.text).toBe('é'.repeat(500));
  });
});
