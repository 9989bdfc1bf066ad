// One connection's blob transfers, both ways (DESIGN.md §4's datablocks, for images): the sending half announces a
// blob, waits for the receiver's credit and keeps at most a window of chunks unacknowledged; the receiving half
// takes only what its owner accepts, checks every chunk's offset and size and the whole blob's SHA-256, bounds
// what it buffers, and gives up on transfers that stall. Hostile input is counted and dropped, its memory
// released. Sans-IO (time passed in); knows nothing of RPC ids, of the board or of who owns the blobs.
import type { ImageType } from '../../shared/images';
import { IMAGE_TYPES } from '../../shared/images';
import type { Blob } from './blob-store';
import { blobHash } from './blob-store';
import type { BlobEnd } from './blob-wire';
import {
  BLOB_ACK_BYTES,
  BLOB_CHUNK_BYTES,
  BLOB_STALL_MS,
  BLOB_WINDOW_BYTES,
  MAX_OPEN_TRANSFERS,
  MAX_SENDING,
  MAX_TRANSFER_ID,
} from './blob-wire';

/** The calls a link sends (the protocol's blob RPCs, or a direct wire in tests). */
export interface BlobWire {
  start(a: { tid: number; hash: string; size: number; type: number }): void;
  chunk(a: { tid: number; offset: number; data: Uint8Array }): void;
  ack(a: { tid: number; received: number }): void;
  end(a: { tid: number; end: BlobEnd; reason: string }): void;
}

/** What the owner says of a blob offered: take it (room set aside), have it already, or a refusal in words. */
export type BlobVerdict =
  { readonly take: true } | { readonly have: true } | { readonly refused: string };

export interface BlobLinkOwner {
  /** Whether to take a blob the other side starts sending. A 'take' sets aside room until settled. */
  offered(hash: string, size: number, type: ImageType): BlobVerdict;
  /** A blob taken arrived whole and checked. */
  received(blob: Blob): void;
  /** A blob taken did not arrive (hostile, stalled, closed): its room is free again. */
  abandoned(hash: string, size: number): void;
  /** Bytes of a blob taken that have arrived so far. */
  progress?(hash: string, received: number, size: number): void;
}

/** How an outgoing blob ended, as the receiver said (or 'failed' when the connection closed first). */
export interface SendOutcome {
  readonly end: BlobEnd;
  readonly reason: string;
}

/** What a link dropped or gave up, by cause. */
export interface BlobCounters {
  /** Starts refused: too many open, a transfer id in use, a bad type, or the owner said no. */
  startsRefused: number;
  /** Chunks, acks or ends naming no transfer open. */
  unknownTransfer: number;
  /** Chunks not at the next offset, empty, or past the announced size (the transfer is given up). */
  badChunks: number;
  /** Blobs whose bytes did not hash to the announced hash. */
  hashMismatch: number;
  /** Transfers given up for silence. */
  stalled: number;
  /** Acks past what was sent (clamped). */
  badAcks: number;
}

interface Outgoing {
  readonly tid: number;
  readonly blob: Blob;
  /** Bytes written into chunks so far. */
  sent: number;
  /** Bytes the receiver acknowledged; undefined until it answered the start (no chunk goes before). */
  acked: number | undefined;
  readonly done: (o: SendOutcome) => void;
  /** Bytes the receiver has acknowledged so far, as they grow. */
  readonly progress: ((acked: number, size: number) => void) | undefined;
}

interface Incoming {
  readonly hash: string;
  readonly type: ImageType;
  readonly buf: Uint8Array;
  got: number;
  ackedAt: number;
  lastAt: number;
}

export class BlobLink {
  readonly counters: BlobCounters = {
    startsRefused: 0,
    unknownTransfer: 0,
    badChunks: 0,
    hashMismatch: 0,
    stalled: 0,
    badAcks: 0,
  };
  private readonly out = new Map<number, Outgoing>();
  /** Blobs to send once fewer than MAX_SENDING are open, oldest first. */
  private readonly waiting: Pick<Outgoing, 'blob' | 'done' | 'progress'>[] = [];
  private readonly incoming = new Map<number, Incoming>();
  private nextTid = 0;
  private closed = false;

  constructor(
    private readonly wire: BlobWire,
    private readonly owner: BlobLinkOwner,
  ) {}

  /** Bytes held for incoming transfers now (at most MAX_OPEN_TRANSFERS blobs of the owner's largest). */
  get bufferedBytes(): number {
    let n = 0;
    for (const t of this.incoming.values()) n += t.buf.length;
    return n;
  }

  /** Outgoing blobs not yet settled by the receiver (started or waiting their turn). */
  get sending(): number {
    return this.out.size + this.waiting.length;
  }

  /** Whether this blob is on its way out now (or waiting its turn). */
  isSending(hash: string): boolean {
    for (const o of this.out.values()) if (o.blob.hash === hash) return true;
    return this.waiting.some((w) => w.blob.hash === hash);
  }

  /** Sends a blob; `done` hears how the receiver ended it, `progress` how much it has acknowledged. */
  send(
    now: number,
    blob: Blob,
    done: (o: SendOutcome) => void = () => undefined,
    progress?: (acked: number, size: number) => void,
  ): void {
    if (this.closed) {
      done({ end: 'failed', reason: 'the connection is closed' });
      return;
    }
    this.waiting.push({ blob, done, progress });
    this.startWaiting();
    this.pump(now);
  }

