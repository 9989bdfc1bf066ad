// A peer's images: its copy of the blobs it has seen, what it asked the host for (on seeing an object whose image
// it lacks: on demand, so a late joiner fetches only the images still on the board, and each once), and its own
// uploads, each settled by the host's answer. Sans-IO; knows nothing of the UI.
import type { BoardObject } from '../../shared/board';
import type { ImageType } from '../../shared/images';
import { MAX_IMAGE_BYTES } from '../../shared/images';
import type { RpcEndpoint } from '../net/stream/rpc';
import type { BlobLink } from './blob-link';
import { linkOverRpc } from './blob-rpc';
import type { Blob } from './blob-store';
import { blobHash, BlobStore } from './blob-store';
import type { Refusal } from './board';
import type { Protocol } from './protocol';
import type { SessionEvent } from './session-events';

/** Images a peer has asked for and not received, at most (each is an object on the board the host ghosts it). */
const MAX_WANTED = 4096;

export class PeerImages {
  /** The host's images this peer has (and its own), without a total limit: the host bounds the session's. */
  readonly store = new BlobStore({ maxBlobBytes: MAX_IMAGE_BYTES, maxTotalBytes: Infinity });
  /** Offers of images this peer did not ask for, refused. */
  unsolicited = 0;
  private link: BlobLink | undefined;
  private rpc: RpcEndpoint | undefined;
  private readonly wanted = new Set<string>();

  constructor(
    private readonly proto: Protocol,
    private readonly emit: (e: SessionEvent) => void,
  ) {}

  /** The connection to the host (the one link). */
  attach(rpc: RpcEndpoint): void {
    this.rpc = rpc;
    this.link = linkOverRpc(rpc, this.proto, {
      offered: (hash, size) => {
        if (this.store.has(hash)) return { have: true };
        if (!this.wanted.has(hash)) {
          this.unsolicited++;
          return { refused: 'not asked for' };
        }
        const why = this.store.refusal(size);
        return why === undefined ? { take: true } : { refused: why };
      },
      received: (b) => {
        this.wanted.delete(b.hash);
        this.keep(b);
      },
      // Given up (the host's bytes did not check out): asked for again when the object next changes.
      abandoned: (hash) => this.wanted.delete(hash),
      progress: (hash, received, total) =>
        this.emit({ type: 'image-progress', hash, received, total, upload: false }),
    });
  }

  /** An object arrived: an image whose bytes are not here is asked for, once. */
  seen(o: BoardObject): void {
    const h = o.blob;
    if (o.kind !== 'image' || h === '' || this.store.has(h) || this.wanted.has(h)) return;
    if (this.wanted.size >= MAX_WANTED || this.rpc === undefined) return;
    this.wanted.add(h);
    this.rpc.send(this.proto.blobWant, { hash: h });
  }

  /** Uploads an image to the host: its hash once the host has it, or the host's refusal. */
  put(now: number, bytes: Uint8Array, type: ImageType): Promise<string | Refusal> {
    const hash = blobHash(bytes);
    const link = this.link;
    const refused = this.store.refusal(bytes.length) ?? (link ? undefined : 'not connected');
    if (refused !== undefined || link === undefined) return Promise.resolve(this.refuse(refused));
    const blob: Blob = { hash, type, bytes };
    return new Promise((resolve) => {
      link.send(
        now,
        blob,
        (o) => {
          if (o.end !== 'stored') {
            // Said settled (the uploader's indicator goes), then refused.
            this.emit({ type: 'image-progress', hash, received: 0, total: 0, upload: true });
            resolve(this.refuse(o.reason === '' ? `image ${o.end}` : o.reason));
            return;
          }
          this.keep(blob);
          resolve(hash);
        },
        (received, total) =>
          this.emit({ type: 'image-progress', hash, received, total, upload: true }),
      );
    });
  }

  /** A refused image, said as any refusal is (the user reads why). */
  private refuse(reason = 'refused'): Refusal {
    this.emit({ type: 'refused', cmd: 'image', reason });
    return { refused: reason };
  }

  tick(now: number): void {
    this.link?.tick(now);
  }

  close(): void {
    this.link?.close();
  }

  get counters(): BlobLink['counters'] | undefined {
    return this.link?.counters;
  }

  private keep(b: Blob): void {
    if (this.store.has(b.hash)) return;
    this.store.put(b);
    this.emit({ type: 'image', hash: b.hash, imageType: b.type, bytes: b.bytes });
  }
}
