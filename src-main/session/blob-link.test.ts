import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import type { BlobLinkOwner, BlobVerdict, BlobWire, SendOutcome } from './blob-link';
import { BlobLink } from './blob-link';
import type { Blob } from './blob-store';
import { blobHash } from './blob-store';
import {
  BLOB_CHUNK_BYTES,
  BLOB_STALL_MS,
  BLOB_WINDOW_BYTES,
  MAX_OPEN_TRANSFERS,
  MAX_SENDING,
} from './blob-wire';

// The blob link on its own: two links joined by a wire the test delivers (each direction in order, as the blobs
// channel is; when each side's next call goes is a seeded shuffle), and a hostile sender driving a receiver call
// by call. Every bad chunk is counted, its transfer given up and its buffer released.

type Call =
  | { k: 'start'; a: Parameters<BlobWire['start']>[0] }
  | { k: 'chunk'; a: Parameters<BlobWire['chunk']>[0] }
  | { k: 'ack'; a: Parameters<BlobWire['ack']>[0] }
  | { k: 'end'; a: Parameters<BlobWire['end']>[0] };

function recorder(): { wire: BlobWire; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    wire: {
      start: (a) => calls.push({ k: 'start', a }),
      chunk: (a) => calls.push({ k: 'chunk', a: { ...a, data: a.data.slice() } }),
      ack: (a) => calls.push({ k: 'ack', a }),
      end: (a) => calls.push({ k: 'end', a }),
    },
  };
}

interface Kept extends BlobLinkOwner {
  readonly got: Blob[];
  /** Hashes of the transfers given up. */
  readonly dropped: string[];
}

function owner(
  verdict: (hash: string, size: number) => BlobVerdict = () => ({ take: true }),
): Kept {
  const got: Blob[] = [];
  const dropped: string[] = [];
  return {
    got,
    dropped,
    offered: (hash, size) => verdict(hash, size),
    received: (b) => got.push(b),
    abandoned: (hash) => dropped.push(hash),
  };
}

function deliver(to: BlobLink, c: Call, now: number): void {
  switch (c.k) {
    case 'start':
      to.onStart(now, c.a);
      return;
    case 'chunk':
      to.onChunk(now, c.a);
      return;
    case 'ack':
      to.onAck(now, c.a);
      return;
    case 'end':
      to.onEnd(now, c.a);
      return;
  }
}

function blobOf(rng: Rng, n: number): Blob {
  const bytes = rng.bytes(n);
  return { hash: blobHash(bytes), type: 'image/png', bytes };
}

