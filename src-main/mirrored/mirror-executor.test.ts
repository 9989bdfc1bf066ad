// The group's participant ids as mirrors split them (peerIdsOf): no two mirrors give out one id, every session's
// own user is its 0, and the map between a session's ids and the group's is its own inverse.
import { describe, expect, it } from 'vitest';
import { MAX_PEER_ID } from '../../shared/board';
import { MAX_MIRRORS } from '../mirror/mirror-id';
import { NO_IMPAIRMENT } from '../net/impairment';
import { Rng } from '../net/rng';
import { SimHarness } from '../net/testing/harness';
import { SimNetwork } from '../net/testing/network';
import {
  dialAddress,
  linkMirrors,
  listenAddress,
  simSides,
  skewedMirror,
} from '../mirror/testing/mirror-mesh';
import { Board } from '../session/board';
import type { ExecutorSink } from '../session/board-executor';
import { newRect } from '../../shared/testing/rect';
import type { BoardOp } from '../board';
import { MirrorExecutor, peerIdsOf } from './mirror-executor';
import { soloMirrorExecutor } from './solo';

const NO_SINK: ExecutorSink = {
  changed: () => undefined,
  refused: () => undefined,
  granted: () => undefined,
  chat: () => undefined,
};

describe('participant ids of a mirror group', () => {
  it('splits the id space among the mirrors and swaps each host user with its mirror id', () => {
    const owner = new Map<number, number>();
    for (let m = 0; m < MAX_MIRRORS; m++) {
      const ids = peerIdsOf(m);
      expect(ids.toGroup(0), `mirror ${m}'s host user`).toBe(m);
      expect(ids.toLocal(m)).toBe(0);
      expect(ids.toLocal(0), `mirror 0's host user at mirror ${m}`).toBe(m);
      let joiners = 0;
      for (let id = 0; id <= MAX_PEER_ID; id++) {
        expect(ids.toLocal(ids.toGroup(id))).toBe(id);
        if (!ids.owns(id)) continue;
        joiners++;
        // A joiner's id is the same in the group, and no other mirror gives it out.
        expect(ids.toGroup(id)).toBe(id);
        expect(owner.get(id), `id ${id}`).toBeUndefined();
        owner.set(id, m);
      }
      expect(joiners).toBe(255);
      // The host user's id in the group is never a joiner's of any mirror.
      expect(owner.has(ids.toGroup(0))).toBe(false);
    }
  });
});

describe('acknowledging a mirror-backed host’s commands', () => {
  /** Two mirrors 30 ms apart, mirror 0 backing a session board; the link from 0 to 1 cut when asked. */
  function twoMirrors(seed: number) {
    const net = new SimNetwork(new Rng(seed), NO_IMPAIRMENT);
    net.logging = false;
    const sim = new SimHarness(net);
    const ids = [0, 1];
    linkMirrors(net, ids, { ...NO_IMPAIRMENT, delayMs: 30 });
    const config = { seed, maxOffsetMs: 0, maxDrift: 0, delays: [100, 400] };
    const rng = new Rng(seed);
    const mirrors = ids.map((id) => skewedMirror(config, rng, id, ids, []));
    for (const [id, m] of mirrors.entries()) {
      const sides = simSides(m);
      sim.add(listenAddress(id), sides.listener);
      sim.add(dialAddress(id), sides.dialer);
    }
    mirrors[1]?.node.connect(0, listenAddress(0));
    const [a, b] = mirrors;
    if (a === undefined || b === undefined) throw new Error('two mirrors');
    return { net, sim, a, b };
  }

  it('acknowledges a command only once the other mirror holds it', () => {
    const seed = 7;
    const { sim, a, b } = twoMirrors(seed);
    expect(sim.runUntilTrue(() => a.node.links.linked().length === 1 && b.ready, 5_000)).toBe(true);
    const executor = new MirrorExecutor(a, new Board());
    executor.attach(NO_SINK);
    sim.every(5, () => {
      executor.pump();
    });
    const r = executor.execute(16, { type: 'create', fields: newRect() }, sim.now);
    expect(r.ok, `seed ${seed}`).toBe(true);
    let acknowledgedAt: number | undefined;
    const sentAt = sim.now;
    executor.whenSafe(() => (acknowledgedAt = sim.now));
    expect(acknowledgedAt).toBeUndefined();
    expect(sim.runUntilTrue(() => acknowledgedAt !== undefined, sim.now + 2_000)).toBe(true);
    // Not before a round trip: the other mirror had to take it and say so.
    expect((acknowledgedAt ?? 0) - sentAt).toBeGreaterThanOrEqual(60);
    expect(b.node.group.held(0).upTo).toBeGreaterThanOrEqual(1);
  });

  it('tells its driver after each command it sent to the group', () => {
    const seed = 9;
    const { sim, a, b } = twoMirrors(seed);
    expect(sim.runUntilTrue(() => a.node.links.linked().length === 1 && b.ready, 5_000)).toBe(true);
    const executor = new MirrorExecutor(a, new Board());
    executor.attach(NO_SINK);
    let told = 0;
    executor.onSubmitted = () => told++;
    executor.execute(16, { type: 'create', fields: newRect() }, sim.now);
    executor.chat(16, 'hello', sim.now);
    expect(told).toBe(2);
    // What the driver is told to send does leave: the other mirror takes both.
    sim.runUntil(sim.now + 500);
    expect(b.node.group.held(0).upTo, `seed ${seed}`).toBe(2);
  });

  it('never acknowledges what no other mirror took while that mirror is in the group', () => {
    const seed = 8;
    const { net, sim, a, b } = twoMirrors(seed);
    expect(sim.runUntilTrue(() => a.node.links.linked().length === 1 && b.ready, 5_000)).toBe(true);
    const executor = new MirrorExecutor(a, new Board());
    executor.attach(NO_SINK);
    sim.every(5, () => {
      executor.pump();
    });
    // Everything from mirror 0 to mirror 1 is lost from now on.
    for (const from of [listenAddress(0), dialAddress(0)])
      for (const to of [listenAddress(1), dialAddress(1)])
        net.setConditions(from, to, { ...NO_IMPAIRMENT, delayMs: 30, loss: 1 });
    executor.chat(0, 'never held elsewhere', sim.now);
    let acknowledged = false;
    executor.whenSafe(() => (acknowledged = true));
    sim.runUntilTrue(() => acknowledged, sim.now + 500);
    expect(acknowledged, `seed ${seed}`).toBe(false);
    expect(executor.unacknowledged).toBe(1);
  });
});

