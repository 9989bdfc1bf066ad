import { describe, expect, it } from 'vitest';
import type { ObjectId, PeerId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import type { TextOp } from '../../shared/text-ot';
import { applyOp, OtLink, spliceOp, transformIndex } from '../../shared/text-ot';
import type { Rng } from '../net/rng';
import { NO_IMPAIRMENT } from '../net/impairment';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import type { SimSession } from './testing/sim-session';
import { makeSimSession } from './testing/sim-session';

// Text co-editing over the simulated network (textot): two and three users type into one note at once, each
// through an editor that is a Jupiter client of its own side (as the renderer is), under loss, jitter and
// reordering. Every keystroke is kept, every editor, board and the host converge, and an undo of one's own typing
// still takes it back.

const lossy = { ...NO_IMPAIRMENT, loss: 0.1, delayMs: 40, jitterMs: 30, reorder: 0.1 };

/** Each user's keys: letters no one else types, so whose key is whose shows in the text. */
const KEYS = ['bcdefghi', 'IJKLMNOP', '12345678'];

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

async function run(s: SimSession, until: number): Promise<void> {
  while (s.sim.now < until) {
    s.sim.runUntil(Math.min(until, s.sim.now + 20));
    await flush();
  }
}

/**
 * A user's editor as the renderer has it: its own text and caret, a Jupiter link to its side's controls, and the
 * side's splices for it delivered after a random delay (the IPC hop), in order.
 */
class Editor {
  text: string;
  caret: number;
  readonly link = new OtLink(true, true);
  private readonly inbox: { seen: number; by: PeerId; op: TextOp | null }[] = [];
  /** What this user typed and did not delete, in order (its keys only). */
  readonly kept: string[] = [];

  constructor(
    readonly controls: Controls,
    readonly id: ObjectId,
    base: string,
    readonly keys: string,
    now: number,
    private readonly backspaces: boolean,
  ) {
    this.text = base;
    this.caret = base.length;
    controls.on((e) => {
      if (e.type !== 'text-splice' || e.id !== id) return;
      const s = e.splice;
      this.inbox.push({
        seen: e.seen,
        by: e.by,
        op: s === null ? null : spliceOp(s.at, s.remove, s.insert, e.by),
      });
    });
    controls.textOpen(now, id, base);
  }

  /** Takes what the side sent (acking it with a no-op splice now and then). */
  receive(now: number, r: Rng): void {
    let took = false;
    for (let m = this.inbox.shift(); m !== undefined; m = this.inbox.shift()) {
      if (m.op === null) {
        this.link.ack(m.seen);
        continue;
      }
      const op = this.link.receive({ seen: m.seen, op: m.op });
      if (op === undefined) throw new Error('editor link out of step');
      const next = applyOp(this.text, op);
      if (next === undefined) throw new Error('a splice does not fit the editor');
      this.text = next;
      this.caret = transformIndex(this.caret, op, true);
      took = true;
      if (r.next() < 0.3) break;
    }
    if (took) this.send(now, 0, 0, '');
  }

  /** A key: mostly typing at the caret, sometimes a backspace of one of our own keys just before it. */
  key(now: number, r: Rng): void {
    const before = this.text[this.caret - 1];
    if (this.backspaces && r.next() < 0.15 && before !== undefined && this.keys.includes(before)) {
      this.forgetBeforeCaret();
      this.send(now, this.caret - 1, 1, '');
      this.caret--;
      return;
    }
    const ch = this.keys[this.kept.length % this.keys.length] ?? '?';
    this.send(now, this.caret, 0, ch);
    this.caret++;
    this.kept.push(ch);
  }

  /** Forgets the kept key just before the caret: ours, the how-many-th of ours before it. */
  private forgetBeforeCaret(): void {
    let i = -1;
    for (const c of this.text.slice(0, this.caret)) if (this.keys.includes(c)) i++;
    this.kept.splice(i, 1);
  }

  private send(now: number, at: number, remove: number, insert: string): void {
    const op = spliceOp(at, remove, insert, -1);
    const next = applyOp(this.text, op);
    if (next === undefined) throw new Error('the editor made a splice that does not fit');
    this.text = next;
    const m = this.link.send({ by: this.controls.you ?? 0, parts: op.parts });
    this.controls.textEdit(now, this.id, m.seen, { at, remove, insert });
  }
}

async function coEdit(seed: number, peers: number, backspaces = true): Promise<void> {
  const s = makeSimSession({ seed, conditions: lossy });
  for (let k = 0; k < peers; k++) s.addPeer(`P${k}`);
  await run(s, 2000);
  const users = [hostControls(s.host), ...s.peers.map((p) => peerControls(p))].slice(0, peers + 1);
  const made = await users[0]?.create(s.sim.now, newRect({ kind: 'note', text: 'start' }));
  if (typeof made !== 'number') throw new Error('no note');
  const id = made;
  await run(s, s.sim.now + 1500);
  // The host and the first peer type; with three users the second peer too.
  const typists = users.slice(0, Math.min(users.length, 3));
  const editors = typists.map(
    (c, k) => new Editor(c, id, c.board.get(id)?.text ?? '', KEYS[k] ?? '', s.sim.now, backspaces),
  );
  const r = s.rng;
  for (let step = 0; step < 120; step++) {
    for (const e of editors) {
      if (r.next() < 0.6) e.key(s.sim.now, r);
      e.receive(s.sim.now, r);
    }
    await run(s, s.sim.now + 10 + Math.floor(r.next() * 30));
  }
  // Let everything arrive (loss is recovered), the editors take the rest, and the links settle.
  for (let k = 0; k < 20; k++) {
    await run(s, s.sim.now + 200);
    for (const e of editors) e.receive(s.sim.now, r);
  }
  const where = `seed ${seed}`;
  const hostText = s.host.board.get(id)?.text ?? '';
  for (const e of editors) {
    expect(e.text, where).toBe(hostText);
    // Every key this user kept is there, in the order typed.
    expect(
      Array.from(hostText)
        .filter((c) => e.keys.includes(c))
        .join(''),
      where,
    ).toBe(e.kept.join(''));
    expect(e.kept.length, where).toBeGreaterThan(10);
    // Typing only, with carets that stay before someone else's typing at them (as the editor's do), each user's
    // keys stay together. (A backspace can leave a caret between someone else's keys: what is typed there is not.)
    if (!backspaces) expect(hostText, where).toContain(e.kept.join(''));
  }
  expect(hostText.includes('start'), where).toBe(true);
  for (const p of s.peers) expect(p.board.get(id)?.text, where).toBe(hostText);
  // The editors close; the peers' texts close once settled, and every board still agrees.
  for (const e of editors) e.controls.textClose(s.sim.now, id);
  await run(s, s.sim.now + 2000);
  for (const p of s.peers) {
    expect(p.texts.isOpen(id), where).toBe(false);
    expect(p.board.get(id)?.text, where).toBe(hostText);
  }
  expect(s.host.texts.editors(id), where).toEqual([]);
  expect(s.host.texts.counters, where).toEqual({
    notOpen: 0,
    outOfStep: 0,
    takenBack: 0,
    overflowed: 0,
  });
}

describe('text co-editing over the session', () => {
  it('two users typing into one note at once, under loss and reordering, keep every key and converge', async () => {
    for (let seed = 1; seed <= 12; seed++) await coEdit(19_500 + seed, 1);
  });

  it('three users typing into one note at once keep every key and converge', async () => {
    for (let seed = 1; seed <= 12; seed++) await coEdit(19_600 + seed, 2);
  });

  it('users typing at one place at once each keep their words whole', async () => {
    for (let seed = 1; seed <= 8; seed++) await coEdit(19_700 + seed, 1 + (seed % 2), false);
  });

  it('a peer typing while its text syncs keeps its keys at its caret, not after the others’ (seed 29713)', async () => {
    // Its early keys went after everything the sync brought, so past the end of a run someone was still typing,
    // and that user's next key came after them: a word split in two.
    await coEdit(29_713, 2, false);
  });
});

describe('undo of co-edited typing', () => {
  it("takes back one's own typing in one step, and never someone else's keys", async () => {
    const s = makeSimSession({ seed: 19_801, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const host = hostControls(s.host);
    const [ana, ben] = s.peers.map((p) => peerControls(p));
    if (ana === undefined || ben === undefined) throw new Error('users');
    const made = await host.create(s.sim.now, newRect({ kind: 'note', text: 'note' }));
    if (typeof made !== 'number') throw new Error('no note');
    const id = made;
    await run(s, s.sim.now + 1500);
    const texts = (): (string | undefined)[] => [
      s.host.board.get(id)?.text,
      ...s.peers.map((p) => p.board.get(id)?.text),
    ];
    const r = s.rng;
    const typeInto = async (c: Controls, keys: string, n: number): Promise<Editor> => {
      const e = new Editor(c, id, c.board.get(id)?.text ?? '', keys, s.sim.now, false);
      for (let k = 0; k < n; k++) {
        e.key(s.sim.now, r);
        e.receive(s.sim.now, r);
        await run(s, s.sim.now + 15);
      }
      await run(s, s.sim.now + 1500);
      e.receive(s.sim.now, r);
      c.textClose(s.sim.now, id);
      await run(s, s.sim.now + 1500);
      return e;
    };
    await typeInto(ana, 'bcdefghi', 6);
    for (const t of texts()) expect(t).toBe('notebcdefg');
    // Ana's typing is one step: one undo takes it all back, everywhere; redo brings it again.
    expect(await ana.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const t of texts()) expect(t).toBe('note');
    expect(await ana.redo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const t of texts()) expect(t).toBe('notebcdefg');
    // Ben types after her: her undo leaves his keys (the text is no longer as her step left it).
    await typeInto(ben, 'IJKLMNOP', 4);
    for (const t of texts()) expect(t).toBe('notebcdefgIJKL');
    await ana.undo(s.sim.now);
    await run(s, s.sim.now + 1500);
    for (const t of texts()) expect(t).toContain('IJKL');
    // Ben's own undo takes back his.
    expect(await ben.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const t of texts()) expect(t).not.toContain('IJKL');
    expect(new Set(texts()).size).toBe(1);
  });
});

describe('hostile co-editing calls', () => {
  it('a splice or ack out of step drops only its sender’s link; a refused splice is taken back; the host keeps one text', async () => {
    const s = makeSimSession({ seed: 19_901, conditions: NO_IMPAIRMENT });
    s.addPeer('Ana');
    const raw = s.addRaw();
    await run(s, 1500);
    raw.rpc.send(raw.proto.hello, { name: 'mallory', viewer: false });
    const host = hostControls(s.host);
    const made = await host.create(s.sim.now, newRect({ kind: 'note', text: 'a😀b' }));
    if (typeof made !== 'number') throw new Error('no note');
    const id = made;
    await run(s, s.sim.now + 1000);
    const synced: string[] = [];
    const closed: number[] = [];
    const splices: string[] = [];
    raw.rpc.on(raw.proto.textSync, (a) => synced.push(a.text));
    raw.rpc.on(raw.proto.textClose, (a) => closed.push(a.id));
    raw.rpc.on(raw.proto.textSplice, (a) => splices.push(`${a.at},${a.remove},${a.insert}`));
    const open = async (): Promise<void> => {
      raw.rpc.send(raw.proto.textOpen, { id });
      await run(s, s.sim.now + 300);
    };
    const edit = async (
      seen: number,
      at: number,
      remove: number,
      insert: string,
    ): Promise<void> => {
      raw.rpc.send(raw.proto.textEdit, { id, seen, at, remove, insert });
      await run(s, s.sim.now + 300);
    };
    // Ana edits alongside the whole time: her text must never suffer.
    const ana = new Editor(
      peerControls(must(s.peers[0])),
      id,
      'a😀b',
      'IJKLMNOP',
      s.sim.now,
      false,
    );
    await open();
    expect(synced).toEqual(['a😀b']);
    const c = s.host.texts.counters;
    // Past the end, cutting the surrogate pair, a `seen` of splices never sent: each drops the link (told).
    await edit(0, 9, 0, 'x');
    expect([c.outOfStep, closed.length]).toEqual([1, 1]);
    await open();
    await edit(0, 2, 0, 'x');
    expect([c.outOfStep, closed.length]).toEqual([2, 2]);
    await open();
    await edit(5, 0, 0, 'x');
    expect([c.outOfStep, closed.length]).toEqual([3, 3]);
    // A splice after the drop is not the link's: dropped quietly, counted.
    await edit(0, 0, 0, 'x');
    expect(c.notOpen).toBe(1);
    // An ack of splices never sent drops the link too.
    await open();
    raw.rpc.send(raw.proto.textAck, { id, seen: 7 });
    await run(s, s.sim.now + 300);
    expect([c.outOfStep, closed.length]).toEqual([4, 4]);
    // Past MAX_TEXT_BYTES (1,000 bytes): refused, and taken back for the sender alone (a splice undoing it).
    await open();
    await edit(0, 0, 0, 'x'.repeat(600));
    await edit(0, 0, 0, 'é'.repeat(300));
    expect(c.takenBack).toBe(1);
    expect(splices.at(-1)).toBe(`0,300,`);
    expect(s.host.board.get(id)?.text).toBe(`${'x'.repeat(600)}a😀b`);
    // Ana types on and everyone agrees.
    for (let k = 0; k < 5; k++) {
      ana.key(s.sim.now, s.rng);
      await run(s, s.sim.now + 50);
      ana.receive(s.sim.now, s.rng);
    }
    await run(s, s.sim.now + 1000);
    ana.receive(s.sim.now, s.rng);
    expect(ana.text).toBe(s.host.board.get(id)?.text);
    expect(s.peers[0]?.board.get(id)?.text).toBe(ana.text);
    expect(s.host.texts.textOf(id)).toBe(ana.text);
    // The host drops Ana's link (as for a link out of step): her side opens it again and types on, and every
    // copy agrees again.
    const toAna = must(s.host.peerConnections()[0]).stack.events.rpc;
    toAna.send(s.host.proto.textClose, { id });
    for (let k = 0; k < 5; k++) {
      ana.key(s.sim.now, s.rng);
      await run(s, s.sim.now + 50);
      ana.receive(s.sim.now, s.rng);
    }
    await run(s, s.sim.now + 1000);
    ana.receive(s.sim.now, s.rng);
    expect(s.peers[0]?.texts.resyncs).toBe(1);
    expect(ana.text).toContain('IJKLMNOPIJ');
    expect(ana.text).toBe(s.host.board.get(id)?.text);
    expect(s.peers[0]?.board.get(id)?.text).toBe(ana.text);
  });
});

function must<T>(v: T | undefined): T {
  if (v === undefined) throw new Error('missing');
  return v;
}
