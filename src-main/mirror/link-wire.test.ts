import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../net/bitstream';
import { Rng } from '../net/rng';
import { MAX_MIRROR_ID } from './mirror-id';
import type { LinkMessage } from './link-wire';
import {
  isLinkDecodeError,
  linkMessageBits,
  readLinkMessages,
  readLinkSectionFlag,
  writeLinkEnd,
  writeLinkMessage,
  writeLinkSectionFlag,
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

  it('keep their layout (golden bytes)', () => {
    const hex = (messages: readonly LinkMessage[]): string =>
      Buffer.from(encode(messages)).toString('hex');
    // 1 · kind 000 · id 0011 · end 0 (kinds take 3 bits since membership's group message). A CRIMP datagram's
    // length is a varuint, its bytes start on a byte boundary; clock readings are float64.
    expect(hex([{ kind: 'hello', id: 3 }])).toBe('8300');
    expect(hex([{ kind: 'crimp', bytes: new Uint8Array([1, 2, 3]) }])).toBe('9300810180');
    expect(hex([{ kind: 'probe', t0: 1234.5 }])).toBe('a40934a00000000000');
    expect(hex([{ kind: 'answer', t0: 1, t1: -2, t2: 0.5 }])).toBe(
      'b3ff0000000000000c0000000000000003fe00000000000000',
    );
    expect(hex([])).toBe('00');
  });

  it('flag a stream section after the end bit, and read none from a packet without one', () => {
    // HELLO and the end bit leave padding: zeros, no flag.
    const bare = new BitReader(encode([{ kind: 'hello', id: 3 }]));
    expect(readLinkMessages(bare)).toEqual([{ kind: 'hello', id: 3 }]);
    expect(readLinkSectionFlag(bare)).toBe(false);
    // A probe leaves padding: zeros, no flag.
    const padded = new BitReader(encode([{ kind: 'probe', t0: 7 }]));
    readLinkMessages(padded);
    expect(readLinkSectionFlag(padded)).toBe(false);
    const w = new BitWriter();
    writeLinkMessage(w, { kind: 'hello', id: 3 });
    writeLinkEnd(w);
    writeLinkSectionFlag(w);
    w.writeUint(0b101, 3);
    const bytes = w.finish();
    expect(Buffer.from(bytes).toString('hex')).toBe('8368');
    const r = new BitReader(bytes);
    expect(readLinkMessages(r)).toEqual([{ kind: 'hello', id: 3 }]);
    expect(readLinkSectionFlag(r)).toBe(true);
    expect(r.readUint(3)).toBe(0b101);
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
