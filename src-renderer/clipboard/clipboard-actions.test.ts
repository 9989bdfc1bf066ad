// The clipboard actions against the real controller and store, with a bridge that answers at once like a host
// (ids in order, each object echoed on the board): what a copy writes, where a paste lands, in what order and
// under which undo step its creates go, what ends selected; duplicate; lock, restack and delete leaving locked
// objects alone (a selection's restacks under one undo step). No DOM: a copy writes into a plain DataTransfer
// stand-in.
import { describe, expect, it } from 'vitest';
import type { ApiCommand, ApiEvent, GhostboardBridge } from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { selectionBounds } from '../board/selection';
import { Controller } from '../controller/controller';
import { Store } from '../store/store';
import { ClipboardActions, DUPLICATE_OFFSET, readTransfer } from './clipboard-actions';
import { CLIP_MIME, encodeClip } from './payload';

function setup(board: readonly BoardObject[]) {
  const sent: ApiCommand[] = [];
  const listeners = new Set<(e: ApiEvent) => void>();
  const emit = (e: ApiEvent): void => {
    for (const l of listeners) l(e);
  };
  let nextId = 100;
  const bridge: GhostboardBridge = {
    invoke: (c) => {
      sent.push(c);
      if (c.cmd !== 'create') return Promise.resolve({ ok: true });
      const id = nextId++;
      // The host's echo reaches the board a little after its reply.
      setTimeout(() => {
        emit({
          type: 'objects',
          upserts: [{ ...c.object, id, z: id, lockedBy: null, pinned: 0 }],
          deletes: [],
        });
      }, 0);
      return Promise.resolve({ ok: true, id });
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const store = new Store();
  const c = new Controller(bridge, store);
  c.attach();
  emit({ type: 'board', objects: board });
  sent.length = 0;
  const actions = new ClipboardActions(c);
  actions.setSize({ width: 800, height: 600 });
  return { sent, store, c, actions, emit };
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

function obj(id: number, z: number, o: Partial<BoardObject> = {}): BoardObject {
  return { ...newRect(), id, z, lockedBy: null, pinned: 0, ...o };
}

/** A DataTransfer stand-in: what setData wrote, getData reads. */
function transfer(): { data: Map<string, string> } & Pick<DataTransfer, 'setData' | 'getData'> {
  const data = new Map<string, string>();
  return {
    data,
    setData: (t, v) => void data.set(t, v),
    getData: (t) => data.get(t) ?? '',
  };
}

const creates = (sent: readonly ApiCommand[]) =>
  sent.flatMap((c) => (c.cmd === 'create' ? [c] : []));

const BOARD = [
  obj(1, 5, { kind: 'note', x: 100, y: 50, text: 'top note' }),
  obj(2, 1, { kind: 'stroke', x: 0, y: 0, w: 40, h: 40, points: [0, 0, 40, 40] }),
  obj(3, 3, { x: 300, y: 200 }),
  obj(4, 9, { x: 5000, y: 5000 }),
];

describe('ClipboardActions', () => {
  it('copies the selection bottom to top in three flavours; a paste keeps layout and order, as one step, and ends selected', async () => {
    const { sent, store, c, actions } = setup(BOARD);
    store.dispatch({ type: 'select', ids: [1, 3, 2] });
    const dt = transfer();
    expect(actions.writeTo(dt)).toBe(true);
    expect([...dt.data.keys()].sort()).toEqual([CLIP_MIME, 'text/html', 'text/plain']);
    expect(dt.getData('text/plain')).toBe('top note');
    const content = readTransfer(dt);
    // Without its own type, the HTML flavour carries the same payload.
    expect(readTransfer({ getData: (t) => (t === CLIP_MIME ? '' : dt.getData(t)) })).toEqual(
      content,
    );

    c.pointerMoved(1000, 2000);
    actions.pasteTransfer(dt);
    const made = creates(sent);
    expect(made.map((m) => m.object.kind)).toEqual(['stroke', 'rect', 'note']);
    const step = made[0]?.step;
    expect(step).toBeDefined();
    expect(made.every((m) => m.step === step)).toBe(true);
    // Same relative layout, the box centred on the pointer.
    const copied = [BOARD[1], BOARD[2], BOARD[0]] as BoardObject[];
    const dx = (made[0]?.object.x ?? 0) - (copied[0]?.x ?? 0);
    const dy = (made[0]?.object.y ?? 0) - (copied[0]?.y ?? 0);
    made.forEach((m, i) => {
      expect([m.object.x - (copied[i]?.x ?? 0), m.object.y - (copied[i]?.y ?? 0)]).toEqual([
        dx,
        dy,
      ]);
    });
    const box = selectionBounds(
      made.map((m, i) => ({ ...m.object, id: i + 1, z: i, lockedBy: null, pinned: 0 })),
    );
    expect(Math.abs((box?.x ?? 0) + (box?.w ?? 0) / 2 - 1000)).toBeLessThanOrEqual(1);
    expect(Math.abs((box?.y ?? 0) + (box?.h ?? 0) / 2 - 2000)).toBeLessThanOrEqual(1);

    await settle();
    expect(store.getState().selection).toEqual([100, 101, 102]);
    expect(store.getState().drafts).toEqual([]);

    // A second paste is a step of its own.
    actions.paste(content, { x: 0, y: 0 });
    expect(
      creates(sent)
        .slice(3)
        .every((m) => m.step !== step),
    ).toBe(true);
  });

  it('refuses a damaged payload whole with a notice, and makes plain text a text box', () => {
    const { sent, store, actions } = setup(BOARD);
    const bad = encodeClip([{ ...newRect(), text: 'x' }]).replace('"w":100', '"w":-1');
    actions.paste({ payload: bad, text: 'fallback' }, null);
    expect(creates(sent)).toEqual([]);
    expect(store.getState().toasts.at(-1)?.text).toBe(
      'Not pasted: a damaged object on the clipboard: size out of range.',
    );
    actions.paste({ payload: undefined, text: 'two\r\nlines' }, { x: 400, y: 300 });
    const [text] = creates(sent);
    expect(text?.object).toMatchObject({ kind: 'text', text: 'two\nlines', h: 56 });
    expect((text?.object.x ?? 0) + (text?.object.w ?? 0) / 2).toBe(400);
    actions.paste({ payload: undefined, text: '  ' }, null);
    expect(creates(sent)).toHaveLength(1);
  });

  it('duplicates the selection offset, as one step, and selects the copies', async () => {
    const { sent, store, actions } = setup(BOARD);
    store.dispatch({ type: 'select', ids: [3, 1] });
    actions.duplicate();
    const made = creates(sent);
    expect(made.map((m) => [m.object.x, m.object.y])).toEqual([
      [300 + DUPLICATE_OFFSET, 200 + DUPLICATE_OFFSET],
      [100 + DUPLICATE_OFFSET, 50 + DUPLICATE_OFFSET],
    ]);
    expect(new Set(made.map((m) => m.step)).size).toBe(1);
    await settle();
    expect(store.getState().selection).toEqual([100, 101]);
  });

  it('locks only what is not locked; restack and delete leave locked objects alone, saying so', () => {
    const { sent, store, c, actions } = setup([...BOARD.slice(0, 3), obj(4, 9, { pinned: 1 })]);
    store.dispatch({ type: 'select', ids: [4, 3, 2] });
    actions.setLocked(true);
    expect(sent).toEqual([{ cmd: 'pin', ids: [2, 3], pinned: true }]);
    sent.length = 0;
    actions.setLocked(false);
    expect(sent).toEqual([{ cmd: 'pin', ids: [4], pinned: false }]);
    sent.length = 0;
    actions.restack(true);
    // One step number for the selection's restacks (one undo step), a new one for the next restack.
    const step = sent[0]?.cmd === 'restack' ? sent[0].step : undefined;
    expect(step).toBeTypeOf('number');
    expect(sent).toEqual([
      { cmd: 'restack', id: 2, front: true, step },
      { cmd: 'restack', id: 3, front: true, step },
    ]);
    sent.length = 0;
    actions.restack(false);
    expect(sent.map((x) => (x.cmd === 'restack' ? x.id : 0))).toEqual([3, 2]);
    expect(sent.map((x) => (x.cmd === 'restack' ? x.step : 0))).toEqual([
      (step ?? 0) + 1,
      (step ?? 0) + 1,
    ]);
    sent.length = 0;
    c.deleteSelection();
    expect(sent).toEqual([{ cmd: 'delete', ids: [3, 2] }]);
    expect(store.getState().selection).toEqual([4]);
    expect(store.getState().toasts.at(-1)?.text).toBe(
      'A locked object was not deleted: unlock it first.',
    );
  });
});
