// Unit tests of the store's reducers: session lifecycle, board upserts and predictions, chat, stats, UI.
import { describe, expect, it } from 'vitest';
import type { ApiEvent, ChatMessage, Participant, StatsSnapshot } from '../../shared/api';
import type { BoardObject, NewObject } from '../../shared/board';
import { reduce } from './reduce-ui';
import { canEdit, endMessage, formatIdle, hostAway, shownObject } from './selectors';
import { type Action, type AppState, INITIAL_STATE } from './state';
import { appendStats, HISTORY_SECONDS } from './stats-history';
import { Store } from './store';

const ME = 1;
const hosting: ApiEvent = {
  type: 'status',
  status: {
    phase: 'hosting',
    name: 'Me',
    addresses: ['10.0.0.2'],
    port: 4000,
    code: 'abcd',
    you: ME,
  },
};

function obj(id: number, more: Partial<BoardObject> = {}): BoardObject {
  return {
    id,
    kind: 'rect',
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
    z: id,
    lockedBy: null,
    pinned: 0,
    ...more,
  };
}

function run(...actions: Action[]): AppState {
  return actions.reduce(reduce, INITIAL_STATE);
}
const ev = (event: ApiEvent): Action => ({ type: 'event', event });
const upsert = (...upserts: BoardObject[]): Action => ev({ type: 'objects', upserts, deletes: [] });

function chat(seq: number, peer: number): ChatMessage {
  return { seq, peer, name: `p${peer}`, color: 0xff0000, text: 'hi', at: 0 };
}

function stats(at: number, inK: number): StatsSnapshot {
  return {
    at,
    totalKbpsIn: inK,
    totalKbpsOut: 1,
    peers: [],
    conditions: { lossPct: 0, delayMs: 0, kbps: 0 },
  };
}

describe('session lifecycle', () => {
  it('leaves opening the invitation to the screen (once per hosted session, see invite-once)', () => {
    const s = run(ev(hosting));
    expect(s.status.phase).toBe('hosting');
    expect(s.panels.has('share')).toBe(false);
  });

  it('forgets the last session when a new one starts, keeping the tool and style', () => {
    const s = run(
      ev(hosting),
      ev({ type: 'board', objects: [obj(1)] }),
      { type: 'tool', tool: 'pen' },
      ev({ type: 'status', status: { phase: 'ended', reason: 'host-left', detail: '' } }),
      ev({ type: 'status', status: { phase: 'connecting', address: 'h:1' } }),
    );
    expect(s.board.size).toBe(0);
    expect(s.tool).toBe('pen');
    expect(s.panels.size).toBe(0);
  });

  it('explains why a session ended', () => {
    expect(endMessage({ phase: 'ended', reason: 'wrong-code', detail: '' })).toMatchObject({
      isError: true,
    });
    expect(endMessage({ phase: 'ended', reason: 'left', detail: '' })).toMatchObject({
      isError: false,
    });
    expect(endMessage({ phase: 'idle' })).toBeNull();
    expect(endMessage({ phase: 'ended', reason: 'code-locked', detail: '' })?.text).toMatch(
      /locked .*new code/,
    );
    expect(endMessage({ phase: 'ended', reason: 'banned', detail: '' })?.text).toMatch(/removed/);
    expect(
      endMessage({ phase: 'ended', reason: 'error', detail: 'the host closed the link (stalled)' })
        ?.text,
    ).toBe('Something went wrong: the host closed the link (stalled).');
  });
});

