import { describe, expect, it } from 'vitest';
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';
import type { OtSplice, TextOp } from '../../shared/text-ot';
import { applyOp, OtLink, spliceOp, transformIndex } from '../../shared/text-ot';
import { Rng } from '../net/rng';
import { HostText, LOCAL_EDITOR } from './host-text';
import { PeerText } from './peer-text';

// Property test of co-editing runs (otsplit): the host's and the peers' real co-editing (HostText, PeerText) wired
// by in-order message queues that a seeded RNG delivers at random, without the network stack, so thousands of
// seeds are cheap. Three or four users, each an editor as the renderer has it, open the text together (a peer's
// editor from its ghost, so its first keys wait for the host's sync, which may bring others' keys) and each types
// a run at the shared place, the end of the text. Every replica converges, every key is there once, and every
// run a user typed at one caret is still one piece. With `jumps`, carets also move to other shared places (the
// start, or just after one of the first characters) mid-way: a known gap, below.

const ID: ObjectId = 7;
const BASE = 'abcde';

/** One direction of one hop: delivered in order, when the RNG says. */
type Queue = (() => void)[];

interface Run {
  readonly user: number;
  readonly keys: string[];
}

/** A user's editor: its text and caret, a Jupiter link to its side, and the side's splices waiting for it. */
class Editor {
  text: string;
  caret: number;
  readonly link = new OtLink(true, true);
  readonly inbox: Queue = [];
  run: Run | undefined;

  constructor(
    readonly user: PeerId,
    base: string,
    private readonly out: (seen: number, s: OtSplice | null) => void,
  ) {
    this.text = base;
    this.caret = base.length;
  }

  /** A splice from its side (null: an ack alone). */
  take(seen: number, by: PeerId, s: OtSplice | null, seed: number): void {
    if (s === null) {
      this.link.ack(seen);
      return;
    }
    const op: TextOp | undefined = this.link.receive({
      seen,
      op: spliceOp(s.at, s.remove, s.insert, by),
    });
    const next = op === undefined ? undefined : applyOp(this.text, op);
    if (op === undefined || next === undefined) throw new Error(`seed ${seed}: editor out of step`);
    this.text = next;
    this.caret = transformIndex(this.caret, op, true);
    this.out(this.link.received, null);
  }

  type(ch: string): void {
    const s = { at: this.caret, remove: 0, insert: ch };
    const op = spliceOp(s.at, 0, ch, this.user);
    this.text = applyOp(this.text, op) ?? this.text;
    this.caret++;
    this.out(this.link.send(op).seen, s);
  }

  /** Moves the caret to a shared place: before the text, or just after its k-th base character. */
  jump(k: number): void {
    let seen = 0;
    this.caret = 0;
    if (k === 0) return;
    for (let i = 0; i < this.text.length; i++)
      if (BASE.includes(this.text[i] ?? '') && ++seen === k) this.caret = i + 1;
  }
}

