// Failover as separate `ghostboard` processes on loopback: two hosts of one session (the same code) and a joiner by
// a link naming both. The host it joined is killed (SIGKILL): the joiner prints a `failover` event from that host
// to the other, then `ready` there, and goes on: its board is the new host's and its edits reach it. And the move to
// a nearer host: the nearer one is stopped (SIGSTOP) while the joiner probes, so it joins the farther; resumed, the
// nearer answers the joiner's second probe sooner, and the joiner moves there.
import { afterAll, describe, expect, it } from 'vitest';
import { NO_IMPAIRMENT } from '../../src-main/net/impairment';
import { CODE, Lab, killAll, num, settledBoards, str } from './harness';

afterAll(killAll);

/** Two hosts of one session, each with its own board, so which one the joiner shows is plain. */
async function twoHosts(lab: Lab) {
  const a = await lab.host({ name: 'Ana' });
  const b = await lab.host({ name: 'Bea' });
  for (const [h, x] of [
    [a, 111],
    [b, 222],
  ] as const)
    await h.proc.request({ cmd: 'create', kind: 'rect', x, y: 0, w: 10, h: 10 }, 'object');
  return { a, b };
}

/** Jo, joining by a link that names both hosts (at these addresses). */
function joiner(lab: Lab, ...hosts: readonly string[]) {
  return lab.spawn('Jo', [
    'join',
    `ghostboard://direct/${hosts.join(',')}#${CODE}`,
    '--name',
    'Jo',
    '--script',
  ]);
}

describe('a joiner whose host dies', () => {
  it('moves to the other host of the session, says so, and goes on there', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const { a, b } = await twoHosts(lab);
    const at = { a: `127.0.0.1:${a.port}`, b: `127.0.0.1:${b.port}` };
    const jo = joiner(lab, at.a, at.b);
    const ready = await jo.waitFor((e) => e.ev === 'ready', 'Jo ready');
    const joined = `${str(ready, 'address')}:${num(ready, 'port')}`;
    const [dead, other, otherAt] = joined === at.a ? [a, b, at.b] : [b, a, at.a];
    await dead.proc.kill();
    const moved = await jo.waitFor((e) => e.ev === 'failover', 'failover');
    expect(moved).toMatchObject({ ev: 'failover', from: joined, to: otherAt });
    expect(typeof moved.ms).toBe('number');
    process.stdout.write(
      `failover over loopback: ${String(moved.ms)} ms from the last packet heard\n`,
    );
    const again = await jo.waitFor((e) => e.ev === 'ready' && e !== ready, 'ready again');
    expect(`${str(again, 'address')}:${num(again, 'port')}`).toBe(otherAt);
    await other.proc.waitFor((e) => e.ev === 'joined' && e.name === 'Jo', 'Jo joined the other');
    // Live there: the joiner's edit reaches the new host, and both boards settle to one hash.
    jo.send({ cmd: 'create', kind: 'rect', x: 333, y: 0, w: 10, h: 10 });
    await other.proc.waitFor((e) => e.ev === 'object' && e.x === 333, 'the edit arrived');
    const { states, settled } = await settledBoards([other.proc, jo], 30_000);
    expect(settled, JSON.stringify(states)).toBe(true);
    expect(states[1]?.objects).toBe(2);
  });

  it('moves to a nearer host that was too busy to answer its first probe, and says so', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const { a, b } = await twoHosts(lab);
    // Bea is 30 ms away each way; Ana, on loopback, is stopped while the joiner probes.
    const far = await lab.proxy(b.port, 7, { ...NO_IMPAIRMENT, delayMs: 30 });
    const at = { a: `127.0.0.1:${a.port}`, b: `127.0.0.1:${far.address.port}` };
    a.proc.pause(true);
    const jo = joiner(lab, at.a, at.b);
    const ready = await jo.waitFor((e) => e.ev === 'ready', 'Jo ready');
    expect(`${str(ready, 'address')}:${num(ready, 'port')}`).toBe(at.b);
    a.proc.pause(false);
    const moved = await jo.waitFor((e) => e.ev === 'moved', 'moved');
    expect(moved).toMatchObject({ ev: 'moved', reason: 'nearer', from: at.b, to: at.a });
    const again = await jo.waitFor((e) => e.ev === 'ready' && e !== ready, 'ready again');
    expect(`${str(again, 'address')}:${num(again, 'port')}`).toBe(at.a);
    await a.proc.waitFor((e) => e.ev === 'joined' && e.name === 'Jo', 'Jo joined Ana');
    jo.send({ cmd: 'create', kind: 'rect', x: 333, y: 0, w: 10, h: 10 });
    await a.proc.waitFor((e) => e.ev === 'object' && e.x === 333, 'the edit arrived');
    const { states, settled } = await settledBoards([a.proc, jo], 30_000);
    expect(settled, JSON.stringify(states)).toBe(true);
    expect(states[1]?.objects).toBe(2);
  });
});