describe('board', () => {
  it('replaces the board, upserts and deletes, pruning the selection and editor', () => {
    let s = run(ev(hosting), ev({ type: 'board', objects: [obj(1), obj(2)] }));
    s = reduce(s, { type: 'select', ids: [1, 2, 99] });
    expect(s.selection).toEqual([1, 2]);
    s = reduce(s, { type: 'editing', id: 2 });
    s = reduce(s, ev({ type: 'objects', upserts: [obj(3)], deletes: [2] }));
    expect([...s.board.keys()]).toEqual([1, 3]);
    expect(s.selection).toEqual([]);
    expect(s.editing).toBeNull();
  });

  it('shows a local drop until the host releases the lock, then the host position', () => {
    let s = run(ev(hosting), ev({ type: 'board', objects: [obj(1)] }));
    s = reduce(s, { type: 'moved', id: 1, x: 50, y: 60 });
    expect(shownObject(s, obj(1))).toMatchObject({ x: 50, y: 60 });
    s = reduce(s, upsert(obj(1, { lockedBy: ME }))); // the grab's echo, still at the old place
    expect(s.moves.get(1)).toEqual({ x: 50, y: 60 });
    s = reduce(s, upsert(obj(1, { x: 50, y: 60 })));
    expect(s.moves.size).toBe(0);
  });

  it('lets the host override a drop (someone else won)', () => {
    let s = run(ev(hosting), ev({ type: 'board', objects: [obj(1)] }), {
      type: 'moved',
      id: 1,
      x: 5,
      y: 5,
    });
    s = reduce(s, upsert(obj(1, { x: 7, y: 7, lockedBy: 2 })));
    expect(s.moves.size).toBe(0);
    const undone = reduce(reduce(s, { type: 'moved', id: 1, x: 9, y: 9 }), {
      type: 'moveUndone',
      id: 1,
    });
    expect(undone.moves.size).toBe(0);
  });

  it('shows a local resize until the next upsert of the object', () => {
    let s = run(ev(hosting), ev({ type: 'board', objects: [obj(1), obj(2)] }));
    s = reduce(s, { type: 'edited', id: 1, patch: { w: 300 } });
    s = reduce(s, { type: 'edited', id: 1, patch: { h: 200 } });
    expect(shownObject(s, obj(1))).toMatchObject({ w: 300, h: 200 });
    s = reduce(s, upsert(obj(2)));
    expect(s.edits.size).toBe(1);
    s = reduce(s, upsert(obj(1, { w: 300, h: 200 })));
    expect(s.edits.size).toBe(0);
  });
});

describe('drafts', () => {
  it('keeps a draft drawn until the board holds the created object, and selects it', () => {
    const draft: NewObject = { ...obj(0), kind: 'ellipse' };
    let s = run(
      ev(hosting),
      { type: 'draft', key: 1, object: draft },
      { type: 'draft', key: 2, object: draft },
    );
    s = reduce(s, { type: 'created', key: 1, id: 10 });
    expect(s.drafts.map((d) => d.id)).toEqual([10, null]);
    expect(s.selection).toEqual([]); // not on the board yet
    s = reduce(s, upsert(obj(10)));
    expect(s.drafts.map((d) => d.key)).toEqual([2]);
    expect(s.selection).toEqual([10]);
    s = reduce(s, { type: 'draftFailed', key: 2 });
    expect(s.drafts).toEqual([]);
  });

  it('drops a draft at once when the object arrived before the reply', () => {
    const draft: NewObject = { ...obj(0) };
    const s = run(ev(hosting), { type: 'draft', key: 1, object: draft }, upsert(obj(4)), {
      type: 'created',
      key: 1,
      id: 4,
    });
    expect(s.drafts).toEqual([]);
    expect(s.selection).toEqual([4]);
  });
});

describe('editing a draft (provisional id)', () => {
  const note: NewObject = { ...obj(0), kind: 'note' };

  it('opens under the provisional id, selects nothing yet, and goes on under the real id', () => {
    let s = run(ev(hosting), { type: 'draft', key: 3, object: note }, { type: 'editing', id: -3 });
    expect(s.editing).toBe(-3);
    expect(s.selection).toEqual([]);
    const opened = s.editKey;
    s = reduce(s, { type: 'created', key: 3, id: 30 });
    expect(s.editing).toBe(30);
    expect(s.editKey).toBe(opened);
    s = reduce(s, upsert(obj(30, { kind: 'note' })));
    expect(s.editing).toBe(30);
    expect(s.selection).toEqual([30]);
    // Another object opening is another opening; the same one again is not.
    s = reduce(s, { type: 'editing', id: 30 });
    expect(s.editKey).toBe(opened);
    s = reduce(s, upsert(obj(31, { kind: 'note' })));
    s = reduce(s, { type: 'editing', id: 31 });
    expect(s.editKey).toBe(opened + 1);
  });

  it('a refused draft closes its editor; an edit of a draft shows on it', () => {
    let s = run(ev(hosting), { type: 'draft', key: 1, object: note }, { type: 'editing', id: -1 });
    s = reduce(s, { type: 'edited', id: -1, patch: { text: 'hi', h: 99 } });
    expect(s.drafts[0]?.object).toMatchObject({ text: 'hi', h: 99 });
    s = reduce(s, { type: 'draftFailed', key: 1 });
    expect(s.drafts).toEqual([]);
    expect(s.editing).toBeNull();
  });

  it('a whole board without the draft leaves its editor open', () => {
    let s = run(ev(hosting), { type: 'draft', key: 1, object: note }, { type: 'editing', id: -1 });
    s = reduce(s, ev({ type: 'board', objects: [obj(1)] }));
    expect(s.editing).toBe(-1);
    s = reduce(s, { type: 'created', key: 1, id: 5 });
    s = reduce(s, ev({ type: 'board', objects: [obj(1)] }));
    expect(s.editing).toBe(5);
  });

  it('a new session keeps counting openings', () => {
    let s = run(ev(hosting), { type: 'draft', key: 1, object: note }, { type: 'editing', id: -1 });
    const opened = s.editKey;
    s = reduce(s, ev({ type: 'status', status: { phase: 'ended', reason: 'left', detail: '' } }));
    s = reduce(s, ev(hosting));
    expect(s.editing).toBeNull();
    expect(s.editKey).toBe(opened);
  });
});

