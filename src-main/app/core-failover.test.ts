// Failover on the simulator: a joiner whose host (one of a session's two) dies or stops moves to the other within
// 3 s of virtual time, shows "reconnecting to another host" meanwhile (never an ended session), and then shows that
// host's board. The hosts come from the join link or from the joined host's `hosts` message.
import { describe, expect, it } from 'vitest';
import type { SessionStatus, StatsSnapshot } from '../../shared/api';
import { newRect } from '../../shared/testing/rect';
import type { Impairment } from '../net/impairment';
import { NO_IMPAIRMENT } from '../net/impairment';
import { SimSessions } from './testing/sim-sessions';
import type { TestCore } from './testing/test-core';
import { boardOf, testCores } from './testing/test-core';

const core = testCores('ghostboard-failover-');
const CODE = 'ABCDE-FGHJK';
/** Joiners dial from 127.0.1.N (sim-sessions.ts): the first one's address. */
const JOINER = { address: '127.0.1.1', port: 9001 };
/** Issue 22: a joiner is on another host within this long of its host's death (virtual ms). */
const FAILOVER_BOUND_MS = 3_000;

function statuses(c: TestCore, from = 0): SessionStatus[] {
  return c.events.slice(from).flatMap((e) => (e.type === 'status' ? [e.status] : []));
}

function joined(c: TestCore): Extract<SessionStatus, { phase: 'joined' }> | undefined {
  const st = statuses(c).at(-1);
  return st?.phase === 'joined' ? st : undefined;
}

/** The latest stats the core sent, from event index `from` on. */
function lastStats(c: TestCore, from: number): StatsSnapshot | undefined {
  for (let i = c.events.length - 1; i >= from; i--) {
    const e = c.events[i];
    if (e?.type === 'stats') return e.stats;
  }
  return undefined;
}

function portOf(c: TestCore): number {
  const st = statuses(c).findLast((s) => s.phase === 'hosting');
  return st?.phase === 'hosting' ? st.port : 0;
}

/** The board's objects by x, the field each test's objects differ in. */
function xs(objects: Iterable<{ x: number }>): number[] {
  return [...objects].map((o) => o.x).sort((a, b) => a - b);
}

/** Two hosts of one session (each with its own board, so which one a joiner shows is plain), A nearer. */
async function twoHosts(world: SimSessions) {
  const a = core(world);
  const b = core(world);
  await a.core.invoke({ cmd: 'host', options: { name: 'Ana', code: CODE } });
  await b.core.invoke({ cmd: 'host', options: { name: 'Bea', code: CODE } });
  await a.core.invoke({ cmd: 'create', object: newRect({ x: 111 }) });
  await b.core.invoke({ cmd: 'create', object: newRect({ x: 222 }) });
  await b.core.invoke({ cmd: 'create', object: newRect({ x: 333 }) });
  const at = { address: '127.0.0.1', port: portOf(a) };
  const bt = { address: '127.0.0.1', port: portOf(b) };
  for (const [to, ms] of [
    [at, 5],
    [bt, 20],
  ] as const) {
    world.net.setConditions(JOINER, to, { ...NO_IMPAIRMENT, delayMs: ms });
    world.net.setConditions(to, JOINER, { ...NO_IMPAIRMENT, delayMs: ms });
  }
  return { a, b, at, bt };
}

/** After the joined host went at `since` (event index `from`): on the other host, with its board, within bound. */
async function expectOnOther(
  world: SimSessions,
  joiner: TestCore,
  other: TestCore,
  otherAt: string,
  from: number,
  seed: number,
): Promise<void> {
  const want = xs([{ x: 222 }, { x: 333 }]);
  await world.runUntil(
    () =>
      joined(joiner)?.reconnecting === undefined &&
      joined(joiner)?.address === otherAt &&
      JSON.stringify(xs(boardOf(joiner).values())) === JSON.stringify(want),
    FAILOVER_BOUND_MS,
  );
  const after = statuses(joiner, from);
  expect(
    after.every((s) => s.phase === 'joined'),
    `seed ${seed}`,
  ).toBe(true);
  expect(
    after.some((s) => s.phase === 'joined' && s.reconnecting?.elsewhere === true),
    `seed ${seed}`,
  ).toBe(true);
  expect(joined(joiner)?.hostName).toBe('Bea');
  // Live: the joiner's edits reach the new host (its create waits for the host's answer: time must pass).
  void joiner.core.invoke({ cmd: 'create', object: newRect({ x: 444 }) });
  await world.runUntil(() => xs(boardOf(other).values()).includes(444));
}

