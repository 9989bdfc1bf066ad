// The app core joining by a link that names several hosts of a session (its mirrors), on the simulator: the nearest
// is joined, the stats carry every host's RTT and the choice, and none answering ends the join with a plain reason.
import { describe, expect, it } from 'vitest';
import type { SessionStatus, StatsSnapshot } from '../../shared/api';
import { NO_IMPAIRMENT } from '../net/impairment';
import { SimSessions } from './testing/sim-sessions';
import type { TestCore } from './testing/test-core';
import { testCores } from './testing/test-core';

const core = testCores('ghostboard-nearest-');
const CODE = 'ABCDE-FGHJK';
/** Joiners dial from 127.0.1.N (sim-sessions.ts): the first one's address. */
const JOINER = { address: '127.0.1.1', port: 9001 };

function last<P extends SessionStatus['phase']>(
  c: TestCore,
  phase: P,
): Extract<SessionStatus, { phase: P }> | undefined {
  for (let i = c.events.length - 1; i >= 0; i--) {
    const e = c.events[i];
    if (e?.type === 'status' && e.status.phase === phase)
      return e.status as Extract<SessionStatus, { phase: P }>;
  }
  return undefined;
}

function lastStats(c: TestCore): StatsSnapshot | undefined {
  for (let i = c.events.length - 1; i >= 0; i--) {
    const e = c.events[i];
    if (e?.type === 'stats') return e.stats;
  }
  return undefined;
}

describe('joining the nearest host of a session', () => {
  it('joins the host with the lowest RTT of those the link names, and the stats show every RTT', async () => {
    const seed = 31;
    const world = new SimSessions(seed);
    const far = core(world);
    const near = core(world);
    await far.core.invoke({ cmd: 'host', options: { name: 'Far', code: CODE } });
    await near.core.invoke({ cmd: 'host', options: { name: 'Near', code: CODE } });
    const farAt = { address: '127.0.0.1', port: last(far, 'hosting')?.port ?? 0 };
    const nearAt = { address: '127.0.0.1', port: last(near, 'hosting')?.port ?? 0 };
    for (const [at, ms] of [
      [farAt, 40],
      [nearAt, 5],
    ] as const) {
      world.net.setConditions(JOINER, at, { ...NO_IMPAIRMENT, delayMs: ms });
      world.net.setConditions(at, JOINER, { ...NO_IMPAIRMENT, delayMs: ms });
    }
    const link = `ghostboard://direct/127.0.0.1:${farAt.port},127.0.0.1:${nearAt.port}#${CODE}`;
    const joiner = core(world);
    expect(
      await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address: link, code: '' } }),
    ).toEqual({ ok: true });
    await world.runUntil(() => last(joiner, 'joined') !== undefined);
    expect(last(joiner, 'joined')?.hostName, `seed ${seed}`).toBe('Near');
    await world.runUntil(() => lastStats(joiner)?.nearest !== undefined);
    expect(lastStats(joiner)?.nearest).toEqual({
      hosts: [
        { address: `127.0.0.1:${farAt.port}`, rttMs: 80, incompatible: false },
        { address: `127.0.0.1:${nearAt.port}`, rttMs: 10, incompatible: false },
      ],
      chosen: 1,
    });
    await world.runUntil(() => last(joiner, 'joined')?.address === `127.0.0.1:${nearAt.port}`);
  });

  it('ends the join with a plain reason when none of the hosts answers', async () => {
    const world = new SimSessions(32);
    const joiner = core(world);
    const link = `ghostboard://direct/127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003#${CODE}`;
    await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address: link, code: '' } });
    await world.runUntil(() => last(joiner, 'ended') !== undefined);
    expect(last(joiner, 'ended')).toEqual({
      phase: 'ended',
      reason: 'unreachable',
      detail: "none of the session's 3 hosts answered",
    });
  });

  it('refuses a link naming too many hosts, saying so', async () => {
    const world = new SimSessions(33);
    const joiner = core(world);
    const hosts = Array.from({ length: 9 }, (_, i) => `127.0.0.1:${7001 + i}`).join(',');
    expect(
      await joiner.core.invoke({
        cmd: 'join',
        options: { name: 'Jo', address: `ghostboard://direct/${hosts}#${CODE}`, code: '' },
      }),
    ).toEqual({ ok: false, reason: 'that link names more than 8 hosts: ask for a new one' });
  });
});