describe('a host that goes away', () => {
  const joinedStatus = {
    phase: 'joined',
    address: '10.0.0.2:7350',
    hostName: 'Ana',
    you: 3,
    received: 1,
    total: 1,
  } as const;
  const joined: ApiEvent = { type: 'status', status: joinedStatus };
  const away = (attempt: number): ApiEvent => ({
    type: 'status',
    status: { ...joinedStatus, reconnecting: { attempt } },
  });
  const me: Participant = {
    id: 3,
    name: 'Ben',
    color: 0,
    role: 'editor',
    isHost: false,
    isSelf: true,
    rttMs: null,
    idleMs: 0,
  };

  it('keeps the board and the panels, read-only, while reconnecting, and editable when back', () => {
    let s = run(
      ev({ type: 'status', status: { phase: 'connecting', address: '10.0.0.2:7350' } }),
      ev(joined),
      ev({ type: 'participants', list: [me] }),
      ev({ type: 'board', objects: [obj(1)] }),
      { type: 'panel', panel: 'chat', open: true },
    );
    expect(canEdit(s)).toBe(true);
    s = reduce(s, ev(away(0)));
    s = reduce(s, ev(away(2)));
    expect([hostAway(s), canEdit(s), s.board.size, s.panels.has('chat')]).toEqual([
      true,
      false,
      1,
      true,
    ]);
    s = reduce(s, ev(joined));
    expect([hostAway(s), canEdit(s)]).toEqual([false, true]);
  });

  it('remembers the last session was a join that got onto the board, after it ends', () => {
    let s = run(ev({ type: 'status', status: { phase: 'connecting', address: '10.0.0.2:7350' } }));
    expect(s.lastSession).toEqual({ kind: 'join', reached: false });
    s = reduce(s, ev(joined));
    s = reduce(
      s,
      ev({ type: 'status', status: { phase: 'ended', reason: 'timeout', detail: '' } }),
    );
    expect(s.lastSession).toEqual({ kind: 'join', reached: true });
    s = reduce(s, ev(hosting));
    expect(s.lastSession).toEqual({ kind: 'host', reached: true });
  });
});

describe('own deletes and refusals (prediction, taken back)', () => {
  const board = ev({ type: 'board', objects: [obj(1), obj(2), obj(3)] });

  it("a delete is gone at once and stays gone until the host's delete, through updates and a whole board", () => {
    let s = run(ev(hosting), board, { type: 'select', ids: [1, 2] });
    s = reduce(s, { type: 'removed', ids: [1, 2] });
    expect([...s.board.keys()]).toEqual([3]);
    expect(s.selection).toEqual([]);
    // An update of it sent before the host had the delete must not bring it back, nor a resync.
    s = reduce(s, upsert(obj(1, { x: 40 })));
    s = reduce(s, ev({ type: 'board', objects: [obj(1, { x: 40 }), obj(2), obj(3)] }));
    expect([...s.board.keys()]).toEqual([3]);
    // The host's delete settles it: nothing left to put back.
    s = reduce(s, ev({ type: 'objects', upserts: [], deletes: [1, 2] }));
    expect(s.removed.size).toBe(0);
    s = reduce(s, ev({ type: 'refused', cmd: 'delete', id: 1 }));
    expect([...s.board.keys()]).toEqual([3]);
  });

  it('a refused delete puts the object back as the board last had it', () => {
    let s = run(ev(hosting), board, { type: 'removed', ids: [2] });
    s = reduce(s, upsert(obj(2, { x: 77 })));
    expect(s.board.has(2)).toBe(false);
    s = reduce(s, ev({ type: 'refused', cmd: 'delete', id: 2 }));
    expect(s.board.get(2)?.x).toBe(77);
    expect(s.removed.size).toBe(0);
  });

  it("a refused edit or drop takes back this user's prediction of that object only", () => {
    let s = run(
      ev(hosting),
      board,
      { type: 'edited', id: 1, patch: { w: 50 } },
      { type: 'edited', id: 2, patch: { w: 60 } },
      { type: 'moved', id: 3, x: 9, y: 9 },
    );
    s = reduce(s, ev({ type: 'refused', cmd: 'edit', id: 1 }));
    expect([...s.edits.keys()]).toEqual([2]);
    s = reduce(s, ev({ type: 'refused', cmd: 'drop', id: 3 }));
    expect(s.moves.size).toBe(0);
    const shown = s.board.get(1);
    expect(shown && shownObject(s, shown).w).toBe(10);
  });

  it('undo and redo availability follows the core', () => {
    let s = run(ev(hosting));
    expect([s.canUndo, s.canRedo]).toEqual([false, false]);
    s = reduce(s, ev({ type: 'history', canUndo: true, canRedo: false }));
    expect([s.canUndo, s.canRedo]).toEqual([true, false]);
  });
});