describe('the blob link', () => {
  it('carries blobs whole, never more than a window unacknowledged (40 seeds)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Rng(seed);
      const a = recorder();
      const b = recorder();
      const receiving = owner();
      const sender = new BlobLink(a.wire, owner());
      const receiver = new BlobLink(b.wire, receiving);
      const blobs = [
        blobOf(rng, 1 + rng.int(60_000)),
        blobOf(rng, 1 + rng.int(5000)),
        blobOf(rng, BLOB_CHUNK_BYTES),
      ];
      const outcomes: SendOutcome[] = [];
      for (const x of blobs) sender.send(0, x, (o) => outcomes.push(o));
      const sent = new Map<number, number>();
      const acked = new Map<number, number>();
      let ai = 0;
      let bi = 0;
      for (let now = 1; ai < a.calls.length || bi < b.calls.length; now++) {
        const fromA = bi >= b.calls.length || (ai < a.calls.length && rng.bool());
        const c = fromA ? a.calls[ai++] : b.calls[bi++];
        if (c === undefined) break;
        deliver(fromA ? receiver : sender, c, now);
        if (c.k === 'ack') acked.set(c.a.tid, c.a.received);
        if (c.k === 'end') acked.set(c.a.tid, Infinity);
        sent.clear();
        for (const x of a.calls)
          if (x.k === 'chunk') sent.set(x.a.tid, (sent.get(x.a.tid) ?? 0) + x.a.data.length);
        for (const [tid, n] of sent)
          expect(n - (acked.get(tid) ?? 0), `seed ${seed}`).toBeLessThanOrEqual(BLOB_WINDOW_BYTES);
      }
      // Each whole and checked (transfers run side by side: a small one may finish first).
      const seen = receiving.got.map((x) => [x.hash, x.bytes.length, blobHash(x.bytes)]);
      const want = blobs.map((x) => [x.hash, x.bytes.length, x.hash]);
      const order = (r: (string | number)[][]) =>
        r.sort((p, q) => String(p[0]).localeCompare(String(q[0])));
      expect(order(seen), `seed ${seed}`).toEqual(order(want));
      expect(
        outcomes.map((o) => o.end),
        `seed ${seed}`,
      ).toEqual(['stored', 'stored', 'stored']);
      expect([sender.sending, receiver.bufferedBytes]).toEqual([0, 0]);
    }
  });

  it('has at most MAX_SENDING blobs open at once; the rest wait their turn', () => {
    const rng = new Rng(11);
    const a = recorder();
    const sender = new BlobLink(a.wire, owner());
    const blobs = Array.from({ length: 5 }, () => blobOf(rng, 100));
    for (const x of blobs) sender.send(0, x);
    const starts = (): number => a.calls.filter((c) => c.k === 'start').length;
    expect([starts(), sender.sending]).toEqual([MAX_SENDING, 5]);
    expect(sender.isSending(blobs[4]?.hash ?? '')).toBe(true);
    sender.onEnd(1, { tid: 0, end: 'stored', reason: '' });
    expect([starts(), sender.sending]).toEqual([MAX_SENDING + 1, 4]);
    // Closing fails the open ones and the waiting ones alike.
    const ends: string[] = [];
    sender.send(2, blobOf(rng, 10), (o) => ends.push(o.end));
    sender.close();
    expect([ends, sender.sending]).toEqual([['failed'], 0]);
  });

  it('sends nothing to a receiver that has the blob or refuses it, and tells why', () => {
    const rng = new Rng(7);
    const x = blobOf(rng, 20_000);
    for (const [verdict, end, reason] of [
      [{ have: true }, 'stored', ''],
      [
        { refused: "the board's image space is full (32 MB)" },
        'refused',
        "the board's image space is full (32 MB)",
      ],
    ] as const) {
      const a = recorder();
      const b = recorder();
      const sender = new BlobLink(a.wire, owner());
      const receiver = new BlobLink(
        b.wire,
        owner(() => verdict),
      );
      let outcome: SendOutcome | undefined;
      sender.send(0, x, (o) => (outcome = o));
      for (const c of a.calls.splice(0)) deliver(receiver, c, 1);
      for (const c of b.calls.splice(0)) deliver(sender, c, 2);
      expect(outcome).toEqual({ end, reason });
      expect(a.calls).toEqual([]);
    }
  });

  it('gives up on hostile chunks, counts them and releases the buffer', () => {
    const rng = new Rng(8);
    const x = blobOf(rng, 3 * BLOB_CHUNK_BYTES);
    const start = { tid: 5, hash: x.hash, size: x.bytes.length, type: 0 };
    const chunk = (offset: number, n: number, bytes = x.bytes) => ({
      tid: 5,
      offset,
      data: bytes.slice(offset, offset + n),
    });
    const cases: [string, (l: BlobLink) => void, keyof BlobLink['counters']][] = [
      [
        'a chunk past the next offset',
        (l) => l.onChunk(1, chunk(BLOB_CHUNK_BYTES, 10)),
        'badChunks',
      ],
      [
        'a repeated chunk',
        (l) => {
          l.onChunk(1, chunk(0, 100));
          l.onChunk(1, chunk(0, 100));
        },
        'badChunks',
      ],
      ['an empty chunk', (l) => l.onChunk(1, chunk(0, 0)), 'badChunks'],
      [
        'more bytes than announced',
        (l) => {
          l.onChunk(1, chunk(0, BLOB_CHUNK_BYTES));
          l.onChunk(1, chunk(BLOB_CHUNK_BYTES, BLOB_CHUNK_BYTES));
          l.onChunk(1, {
            tid: 5,
            offset: 2 * BLOB_CHUNK_BYTES,
            data: new Uint8Array(BLOB_CHUNK_BYTES + 1),
          });
        },
        'badChunks',
      ],
      [
        'bytes that do not match the hash',
        (l) => {
          const wrong = x.bytes.slice();
          wrong[100] = (wrong[100] ?? 0) ^ 1;
          for (let o = 0; o < wrong.length; o += BLOB_CHUNK_BYTES)
            l.onChunk(1, chunk(o, BLOB_CHUNK_BYTES, wrong));
        },
        'hashMismatch',
      ],
      [
        'an upload never finished',
        (l) => {
          l.onChunk(1, chunk(0, 10));
          l.tick(1 + BLOB_STALL_MS);
        },
        'stalled',
      ],
    ];
    for (const [what, act, counter] of cases) {
      const b = recorder();
      const kept = owner();
      const receiver = new BlobLink(b.wire, kept);
      receiver.onStart(0, start);
      expect(receiver.bufferedBytes).toBe(x.bytes.length);
      act(receiver);
      expect(receiver.counters[counter], what).toBe(1);
      expect(receiver.bufferedBytes, what).toBe(0);
      expect(kept.dropped, what).toEqual([x.hash]);
      expect(kept.got, what).toEqual([]);
      expect(b.calls.at(-1), what).toMatchObject({ k: 'end', a: { tid: 5, end: 'failed' } });
      // Whatever comes after for that transfer is no transfer's.
      receiver.onChunk(2, chunk(0, 10));
      expect(receiver.counters.unknownTransfer, what).toBe(1);
    }
  });

  it('bounds what a sender may open: starts past the limit, a reused id or a bad type are refused', () => {
    const b = recorder();
    const kept = owner();
    const receiver = new BlobLink(b.wire, kept);
    const rng = new Rng(9);
    for (let tid = 0; tid < MAX_OPEN_TRANSFERS; tid++)
      receiver.onStart(0, { tid, hash: blobOf(rng, 8).hash, size: 1000, type: 0 });
    receiver.onStart(0, { tid: 99, hash: blobOf(rng, 8).hash, size: 1000, type: 1 });
    receiver.onStart(0, { tid: 0, hash: blobOf(rng, 8).hash, size: 1000, type: 1 });
    receiver.onStart(0, { tid: 100, hash: blobOf(rng, 8).hash, size: 1000, type: 7 });
    expect(receiver.counters.startsRefused).toBe(3);
    expect(receiver.bufferedBytes).toBe(MAX_OPEN_TRANSFERS * 1000);
    expect(b.calls.flatMap((c) => (c.k === 'end' ? [c.a.reason] : []))).toEqual([
      'too many images at once',
      'transfer id in use',
      'not an image',
    ]);
    // A closed link lets every buffer go and tells its owner.
    receiver.close();
    expect([receiver.bufferedBytes, kept.dropped.length]).toEqual([0, MAX_OPEN_TRANSFERS]);
  });

  it('clamps an ack past what was sent and counts it', () => {
    const a = recorder();
    const sender = new BlobLink(a.wire, owner());
    const x = blobOf(new Rng(10), 100 * BLOB_CHUNK_BYTES);
    sender.send(0, x);
    sender.onAck(1, { tid: 0, received: 0 });
    const chunks = (): number => a.calls.filter((c) => c.k === 'chunk').length;
    expect(chunks()).toBe(BLOB_WINDOW_BYTES / BLOB_CHUNK_BYTES);
    sender.onAck(2, { tid: 0, received: x.bytes.length });
    expect(sender.counters.badAcks).toBe(1);
    // Credit only for what was sent: one more window, not the whole blob.
    expect(chunks()).toBe((2 * BLOB_WINDOW_BYTES) / BLOB_CHUNK_BYTES);
    sender.onAck(3, { tid: 42, received: 1 });
    expect(sender.counters.unknownTransfer).toBe(1);
  });
});
