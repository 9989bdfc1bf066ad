// Per-packet state kept outside a manager's own section (e.g. the string table): its share of the transmission
// record and its write rollback. Knows nothing of packets' layout, of managers or of what it tracks.

/** State that a manager's aborted write must undo: mark before writing, roll back if the write is truncated. */
export interface Checkpointable {
  mark(): number;
  rollback(mark: number): void;
}

/**
 * Rides in the scheduler's transmission record like a manager does, but writes no section of its own: the
 * managers write through it (a string table inside RPC params), and the scheduler collects what this packet
 * carried once the packet is complete, then hands it back with the packet's fate.
 */
export interface PacketTracker<Rec> extends Checkpointable {
  /** What the packet just built carried; resets for the next packet. Undefined: nothing to track. */
  takeRecord(): Rec | undefined;
  /** The fate of a packet that carried `record`, exactly once, in send order. */
  notify(now: number, record: Rec, delivered: boolean): void;
}
