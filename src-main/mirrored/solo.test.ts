// A lone host served by a mirror group of one, over the simulated network with real joiners: its session behaves as
// a lone host's (lock races decided and the loser told, chat both ways, restores), every board agrees, its trace
// replays to the host's board, and what it holds stays bounded however many commands run through it.
import { describe, expect, it } from 'vitest';
import { newRect } from '../../shared/testing/rect';
import { NO_IMPAIRMENT } from '../net/impairment';
import { replay } from '../mirror/replay';
import type { TraceRecord } from '../mirror/trace';
import { isRefusal } from '../session/board';
import { makeSimSession } from '../session/testing/sim-session';
import type { MirrorExecutor } from './mirror-executor';
import { soloMirrorExecutor } from './solo';

const lossy = { ...NO_IMPAIRMENT, loss: 0.05, delayMs: 20, jitterMs: 5 };

function soloSession(seed: number) {
  const trace: TraceRecord[] = [];
  let exec: MirrorExecutor | undefined;
  const solo = soloMirrorExecutor({ now: 0, record: (r) => trace.push(r) });
  const s = makeSimSession({ seed, conditions: lossy, executor: (b) => (exec = solo(b)) });
  if (exec === undefined) throw new Error('no executor');
  return { s, trace, exec };
}

describe('a lone host served by a mirror group of one', () => {
  it('serves joiners as a lone host does, and its trace replays to its board', () => {
    const seed = 7;
    const { s, trace } = soloSession(seed);
    const made = s.host.create(newRect({ x: 0, y: 0 }), 0);
    if (isRefusal(made)) throw new Error(made.refused);
    expect(made.id % 16, 'an id of origin 0').toBe(0);
    s.addPeer('Ana');
    s.addPeer('Ben');
    s.sim.runUntil(3000);
    const [ana, ben] = s.peers;
    if (ana === undefined || ben === undefined) throw new Error('no peers');
    ana.create(newRect({ x: 300, y: 0 }));
    ben.edit(made.id, { x: 40 });
    ana.grab(made.id);
    ben.grab(made.id);
    ben.chat('hello');
    s.host.chat('hi all');
    s.sim.runUntil(4000);
    ana.drop(made.id, 70, 80);
    ben.drop(made.id, 90, 90);
    const second = s.host.create(newRect({ x: 600, y: 0 }), s.sim.now);
    if (isRefusal(second)) throw new Error(second.refused);
    ben.remove(second.id);
    s.sim.runUntil(5000);
    ben.restore(second.id);
    ana.restack(second.id, false);
    s.sim.runUntil(8000);

    const hash = s.host.board.hash();
    for (const p of s.peers) expect(p.board.hash(), `seed ${seed}`).toBe(hash);
    for (const o of s.host.board.all()) expect(o.id % 16, `object ${o.id}`).toBe(0);
    // The grab race: one winner, the other told who holds it, as a lone host tells it.
    const grabbed = s.hostEvents.filter((e) => e.type === 'grabbed' && e.id === made.id);
    expect(grabbed).toHaveLength(1);
    const refusedGrabs = s.peerEvents.map((ev) =>
      ev.filter((e) => e.type === 'refused' && e.cmd === 'grab').map((e) => e.type),
    );
    expect(refusedGrabs.flat(), `seed ${seed}`).toHaveLength(1);
    // Chat both ways, in the host's order.
    const chat = s.hostEvents.flatMap((e) => (e.type === 'chat' ? [e.text] : []));
    expect([...chat].sort()).toEqual(['hello', 'hi all']);
    for (const ev of s.peerEvents)
      expect(ev.flatMap((e) => (e.type === 'chat' ? [e.text] : []))).toEqual(chat);
    // The restore came back under its id.
    expect(s.host.board.get(second.id)).toBeDefined();
    const r = replay(0, trace, { delays: [100, 1000] });
    expect(r.commands).toBe(trace.length);
    expect(r.hash, `seed ${seed}`).toBe(hash);
    expect(r.consistent).toBe(true);
    expect(r.stats.leadingRollbacks).toBe(0);
  });

  it('holds nothing it no longer needs: its multicast buffer, held commands and undecided ones stay bounded', () => {
    const { s, exec } = soloSession(9);
    const o = s.host.create(newRect({ x: 0, y: 0 }), 0);
    if (isRefusal(o)) throw new Error(o.refused);
    let t = 0;
    for (let k = 0; k < 5000; k++) {
      t += 1;
      if (k % 50 === 0) s.sim.runUntil(t);
      expect(isRefusal(s.host.edit(o.id, { x: k % 900 }, t))).toBe(false);
    }
    s.sim.runUntil(t + 2000);
    expect(exec.mirror.node.group.stats().bufferedBytes).toBe(0);
    expect(exec.mirror.tss.held).toBe(0);
    expect(exec.undecided).toBe(0);
    expect(exec.mirror.pollTransmit('listener')).toBeUndefined();
    expect(exec.mirror.pollTransmit('dialer')).toBeUndefined();
  });
});
