// A session's mirror registered with a directory, over real UDP on loopback in one process: the first host
// registers, a second host registers under the same session as its mirror (with the first's key), and a joiner
// that has only the session's name is told of both, probes both and joins the one it chose.
import { afterEach, describe, expect, it } from 'vitest';
import { addressKey } from '../../src-main/net/address';
import { DirectoryRunner } from '../../src-main/directory/runner';
import type { ReachEvent } from '../../src-main/session/runner';
import { SessionRunner } from '../../src-main/session/runner';

const CODE = 'ABCDE-FGHJK';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** Waits for `cond` (a hang guard only: loopback answers in milliseconds). */
async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`${what}: not so within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a mirror registered with a directory', () => {
  it('is told to joiners with the first host; the joiner probes both and joins one', async () => {
    const dir = await DirectoryRunner.open({ bind: '127.0.0.1', port: 0, reflectorPort: 'off' });
    closers.push(() => dir.close());
    const base = { code: CODE, port: 0, bind: '127.0.0.1', directories: [dir.address] };
    const first = await SessionRunner.host({ ...base, name: 'Ana' });
    closers.push(() => first.close());
    await until(() => first.listedOn.length === 1, 'first host listed');
    const session = first.registeredAs?.name ?? '';
    const ownerKey = first.directoryKey;
    if (ownerKey === undefined) throw new Error('no directory key');
    const mirror = await SessionRunner.host({
      ...base,
      name: 'Mirror',
      mirrorOf: { session, listed: false, ownerKey },
    });
    closers.push(() => mirror.close());
    await until(() => dir.directory.hostsOf(session).length === 2, 'mirror listed');
    expect(dir.directory.hostsOf(session).map(addressKey)).toEqual([
      `127.0.0.1:${first.address.port}`,
      `127.0.0.1:${mirror.address.port}`,
    ]);

    const joiner = await SessionRunner.join({
      name: 'Jo',
      code: CODE,
      host: { directories: [dir.address], session },
    });
    closers.push(() => joiner.close());
    const reach: ReachEvent[] = [];
    joiner.onReach((e) => reach.push(e));
    await until(() => reach.some((e) => e.type === 'probed'), 'probed');
    const probed = reach.find((e) => e.type === 'probed');
    if (probed?.type !== 'probed') throw new Error('no probe');
    expect(probed.outcome.candidates.map((c) => addressKey(c.address))).toEqual([
      `127.0.0.1:${first.address.port}`,
      `127.0.0.1:${mirror.address.port}`,
    ]);
    expect(probed.outcome.candidates.every((c) => c.rttMs !== null)).toBe(true);
    const chosen = probed.outcome.candidates[probed.outcome.chosen ?? -1]?.address;
    const host = chosen?.port === first.address.port ? first : mirror;
    await until(
      () => host.controls.participants.some((p) => p.name === 'Jo'),
      'the joiner joined the chosen host',
    );
  });
});