describe('failover between the hosts of a session', () => {
  it('a host the link names dies: the joiner is on the other within 3 s, with its board', async () => {
    const seed = 2211;
    const world = new SimSessions(seed);
    const { b, at, bt } = await twoHosts(world);
    const joiner = core(world);
    const link = `ghostboard://direct/${at.address}:${at.port},${bt.address}:${bt.port}#${CODE}`;
    await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address: link, code: '' } });
    await world.runUntil(
      () => joined(joiner)?.hostName === 'Ana' && joined(joiner)?.received === 1,
    );
    await world.run(500);
    const from = joiner.events.length;
    world.handles[0]?.crash();
    await expectOnOther(world, joiner, b, `127.0.0.1:${bt.port}`, from, seed);
  });

  it('learns the other host from its host (no link names it), and moves there when its host dies', async () => {
    const seed = 2212;
    const world = new SimSessions(seed);
    const { b, at, bt } = await twoHosts(world);
    world.handles[0]?.hosting?.setHosts([at, bt]);
    const joiner = core(world);
    const address = `${at.address}:${at.port}`;
    await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address, code: CODE } });
    await world.runUntil(() => joined(joiner)?.received === 1);
    await world.run(500);
    const from = joiner.events.length;
    world.handles[0]?.crash();
    await expectOnOther(world, joiner, b, `127.0.0.1:${bt.port}`, from, seed);
  });

  it('a host that stops on purpose: its joiners go on at the other, not to an ended session', async () => {
    const seed = 2213;
    const world = new SimSessions(seed);
    const { a, b, at, bt } = await twoHosts(world);
    world.handles[0]?.hosting?.setHosts([at, bt]);
    const joiner = core(world);
    const address = `${at.address}:${at.port}`;
    await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address, code: CODE } });
    await world.runUntil(() => joined(joiner)?.received === 1);
    const from = joiner.events.length;
    await a.core.invoke({ cmd: 'leave' });
    await expectOnOther(world, joiner, b, `127.0.0.1:${bt.port}`, from, seed);
  });

  it('a nearer host that did not answer the first probe: once it answers sooner, the joiner moves there', async () => {
    const seed = 2215;
    const world = new SimSessions(seed);
    const { a, at, bt } = await twoHosts(world);
    // A (5 ms) is silent to the joiner at first, as a mirror still starting: the joiner takes B (20 ms).
    world.net.setConditions(at, JOINER, { ...NO_IMPAIRMENT, delayMs: 5, loss: 1 });
    const joiner = core(world);
    const link = `ghostboard://direct/${at.address}:${at.port},${bt.address}:${bt.port}#${CODE}`;
    await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address: link, code: '' } });
    await world.runUntil(() => joined(joiner)?.hostName === 'Bea', 5_000);
    world.net.setConditions(at, JOINER, { ...NO_IMPAIRMENT, delayMs: 5 });
    const from = joiner.events.length;
    // Probed again RECHECK_AFTER_MS after the join (10 ms against 40): moved, with A's board.
    await world.runUntil(
      () =>
        joined(joiner)?.hostName === 'Ana' &&
        joined(joiner)?.reconnecting === undefined &&
        JSON.stringify(xs(boardOf(joiner).values())) === JSON.stringify([111]),
      6_000,
    );
    const after = statuses(joiner, from);
    expect(
      after.every((st) => st.phase === 'joined'),
      `seed ${seed}`,
    ).toBe(true);
    // Shown as a move, not as the host stopping.
    expect(
      after.some((st) => st.phase === 'joined' && st.reconnecting?.nearer === true),
      `seed ${seed}`,
    ).toBe(true);
    expect(joined(joiner)?.address, `seed ${seed}`).toBe(`127.0.0.1:${at.port}`);
    // The stats still list both hosts with their RTTs, the nearer one joined (the bandwidth panel's choice).
    const moved = joiner.events.length;
    await world.runUntil(() => lastStats(joiner, moved) !== undefined, 2_000);
    const nearest = lastStats(joiner, moved)?.nearest;
    expect(nearest?.chosen, `seed ${seed}`).toBe(0);
    expect(
      nearest?.hosts.map((h) => h.address),
      `seed ${seed}`,
    ).toEqual([`127.0.0.1:${at.port}`, `127.0.0.1:${bt.port}`]);
    expect(nearest?.hosts.every((h) => h.rttMs !== null)).toBe(true);
    expect(nearest?.hosts[0]?.rttMs ?? Infinity).toBeLessThan(nearest?.hosts[1]?.rttMs ?? 0);
    // Live at the new host.
    void joiner.core.invoke({ cmd: 'create', object: newRect({ x: 444 }) });
    await world.runUntil(() => xs(boardOf(a).values()).includes(444));
  });

  for (const [seed, named, label] of [
    [2216, true, 'its hosts name each other'],
    [2217, false, 'only the link names the hosts'],
  ] as const)
    it(`a host that stalls: the joiner fails over to the other, and moves back once it answers sooner again (${label})`, async () => {
      await stallAndBack(seed, named);
    });

  it('ends as the host leaving when the host stops and no other answers', async () => {
    const seed = 2214;
    const world = new SimSessions(seed);
    const { a, at } = await twoHosts(world);
    // The list names a host that is not there.
    world.handles[0]?.hosting?.setHosts([at, { address: '127.0.0.1', port: 7999 }]);
    const joiner = core(world);
    const address = `${at.address}:${at.port}`;
    await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address, code: CODE } });
    await world.runUntil(() => joined(joiner)?.received === 1);
    await a.core.invoke({ cmd: 'leave' });
    // One other host is dialled without a probe: its handshake gives up after 10 s.
    await world.runUntil(() => statuses(joiner).at(-1)?.phase === 'ended', 20_000);
    expect(statuses(joiner).at(-1), `seed ${seed}`).toMatchObject({
      phase: 'ended',
      reason: 'host-left',
    });
  });
});