/** One seeded session: `peers` peers and the host, every user typing. */
function typeRuns(seed: number, peers: number, jumps: boolean): void {
  const r = new Rng(seed);
  let board = BASE;
  const ghost: string[] = Array.from({ length: peers }, () => BASE);
  const queues: Queue[] = [];
  const queue = (): Queue => {
    const q: Queue = [];
    queues.push(q);
    return q;
  };
  const toPeer = Array.from({ length: peers }, queue);
  const toHost = Array.from({ length: peers }, queue);
  const ghostTo = Array.from({ length: peers }, queue);
  const editors: (Editor | undefined)[] = [];
  const editorOut: Queue[] = Array.from({ length: peers + 1 }, queue);
  const host: HostText = new HostText({
    get: (id) => (id === ID ? ({ id, text: board } as BoardObject) : undefined),
    commit: (_editor, _id, text) => {
      board = text;
      for (let k = 0; k < peers; k++) ghostTo[k]?.push(() => (ghost[k] = text));
      return undefined;
    },
    send: (editor, _id, seen, by, s) => {
      if (editor === LOCAL_EDITOR) {
        const e = must(editors[0], seed);
        e.inbox.push(() => e.take(seen, by, s, seed));
        return;
      }
      const p = must(peerTexts[editor - 1], seed);
      must(toPeer[editor - 1], seed).push(() =>
        s === null ? p.onAck(ID, seen) : p.onSplice(ID, seen, by, s),
      );
    },
    sync: (editor, _id, text) =>
      must(toPeer[editor - 1], seed).push(() => must(peerTexts[editor - 1], seed).onSync(ID, text)),
    dropped: () => {
      throw new Error(`seed ${seed}: a link was dropped`);
    },
  });
  const peerTexts = Array.from({ length: peers }, (_, k) => {
    const me = k + 1;
    const up = must(toHost[k], seed);
    return new PeerText({
      me: () => me,
      ghostText: () => ghost[k],
      show: () => undefined,
      open: () => up.push(() => host.open(me, ID)),
      close: () => up.push(() => host.close(me, ID)),
      send: (_id, seen, s) =>
        up.push(() => (s === null ? host.ack(me, ID, seen) : host.edit(me, ID, seen, s))),
      toEditor: (_id, seen, by, s) => {
        const e = must(editors[me], seed);
        e.inbox.push(() => e.take(seen, by, s, seed));
      },
    });
  });
  const open = (user: number): Editor => {
    const out = must(editorOut[user], seed);
    if (user === 0) {
      const e = new Editor(0, board, (seen, s) =>
        out.push(() => (s === null ? host.ack(0, ID, seen) : host.edit(0, ID, seen, s))),
      );
      editors[0] = e;
      host.open(LOCAL_EDITOR, ID, e.text);
      return e;
    }
    const p = must(peerTexts[user - 1], seed);
    const e = new Editor(user, must(ghost[user - 1], seed), (seen, s) =>
      out.push(() => (s === null ? p.editorAck(ID, seen) : void p.editorEdit(ID, seen, s))),
    );
    editors[user] = e;
    p.openEditor(ID, e.text);
    return e;
  };

  const users = peers + 1;
  const runs: Run[] = [];
  for (let u = 0; u < users; u++) open(u);
  let nextKey = 0x4e00;
  const deliver = (q: Queue | undefined): void => q?.shift()?.();
  for (let step = 0; step < 400; step++) {
    const u = r.int(users);
    const e = must(editors[u], seed);
    const roll = r.next();
    if (roll < 0.35) {
      if (e.run === undefined || (jumps && r.next() < 0.06)) {
        if (e.run !== undefined) e.jump(r.int(3));
        e.run = { user: u, keys: [] };
        runs.push(e.run);
      }
      const ch = String.fromCharCode(nextKey++);
      e.run.keys.push(ch);
      e.type(ch);
    } else if (roll < 0.45) {
      host.tick();
      for (const p of peerTexts) p.tick();
    } else {
      const all = [...queues, ...editors.map((x) => x?.inbox)];
      deliver(all[r.int(all.length)]);
    }
  }
  // Everything arrives: deliver until every queue is empty and the acks are told.
  for (let round = 0; round < 100; round++) {
    host.tick();
    for (const p of peerTexts) p.tick();
    const all = [...queues, ...editors.map((x) => x?.inbox ?? [])];
    if (all.every((q) => q.length === 0)) break;
    for (const q of all) while (q.length > 0) deliver(q);
  }

  const where = `seed ${seed}, ${users} users`;
  expect(host.counters, where).toEqual({ notOpen: 0, outOfStep: 0, takenBack: 0, overflowed: 0 });
  expect(
    Array.from(board)
      .filter((c) => BASE.includes(c))
      .join(''),
    where,
  ).toBe(BASE);
  expect(host.textOf(ID), where).toBe(board);
  for (let k = 0; k < peers; k++) expect(peerTexts[k]?.textOf(ID, ''), where).toBe(board);
  for (const e of editors) expect(e?.text, where).toBe(board);
  const typed = runs.flatMap((run) => run.keys);
  expect(typed.length, where).toBeGreaterThan(50);
  expect(
    Array.from(board)
      .filter((c) => !BASE.includes(c))
      .sort()
      .join(''),
    where,
  ).toBe([...typed].sort().join(''));
  for (const run of runs)
    if (!board.includes(run.keys.join('')))
      throw new Error(
        `${where}: user ${run.user}'s run ${run.keys.join('')} is split in ${board}` +
          DEBUG(runs, board),
      );
}

const DEBUG = (runs: Run[], board: string): string => {
  const who = new Map<string, string>();
  runs.forEach((run, i) => run.keys.forEach((c, j) => who.set(c, `u${run.user}r${i}k${j}`)));
  return (
    '\n' +
    Array.from(board)
      .map((c) => who.get(c) ?? c)
      .join(' ')
  );
};

function must<T>(v: T | undefined, seed: number): T {
  if (v === undefined) throw new Error(`seed ${seed}: missing`);
  return v;
}

describe('co-editing runs', () => {
  it('three users typing at one place: every user’s run stays whole, every replica converges (1,200 seeds)', () => {
    for (let seed = 1; seed <= 1200; seed++) typeRuns(31_000 + seed, 2, false);
  });

  it('four users typing at one place: every user’s run stays whole, every replica converges (1,200 seeds)', () => {
    for (let seed = 1; seed <= 1200; seed++) typeRuns(32_000 + seed, 3, false);
  });
});

describe('co-editing runs, known gap', () => {
  // A caret moved onto a place where someone else is starting a run at once: the first keys of the two runs are
  // ordered by role on an editor's link (its user's first) and by author on the host's links, and a later key
  // of one can then be ordered against the other's first key the other way round, splitting a run. Fixing it
  // needs a rule every hop applies alike, e.g. an insert carrying whether it continues its author's run (the
  // report says how); until then these pinned seeds show it. `fails`: it turns red once they pass.
  it.fails('runs started at a shared place at once can still split (seeds 33023, 33222)', () => {
    typeRuns(33_023, 2, true);
    typeRuns(33_222, 2, true);
  });
});
