// Provisional ids and their reconciliation: the registry alone, then the controller with a bridge whose replies
// the test releases (the create round trip is in flight while the user types): the note is open under its
// provisional id at once, what is typed meanwhile goes as one splice under the real id after the create, edits
// and deletes of the draft wait for the id, and a refusal removes the draft with a notice and sends nothing.
import { describe, expect, it } from 'vitest';
import type { ApiCommand, ApiEvent, ApiReply, GhostboardBridge } from '../../shared/api';
import type { BoardObject, NewObject } from '../../shared/board';
import { placedShape } from '../board/shapes';
import { isProvisional } from '../store/drafts';
import { editedObject } from '../store/selectors';
import { Store } from '../store/store';
import { Controller } from './controller';
import { ProvisionalIds } from './provisional';

describe('ProvisionalIds', () => {
  it('runs what waits for a pending id on confirmation, in order, with the real id', () => {
    const p = new ProvisionalIds();
    p.open(-1);
    const ran: string[] = [];
    p.whenReal(-1, (id) => ran.push(`a${id}`));
    p.whenReal(-1, (id) => ran.push(`b${id}`));
    expect(ran).toEqual([]);
    expect(p.real(-1)).toBeNull();
    p.confirm(-1, 42);
    expect(ran).toEqual(['a42', 'b42']);
    expect(p.real(-1)).toBe(42);
    p.whenReal(-1, (id) => ran.push(`late${id}`));
    expect(ran.at(-1)).toBe('late42');
  });

  it('drops what waited when the create is refused, and whatever is asked later', () => {
    const p = new ProvisionalIds();
    p.open(-2);
    const ran: number[] = [];
    p.whenReal(-2, (id) => ran.push(id));
    p.refuse(-2);
    p.whenReal(-2, (id) => ran.push(id));
    expect(ran).toEqual([]);
    expect(p.real(-2)).toBeNull();
  });

  it('passes a real id straight through', () => {
    const p = new ProvisionalIds();
    const ran: number[] = [];
    p.whenReal(7, (id) => ran.push(id));
    expect(ran).toEqual([7]);
    expect(p.real(7)).toBe(7);
  });

  it('refuses to open a real or reused id, and to settle one twice', () => {
    const p = new ProvisionalIds();
    expect(() => {
      p.open(3);
    }).toThrow();
    p.open(-1);
    expect(() => {
      p.open(-1);
    }).toThrow();
    p.confirm(-1, 5);
    expect(() => {
      p.refuse(-1);
    }).toThrow();
  });
});

