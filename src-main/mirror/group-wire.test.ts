import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import type { Ballot, GroupMessage, HeldSeqs, View } from './group-wire';
import {
  decodeGroupMessage,
  encodeGroupMessage,
  GROUP_CHUNK_BYTES,
  GROUP_MAX_MESSAGE_BYTES,
  isGroupDecodeError,
  LEAVE_REASONS,
} from './group-wire';
import { MAX_MIRROR_ID, MAX_MIRRORS } from './mirror-id';

function view(rng: Rng): View {
  const ids = [...new Set(Array.from({ length: rng.range(1, 6) }, () => rng.range(0, 12)))].sort(
    (a, b) => a - b,
  );
  return {
    number: rng.range(0, 2 ** 30),
    members: ids.map((id) => ({
      id,
      address: { address: `10.${id}.0.${rng.range(1, 254)}`, port: rng.range(1, 65535) },
    })),
    nextId: rng.range((ids[ids.length - 1] ?? 0) + 1, MAX_MIRRORS),
  };
}

const ballot = (rng: Rng): Ballot => ({
  view: rng.range(0, 2 ** 30),
  attempt: rng.range(0, 2 ** 20),
  coordinator: rng.range(0, MAX_MIRROR_ID),
});

function held(rng: Rng): HeldSeqs[] {
  return Array.from({ length: rng.range(0, 3) }, () => {
    const upTo = rng.range(0, 2 ** 30);
    return {
      origin: rng.range(0, MAX_MIRROR_ID),
      upTo,
      above: Array.from({ length: rng.range(0, 5) }, (_, i) => upTo + 2 + i * 3),
    };
  });
}

function randomMessage(rng: Rng): GroupMessage {
  const id = (): number => rng.range(0, MAX_MIRROR_ID);
  const nonce = (): number => rng.int(2 ** 32);
  switch (rng.int(10)) {
    case 0:
      return { kind: 'join', nonce: nonce(), port: rng.range(0, 65535) };
    case 1:
      return { kind: 'ask', nonce: nonce(), address: { address: '::1', port: 9 }, via: id() };
    case 2:
      return { kind: 'suspect', id: id(), reason: rng.pick(LEAVE_REASONS) };
    case 3:
    case 4: {
      const kind = rng.bool() ? 'propose' : 'install';
      return {
        kind,
        ballot: ballot(rng),
        view: view(rng),
        removed: [{ id: id(), reason: rng.pick(LEAVE_REASONS) }],
        joined: rng.bool() ? [] : [{ id: id(), nonce: nonce(), via: id() }],
      };
    }
    case 5:
      return { kind: 'flush', ballot: ballot(rng), held: held(rng), installed: rng.range(0, 99) };
    case 6:
      return { kind: 'target', ballot: ballot(rng), held: held(rng) };
    case 7:
      return { kind: 'flushed', ballot: ballot(rng) };
    case 8: {
      const bytes = rng.range(0, 5_000_000);
      return {
        kind: 'welcome',
        nonce: nonce(),
        id: id(),
        view: view(rng),
        chunks: Math.ceil(bytes / GROUP_CHUNK_BYTES),
        bytes,
      };
    }
    default:
      return {
        kind: 'chunk',
        nonce: nonce(),
        index: rng.range(0, 5000),
        bytes: rng.bytes(rng.range(0, GROUP_CHUNK_BYTES)),
      };
  }
}

describe('mirror group messages', () => {
  it('round-trip exactly and fit a link packet (seeded)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rng = new Rng(seed);
      const m = randomMessage(rng);
      const bytes = encodeGroupMessage(m);
      expect(bytes.length, `seed ${seed} ${m.kind}`).toBeLessThanOrEqual(GROUP_MAX_MESSAGE_BYTES);
      expect(decodeGroupMessage(bytes), `seed ${seed}`).toEqual(m);
    }
  });

  it('refuse what breaks a bound with a typed error', () => {
    const bad = (m: GroupMessage): unknown => decodeGroupMessage(encodeGroupMessage(m));
    // A transfer past the cap, or whose chunk count does not match its size.
    const v: View = { number: 1, members: [], nextId: 2 };
    expect(
      bad({ kind: 'welcome', nonce: 1, id: 1, view: v, chunks: 70_000, bytes: 70_000_000 }),
    ).toMatchObject({ error: 'range' });
    expect(bad({ kind: 'welcome', nonce: 1, id: 1, view: v, chunks: 3, bytes: 100 })).toMatchObject(
      { error: 'range' },
    );
    // A view naming an id the group has not given out yet, or out of order.
    const address = { address: '1.2.3.4', port: 5 };
    expect(
      bad({
        kind: 'install',
        ballot: { view: 1, attempt: 1, coordinator: 0 },
        view: { number: 1, members: [{ id: 3, address }], nextId: 2 },
        removed: [],
        joined: [],
      }),
    ).toMatchObject({ error: 'invalid' });
    expect(
      bad({
        kind: 'install',
        ballot: { view: 1, attempt: 1, coordinator: 0 },
        view: {
          number: 1,
          members: [
            { id: 1, address },
            { id: 0, address },
          ],
          nextId: 2,
        },
        removed: [],
        joined: [],
      }),
    ).toMatchObject({ error: 'invalid' });
    // A held set whose "above" is not above its prefix.
    expect(
      bad({
        kind: 'target',
        ballot: { view: 1, attempt: 1, coordinator: 0 },
        held: [{ origin: 1, upTo: 10, above: [4] }],
      }),
    ).toMatchObject({ error: 'invalid' });
    expect(decodeGroupMessage(new Uint8Array(GROUP_MAX_MESSAGE_BYTES + 1))).toMatchObject({
      error: 'length',
    });
  });

  it('never throw on random bytes (seeded fuzz)', () => {
    const rng = new Rng(0x9e0);
    let errors = 0;
    for (let i = 0; i < 5_000; i++) {
      if (isGroupDecodeError(decodeGroupMessage(rng.bytes(rng.range(0, 80))))) errors++;
    }
    expect(errors).toBeGreaterThan(1000);
  });
});
