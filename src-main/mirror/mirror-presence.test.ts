import { describe, expect, it } from 'vitest';
import { MAX_PEER_ID } from '../../shared/board';
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { Rng } from '../net/rng';
import { ProtocolError } from '../net/stream/manager';
import { writeEntryHead, writeSectionEnd, writeSectionHeader } from '../net/ghost/ghost-wire';
import type { StreamManager } from '../net/stream/manager';
import type { PresenceChange } from './mirror-presence';
import { MirrorPresence } from './mirror-presence';
import type { ParticipantState } from './participant';
import { blankParticipant, fieldNames, Participant, PARTICIPANT_FIELD } from './participant';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** One packet's ghost section from `from` to `to` (lost when `delivered` is false); its bytes, if any. */
function pump(
  now: number,
  from: StreamManager<unknown>,
  to: StreamManager<unknown>,
  delivered = true,
): Uint8Array | undefined {
  if (from.demand(now) === 'none') return undefined;
  const w = new BitWriter();
  const record = from.write(now, w, 8_000);
  if (record === undefined) return undefined;
  const bytes = w.finish();
  if (delivered) to.read(now, new BitReader(bytes));
  from.notify(now, record, delivered);
  return bytes;
}

function drain(p: MirrorPresence): PresenceChange[] {
  const out: PresenceChange[] = [];
  for (let c = p.poll(); c !== undefined; c = p.poll()) out.push(c);
  return out;
}

/** Mirror 0 and mirror 1, each with the manager of its link to the other. */
function pair(): {
  a: MirrorPresence;
  b: MirrorPresence;
  ab: StreamManager<unknown>;
  ba: StreamManager<unknown>;
} {
  const a = new MirrorPresence(0);
  const b = new MirrorPresence(1);
  return { a, b, ab: a.open(0, 1), ba: b.open(0, 0) };
}

/** A ghost section written by hand: what a broken or hostile mirror could send. */
function section(entries: (w: BitWriter) => void): Uint8Array {
  const w = new BitWriter();
  writeSectionHeader(w, 2);
  entries(w);
  writeSectionEnd(w);
  return w.finish();
}

function packAll(w: BitWriter, s: ParticipantState): void {
  for (const g of Participant.groups) g.pack(w, s);
}