/** A bridge whose create replies wait until the test releases them; every other command is ok at once. */
function slowBridge() {
  const sent: ApiCommand[] = [];
  const creates: ((r: ApiReply) => void)[] = [];
  const listeners = new Set<(e: ApiEvent) => void>();
  const bridge: GhostboardBridge = {
    invoke: (c) => {
      sent.push(c);
      if (c.cmd !== 'create') return Promise.resolve({ ok: true });
      return new Promise((resolve) => creates.push(resolve));
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  /** The host answers the oldest create; its replies and their follow-ups run before this resolves. */
  const answer = async (r: ApiReply): Promise<void> => {
    creates.shift()?.(r);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const emit = (e: ApiEvent): void => {
    for (const l of listeners) l(e);
  };
  return { bridge, sent, answer, emit };
}

const NOTE: NewObject = placedShape(
  'note',
  { x: 10, y: 20 },
  { stroke: 0, fill: null, strokeWidth: 2 },
);

function asBoard(o: NewObject, id: number): BoardObject {
  return { ...o, id, z: id, lockedBy: null, pinned: 0 };
}

function setup() {
  const b = slowBridge();
  const store = new Store();
  const c = new Controller(b.bridge, store);
  c.attach();
  b.sent.length = 0;
  /** As the place tool does on release: created and opened for typing in the same call. */
  const place = (): number => {
    const id = c.createProvisional(NOTE).id;
    store.dispatch({ type: 'editing', id });
    return id;
  };
  return { ...b, store, c, place };
}

const texts = (sent: readonly ApiCommand[]) => sent.filter((x) => x.cmd.startsWith('text'));

describe('Controller: typing into a note the host has not confirmed yet', () => {
  it('opens it at once, and sends what was typed meanwhile as one splice under the real id', async () => {
    const { c, store, sent, answer, place } = setup();
    const id = place();
    expect(isProvisional(id)).toBe(true);
    const s = store.getState();
    expect(s.editing).toBe(id);
    expect(editedObject(s)).toMatchObject({ id, kind: 'note' });
    const typing = c.textSession(s.editKey, id, '');
    for (const t of ['q', 'qu', 'qui', 'quick', 'quick brown fox']) typing.change(t);
    expect(sent).toEqual([{ cmd: 'create', object: NOTE }]);

    await answer({ ok: true, id: 42 });
    expect(sent.slice(1)).toEqual([
      { cmd: 'text-open', id: 42, base: '' },
      { cmd: 'text-edit', id: 42, seen: 0, at: 0, remove: 0, insert: 'quick brown fox' },
    ]);
    // Same opening of the editor, now under the real id; the draft shows until the board has the object.
    expect(store.getState().editing).toBe(42);
    expect(store.getState().editKey).toBe(s.editKey);
    expect(editedObject(store.getState())).toMatchObject({ id: 42, kind: 'note' });
    typing.change('quick brown fox!');
    expect(texts(sent).at(-1)).toEqual({
      cmd: 'text-edit',
      id: 42,
      seen: 0,
      at: 15,
      remove: 0,
      insert: '!',
    });
  });

  it('keeps the same session for the same opening (a re-render asks again)', () => {
    const { c, store, place } = setup();
    const id = place();
    const k = store.getState().editKey;
    expect(c.textSession(k, id, '')).toBe(c.textSession(k, id, ''));
  });

  it('sends the text even when the editor closed before the id came', async () => {
    const { c, store, sent, answer, place } = setup();
    const id = place();
    const typing = c.textSession(store.getState().editKey, id, '');
    typing.change('drawn just before crash');
    // The box closing closes its session (TextEditor's finish).
    store.dispatch({ type: 'editing', id: null });
    typing.close();
    await answer({ ok: true, id: 9 });
    expect(texts(sent)).toEqual([
      { cmd: 'text-open', id: 9, base: '' },
      { cmd: 'text-edit', id: 9, seen: 0, at: 0, remove: 0, insert: 'drawn just before crash' },
      { cmd: 'text-close', id: 9 },
    ]);
  });

  it('edits and deletes of a draft wait for its id, shown on the draft at once', async () => {
    const { c, store, sent, answer } = setup();
    const note = c.createProvisional(NOTE).id;
    const text = c.createProvisional({ ...NOTE, kind: 'text' }).id;
    c.edit(note, { h: 300 });
    expect(store.getState().drafts[0]?.object.h).toBe(300);
    c.remove(text);
    expect(store.getState().drafts).toHaveLength(1);
    expect(sent.filter((x) => x.cmd !== 'create')).toEqual([]);
    await answer({ ok: true, id: 5 });
    await answer({ ok: true, id: 6 });
    expect(sent.filter((x) => x.cmd !== 'create')).toEqual([
      { cmd: 'edit', id: 5, patch: { h: 300 } },
      { cmd: 'delete', ids: [6] },
    ]);
  });

  it('a refusal removes the draft and its editor with a notice, and sends nothing typed', async () => {
    const { c, store, sent, answer, place } = setup();
    const id = place();
    c.textSession(store.getState().editKey, id, '').change('lost cause');
    await answer({ ok: false, reason: 'you are a viewer' });
    const s = store.getState();
    expect(s.drafts).toEqual([]);
    expect(s.editing).toBeNull();
    expect(s.toasts.map((t) => t.text)).toEqual(['Could not create it: you are a viewer']);
    expect(sent.map((x) => x.cmd)).toEqual(['create']);
  });

  it('the object arriving before the reply, or a whole board without it, leaves the editor open', async () => {
    const { store, emit, answer, place } = setup();
    place();
    emit({ type: 'board', objects: [] });
    expect(store.getState().editing).not.toBeNull();
    emit({ type: 'objects', upserts: [asBoard(NOTE, 42)], deletes: [] });
    const k = store.getState().editKey;
    await answer({ ok: true, id: 42 });
    const s = store.getState();
    expect(s.editing).toBe(42);
    expect(s.editKey).toBe(k);
    expect(s.drafts).toEqual([]);
    expect(s.selection).toEqual([42]);
    expect(editedObject(s)).toMatchObject({ id: 42, z: 42 });
  });

  it('the reply before the object: the draft, under its real id, stays until the board has it', async () => {
    const { store, emit, answer, place } = setup();
    place();
    await answer({ ok: true, id: 42 });
    emit({ type: 'objects', upserts: [], deletes: [] });
    expect(store.getState().editing).toBe(42);
    expect(editedObject(store.getState())).toMatchObject({ id: 42, z: Infinity });
    emit({ type: 'objects', upserts: [asBoard(NOTE, 42)], deletes: [] });
    expect(store.getState().drafts).toEqual([]);
    expect(editedObject(store.getState())).toMatchObject({ id: 42, z: 42 });
  });
});
