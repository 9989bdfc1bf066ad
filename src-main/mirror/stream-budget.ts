// The budget of a mirror link's stream (the participants' ghosts): two buckets, bytes and packets of its own, each
// earning a fixed amount a second and saving a little while the stream is idle. The link lets a change leave as soon
// as neither is overdrawn instead of on a fixed interval, so a pointer no longer waits for the stream's next slot
// (5 ms on average at one every 10 ms), while the bytes stay what full packets every 10 ms took and the packets few
// enough that a crowd's changes gather into them (each costs both mirrors CPU). Pure arithmetic on times passed in;
// knows nothing of links.

/** Most of a second's bytes the bucket saves while the stream is idle: a burst of about ten full packets. */
const SAVED_SECONDS = 0.1;
/** Packets of its own the stream may send back to back after an idle spell. */
const SAVED_PACKETS = 4;
/** Rounding room: a bucket that earned back to its mark at the time readyAt gave is ready then. */
const EPSILON = 1e-9;

export class StreamBudget {
  private bytes: number;
  private packets: number;
  private at: number;

  constructor(
    now: number,
    /** Bytes earned per second. */
    private readonly bytesPerSecond: number,
    /** Packets of its own earned per second. */
    private readonly packetsPerSecond: number,
  ) {
    if (!(bytesPerSecond > 0) || !(packetsPerSecond > 0))
      throw new RangeError(`bad stream budget ${bytesPerSecond} B/s, ${packetsPerSecond}/s`);
    this.bytes = this.bytesPerSecond * SAVED_SECONDS;
    this.packets = SAVED_PACKETS;
    this.at = now;
  }

  /** The earliest time neither bucket is overdrawn (`at` if none is now); reads, never changes, the buckets. */
  readyAt(): number {
    const byteWait = this.bytes >= -EPSILON ? 0 : (-this.bytes / this.bytesPerSecond) * 1000;
    const packetWait =
      this.packets >= 1 - EPSILON ? 0 : ((1 - this.packets) / this.packetsPerSecond) * 1000;
    return this.at + Math.max(byteWait, packetWait);
  }

  /** Takes `bytes` (a section, or a packet's own overhead) and `packets` (1 for a packet of its own). */
  charge(now: number, bytes: number, packets = 0): void {
    this.accrue(now);
    this.bytes -= bytes;
    this.packets -= packets;
  }

  private accrue(now: number): void {
    if (now <= this.at) return;
    const dt = (now - this.at) / 1000;
    this.bytes = Math.min(
      this.bytesPerSecond * SAVED_SECONDS,
      this.bytes + dt * this.bytesPerSecond,
    );
    this.packets = Math.min(SAVED_PACKETS, this.packets + dt * this.packetsPerSecond);
    this.at = now;
  }
}
