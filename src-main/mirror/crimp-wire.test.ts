import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import { MAX_MIRROR_ID } from './mirror-id';
import type { CrimpDatagram, CrimpMessage } from './crimp-wire';
import {
  CRIMP_MAX_DATAGRAM_BYTES,
  CRIMP_MAX_NAK_RUN,
  decodeCrimpDatagram,
  encodeCrimpDatagram,
  isCrimpDecodeError,
} from './crimp-wire';

const MAX_PAYLOAD = 300;

function randomDatagram(rng: Rng): CrimpDatagram {
  const messages: CrimpMessage[] = [];
  const n = rng.range(0, 5);
  for (let i = 0; i < n; i++) {
    messages.push(
      rng.bool()
        ? {
            kind: 'data',
            origin: rng.range(0, MAX_MIRROR_ID),
            seq: rng.range(1, 2 ** 40),
            repair: rng.bool(),
            payload: rng.bytes(rng.range(0, MAX_PAYLOAD)),
          }
        : {
            kind: 'nak',
            origin: rng.range(0, MAX_MIRROR_ID),
            first: rng.range(1, 2 ** 30),
            count: rng.range(1, CRIMP_MAX_NAK_RUN),
          },
    );
  }
  const sender = rng.range(0, MAX_MIRROR_ID);
  if (rng.bool(0.3)) return { sender, messages };
  const origins = [
    ...new Set(Array.from({ length: rng.range(0, 8) }, () => rng.range(0, MAX_MIRROR_ID))),
  ];
  const vector = origins.map((origin) => {
    const upTo = rng.range(0, 2 ** 32);
    return { origin, upTo, maxSeen: upTo + rng.range(0, 5000) };
  });
  const stamp = rng.range(0, 65_535);
  const state = rng.bool()
    ? { stamp, echo: { stamp: rng.range(0, 65_535), heldMs: rng.range(0, 30_000) }, vector }
    : { stamp, vector };
  return { sender, state, messages };
}

describe('CRIMP datagrams', () => {
  it('round-trips random datagrams exactly (seeded)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rng = new Rng(seed);
      const d = randomDatagram(rng);
      const bytes = encodeCrimpDatagram(d);
      expect(decodeCrimpDatagram(bytes, MAX_PAYLOAD), `seed ${seed}`).toEqual(d);
    }
  });

  it('is small: a 40-byte command with a 3-mirror state block costs at most 64 bytes (24 of CRIMP)', () => {
    const bytes = encodeCrimpDatagram({
      sender: 1,
      state: {
        stamp: 23_456,
        echo: { stamp: 23_400, heldMs: 12 },
        vector: [0, 1, 2].map((origin) => ({ origin, upTo: 5000, maxSeen: 5001 })),
      },
      messages: [
        { kind: 'data', origin: 1, seq: 5001, repair: false, payload: new Uint8Array(40) },
      ],
    });
    expect(bytes.length).toBeLessThanOrEqual(64);
  });

  it('refuses what breaks a bound with a typed error', () => {
    const big = encodeCrimpDatagram({
      sender: 0,
      messages: [{ kind: 'data', origin: 0, seq: 1, repair: false, payload: new Uint8Array(301) }],
    });
    expect(decodeCrimpDatagram(big, MAX_PAYLOAD)).toMatchObject({ error: 'length' });
    expect(decodeCrimpDatagram(new Uint8Array(CRIMP_MAX_DATAGRAM_BYTES + 1), 1000)).toMatchObject({
      error: 'too-large',
    });
    const seqZero = encodeCrimpDatagram({
      sender: 0,
      messages: [{ kind: 'nak', origin: 0, first: 0, count: 1 }],
    });
    expect(decodeCrimpDatagram(seqZero, MAX_PAYLOAD)).toMatchObject({ error: 'bad-seq' });
    const twice = encodeCrimpDatagram({
      sender: 0,
      state: {
        stamp: 1,
        vector: [
          { origin: 3, upTo: 1, maxSeen: 1 },
          { origin: 3, upTo: 2, maxSeen: 2 },
        ],
      },
      messages: [],
    });
    expect(decodeCrimpDatagram(twice, MAX_PAYLOAD)).toMatchObject({ error: 'duplicate-origin' });
    expect(decodeCrimpDatagram(new Uint8Array(0), MAX_PAYLOAD)).toMatchObject({ error: 'eof' });
  });

  it('never throws on random or mutated bytes (seeded fuzz)', () => {
    const rng = new Rng(0xc41);
    let errors = 0;
    for (let i = 0; i < 20_000; i++) {
      let bytes: Uint8Array;
      if (i % 2 === 0) {
        bytes = rng.bytes(rng.range(0, 200));
      } else {
        bytes = encodeCrimpDatagram(randomDatagram(rng));
        for (let k = rng.range(1, 4); k > 0 && bytes.length > 0; k--) {
          const at = rng.int(bytes.length);
          bytes[at] = (bytes[at] ?? 0) ^ (1 << rng.int(8));
        }
        if (rng.bool(0.3)) bytes = bytes.subarray(0, rng.int(bytes.length + 1));
      }
      const d = decodeCrimpDatagram(bytes, MAX_PAYLOAD);
      if (isCrimpDecodeError(d)) errors++;
      else
        for (const m of d.messages)
          if (m.kind === 'data') expect(m.payload.length).toBeLessThanOrEqual(MAX_PAYLOAD);
    }
    expect(errors).toBeGreaterThan(1000);
  });
});
