import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../net/bitstream';
import { Rng } from '../net/rng';
import { MAX_MIRROR_ID } from './mirror-id';
import type { LinkMessage } from './link-wire';
import {
  isLinkDecodeError,
  linkMessageBits,
  readLinkMessages,
  writeLinkEnd,
  writeLinkMessage,
} from './link-wire';

function randomMessage(rng: Rng): LinkMessage {
  const t = (): number => (rng.next() - 0.5) * 1e13;
  switch (rng.int(5)) {
    case 0:
      return { kind: 'hello', id: rng.range(0, MAX_MIRROR_ID) };
    case 1:
      return { kind: 'crimp', bytes: rng.bytes(rng.range(0, 1100)) };
    case 2:
      return { kind: 'probe', t0: t() };
    case 3:
      return { kind: 'group', bytes: rng.bytes(rng.range(0, 1200)) };
    default:
      return { kind: 'answer', t0: t(), t1: t(), t2: t() };
  }
}

function encode(messages: readonly LinkMessage[]): Uint8Array {
  const w = new BitWriter();
  for (const m of messages) writeLinkMessage(w, m);
  writeLinkEnd(w);
  return w.finish();
}

describe('mirror link messages', () => {
  it('round-trip exactly, and linkMessageBits is what the writer takes (seeded)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rng = new Rng(seed);
      const messages = Array.from({ length: rng.range(0, 4) }, () => randomMessage(rng));
      const w = new BitWriter();
      for (const m of messages) {
        const before = w.bitLength;
        writeLinkMessage(w, m);
        expect(w.bitLength - before, `seed ${seed} ${m.kind}`).toBe(linkMessageBits(m));
      }
      expect(readLinkMessages(new BitReader(encode(messages))), `seed ${seed}`).toEqual(messages);
    }
  });

  it('refuse non-finite times, oversized CRIMP datagrams and endless runs with a typed error', () => {
    const w = new BitWriter();
    writeLinkMessage(w, { kind: 'probe', t0: Infinity });
    writeLinkEnd(w);
    expect(readLinkMessages(new BitReader(w.finish()))).toMatchObject({ error: 'range' });
    expect(
      readLinkMessages(new BitReader(encode([{ kind: 'crimp', bytes: new Uint8Array(1401) }]))),
    ).toMatchObject({ error: 'length' });
    const many = Array.from({ length: 17 }, (): LinkMessage => ({ kind: 'hello', id: 1 }));
    expect(readLinkMessages(new BitReader(encode(many)))).toMatchObject({ error: 'length' });
  });

  it('never throw on random bytes (seeded fuzz)', () => {
    const rng = new Rng(0x11c);
    let errors = 0;
    for (let i = 0; i < 5_000; i++) {
      if (isLinkDecodeError(readLinkMessages(new BitReader(rng.bytes(rng.range(0, 64)))))) errors++;
    }
    expect(errors).toBeGreaterThan(1000);
  });
});
