// A blob link over a connection's RPCs: its sends become the protocol's blob calls, and the blob calls that arrive
// go to the link (after the owner's gate, which may drop calls from a connection that has not joined). Knows
// nothing of what the blobs are for.
import type { RpcEndpoint } from '../net/stream/rpc';
import type { BlobLinkOwner, BlobWire } from './blob-link';
import { BlobLink } from './blob-link';
import { BLOB_ENDS } from './blob-wire';
import type { Protocol } from './protocol';
import { MAX_REASON_BYTES } from './protocol';

export function blobWire(rpc: RpcEndpoint, proto: Protocol): BlobWire {
  return {
    start: (a) => rpc.send(proto.blobStart, a),
    chunk: (a) => rpc.send(proto.blobChunk, a),
    ack: (a) => rpc.send(proto.blobAck, a),
    end: (a) =>
      rpc.send(proto.blobEnd, {
        tid: a.tid,
        end: BLOB_ENDS.indexOf(a.end),
        reason: a.reason.slice(0, MAX_REASON_BYTES),
      }),
  };
}

/**
 * A link whose calls travel as `rpc`'s blob RPCs, handlers set. `gate` says whether a call from the other side
 * may be taken now (a host takes none before hello); blobWant goes to `want`.
 */
export function linkOverRpc(
  rpc: RpcEndpoint,
  proto: Protocol,
  owner: BlobLinkOwner,
  o: { gate?: () => boolean; want?: (hash: string, now: number) => void } = {},
): BlobLink {
  const link = new BlobLink(blobWire(rpc, proto), owner);
  const gate = o.gate ?? (() => true);
  rpc.on(proto.blobStart, (a, now) => {
    if (gate()) link.onStart(now, a);
  });
  rpc.on(proto.blobChunk, (a, now) => {
    if (gate()) link.onChunk(now, a);
  });
  rpc.on(proto.blobAck, (a, now) => {
    if (gate()) link.onAck(now, a);
  });
  rpc.on(proto.blobEnd, (a, now) => {
    if (gate())
      link.onEnd(now, { tid: a.tid, end: BLOB_ENDS[a.end] ?? 'failed', reason: a.reason });
  });
  rpc.on(proto.blobWant, (a, now) => {
    if (gate() && a.hash !== '') o.want?.(a.hash, now);
  });
  return link;
}
