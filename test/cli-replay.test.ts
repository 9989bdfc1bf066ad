// `ghostboard replay TRACE` as a user runs it: a simulated mirror's trace replays to the board every mirror of the
// simulation reached, printed as one JSON line with the rollbacks the given delays cause.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { orderedHash } from '../src-main/mirror/replay';
import { encodeTrace } from '../src-main/mirror/trace';
import { DEFAULT_SIM, simulate } from '../src-main/mirror/testing/sim';

const dir = mkdtempSync(join(tmpdir(), 'ghostboard-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ghostboard replay', () => {
  it('prints the trace’s board hash and the rollbacks of the given delays', () => {
    const seed = 12;
    const sim = simulate({ ...DEFAULT_SIM, seed });
    const trace = join(dir, 'mirror0.gbtrace');
    writeFileSync(trace, encodeTrace({ mirror: 0, records: sim.mirrors[0]?.received ?? [] }));
    const bin = new URL('../bin/ghostboard.js', import.meta.url).pathname;
    const out = execFileSync(
      process.execPath,
      [bin, 'replay', trace, '--delays', '50,1000', '--spread', '60'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(JSON.parse(out.trim()), `seed ${seed}`).toMatchObject({
      ev: 'replay',
      mirror: 0,
      hash: orderedHash(sim.commands),
      delays: [50, 1000],
      spread: 60,
      consistent: true,
      rollbacks: expect.any(Number) as number,
    });
  });
});
