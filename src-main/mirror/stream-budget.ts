// The byte budget of a mirror link's stream (the participants' ghosts): a bucket earning a fixed number of bytes a
// second, with a tenth of a second saved at most, that each stream section and each packet the stream sends of its
// own is charged to. The link lets a change leave as soon as the budget is not overdrawn instead of on a fixed
// interval, so a pointer no longer waits for the stream's next slot (5 ms on average at one every 10 ms) while the
// bytes stay what full packets every 10 ms took. Pure arithmetic on times passed in; knows nothing of links.

/** Most of a second's earnings the bucket saves while the stream is idle: a burst of about ten full packets. */
const SAVED_SECONDS = 0.1;

export class StreamBudget {
  private balance: number;
  private at: number;

  constructor(
    now: number,
    /** Bytes earned per second. */
    private readonly bytesPerSecond: number,
  ) {
    if (!(bytesPerSecond > 0)) throw new RangeError(`bad stream budget ${bytesPerSecond} B/s`);
    this.balance = this.cap;
    this.at = now;
  }

  private get cap(): number {
    return this.bytesPerSecond * SAVED_SECONDS;
  }

  /** The earliest time the balance is not overdrawn (`at` if it is not now); reads, never changes, the bucket. */
  readyAt(): number {
    if (this.balance >= 0) return this.at;
    return this.at + (-this.balance / this.bytesPerSecond) * 1000;
  }

  /** Takes `bytes` from the balance (it may go below zero: the next packet waits for the rest). */
  charge(now: number, bytes: number): void {
    this.accrue(now);
    this.balance -= bytes;
  }

  private accrue(now: number): void {
    if (now <= this.at) return;
    this.balance = Math.min(
      this.cap,
      this.balance + ((now - this.at) / 1000) * this.bytesPerSecond,
    );
    this.at = now;
  }
}
