// `ghostboard replay`: a trace file replayed to its hash and rollbacks, refusals with reasons (damaged trace, bad
// options). test/cli-replay.test.ts runs the command itself.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeTrace } from '../mirror/trace';
import { orderedHash } from '../mirror/replay';
import { DEFAULT_SIM, simulate } from '../mirror/testing/sim';
import { parseDelays, replayTraceFile } from './replay';

const dir = mkdtempSync(`${tmpdir()}/gb-replay-`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEED = 31;
const sim = simulate({ ...DEFAULT_SIM, seed: SEED });
const trace = `${dir}/m2.gbtrace`;
writeFileSync(trace, encodeTrace({ mirror: 2, records: sim.mirrors[2]?.received ?? [] }));
const none = { delays: undefined, spread: undefined, seed: undefined };

describe('ghostboard replay', () => {
  it('prints the hash every mirror reached and the rollbacks of the given delays', async () => {
    const r = await replayTraceFile(trace, { ...none, delays: '50,500', spread: '60' });
    if ('fail' in r) throw new Error(r.fail);
    expect(r.line, `seed ${SEED}`).toMatchObject({
      ev: 'replay',
      mirror: 2,
      commands: sim.mirrors[2]?.received.length,
      hash: orderedHash(sim.commands),
      delays: [50, 500],
      spread: 60,
      consistent: true,
      late: 0,
      torn: false,
    });
    expect(r.line.rollbacks).toEqual(expect.any(Number));
  });

  it('refuses a damaged trace and bad options with reasons', async () => {
    const bad = `${dir}/bad.gbtrace`;
    writeFileSync(bad, 'not a trace at all');
    expect(await replayTraceFile(bad, none)).toEqual({
      fail: `${bad}: not a Ghostboard command trace`,
    });
    expect(await replayTraceFile(trace, { ...none, delays: '100,50' })).toMatchObject({
      fail: expect.stringContaining('--delays') as unknown,
    });
    expect(await replayTraceFile(trace, { ...none, spread: '-1' })).toMatchObject({
      fail: expect.stringContaining('--spread') as unknown,
    });
    expect(parseDelays('100,1000')).toEqual([100, 1000]);
    expect(parseDelays('0')).toBeUndefined();
    expect(parseDelays('a')).toBeUndefined();
  });
});
