// One origin's stream as one mirror holds it: what has arrived (contiguous prefix and the out-of-order rest), the
// payloads kept for repairs until every mirror has confirmed them, and the highest seq known to exist. Pure
// bookkeeping: knows nothing of timers, peers or the wire.
import type { CrimpSeq } from './crimp-wire';

export class OriginStream {
  /** Every payload 1..upTo has arrived. */
  upTo: CrimpSeq = 0;
  /** The highest seq known to exist (from data, or a state vector). */
  maxSeen: CrimpSeq = 0;
  /** Payloads above upTo that arrived early. */
  private readonly above = new Set<CrimpSeq>();
  /** Payloads held for repair: every seq in (stable, upTo] and the early ones. */
  private readonly store = new Map<CrimpSeq, Uint8Array>();
  /** Every mirror has confirmed 1..stable: those are released. */
  stable: CrimpSeq = 0;
  /** Bytes of payload held in `store`. */
  bytes = 0;

  has(seq: CrimpSeq): boolean {
    return seq <= this.upTo || this.above.has(seq);
  }

  /** The payload, if still held (a stable one is gone: every mirror has it). */
  payload(seq: CrimpSeq): Uint8Array | undefined {
    return this.store.get(seq);
  }

  get held(): number {
    return this.store.size;
  }

  /** Records an arrival that `has` said is new; returns whether upTo moved. */
  add(seq: CrimpSeq, payload: Uint8Array): boolean {
    this.store.set(seq, payload);
    this.bytes += payload.length;
    this.maxSeen = Math.max(this.maxSeen, seq);
    if (seq !== this.upTo + 1) {
      this.above.add(seq);
      return false;
    }
    this.upTo = seq;
    while (this.above.delete(this.upTo + 1)) this.upTo++;
    return true;
  }

  /** Releases every held payload at or below `stable` (never above our own prefix). */
  release(stable: CrimpSeq): number {
    const to = Math.min(stable, this.upTo);
    let released = 0;
    for (let seq = this.stable + 1; seq <= to; seq++) {
      const p = this.store.get(seq);
      if (p === undefined) continue;
      this.store.delete(seq);
      this.bytes -= p.length;
      released++;
    }
    this.stable = Math.max(this.stable, to);
    return released;
  }

  /** Bytes held above `upTo` (what a mirror that confirmed only `upTo` keeps us holding). */
  bytesAbove(upTo: CrimpSeq): number {
    let n = 0;
    for (const [seq, p] of this.store) if (seq > upTo) n += p.length;
    return n;
  }

  /** The seqs held above the contiguous prefix, ascending. */
  aboveSeqs(): CrimpSeq[] {
    return [...this.above].sort((a, b) => a - b);
  }

  /**
   * Marks seqs as arrived without their payloads (a joiner's start: the board it took has them); they are stable
   * here, as nothing is held to repair them.
   */
  assume(upTo: CrimpSeq, above: readonly CrimpSeq[]): void {
    this.upTo = Math.max(this.upTo, upTo);
    for (const seq of above) if (seq > this.upTo) this.above.add(seq);
    while (this.above.delete(this.upTo + 1)) this.upTo++;
    this.maxSeen = Math.max(this.maxSeen, this.upTo, ...above);
    this.stable = Math.max(this.stable, upTo);
  }

  /** Drops everything held (the origin left the group): the memory goes, what arrived stays known. */
  clear(): void {
    this.store.clear();
    this.bytes = 0;
  }
}
