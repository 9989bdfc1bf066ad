// A short code locks after too many failed joins: the host is told (to offer a new code), joiners are told why,
// and a new code lets people in again. Seeded simulation.
import { describe, expect, it } from 'vitest';
import { makeSimSession } from './testing/sim-session';

describe('code lock', () => {
  it('locks a spoken code after 30 wrong guesses from 30 addresses, and a new code unlocks it', () => {
    const seed = 41;
    const code = '7-orbit-lantern';
    const s = makeSimSession({ seed, code });
    for (let i = 0; i < 30; i++)
      s.addPeer(`guess ${i}`, {
        code: `${i + 1}-wrong-guess`,
        from: { address: `10.9.${i}.1`, port: 9000 },
      });
    s.sim.runUntil(15_000);
    for (let i = 0; i < 30; i++)
      expect(s.peerEvents[i], `seed ${seed}, guesser ${i}`).toContainEqual({
        type: 'ended',
        reason: 'wrong-code',
        detail: '',
      });
    expect(
      s.hostEvents.filter((e) => e.type === 'code-locked'),
      `seed ${seed}`,
    ).toEqual([{ type: 'code-locked', failures: 30 }]);
    // The right code is refused too now, and the joiner is told why.
    const late = s.addPeer('Late', { code, from: { address: '10.8.0.1', port: 9000 } });
    s.sim.runUntil(20_000);
    expect(s.peerEvents[late]).toContainEqual({ type: 'ended', reason: 'code-locked', detail: '' });
    // The host makes a new code; whoever has it joins.
    const fresh = s.host.rotateCode();
    expect(s.hostEvents).toContainEqual({ type: 'code', code: fresh });
    const invited = s.addPeer('Invited', {
      code: fresh,
      from: { address: '10.8.0.2', port: 9000 },
    });
    s.sim.runUntil(22_000);
    expect(
      s.peerEvents[invited]?.some((e) => e.type === 'ready'),
      `seed ${seed}`,
    ).toBe(true);
    expect(s.host.participants.map((p) => p.name)).toEqual(['Host', 'Invited']);
  });
});