  /**
   * Starts waiting blobs while fewer than MAX_SENDING are open: a late joiner asking for a hundred images gets
   * them a few at a time, within what a receiver keeps open (MAX_OPEN_TRANSFERS) and a window each.
   */
  private startWaiting(): void {
    while (this.out.size < MAX_SENDING) {
      const w = this.waiting.shift();
      if (w === undefined) return;
      let tid = this.nextTid;
      while (this.out.has(tid)) tid = tid >= MAX_TRANSFER_ID ? 0 : tid + 1;
      this.nextTid = tid >= MAX_TRANSFER_ID ? 0 : tid + 1;
      this.out.set(tid, { tid, ...w, sent: 0, acked: undefined });
      const { blob } = w;
      this.wire.start({
        tid,
        hash: blob.hash,
        size: blob.bytes.length,
        type: IMAGE_TYPES.indexOf(blob.type),
      });
    }
  }

  // The receiving half.

  onStart(now: number, a: { tid: number; hash: string; size: number; type: number }): void {
    const type = IMAGE_TYPES[a.type];
    const v = this.verdict(a, type);
    if ('refused' in v) {
      this.counters.startsRefused++;
      this.wire.end({ tid: a.tid, end: 'refused', reason: v.refused });
      return;
    }
    if ('have' in v || type === undefined) {
      this.wire.end({ tid: a.tid, end: 'stored', reason: '' });
      return;
    }
    this.incoming.set(a.tid, {
      hash: a.hash,
      type,
      buf: new Uint8Array(a.size),
      got: 0,
      ackedAt: 0,
      lastAt: now,
    });
    this.wire.ack({ tid: a.tid, received: 0 });
  }

  /** The link's own checks of a start, then the owner's. */
  private verdict(
    a: { tid: number; hash: string; size: number },
    type: ImageType | undefined,
  ): BlobVerdict {
    if (type === undefined || a.hash === '' || a.size === 0) return { refused: 'not an image' };
    if (this.incoming.has(a.tid)) return { refused: 'transfer id in use' };
    if (this.incoming.size >= MAX_OPEN_TRANSFERS) return { refused: 'too many images at once' };
    return this.owner.offered(a.hash, a.size, type);
  }

  onChunk(now: number, a: { tid: number; offset: number; data: Uint8Array }): void {
    const t = this.incoming.get(a.tid);
    if (t === undefined) {
      this.counters.unknownTransfer++;
      return;
    }
    // The channel is ordered: a chunk anywhere but next, empty, or past the end is hostile.
    if (a.offset !== t.got || a.data.length === 0 || t.got + a.data.length > t.buf.length) {
      this.counters.badChunks++;
      this.fail(a.tid, t, 'bad chunk');
      return;
    }
    t.buf.set(a.data, t.got);
    t.got += a.data.length;
    t.lastAt = now;
    this.owner.progress?.(t.hash, t.got, t.buf.length);
    if (t.got < t.buf.length) {
      if (t.got - t.ackedAt >= BLOB_ACK_BYTES) {
        t.ackedAt = t.got;
        this.wire.ack({ tid: a.tid, received: t.got });
      }
      return;
    }
    this.incoming.delete(a.tid);
    if (blobHash(t.buf) !== t.hash) {
      this.counters.hashMismatch++;
      this.owner.abandoned(t.hash, t.buf.length);
      this.wire.end({ tid: a.tid, end: 'failed', reason: 'the bytes do not match their hash' });
      return;
    }
    this.owner.received({ hash: t.hash, type: t.type, bytes: t.buf });
    this.wire.end({ tid: a.tid, end: 'stored', reason: '' });
  }

  // The sending half.

  onAck(now: number, a: { tid: number; received: number }): void {
    const o = this.out.get(a.tid);
    if (o === undefined) {
      this.counters.unknownTransfer++;
      return;
    }
    if (a.received > o.sent) this.counters.badAcks++;
    o.acked = Math.max(o.acked ?? 0, Math.min(a.received, o.sent));
    o.progress?.(o.acked, o.blob.bytes.length);
    this.pump(now);
  }

  onEnd(now: number, a: { tid: number; end: BlobEnd; reason: string }): void {
    const o = this.out.get(a.tid);
    if (o === undefined) {
      this.counters.unknownTransfer++;
      return;
    }
    this.out.delete(a.tid);
    o.done({ end: a.end, reason: a.reason });
    this.startWaiting();
    this.pump(now);
  }

  /**
   * Writes chunks within each transfer's window, oldest transfer first. Only the window is ever queued, so the
   * connection's event queue holds a few tens of KB of blob at most, whatever the image.
   */
  private pump(_now: number): void {
    for (const o of this.out.values()) {
      if (o.acked === undefined) continue;
      const size = o.blob.bytes.length;
      while (o.sent < size && o.sent - o.acked < BLOB_WINDOW_BYTES) {
        const n = Math.min(BLOB_CHUNK_BYTES, size - o.sent);
        this.wire.chunk({
          tid: o.tid,
          offset: o.sent,
          data: o.blob.bytes.subarray(o.sent, o.sent + n),
        });
        o.sent += n;
      }
    }
  }

  /** Gives up incoming transfers that went quiet (their buffers released). */
  tick(now: number): void {
    for (const [tid, t] of this.incoming) {
      if (now - t.lastAt < BLOB_STALL_MS) continue;
      this.counters.stalled++;
      this.fail(tid, t, 'the transfer stalled');
    }
  }

  private fail(tid: number, t: Incoming, reason: string): void {
    this.incoming.delete(tid);
    this.owner.abandoned(t.hash, t.buf.length);
    this.wire.end({ tid, end: 'failed', reason });
  }

  /** The connection closed: every open transfer is over, buffers released, senders told. */
  close(): void {
    this.closed = true;
    for (const t of this.incoming.values()) this.owner.abandoned(t.hash, t.buf.length);
    this.incoming.clear();
    const out = [...this.out.values(), ...this.waiting];
    this.out.clear();
    this.waiting.length = 0;
    for (const o of out) o.done({ end: 'failed', reason: 'the connection closed' });
  }
}