/**
 * The joiner's host goes silent; it fails over to the other, and its second look there (3 s after that join) finds
 * the first answering sooner again and moves back. `named`: the hosts' `hosts` messages name both (mirrors);
 * otherwise only the join link does, and the failover's join, which leaves the silent host out of its probe,
 * still has it looked at again.
 */
async function stallAndBack(seed: number, named: boolean): Promise<void> {
  const world = new SimSessions(seed);
  const { at, bt } = await twoHosts(world);
  if (named) for (const h of world.handles) h.hosting?.setHosts([at, bt]);
  // Each join dials from an address of its own (sim-sessions.ts): the first, the failover's and the move's.
  const joiners = [1, 2, 3].map((n) => ({ address: `127.0.1.${n}`, port: 9000 + n }));
  const toHosts = (a: Impairment, b: Impairment): void => {
    for (const from of joiners)
      for (const [to, c] of [
        [at, a],
        [bt, b],
      ] as const) {
        world.net.setConditions(from, to, c);
        world.net.setConditions(to, from, c);
      }
  };
  const near = { ...NO_IMPAIRMENT, delayMs: 5 };
  const far = { ...NO_IMPAIRMENT, delayMs: 20 };
  toHosts(near, far);
  const joiner = core(world);
  const link = `ghostboard://direct/${at.address}:${at.port},${bt.address}:${bt.port}#${CODE}`;
  await joiner.core.invoke({ cmd: 'join', options: { name: 'Jo', address: link, code: '' } });
  await world.runUntil(() => joined(joiner)?.hostName === 'Ana', 5_000);
  await world.run(500);
  // A goes silent both ways (a paused process, a busy machine) until the joiner has failed over to B, the only
  // other host, dialled without a probe.
  const from = joiner.events.length;
  toHosts({ ...near, loss: 1 }, far);
  await world.runUntil(
    () => joined(joiner)?.hostName === 'Bea' && joined(joiner)?.reconnecting === undefined,
    FAILOVER_BOUND_MS + 1_000,
  );
  toHosts(near, far);
  // The second look, 3 s after joining B, finds A at 10 ms against B's 40 (named by B or by the link), and moves.
  await world.runUntil(
    () =>
      joined(joiner)?.hostName === 'Ana' &&
      joined(joiner)?.reconnecting === undefined &&
      JSON.stringify(xs(boardOf(joiner).values())) === JSON.stringify([111]),
    8_000,
  );
  const after = statuses(joiner, from);
  expect(
    after.every((st) => st.phase === 'joined'),
    `seed ${seed}`,
  ).toBe(true);
  const elsewhere = after.findIndex(
    (st) => st.phase === 'joined' && st.reconnecting?.elsewhere === true,
  );
  const nearer = after.findIndex((st) => st.phase === 'joined' && st.reconnecting?.nearer === true);
  expect(elsewhere, `seed ${seed}`).toBeGreaterThanOrEqual(0);
  expect(nearer, `seed ${seed}: the move back shows as a move`).toBeGreaterThan(elsewhere);
  expect(joined(joiner)?.address, `seed ${seed}`).toBe(`127.0.0.1:${at.port}`);
}
