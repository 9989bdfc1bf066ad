// Per-user undo and redo for the local user's Controls (host or joined peer alike): records each of the user's own
// operations with the state it replaced, and sends an undo or redo as ordinary operations computed against the
// board at that moment (board/history.ts has the rules). Knows nothing of the wire, stdin or the UI.
import type { BoardObject, NewObject, ObjectId } from '../../shared/board';
import type { Part, Step } from '../board';
import { ABSENT, fieldsSide, History, objectSide, zOf } from '../board';
import type { Controls } from './controls';

/** What an undo or redo did: sent the operations of a step, or found no step that still applies. */
export type UndoOutcome = 'done' | 'nothing';

/** The Controls members the history adds (the rest are the session's own). */
export type HistoryMembers = 'undo' | 'redo' | 'group' | 'canUndo' | 'canRedo';

/**
 * Wraps a session's controls: `restore` brings back an object this user deleted, as the host had it (the host
 * checks it may). A drag
 * (grab … drop, of one object or of a selection: every drop until the last open grab closes, with the edits of
 * held objects between them: a resize or rotate) is one step; typing
 * into one text is one step until anything else is recorded; a group (group()) is one step. A restack (a
 * selection's, under one step number) is one step: its undo puts each object back at the z it had (`place`), its
 * redo restacks it afresh.
 */
