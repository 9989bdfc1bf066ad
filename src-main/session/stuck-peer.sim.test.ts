import { describe, expect, it } from 'vitest';
import { hostControls } from './controls';
import { makeSimSession } from './testing/sim-session';

// A participant whose app stops reading (hung, or hostile) while its socket keeps sending: the host must not
// spin on a full window (the harness fails a timer that stays due), must not keep what it queues for it
// forever, and must let it go while everyone else carries on.
describe('a participant that stops reading', () => {
  it('is dropped as stalled; the host neither spins nor hoards, and the others keep chatting', () => {
    const seed = 7;
    const s = makeSimSession({ seed });
    s.addPeer('ann');
    s.addPeer('bob');
    s.sim.runUntil(2000);
    const bob = s.peers[1];
    const ann = s.peers[0];
    if (bob === undefined || ann === undefined) throw new Error('peers missing');
    bob.endpoint.handleDatagram = () => undefined;
    let lines = 0;
    const host = hostControls(s.host);
    s.sim.every(20, (now) => {
      host.chat(now, `line ${lines++} from the host, long enough to fill packets quickly`);
    });
    let calls = 0;
    const handle = s.host.endpoint.handleTimeout.bind(s.host.endpoint);
    s.host.endpoint.handleTimeout = (now) => {
      calls++;
      handle(now);
    };
    s.sim.runUntil(2000 + 30_000);
    const left = s.hostEvents.find((e) => e.type === 'left');
    expect(left, `seed ${seed}`).toMatchObject({ type: 'left', reason: 'error' });
    expect(left?.type === 'left' ? left.detail : '').toMatch(/acknowledged/);
    // Ann got every line, in order.
    const annChat = s.peerEvents[0]?.filter((e) => e.type === 'chat') ?? [];
    expect(annChat.length).toBeGreaterThan(lines - 20);
    // Deadlines only: ticks, afterIo turns and packets for one working peer, not a spin (millions).
    expect(calls, `seed ${seed}`).toBeLessThan(30 * 400);
  });
});
