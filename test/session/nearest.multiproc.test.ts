// Joining the nearest of several hosts by one link, as separate `ghostboard` processes on loopback: two hosts with
// the same code (one behind a proxy adding 40 ms each way, standing in for a far mirror) and an address where nothing
// listens. The joiner probes all three, prints each RTT in a `probed` event, and joins the one it chose.
import { afterAll, describe, expect, it } from 'vitest';
import { NO_IMPAIRMENT } from '../../src-main/net/impairment';
import { CODE, Lab, killAll, str } from './harness';

afterAll(killAll);

describe('joining by a link that names several hosts', () => {
  it('probes them all, skips the silent one, joins the one with the lowest RTT and says so', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const far = await lab.host({ name: 'Far' });
    const near = await lab.host({ name: 'Near' });
    const proxy = await lab.proxy(far.port, 22, { ...NO_IMPAIRMENT, delayMs: 40 });
    const farAt = `127.0.0.1:${proxy.address.port}`;
    const nearAt = `127.0.0.1:${near.port}`;
    const silent = '127.0.0.1:9';
    const link = `ghostboard://direct/${farAt},${silent},${nearAt}#${CODE}`;
    const jo = lab.spawn('Jo', ['join', link, '--name', 'Jo', '--script']);
    const probed = await jo.waitFor((e) => e.ev === 'probed', 'probed');
    const hosts = probed.hosts as { address: string; rttMs: number | null }[];
    expect(hosts.map((h) => h.address)).toEqual([farAt, silent, nearAt]);
    // The proxy's delay is a floor under the far host's RTT; nothing answers at the silent address.
    expect(hosts[0]?.rttMs).toBeGreaterThanOrEqual(80);
    expect(hosts[1]?.rttMs).toBeNull();
    expect(typeof hosts[2]?.rttMs).toBe('number');
    // The choice is the lowest RTT reported, and the joiner is joined there.
    const lowest = [...hosts]
      .filter((h) => h.rttMs !== null)
      .sort((a, b) => (a.rttMs ?? 0) - (b.rttMs ?? 0))[0];
    expect(probed.chosen).toBe(lowest?.address);
    const ready = await jo.waitFor((e) => e.ev === 'ready', 'Jo ready');
    expect(`${str(ready, 'address')}:${String(ready.port)}`).toBe(probed.chosen);
    const chosenHost = probed.chosen === nearAt ? near.proc : far.proc;
    await chosenHost.waitFor((e) => e.ev === 'joined' && e.name === 'Jo', 'Jo joined');
    expect(probed.failure).toBeUndefined();
  });

  it('ends as rejected, unreachable, when none of the hosts answers', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const jo = lab.spawn('Jo', [
      'join',
      `ghostboard://direct/127.0.0.1:9,127.0.0.1:19#${CODE}`,
      '--name',
      'Jo',
      '--script',
    ]);
    const probed = await jo.waitFor((e) => e.ev === 'probed', 'probed');
    expect(probed).toMatchObject({ chosen: null, failure: 'unreachable' });
    await jo.waitFor((e) => e.ev === 'rejected' && e.reason === 'unreachable', 'rejected');
  });
});
