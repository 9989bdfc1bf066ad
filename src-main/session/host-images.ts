// The host's images: the session's blob store and a blob link per connection. Takes a participant's upload only
// within the limits (one image's bytes, the session's total, reserved while it travels), sends a peer an image it
// asks for, and says whether a create's image is here. Sans-IO; knows nothing of the board's objects beyond the
// hash a create names, or of the UI.
import type { NewObject } from '../../shared/board';
import type { ImageType } from '../../shared/images';
import { DEFAULT_SESSION_IMAGE_BYTES, MAX_IMAGE_BYTES } from '../../shared/images';
import type { RpcEndpoint } from '../net/stream/rpc';
import type { BlobLink } from './blob-link';
import { linkOverRpc } from './blob-rpc';
import type { Blob } from './blob-store';
import { blobHash, BlobStore } from './blob-store';
import type { Refusal } from './board';
import type { Protocol } from './protocol';
import type { SessionEvent } from './session-events';

export interface ImageLimits {
  /** Bytes of one image at most. */
  readonly maxImageBytes: number;
  /** Bytes of every image of the session together at most. */
  readonly maxSessionBytes: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxImageBytes: MAX_IMAGE_BYTES,
  maxSessionBytes: DEFAULT_SESSION_IMAGE_BYTES,
};

/** Requests for images the host has yet to receive that it keeps, to answer when they come (the rest are dropped). */
export const MAX_PENDING_WANTS = 4096;

/** What the host refused or dropped of images, by cause (the links count the hostile chunks). */
export interface ImageCounters {
  /** Uploads refused: too large, no room left, a viewer's, or before hello. */
  refused: number;
  /** Requests for an image the host does not have (kept, up to MAX_PENDING_WANTS, until it comes). */
  unknownWants: number;
}

/** Who is at the other end of a link: undefined until hello; viewers upload nothing. */
export interface ImageSender {
  readonly role: 'editor' | 'viewer';
}

export class HostImages {
  readonly store: BlobStore;
  readonly counters: ImageCounters = { refused: 0, unknownWants: 0 };
  private readonly links = new Set<BlobLink>();
  /**
   * Who asked for an image the host lacks: it may yet come (a session's other host, its mirror, has it and is
   * sending it), and a peer asks only once.
   */
  private readonly pending = new Map<string, Set<BlobLink>>();
  private pendingCount = 0;
  private readonly storedListeners = new Set<(b: Blob) => void>();
  private lastNow = 0;

  constructor(
    private readonly proto: Protocol,
    private readonly emit: (e: SessionEvent) => void,
    limits: Partial<ImageLimits> = {},
  ) {
    const l = { ...DEFAULT_IMAGE_LIMITS, ...limits };
    this.store = new BlobStore({ maxBlobBytes: l.maxImageBytes, maxTotalBytes: l.maxSessionBytes });
  }

  /** A connection's link; `who` is the participant at its other end (undefined before hello). */
  attach(rpc: RpcEndpoint, who: () => ImageSender | undefined): BlobLink {
    const link = linkOverRpc(
      rpc,
      this.proto,
      {
        offered: (hash, size) => {
          const m = who();
          const why =
            m === undefined
              ? 'not in the session: join (hello) first'
              : m.role === 'viewer'
                ? 'viewers cannot edit the board'
                : undefined;
          if (why === undefined && this.store.has(hash)) return { have: true };
          const refused = why ?? this.store.reserve(size);
          if (refused !== undefined) {
            this.counters.refused++;
            return { refused };
          }
          return { take: true };
        },
        received: (b) => {
          this.store.release(b.bytes.length);
          this.keep(b);
        },
        abandoned: (_hash, size) => this.store.release(size),
        progress: (hash, received, total) =>
          this.emit({ type: 'image-progress', hash, received, total, upload: false }),
      },
      {
        gate: () => who() !== undefined,
        want: (hash, now) => {
          this.lastNow = now;
          const b = this.store.get(hash);
          if (b !== undefined) {
            if (!link.isSending(hash)) link.send(now, b);
            return;
          }
          this.counters.unknownWants++;
          this.wait(hash, link);
        },
      },
    );
    this.links.add(link);
    return link;
  }

  detach(link: BlobLink): void {
    link.close();
    this.links.delete(link);
    for (const [hash, waiting] of this.pending) {
      if (waiting.delete(link)) this.pendingCount--;
      if (waiting.size === 0) this.pending.delete(hash);
    }
  }

  /** Hears of every image the session's store takes from now on (a mirrored host passes them to its mirrors). */
  onStored(listener: (b: Blob) => void): () => void {
    this.storedListeners.add(listener);
    return () => this.storedListeners.delete(listener);
  }

  /**
   * An image from another host of the session (its room set aside in the store by whoever took it): kept, shown,
   * and sent to the peers who asked for it before it came.
   */
  adopt(b: Blob): void {
    if (!this.store.has(b.hash)) this.keep(b);
  }

  /** The host's own user's image: stored at once (within the same limits), or refused. */
  put(bytes: Uint8Array, type: ImageType): string | Refusal {
    const hash = blobHash(bytes);
    if (this.store.has(hash)) return hash;
    const refused = this.store.refusal(bytes.length);
    if (refused !== undefined) {
      this.counters.refused++;
      return { refused };
    }
    this.keep({ hash, type, bytes });
    return hash;
  }

  /** A blob from a board file (its own limits were the file's): kept whatever the session's limits. */
  load(b: Blob): void {
    this.store.put(b);
  }

  /** Why a create cannot be taken as to its image (its bytes never reached the host), or undefined. */
  refusal(fields: Pick<NewObject, 'kind' | 'blob'>): Refusal | undefined {
    if (fields.kind !== 'image' || fields.blob === '' || this.store.has(fields.blob))
      return undefined;
    return { refused: "the image's bytes have not reached the host" };
  }

  tick(now: number): void {
    this.lastNow = now;
    for (const l of this.links) l.tick(now);
  }

  private wait(hash: string, link: BlobLink): void {
    if (this.pendingCount >= MAX_PENDING_WANTS) return;
    let waiting = this.pending.get(hash);
    if (waiting === undefined) this.pending.set(hash, (waiting = new Set()));
    if (waiting.has(link)) return;
    waiting.add(link);
    this.pendingCount++;
  }

  private keep(b: Blob): void {
    this.store.put(b);
    this.emit({ type: 'image', hash: b.hash, imageType: b.type, bytes: b.bytes });
    const waiting = this.pending.get(b.hash);
    if (waiting !== undefined) {
      this.pending.delete(b.hash);
      this.pendingCount -= waiting.size;
      for (const link of waiting)
        if (this.links.has(link) && !link.isSending(b.hash)) link.send(this.lastNow, b);
    }
    for (const listener of this.storedListeners) listener(b);
  }
}