describe('chat and notices', () => {
  it('counts unread messages from others while the panel is closed', () => {
    let s = run(
      ev(hosting),
      ev({ type: 'chat', message: chat(1, 2) }),
      ev({ type: 'chat', message: chat(2, ME) }),
    );
    expect(s.unread).toBe(1);
    s = reduce(s, { type: 'panel', panel: 'chat', open: true });
    expect(s.unread).toBe(0);
    s = reduce(s, ev({ type: 'chat', message: chat(3, 2) }));
    expect(s.unread).toBe(0);
    expect(s.chat.map((m) => m.seq)).toEqual([1, 2, 3]);
  });

  it('turns notices into toasts, keeping the newest five', () => {
    let s = INITIAL_STATE;
    for (let i = 0; i < 7; i++) s = reduce(s, ev({ type: 'notice', level: 'warn', text: `n${i}` }));
    expect(s.toasts.map((t) => t.text)).toEqual(['n2', 'n3', 'n4', 'n5', 'n6']);
    const first = s.toasts[0];
    if (first) s = reduce(s, { type: 'dismissToast', id: first.id });
    expect(s.toasts).toHaveLength(4);
  });
});

describe('stats', () => {
  it('keeps the latest snapshot and a 60 s history', () => {
    let s = INITIAL_STATE;
    for (let t = 0; t <= 100_000; t += 250)
      s = reduce(s, ev({ type: 'stats', stats: stats(t, t / 1000) }));
    expect(s.stats?.at).toBe(100_000);
    expect(s.history.t[0]).toBe(100 - HISTORY_SECONDS);
    expect(s.history.t.at(-1)).toBe(100);
    expect(s.history.kbpsIn).toHaveLength(s.history.t.length);
  });

  it('starts the history afresh if the core restarted', () => {
    const h = appendStats(
      appendStats(appendStats({ t: [], kbpsIn: [], kbpsOut: [] }, stats(5000, 1)), stats(6000, 1)),
      stats(100, 1),
    );
    expect(h.t).toEqual([0.1]);
  });
});

describe('ui', () => {
  it('clears the selection when a drawing tool is picked', () => {
    let s = run(ev(hosting), ev({ type: 'board', objects: [obj(1)] }), {
      type: 'select',
      ids: [1],
    });
    s = reduce(s, { type: 'tool', tool: 'rect' });
    expect(s.selection).toEqual([]);
    expect(s.tool).toBe('rect');
  });

  it('keeps the same state object for no-op ghost and link updates', () => {
    const s = reduce(INITIAL_STATE, { type: 'ghosted', ids: new Set() });
    expect(s).toBe(INITIAL_STATE);
  });

  it('notifies subscribers only on change', () => {
    const store = new Store();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    store.dispatch({ type: 'bridge', bridge: 'open' });
    store.dispatch({ type: 'bridge', bridge: 'lost' });
    off();
    store.dispatch({ type: 'bridge', bridge: 'open' });
    expect(calls).toBe(1);
  });

  it('formats idle times', () => {
    expect(formatIdle(500)).toBe('active');
    expect(formatIdle(30_000)).toBe('idle 30 s');
    expect(formatIdle(600_000)).toBe('idle 10 min');
  });

  it('keeps participants as sent', () => {
    const p: Participant = {
      id: 2,
      name: 'Ada',
      color: 1,
      role: 'editor',
      isHost: false,
      isSelf: false,
      rttMs: 20,
      idleMs: 0,
    };
    expect(run(ev({ type: 'participants', list: [p] })).participants).toEqual([p]);
  });
});