export function withHistory(
  base: Omit<Controls, HistoryMembers>,
  restore: (now: number, id: ObjectId) => void,
): Controls {
  let history = new History();
  const pending = new Set<Promise<unknown>>();
  /** The drag gesture going on: the grabs not dropped yet, where each object was at its grab, and its step. */
  let gesture: {
    open: Set<ObjectId>;
    start: Map<ObjectId, { x: number; y: number }>;
    step?: Step;
  } = { open: new Set(), start: new Map() };
  /** The text being typed into, as this user's splices left it (the replica may not show them yet). */
  let typing: { id: ObjectId; text: string; step: Step | undefined } | undefined;
  /** The newest create given a step (a paste), and the history step it went into. */
  let pasting: { step: number; into: Step } | undefined;
  /** restack: the newest restack given a step (a selection's), and the history step it went into. */
  let restackRun: { step: number; into: Step } | undefined;
  const board = base.board;
  /**
   * Objects this user's own creates, deletes and restores have made or removed on the host but not (yet) on this
   * side's board (a joined peer's board is the host's, a round trip late): an object as created, or null as
   * deleted. An undo right after a delete must restore, not pass the step over as if someone else had removed it.
   * Cleared when the board shows it, or when the host refuses that kind of operation.
   */
  const expected = new Map<ObjectId, BoardObject | null>();
  /**
   * This user's restacks (made or redone) whose new z the board does not show yet, by object: the part learns it
   * from the board (at once on the host, a round trip later on a peer); a refused one is forgotten.
   */
  const restacking = new Map<ObjectId, Part>();
  board.subscribe((c) => {
    const id = c.type === 'upsert' ? c.object.id : c.id;
    if ((c.type === 'upsert') === (expected.get(id) !== null)) expected.delete(id);
    const part = restacking.get(id);
    if (part === undefined) return;
    if (c.type === 'delete') restacking.delete(id);
    else if (c.object.z !== zOf(part.before)) {
      part.after = fieldsSide({ z: c.object.z });
      restacking.delete(id);
    }
  });
  /** Restacks the object, its part learning the new z from the board. */
  const restack = (now: number, id: ObjectId, front: boolean, part: Part): void => {
    restacking.set(id, part);
    base.restack(now, id, front);
  };
  base.on((e) => {
    if (e.type !== 'refused') return;
    // A grab with no drop to come must not hold the gesture open (the next drag would join this one's step).
    if (e.cmd === 'grab') gesture.open.clear();
    const restacked = e.cmd === 'restack' && e.id !== undefined ? restacking.get(e.id) : undefined;
    if (restacked !== undefined && e.id !== undefined) {
      restacking.delete(e.id);
      history.forget(restacked);
    }
    const gone = e.cmd === 'delete';
    if (gone || e.cmd === 'create' || e.cmd === 'restore')
      for (const [id, o] of expected) if ((o === null) === gone) expected.delete(id);
  });
  const lookup = (id: ObjectId): BoardObject | undefined =>
    expected.has(id) ? (expected.get(id) ?? undefined) : board.get(id);
  /** A create the host answered may not be on this side's board yet; a restore sent now is not. */
  const expectMade = (id: ObjectId, fields: NewObject, sentNow: boolean): void => {
    if (sentNow || board.get(id) === undefined)
      expected.set(id, { ...fields, id, z: 0, lockedBy: null, pinned: 0 });
  };

  const record = (part: Part, into?: Step): Step => {
    typing = undefined;
    return history.record(part, into);
  };

  const run = async (now: number, way: 'undo' | 'redo'): Promise<UndoOutcome> => {
    // A create still waiting for its id is part of the history only once the host answers.
    await Promise.all(pending);
    typing = undefined;
    gesture = { open: new Set(), start: new Map() };
    const ops = way === 'undo' ? history.undo(lookup, base.you) : history.redo(lookup, base.you);
    if (ops === undefined) return 'nothing';
    for (const op of ops) {
      if (op.type === 'patch') base.edit(now, op.id, op.patch);
      else if (op.type === 'pin') base.pin(now, op.id, op.pinned);
      else if (op.type === 'place') {
        // Its restack's new z is no longer worth learning (the board may never show it, only the z put back): a
        // later restack by someone else must not pass for it.
        restacking.delete(op.id);
        base.place(now, op.id, op.z);
      } else if (op.type === 'restack') restack(now, op.id, op.front, op.part);
      else if (op.type === 'delete') {
        expected.set(op.id, null);
        base.remove(now, op.id);
      } else {
        expectMade(op.id, op.fields, true);
        restore(now, op.id);
      }
    }
    return 'done';
  };

  const replaceBoard = base.replaceBoard;
  return {
    ...base,
    // files: a board replaced whole (a file opened, a new board) leaves no step of the old one to undo.
    ...(replaceBoard === undefined
      ? {}
      : {
          replaceBoard: (...args: Parameters<typeof replaceBoard>) => {
            const refused = replaceBoard(...args);
            if (refused === undefined) {
              history = new History();
              gesture = { open: new Set(), start: new Map() };
              typing = undefined;
              pasting = undefined;
              expected.clear();
            }
            return refused;
          },
        }),
    get you() {
      return base.you;
    },
    get participants() {
      return base.participants;
    },
    get hosts() {
      return base.hosts;
    },
    get canUndo() {
      return history.canUndo;
    },
    get canRedo() {
      return history.canRedo;
    },
    create(now, fields, step) {
      const part: Part = {
        id: undefined,
        before: ABSENT,
        after: fieldsSide({ ...fields, points: [...fields.points] }),
      };
      // A paste's creates: one step while it is still the newest.
      const into = step !== undefined && pasting?.step === step ? pasting.into : undefined;
      const recorded = record(part, into);
      pasting = step === undefined ? undefined : { step, into: recorded };
      const made = base.create(now, fields);
      const settled = made.then((r) => {
        pending.delete(settled);
        if (typeof r === 'number') {
          part.id = r;
          expectMade(r, fields, false);
        } else history.forget(part);
      });
      pending.add(settled);
      return made;
    },
    edit(now, id, patch) {
      const cur = board.get(id);
      if (cur !== undefined) {
        const before: Record<string, unknown> = {};
        let changes = false;
        for (const k of Object.keys(patch) as (keyof typeof patch)[]) {
          before[k] = cur[k];
          if (cur[k] !== patch[k]) changes = true;
        }
        const part = { id, before: fieldsSide(before), after: fieldsSide({ ...patch }) };
        // The box growing as its text is typed is part of the typing step.
        const growing =
          typing?.id === id &&
          typing.step === history.top &&
          Object.keys(patch).every((k) => k === 'h');
        const gestureOf = gesture.open.has(id) ? gesture : undefined;
        if (!changes) {
          // Nothing changes: nothing to take back.
        } else if (gestureOf !== undefined) {
          // A resize or rotate is released as an edit, then a drop where the edit put it: one step with the
          // gesture (the drop then moves nothing more).
          gestureOf.step = record(part, gestureOf.step);
          const start = gestureOf.start.get(id);
          if (start !== undefined)
            gestureOf.start.set(id, { x: patch.x ?? start.x, y: patch.y ?? start.y });
        } else if (growing) {
          if (!history.merge(part)) history.record(part, typing?.step);
        } else record(part);
      }
      base.edit(now, id, patch);
    },
    text(now, id, at, remove, insert) {
      const cur = board.get(id);
      if (cur !== undefined) {
        const going = typing?.id === id && typing.step === history.top ? typing : undefined;
        const was = going?.text ?? cur.text;
        // As the host splices: UTF-16 positions, clamped.
        const start = Math.min(at, was.length);
        const text = was.slice(0, start) + insert + was.slice(Math.min(was.length, start + remove));
        const part = { id, before: fieldsSide({ text: was }), after: fieldsSide({ text }) };
        const step = going !== undefined && history.merge(part) ? history.top : record(part);
        typing = { id, text, step };
      }
      base.text(now, id, at, remove, insert);
    },
    textEdit(now, id, seen, splice) {
      // Co-editing: the splice is transformed past what the editor had not seen, so the step is the board's text
      // before and after it. Typing merges into one step only while nobody else changed the text in between (an
      // undo never takes back someone else's keys).
      const was = board.get(id)?.text;
      base.textEdit(now, id, seen, splice);
      const text = board.get(id)?.text;
      if (was === undefined || text === undefined || was === text) return;
      const part = { id, before: fieldsSide({ text: was }), after: fieldsSide({ text }) };
      const going =
        typing?.id === id && typing.step === history.top && typing.text === was
          ? typing
          : undefined;
      const step = going !== undefined && history.merge(part) ? history.top : record(part);
      typing = { id, text, step };
    },
    remove(now, id) {
      const cur = board.get(id);
      if (cur !== undefined) {
        record({ id, before: objectSide(cur), after: ABSENT });
      }
      expected.set(id, null);
      base.remove(now, id);
    },
    restack(now, id, front, step) {
      const cur = board.get(id);
      if (cur === undefined) {
        base.restack(now, id, front);
        return;
      }
      const to = front ? ('front' as const) : ('back' as const);
      const part: Part = { id, before: fieldsSide({ z: cur.z }), after: ABSENT, restack: to };
      // A selection's restacks: one step while it is still the newest.
      const into = step !== undefined && restackRun?.step === step ? restackRun.into : undefined;
      const recorded = record(part, into);
      restackRun = step === undefined ? undefined : { step, into: recorded };
      restack(now, id, front, part);
    },
    pin(now, id, pinned) {
      const cur = board.get(id);
      if (cur !== undefined && (cur.pinned === 1) !== pinned)
        record({
          id,
          before: fieldsSide({ pinned: cur.pinned }),
          after: fieldsSide({ pinned: pinned ? 1 : 0 }),
        });
      base.pin(now, id, pinned);
    },
    grab(now, id) {
      const cur = board.get(id);
      if (gesture.open.size === 0) gesture = { open: new Set(), start: new Map() };
      gesture.open.add(id);
      if (cur !== undefined) gesture.start.set(id, { x: cur.x, y: cur.y });
      base.grab(now, id);
    },
    drop(now, id, x, y) {
      const from = gesture.start.get(id) ?? board.get(id);
      if (from !== undefined && (from.x !== x || from.y !== y)) {
        const part = {
          id,
          before: fieldsSide({ x: from.x, y: from.y }),
          after: fieldsSide({ x, y }),
        };
        gesture.step = record(part, gesture.step);
      }
      gesture.open.delete(id);
      gesture.start.delete(id);
      base.drop(now, id, x, y);
    },
    group(fn) {
      history.begin();
      try {
        return fn();
      } finally {
        history.end();
      }
    },
    undo: (now) => run(now, 'undo'),
    redo: (now) => run(now, 'redo'),
  };
}
