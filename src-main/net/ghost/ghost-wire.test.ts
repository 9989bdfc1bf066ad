import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, DecodeError } from '../bitstream';
import { Rng } from '../rng';
import { ProtocolError } from '../stream/manager';
import { testRegistry } from '../testing/ghost-classes';
import { GhostReceiver } from './ghost-receiver';
import type { EntryHead, EntryKind } from './ghost-wire';
import {
  readEntryHead,
  readSectionHeader,
  readUpdateMask,
  writeEntryHead,
  writeSectionEnd,
  writeSectionHeader,
  writeUpdateMask,
} from './ghost-wire';

const KINDS: readonly EntryKind[] = ['create', 'refresh', 'update', 'delete'];

describe('ghost section codec', () => {
  it('round-trips headers, entry heads and masks (seeded)', () => {
    const seed = 42;
    const rng = new Rng(seed);
    for (let round = 0; round < 500; round++) {
      const idBits = rng.range(1, 16);
      const maskBits = rng.pick([0, 2, 5, 32]);
      const heads: (EntryHead & { mask: number })[] = [];
      const w = new BitWriter();
      writeSectionHeader(w, idBits);
      for (let i = rng.range(0, 20); i > 0; i--) {
        const head = { id: rng.int(2 ** idBits), kind: rng.pick(KINDS) };
        const mask = maskBits === 0 ? 1 : 1 + rng.int(2 ** maskBits - 1);
        heads.push({ ...head, mask });
        writeEntryHead(w, idBits, head);
        if (head.kind === 'update') writeUpdateMask(w, maskBits, mask);
      }
      writeSectionEnd(w);
      const r = new BitReader(w.finish(), 0, w.bitLength);
      expect(readSectionHeader(r, 16), `seed ${seed}`).toBe(idBits);
      for (const h of heads) {
        const got = readEntryHead(r, idBits, 2 ** 16);
        expect(got, `seed ${seed} round ${round}`).toEqual({ id: h.id, kind: h.kind });
        if (h.kind === 'update') expect(readUpdateMask(r, maskBits)).toBe(h.mask);
      }
      expect(readEntryHead(r, idBits, 2 ** 16)).toBeUndefined();
      expect(r.bitsLeft).toBe(0);
    }
  });

  it('costs 1 bit per update head beyond the id, 3 per create, 2 per delete', () => {
    const size = (kind: EntryKind): number => {
      const w = new BitWriter();
      writeEntryHead(w, 6, { id: 9, kind });
      return w.bitLength;
    };
    expect([size('update'), size('create'), size('refresh'), size('delete')]).toEqual([
      8, 10, 10, 9,
    ]);
  });

  it('random bytes only ever raise DecodeError or ProtocolError (seeded fuzz)', () => {
    const seed = 7;
    const rng = new Rng(seed);
    let errors = 0;
    for (let i = 0; i < 20_000; i++) {
      const rx = new GhostReceiver(testRegistry(), 1_000);
      const bytes = rng.bytes(rng.range(0, 64));
      try {
        rx.read(0, new BitReader(bytes));
      } catch (e) {
        if (!(e instanceof DecodeError || e instanceof ProtocolError)) {
          throw new Error(`seed ${seed} case ${i}: ${String(e)}`);
        }
        errors++;
      }
      expect(rx.size).toBeLessThanOrEqual(1_000);
    }
    expect(errors).toBeGreaterThan(10_000);
  });
});