describe('a file opened into a mirror-backed session', () => {
  const put = (id: number, x: number): BoardOp => ({
    type: 'put',
    object: { ...newRect({ x }), id, z: id, lockedBy: null, pinned: 0 },
  });

  it('replaces the board of a mirror alone in its group, which then goes on from it', () => {
    const board = new Board();
    const executor = soloMirrorExecutor({ now: 0 })(board);
    executor.attach(NO_SINK);
    expect(executor.execute(0, { type: 'create', fields: newRect() }, 1).ok).toBe(true);
    const r = executor.execute(
      0,
      { type: 'batch', ops: [{ type: 'remove', id: 16 }, put(48, 7)] },
      2,
    );
    expect(r.ok).toBe(true);
    expect(board.all().map((o) => [o.id, o.x])).toEqual([[48, 7]]);
    // The mirror's states are the new board: the next create goes on from it, and the leading state agrees.
    const next = executor.execute(0, { type: 'create', fields: newRect() }, 3);
    expect(next.ok).toBe(true);
    const leading = executor.mirror.tss.leading;
    expect([...leading.objects.keys()].sort((a, b) => a - b)).toEqual(
      board
        .all()
        .map((o) => o.id)
        .sort((a, b) => a - b),
    );
    expect(board.size).toBe(2);
  });

  it('is refused while another mirror serves the session', () => {
    const seed = 9;
    const net = new SimNetwork(new Rng(seed), NO_IMPAIRMENT);
    net.logging = false;
    const sim = new SimHarness(net);
    linkMirrors(net, [0, 1], { ...NO_IMPAIRMENT, delayMs: 10 });
    const rng = new Rng(seed);
    const config = { seed, maxOffsetMs: 0, maxDrift: 0, delays: [100, 400] };
    const [a, b] = [0, 1].map((id) => skewedMirror(config, rng, id, [0, 1], []));
    if (a === undefined || b === undefined) throw new Error('two mirrors');
    for (const [id, m] of [a, b].entries()) {
      const sides = simSides(m);
      sim.add(listenAddress(id), sides.listener);
      sim.add(dialAddress(id), sides.dialer);
    }
    b.node.connect(0, listenAddress(0));
    expect(sim.runUntilTrue(() => a.node.links.linked().length === 1, 5_000)).toBe(true);
    const board = new Board();
    const executor = new MirrorExecutor(a, board);
    executor.attach(NO_SINK);
    const r = executor.execute(0, { type: 'batch', ops: [put(48, 7)] }, sim.now);
    expect(r.ok, `seed ${seed}`).toBe(false);
    expect(board.size).toBe(0);
  });
});
