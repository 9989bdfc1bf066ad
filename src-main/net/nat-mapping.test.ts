import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from './bitstream';
import type { NatMapping } from './nat-mapping';
import {
  classifyMapping,
  predictedPorts,
  readMapping,
  traversalFor,
  UNKNOWN_MAPPING,
  writeMapping,
} from './nat-mapping';
import { Rng } from './rng';

const at = (port: number, address = '203.0.113.7') => ({ address, port });

describe('NAT mapping', () => {
  it('is independent when both destinations saw the same port, dependent with its step otherwise', () => {
    expect(classifyMapping(at(40_000), at(40_000))).toEqual({ kind: 'independent' });
    expect(classifyMapping(at(30_000), at(30_001))).toEqual({
      kind: 'dependent',
      delta: 1,
      last: 30_001,
    });
    expect(classifyMapping(at(52_000), at(9_000))).toEqual({
      kind: 'dependent',
      delta: -43_000,
      last: 9_000,
    });
    // A NAT pool (two public IPs) can't be predicted: no step.
    expect(classifyMapping(at(30_000), at(30_001, '203.0.113.8'))).toEqual({
      kind: 'dependent',
      delta: 0,
      last: 30_001,
    });
  });

  it('predicts the next ports of a NAT that allocates in sequence, and none of a random one', () => {
    expect(predictedPorts({ kind: 'dependent', delta: 2, last: 30_010 }, 4)).toEqual([
      30_012, 30_014, 30_016, 30_018,
    ]);
    expect(predictedPorts({ kind: 'dependent', delta: -1, last: 3 }, 5)).toEqual([2, 1]);
    expect(predictedPorts({ kind: 'dependent', delta: 30, last: 65_480 }, 3)).toEqual([65_510]);
    expect(predictedPorts({ kind: 'dependent', delta: 12_345, last: 1_000 }, 3)).toEqual([]);
    expect(predictedPorts({ kind: 'dependent', delta: 0, last: 1_000 }, 3)).toEqual([]);
    expect(predictedPorts({ kind: 'independent' }, 3)).toEqual([]);
  });

  it('picks who sprays and who fans: only one hard side is worth the effort', () => {
    const hard: NatMapping = { kind: 'dependent', delta: 777, last: 2_000 };
    const easy: NatMapping = { kind: 'independent' };
    expect(traversalFor(easy, hard)).toBe('spray');
    expect(traversalFor(UNKNOWN_MAPPING, hard)).toBe('spray');
    expect(traversalFor(hard, easy)).toBe('fan');
    expect(traversalFor(hard, UNKNOWN_MAPPING)).toBe('fan');
    expect(traversalFor(easy, easy)).toBe('plain');
    expect(traversalFor(hard, hard)).toBe('plain');
  });

  it('round-trips on the wire and refuses hostile bits (seeded)', () => {
    const seed = 0x5eed_4787;
    const rng = new Rng(seed);
    for (let i = 0; i < 500; i++) {
      const m: NatMapping =
        i % 3 === 0
          ? UNKNOWN_MAPPING
          : i % 3 === 1
            ? { kind: 'independent' }
            : { kind: 'dependent', delta: rng.range(-65_535, 65_535), last: rng.int(65_536) };
      const w = new BitWriter(8);
      writeMapping(w, m);
      expect(readMapping(new BitReader(w.finish())), `seed ${seed}`).toEqual(m);
    }
    // Kind 3 does not exist; a step of -65,536 fits 17 bits but no port pair gives it.
    const bad = new BitWriter(8);
    bad.writeUint(3, 2);
    expect(() => readMapping(new BitReader(bad.finish()))).toThrow(/kind/);
    const far = new BitWriter(8);
    far.writeUint(2, 2);
    far.writeInt(-65_536, 17);
    far.writeUint(1, 16);
    expect(() => readMapping(new BitReader(far.finish()))).toThrow(/step/);
    expect(() => readMapping(new BitReader(new Uint8Array([0x80])))).toThrow();
  });
});