describe('mirror presence', () => {
  it("tells a participant's arrival, its changes with the fields that changed, and its going", () => {
    const { a, b, ab, ba } = pair();
    a.set(3, { name: 'Ann', colorIndex: 4, visible: true, x: 10, y: 20 });
    pump(0, ab, ba);
    expect(drain(b)).toEqual([
      {
        type: 'appeared',
        participant: {
          ...blankParticipant(0, 3),
          name: 'Ann',
          colorIndex: 4,
          visible: true,
          x: 10,
          y: 20,
        },
      },
    ]);
    a.set(3, { x: 11 });
    a.set(3, { tool: 2 });
    pump(16, ab, ba);
    const [changed, ...rest] = drain(b);
    expect(rest).toEqual([]);
    expect(changed?.type === 'changed' && fieldNames(changed.fields)).toEqual(['pointer', 'tool']);
    expect(b.participant(0, 3)).toMatchObject({ x: 11, tool: 2 });
    // Setting what is already set sends nothing.
    a.set(3, { x: 11, tool: 2 });
    expect(ab.demand(32)).toBe('none');
    a.set(3, { dragId: 77, dragX: 5, dragY: 6 });
    pump(48, ab, ba);
    expect(drain(b)).toMatchObject([{ type: 'changed', fields: PARTICIPANT_FIELD.drag }]);
    expect(a.remove(3)).toBe(true);
    expect(a.remove(3)).toBe(false);
    pump(64, ab, ba);
    expect(drain(b)).toEqual([{ type: 'gone', origin: 0, client: 3, reason: 'removed' }]);
    expect([...b.remote()]).toEqual([]);
    // A client leaves and another takes its id before the host polls: one went, another came.
    a.set(4, { name: 'Bo' });
    pump(80, ab, ba);
    drain(b);
    a.remove(4);
    pump(96, ab, ba);
    a.set(4, { name: 'Cy' });
    pump(112, ab, ba);
    expect(drain(b)).toMatchObject([
      { type: 'gone', origin: 0, client: 4, reason: 'removed' },
      { type: 'appeared', participant: { client: 4, name: 'Cy' } },
    ]);
  });

  it('folds changes together until polled: the newest state once, nothing for a visit never polled', () => {
    const { a, b, ab, ba } = pair();
    a.set(1, { x: 1 });
    pump(0, ab, ba);
    expect(drain(b)).toHaveLength(1);
    for (let i = 2; i <= 5; i++) {
      a.set(1, { x: i });
      pump(i * 16, ab, ba);
    }
    expect(drain(b)).toEqual([
      { type: 'changed', participant: b.participant(0, 1), fields: PARTICIPANT_FIELD.pointer },
    ]);
    expect(b.participant(0, 1)?.x).toBe(5);
    a.set(2, { name: 'brief' });
    pump(100, ab, ba);
    a.remove(2);
    pump(116, ab, ba);
    expect(drain(b)).toEqual([]);
  });

  it('resends a lost group only when no later packet carried it (the newest state, never a stale one)', () => {
    const { a, b, ab, ba } = pair();
    a.set(1, { x: 1 });
    pump(0, ab, ba);
    // x = 2 goes out and is lost, but x = 3 follows before the loss is known: x = 2 is never sent again.
    a.set(1, { x: 2 });
    const lost = ab.write(16, new BitWriter(), 8_000);
    a.set(1, { x: 3 });
    pump(32, ab, ba);
    if (lost !== undefined) ab.notify(40, lost, false);
    expect(ab.demand(48)).toBe('none');
    expect(b.participant(0, 1)?.x).toBe(3);
    // x = 4 is lost with nothing newer after it: it goes again.
    a.set(1, { x: 4 });
    pump(48, ab, ba, false);
    expect(ab.demand(64)).not.toBe('none');
    pump(64, ab, ba);
    expect(b.participant(0, 1)?.x).toBe(4);
    const stats = a.stats().links[0]?.ghosts.sent;
    expect(stats?.staleBitsSkipped).toBe(1);
    expect(stats?.restoredBits).toBe(1);
  });

  it("gives a drag in progress, then a visible pointer, the larger share of a link's packets when they can't carry every change", () => {
    /** Each participant's turns over 140 packets of `budget` bits while all of them keep changing. */
    const turns = (budget: number, dragging: boolean): number[] => {
      const { a, b, ab, ba } = pair();
      if (dragging) a.set(1, { visible: true, dragId: 5 });
      a.set(2, { visible: true });
      a.set(3, { visible: false });
      pump(0, ab, ba);
      drain(b);
      const n = new Map<number, number>();
      for (let i = 1; i <= 140; i++) {
        if (dragging) a.set(1, { x: i, dragX: i });
        a.set(2, { x: i });
        a.set(3, { x: i });
        const w = new BitWriter();
        const record = ab.write(i * 16, w, budget);
        if (record !== undefined) {
          ba.read(i * 16, new BitReader(w.finish()));
          ab.notify(i * 16, record, true);
        }
        for (const c of drain(b))
          if (c.type === 'changed')
            n.set(c.participant.client, (n.get(c.participant.client) ?? 0) + 1);
      }
      return [1, 2, 3].map((client) => n.get(client) ?? 0);
    };
    // Room for a drag's update (96 bits and the section's 5) or two pointers' (40 each), not both.
    const [drag = 0, shown = 0, hidden = 0] = turns(110, true);
    expect(drag).toBeGreaterThan(1.5 * shown);
    expect(shown).toBe(hidden);
    // Room for one pointer's update.
    const [, visible = 0, invisible = 0] = turns(60, false);
    expect(visible).toBeGreaterThan(1.5 * invisible);
    expect(invisible).toBeGreaterThan(0);
    console.log(
      `a starved link's turns: drag ${drag} against two pointers ${shown}; visible pointer ${visible} against hidden ${invisible}`,
    );
  });

  it('keeps the layout of a pointer update (golden section)', () => {
    const { a, ab, ba } = pair();
    a.set(3, { name: 'Ann', visible: true });
    pump(0, ab, ba);
    a.set(3, { x: 120, y: -45 });
    const bytes = pump(16, ab, ba);
    // id width 1 (4 bits: 0) · entry 1 · id 0 · update 0 · mask 00100 · pointer (31 bits) · end 0: 44 bits.
    expect(bytes && hex(bytes)).toBe('084e078bfa60');
  });

  it("takes a link's participants away when it closes, and gives them back with a new link", () => {
    const { a, b, ab, ba } = pair();
    a.set(1, { x: 1 });
    a.set(2, { x: 2 });
    pump(0, ab, ba);
    expect(drain(b)).toHaveLength(2);
    b.close(10, 0);
    a.close(10, 1);
    expect(drain(b)).toEqual([
      { type: 'gone', origin: 0, client: 1, reason: 'link-down' },
      { type: 'gone', origin: 0, client: 2, reason: 'link-down' },
    ]);
    const ab2 = a.open(20, 1);
    const ba2 = b.open(20, 0);
    pump(20, ab2, ba2);
    expect(drain(b).map((c) => c.type)).toEqual(['appeared', 'appeared']);
    // Down and back up between two polls: the host sees one participant all along, changed if it moved.
    b.close(30, 0);
    a.close(30, 1);
    a.set(1, { x: 9 });
    const ab3 = a.open(40, 1);
    const ba3 = b.open(40, 0);
    pump(40, ab3, ba3);
    expect(drain(b)).toMatchObject([{ type: 'changed', fields: PARTICIPANT_FIELD.pointer }]);
    expect(b.stats()).toMatchObject({ local: 0, remote: 2 });
  });

  it('ignores, and counts, ghosts that speak for another mirror, twice for one participant, or change identity', () => {
    const { a, b, ab, ba } = pair();
    a.set(3, { x: 1 });
    pump(0, ab, ba);
    drain(b);
    // A second ghost (id 1) for participant 0:3, and one (id 2) claiming to be mirror 2's.
    ba.read(
      1,
      new BitReader(
        section((w) => {
          writeEntryHead(w, 2, { id: 1, kind: 'create' });
          packAll(w, { ...blankParticipant(0, 3), x: 666 });
          writeEntryHead(w, 2, { id: 2, kind: 'create' });
          packAll(w, blankParticipant(2, 4));
        }),
      ),
    );
    expect(b.counters).toEqual({ forged: 1, duplicate: 1 });
    expect(drain(b)).toEqual([]);
    expect(b.participant(0, 3)?.x).toBe(1);
    // Ghost 0 updating its identity to 0:5: it stays 0:3.
    ba.read(
      2,
      new BitReader(
        section((w) => {
          writeEntryHead(w, 2, { id: 0, kind: 'update' });
          w.writeUint(PARTICIPANT_FIELD.identity, 5);
          Participant.groups[0]?.pack(w, blankParticipant(0, 5));
        }),
      ),
    );
    expect(b.counters.forged).toBe(2);
    expect(b.participant(0, 3)).toMatchObject({ origin: 0, client: 3, x: 1 });
    expect(b.participant(0, 5)).toBeUndefined();
    // The ignored ghosts' updates and deletes change nothing.
    ba.read(
      3,
      new BitReader(
        section((w) => {
          writeEntryHead(w, 2, { id: 1, kind: 'delete' });
          writeEntryHead(w, 2, { id: 2, kind: 'delete' });
        }),
      ),
    );
    expect(drain(b)).toEqual([]);
    expect([...b.remote()]).toHaveLength(1);
  });

  it('refuses to set a value it could not send (a programmer error), and changes nothing then', () => {
    const p = new MirrorPresence(0);
    expect(() => p.set(MAX_PEER_ID + 1, {})).toThrow(RangeError);
    expect(() => p.set(1, { x: 0.5 })).toThrow(RangeError);
    expect(p.local(1)).toBeUndefined();
    p.set(1, { x: 5 });
    expect(() => p.set(1, { x: 6, name: 'n'.repeat(49) })).toThrow(RangeError);
    expect(p.local(1)).toMatchObject({ x: 5, name: '' });
  });

  it('reads hostile sections with typed errors only, and keeps its roster bounded and consistent (seeded fuzz)', () => {
    const rng = new Rng(0xf022);
    let errors = 0;
    for (let round = 0; round < 200; round++) {
      // A fresh link each round: after a typed error the link would be closed.
      const b = new MirrorPresence(1);
      const ba = b.open(0, 0);
      for (let i = 0; i < 20; i++) {
        const w = new BitWriter();
        writeSectionHeader(w, rng.range(1, 10));
        // Mostly well-formed heads with random state after them, so the roster code is reached.
        for (let e = rng.range(0, 6); e > 0; e--) {
          const id = rng.int(8);
          const kind = rng.pick(['create', 'update', 'delete'] as const);
          writeEntryHead(w, 3, { id, kind });
          if (kind === 'update') w.writeUint(rng.range(1, 31), 5);
          if (kind !== 'delete') w.writeBytes(rng.bytes(rng.range(0, 12)));
        }
        writeSectionEnd(w);
        try {
          ba.read(i, new BitReader(w.finish()));
        } catch (e) {
          if (!(e instanceof DecodeError) && !(e instanceof ProtocolError)) throw e;
          errors++;
          break;
        }
        for (let c = b.poll(); c !== undefined; c = b.poll())
          if (c.type !== 'gone') expect(c.participant.origin).toBe(0);
      }
      const live = [...b.remote()];
      expect(live.length).toBeLessThanOrEqual(8);
      expect(new Set(live.map((p) => p.client)).size).toBe(live.length);
    }
    expect(errors).toBeGreaterThan(50);
  });
});
