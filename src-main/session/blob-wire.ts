// The numbers of the blob transfer protocol that both ends must agree on (chunk size, transfer ids, how a
// transfer ends) and those each side bounds itself with. Constants only; knows nothing of connections.

/** Bytes of one chunk at most: one chunk and its framing fit one event (SESSION_MAX_EVENT_BITS, 1,100 bytes). */
export const BLOB_CHUNK_BYTES = 1024;
/** Transfer ids a sender picks from, cycling (at most a few transfers are open at once). */
export const MAX_TRANSFER_ID = 65_535;
/** How a receiver ends a transfer: it has the blob (received, or had it), it would not take it, or it failed. */
export const BLOB_ENDS = ['stored', 'refused', 'failed'] as const;
export type BlobEnd = (typeof BLOB_ENDS)[number];

/** Bytes a sender has out unacknowledged per transfer: 16 chunks (a few hundred ms of a modem link's packets). */
export const BLOB_WINDOW_BYTES = 16 * BLOB_CHUNK_BYTES;
/** The receiver acknowledges every this many bytes (a quarter window, so the sender never runs dry). */
export const BLOB_ACK_BYTES = 4 * BLOB_CHUNK_BYTES;
/** Transfers a receiver has open at once per connection; a start past it is refused. */
export const MAX_OPEN_TRANSFERS = 4;
/** Transfers a sender has open at once per connection (the rest wait their turn): within MAX_OPEN_TRANSFERS. */
export const MAX_SENDING = 2;
/** A transfer with no chunk for this long is given up and its buffer released (a never-finished upload). */
export const BLOB_STALL_MS = 30_000;
