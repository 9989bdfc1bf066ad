// The blobs a session holds (images' bytes), by content hash: each stored once however many objects or pastes
// use it, with the session's limit on their total and room reserved for uploads under way. Knows nothing of
// connections, of the wire or of which objects refer to which blob.
import { formatBytes, MAX_IMAGE_BYTES } from '../../shared/images';
import type { ImageBlob } from '../../shared/images';
import { createHash } from 'node:crypto';

export type Blob = ImageBlob;

export interface BlobLimits {
  /** Bytes of one blob at most. */
  readonly maxBlobBytes: number;
  /** Bytes of every blob together at most (stored and reserved); Infinity: no limit (a peer's copy). */
  readonly maxTotalBytes: number;
}

/** SHA-256 of the bytes, 64 lowercase hex digits (what an image object's `blob` field holds). */
export function blobHash(bytes: Uint8Array): string {
  // Node's own SHA-256 (the session layer's crypto): native, a 2 MB image hashes in a few ms.
  return createHash('sha256').update(bytes).digest('hex');
}

export class BlobStore {
  private readonly blobs = new Map<string, Blob>();
  private stored = 0;
  private reserved = 0;

  constructor(
    readonly limits: BlobLimits = { maxBlobBytes: MAX_IMAGE_BYTES, maxTotalBytes: Infinity },
  ) {}

  get(hash: string): Blob | undefined {
    return this.blobs.get(hash);
  }

  has(hash: string): boolean {
    return this.blobs.has(hash);
  }

  /** Bytes stored (each blob once). */
  get bytes(): number {
    return this.stored;
  }

  /** Bytes set aside for transfers under way. */
  get reservedBytes(): number {
    return this.reserved;
  }

  get size(): number {
    return this.blobs.size;
  }

  all(): IterableIterator<Blob> {
    return this.blobs.values();
  }

  /** Why a blob of this size cannot be taken now (too large, or no room left), or undefined when it can. */
  refusal(size: number): string | undefined {
    const { maxBlobBytes, maxTotalBytes } = this.limits;
    if (size > maxBlobBytes)
      return `image too large (${formatBytes(size)}; at most ${formatBytes(maxBlobBytes)})`;
    if (this.stored + this.reserved + size > maxTotalBytes)
      return `the board's image space is full (${formatBytes(maxTotalBytes)})`;
    return undefined;
  }

  /** Sets room aside for a transfer: undefined when it did, else why not (refusal()), nothing set aside. */
  reserve(size: number): string | undefined {
    const refused = this.refusal(size);
    if (refused === undefined) this.reserved += size;
    return refused;
  }

  release(size: number): void {
    this.reserved = Math.max(0, this.reserved - size);
  }

  /**
   * Keeps a blob whose bytes hash to `hash` (the caller checked it, or computed the hash). A blob already here is
   * kept once. Limits are the caller's to check first (refusal/reserve): a file's own blobs load whatever they are.
   */
  put(b: Blob): void {
    if (this.blobs.has(b.hash)) return;
    this.blobs.set(b.hash, b);
    this.stored += b.bytes.length;
  }
}
