import { describe, expect, it } from 'vitest';
import type { NewObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { isRefusal } from './board';
import type { SessionEvent } from './session-events';
import { makeSimSession } from './testing/sim-session';

const rect = (x: number, text = ''): NewObject =>
  newRect({ kind: text === '' ? 'rect' : 'note', x, text });

const refusals = (events: SessionEvent[] | undefined) =>
  (events ?? []).flatMap((e) => (e.type === 'refused' ? [`${e.cmd}: ${e.reason}`] : []));
const chats = (events: SessionEvent[] | undefined) =>
  (events ?? []).flatMap((e) => (e.type === 'chat' ? [e.text] : []));

describe('per-participant limits', () => {
  it('let a paste of a thousand objects through at once with the defaults', () => {
    const seed = 16_700;
    const s = makeSimSession({ seed });
    s.addPeer('Ana');
    s.sim.runUntil(1000);
    for (let i = 0; i < 1000; i++) s.peers[0]?.create(rect(i, 'pasted text '.repeat(20)));
    s.sim.runUntil(15_000);
    const msg = `seed ${seed}`;
    expect(s.host.board.size, msg).toBe(1000);
    expect(refusals(s.peerEvents[0]), msg).toEqual([]);
    expect(s.host.counters, msg).toMatchObject({ rateLimited: 0, boardFull: 0 });
  });

  it('refuse calls past the call rate, tell the sender each one and count them; the bucket refills', () => {
    const seed = 16_701;
    const s = makeSimSession({ seed, peerLimits: { callBurst: 10, callsPerSecond: 2 } });
    s.addPeer('Ana');
    s.sim.runUntil(1000);
    for (let i = 0; i < 30; i++) s.peers[0]?.create(rect(i * 10));
    s.sim.runUntil(2000);
    const msg = `seed ${seed}`;
    expect(s.host.board.size, msg).toBe(10);
    expect(refusals(s.peerEvents[0]), msg).toEqual(
      Array<string>(20).fill('create: too many requests: slow down'),
    );
    expect(s.host.counters.rateLimited, msg).toBe(20);
    s.sim.runUntil(5000);
    for (let i = 0; i < 5; i++) s.peers[0]?.create(rect(i * 10));
    s.sim.runUntil(6000);
    expect(s.host.board.size, msg).toBe(15);
  });

  it('refuse calls past the byte rate', () => {
    const seed = 16_702;
    const s = makeSimSession({ seed, peerLimits: { byteBurst: 3000, bytesPerSecond: 10 } });
    s.addPeer('Ana');
    s.sim.runUntil(1000);
    for (let i = 0; i < 5; i++) s.peers[0]?.create(rect(i, 'x'.repeat(900)));
    s.sim.runUntil(2000);
    const msg = `seed ${seed}`;
    expect(s.host.board.size, msg).toBe(3);
    expect(refusals(s.peerEvents[0]), msg).toEqual(
      Array<string>(2).fill('create: too much data too fast: slow down'),
    );
    expect(s.host.counters.rateLimited, msg).toBe(2);
  });

  it('hold chat to a rate and a byte rate, refuse empty lines, and tell the sender', () => {
    const seed = 16_703;
    const s = makeSimSession({ seed });
    s.addPeer('Ana');
    s.addPeer('Ben');
    s.sim.runUntil(1000);
    const ana = s.peers[0];
    for (let i = 0; i < 40; i++) ana?.chat(`line ${i}`);
    ana?.chat('   ');
    s.sim.runUntil(3000);
    const msg = `seed ${seed}`;
    expect(chats(s.peerEvents[1]), msg).toHaveLength(30);
    expect(refusals(s.peerEvents[0]), msg).toEqual([
      ...Array<string>(10).fill('chat: too many messages: slow down'),
      'chat: empty message',
    ]);
    // Long lines: 8,000 bytes at once, then 2,000 a second.
    s.sim.runUntil(10_000);
    const before = chats(s.peerEvents[1]).length;
    for (let i = 0; i < 10; i++) ana?.chat('y'.repeat(1000));
    s.sim.runUntil(10_500);
    expect(chats(s.peerEvents[1]).length - before, msg).toBe(8);
    expect(refusals(s.peerEvents[0]).slice(11), msg).toEqual(
      Array<string>(2).fill('chat: too much text too fast: slow down'),
    );
    expect(s.host.counters.chatLimited, msg).toBe(13);
  });

  it('keep the board within its budget for participants (the host’s own edits are not held to it)', () => {
    const seed = 16_704;
    const s = makeSimSession({ seed, boardLimits: { objects: 5, bytes: 2000 } });
    s.addPeer('Ana');
    s.sim.runUntil(1000);
    for (let i = 0; i < 7; i++) s.peers[0]?.create(rect(i * 10));
    s.sim.runUntil(2000);
    const msg = `seed ${seed}`;
    expect(s.host.board.size, msg).toBe(5);
    expect(refusals(s.peerEvents[0]), msg).toEqual(
      Array<string>(2).fill('create: the board is full (5 objects)'),
    );
    expect(isRefusal(s.host.create(rect(99), s.sim.now)), msg).toBe(false);
    // 6 objects of 128 estimated bytes: 768 of 2,000; a text growing by 1,000 bytes fits, by 1,300 more not.
    const id = s.host.board.all()[0]?.id ?? 0;
    s.peers[0]?.text(id, 0, 0, 'z'.repeat(1000));
    s.sim.runUntil(3000);
    s.peers[0]?.text(id, 0, 0, 'z'.repeat(300));
    s.sim.runUntil(4000);
    expect(s.host.board.get(id)?.text.length, msg).toBe(1000);
    expect(refusals(s.peerEvents[0]).at(-1), msg).toBe('text: the board is full (2 KB)');
    expect(s.host.counters.boardFull, msg).toBe(3);
  });
});
