// Command traces: records round-trip exactly (seeded), a trace cut at any byte keeps every whole record before
// the cut (torn), damage is refused with the record's index, and a simulated mirror's trace replays to the board
// every mirror ended with, the same way each time.
import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import type { TraceRecord } from './trace';
import { decodeTrace, encodeTrace, encodeTraceHeader, isTrace, traceErrorText } from './trace';
import { orderedHash, replay } from './replay';
import { randomCommand } from './testing/random-command';
import { DEFAULT_SIM, simulate } from './testing/sim';

const SEED = 0x7ace;

function randomRecords(rng: Rng, n: number): TraceRecord[] {
  return Array.from({ length: n }, () => ({
    arrival: rng.int(2 ** 40),
    command: randomCommand(rng),
  }));
}

describe('command traces', () => {
  it(`round-trip exactly (seed ${SEED})`, () => {
    const rng = new Rng(SEED);
    const records = randomRecords(rng, 500);
    const t = decodeTrace(encodeTrace({ mirror: 3, records }));
    expect(t, `seed ${SEED}`).toEqual({ mirror: 3, records, torn: false });
  });

  it(`cut at any byte keep every record before the cut, flagged torn (seed ${SEED + 1})`, () => {
    const rng = new Rng(SEED + 1);
    const records = randomRecords(rng, 12);
    const bytes = encodeTrace({ mirror: 1, records });
    const ends: number[] = [];
    let at = 6;
    for (let i = 0; i < records.length; i++) {
      at += 8 + new DataView(bytes.buffer, at).getUint32(0, true);
      ends.push(at);
    }
    for (let cut = 6; cut < bytes.length; cut++) {
      const t = decodeTrace(bytes.subarray(0, cut));
      if (!isTrace(t)) throw new Error(`seed ${SEED + 1} cut ${cut}: ${traceErrorText(t)}`);
      const whole = ends.filter((e) => e <= cut).length;
      expect(t.records, `cut ${cut}`).toEqual(records.slice(0, whole));
      expect(t.torn, `cut ${cut}`).toBe(cut !== 6 && !ends.includes(cut));
    }
  });

  it(`refuse damage with the record it is in, never throwing (seed ${SEED + 2})`, () => {
    const rng = new Rng(SEED + 2);
    const bytes = encodeTrace({ mirror: 0, records: randomRecords(rng, 20) });
    for (let i = 0; i < 300; i++) {
      const bad = bytes.slice();
      const at = 6 + rng.int(bad.length - 6);
      bad[at] = (bad[at] ?? 0) ^ (1 + rng.int(255));
      const t = decodeTrace(bad);
      // A flipped length can make the rest look cut short; anything else is a refused record.
      if (!isTrace(t)) expect(t.type, `seed ${SEED + 2} byte ${at}`).toBe('record');
      else expect(t.torn || t.records.length < 20, `seed ${SEED + 2} byte ${at}`).toBe(true);
    }
    for (let i = 0; i < 300; i++)
      decodeTrace(Uint8Array.from([...encodeTraceHeader(0), ...rng.bytes(rng.int(200))]));
  });

  it('refuse what is not a trace, another version, a mirror out of range', () => {
    expect(decodeTrace(new TextEncoder().encode('{"json":1}'))).toEqual({ type: 'not-a-trace' });
    const h = encodeTraceHeader(2);
    expect(decodeTrace(Uint8Array.from([...h.subarray(0, 4), 9, 2]))).toEqual({
      type: 'version',
      version: 9,
    });
    expect(decodeTrace(Uint8Array.from([...h.subarray(0, 5), 99]))).toEqual({
      type: 'bad-mirror',
      mirror: 99,
    });
    const huge = encodeTrace({ mirror: 0, records: [] });
    const withLength = Uint8Array.from([...huge, 0xff, 0xff, 0, 0, 0, 0, 0, 0]);
    expect(decodeTrace(withLength)).toMatchObject({ type: 'record', index: 0, offset: 6 });
  });
});

describe('replay', () => {
  it('re-executes a mirror’s trace to the board every mirror ended with, deterministically', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const sim = simulate({ ...DEFAULT_SIM, seed });
      const m = sim.mirrors[1];
      if (m === undefined) throw new Error('no mirror 1');
      const decoded = decodeTrace(encodeTrace({ mirror: 1, records: m.received }));
      if (!isTrace(decoded)) throw new Error(traceErrorText(decoded));
      const msg = `seed ${seed}`;
      const r = replay(1, decoded.records, { delays: [100, 1000] });
      expect(r.hash, msg).toBe(m.tss.hash());
      expect(r.hash, msg).toBe(orderedHash(sim.commands));
      expect(r.consistent, msg).toBe(true);
      const spread = replay(1, decoded.records, { delays: [100, 1000], spread: 60, seed });
      expect(spread.consistent, msg).toBe(true);
      expect(
        replay(1, decoded.records, { delays: [100, 1000], spread: 60, seed }).stats,
        msg,
      ).toEqual(spread.stats);
    }
  });

  it('counts the rollbacks a configuration causes: fewer with a longer first delay', () => {
    const sim = simulate({ ...DEFAULT_SIM, seed: 7, commands: 400 });
    const records = sim.mirrors[0]?.received ?? [];
    const short = replay(0, records, { delays: [10, 1000], spread: 60 });
    const long = replay(0, records, { delays: [500, 1000], spread: 60 });
    expect(short.consistent && long.consistent).toBe(true);
    expect(short.stats.rollbacks).toBeGreaterThan(long.stats.rollbacks);
    // A last delay shorter than the transit makes commands late.
    expect(replay(0, records, { delays: [20], spread: 60 }).stats.late).toBeGreaterThan(0);
  });
});
