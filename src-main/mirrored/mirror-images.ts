// A mirrored host's images across the session's hosts. A board command names an image only by its hash, and the
// command reaches every mirror while the bytes reached one host: so every image the host's store takes (a
// participant's upload, its own user's, one from a board file) is sent to every other mirror, and a mirror that links
// later is sent every image held. What comes in is taken within the session's image limits and handed to the host,
// which answers the peers that asked for it before it came; a joining mirror holds what comes before its host
// exists (the group sends its images as soon as the links are up) and hands it over then. The bytes travel as the session protocol's blob calls
// (blob-link.ts: credit, a window, checked hashes) on a reliable event stream of each mirror link, stacked after the
// participants' ghosts. Sans-IO; knows nothing of sockets or of the board.
import { DEFAULT_SESSION_IMAGE_BYTES, MAX_IMAGE_BYTES } from '../../shared/images';
import type { MirrorId } from '../mirror/mirror-id';
import type { LinkStreams } from '../mirror/mirror-links';
import type { StreamManager } from '../net/stream/manager';
import { RpcEndpoint } from '../net/stream/rpc';
import { StringTable } from '../net/stream/strings';
import type { BlobLink, BlobVerdict } from '../session/blob-link';
import { linkOverRpc } from '../session/blob-rpc';
import type { Blob } from '../session/blob-store';
import { BlobStore } from '../session/blob-store';
import {
  SESSION_EVENT_WINDOW,
  SESSION_MAX_EVENT_BITS,
  SESSION_MAX_QUEUED_BYTES,
  SESSION_MAX_QUEUED_EVENTS,
} from '../session/connection-stack';
import type { HostImages } from '../session/host-images';
import type { Protocol } from '../session/protocol';
import { buildRegistry } from '../session/protocol';

export interface MirrorImageCounters {
  /** Images sent whole to another mirror, and taken whole from one. */
  sent: number;
  received: number;
  /** Offers refused here (over the session's image limits). */
  refused: number;
  /** Sends that ended otherwise (the other mirror refused it, or the link went). */
  failed: number;
}

interface ImageLink {
  readonly rpc: RpcEndpoint;
  readonly blobs: BlobLink;
}

export class MirrorImages implements LinkStreams {
  readonly counters: MirrorImageCounters = { sent: 0, received: 0, refused: 0, failed: 0 };
  private readonly proto: Protocol = buildRegistry();
  private readonly links = new Map<MirrorId, ImageLink>();
  private images: HostImages | undefined;
  /** Images taken before there was a host to keep them (a joining mirror's), within the default limits. */
  private held: BlobStore | undefined = new BlobStore({
    maxBlobBytes: MAX_IMAGE_BYTES,
    maxTotalBytes: DEFAULT_SESSION_IMAGE_BYTES,
  });
  /** Which store set room aside for each transfer under way (the held one's, or the host's once it came). */
  private readonly reservedIn = new Map<string, BlobStore>();
  private now = 0;
  /** Set while an image from a mirror is handed to the host: every mirror has its own link to the sender. */
  private adopting = false;

  /** The host whose images these are: what it holds now goes to every linked mirror, and all it takes later. */
  serve(images: HostImages, now: number): void {
    this.now = now;
    this.images = images;
    const held = this.held;
    this.held = undefined;
    for (const b of held?.all() ?? []) this.adopt(images, b);
    images.onStored((b) => {
      if (this.adopting) return;
      for (const link of this.links.values()) this.send(link, b);
    });
    for (const link of this.links.values()) this.sendAll(link);
  }

  /** LinkStreams: the link to mirror `id` is named; its event stream carries images both ways. */
  open(now: number, id: MirrorId): StreamManager<unknown> {
    this.now = now;
    this.close(now, id);
    const rpc = new RpcEndpoint({
      registry: this.proto.registry,
      // The blob calls write no table strings; a table is the endpoint's contract.
      strings: new StringTable(),
      window: SESSION_EVENT_WINDOW,
      maxEventBits: SESSION_MAX_EVENT_BITS,
      maxQueued: SESSION_MAX_QUEUED_EVENTS,
      maxQueuedBytes: SESSION_MAX_QUEUED_BYTES,
    });
    const blobs = linkOverRpc(rpc, this.proto, {
      offered: (hash, size) => this.offered(hash, size),
      received: (b) => {
        this.counters.received++;
        this.unreserve(b.hash, b.bytes.length);
        if (this.images === undefined) this.held?.put(b);
        else this.adopt(this.images, b);
      },
      abandoned: (hash, size) => this.unreserve(hash, size),
    });
    const link = { rpc, blobs };
    this.links.set(id, link);
    this.sendAll(link);
    return rpc.events;
  }

  /** LinkStreams: the link closed; its transfers end (a later link sends again what is still missing). */
  close(_now: number, id: MirrorId): void {
    const link = this.links.get(id);
    if (link === undefined) return;
    this.links.delete(id);
    link.blobs.close();
  }

  /** Stalled transfers are given up (their room released): the driver's timer calls this. */
  tick(now: number): void {
    this.now = now;
    for (const link of this.links.values()) link.blobs.tick(now);
  }

  private offered(hash: string, size: number): BlobVerdict {
    const store = this.images?.store ?? this.held;
    if (store === undefined || store.has(hash)) return { have: true };
    // The same image from two mirrors at once (one linked late) is taken once.
    if (this.reservedIn.has(hash)) return { refused: 'already on its way' };
    const refused = store.reserve(size);
    if (refused !== undefined) {
      this.counters.refused++;
      return { refused };
    }
    this.reservedIn.set(hash, store);
    return { take: true };
  }

  private unreserve(hash: string, size: number): void {
    this.reservedIn.get(hash)?.release(size);
    this.reservedIn.delete(hash);
  }

  /** Hands an image from a mirror to the host (not sent on: every mirror has its own link to the sender). */
  private adopt(images: HostImages, b: Blob): void {
    this.adopting = true;
    try {
      images.adopt(b);
    } finally {
      this.adopting = false;
    }
  }

  private sendAll(link: ImageLink): void {
    const images = this.images;
    if (images === undefined) return;
    for (const b of images.store.all()) this.send(link, b);
  }

  private send(link: ImageLink, b: Blob): void {
    if (link.blobs.isSending(b.hash)) return;
    link.blobs.send(this.now, b, (o) => {
      // 'stored' also when the other mirror had it already.
      if (o.end === 'stored') this.counters.sent++;
      else this.counters.failed++;
    });
  }
}
