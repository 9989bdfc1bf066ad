// Several stream managers sharing one mirror link's stream section, as the packet scheduler stacks a session's:
// each writes its part after a presence bit, in a fixed order that is their priority, one with nothing to say
// costing that bit; a manager placed first for latency keeps to its share while a later one has data. The mirror's
// participants' ghosts go first and other streams (its images) after them. A later manager that wanted to send and
// found no room (a 1 KB image chunk behind a packet's worth of pointers) has the next packet to itself, so nothing
// starves; the section order never changes, so the reader needs no more than the presence bits. Knows nothing of
// what the managers carry.
import type { BitReader, BitWriter } from '../net/bitstream';
import type { CloseInfo } from '../net/close-reason';
import type { SendDemand, StreamManager } from '../net/stream/manager';
import type { LinkStreams } from './mirror-links';
import type { MirrorId } from './mirror-id';

const RANK: Readonly<Record<SendDemand, number>> = { none: 0, normal: 1, urgent: 2 };

/** One packet's sections: each manager's record, or undefined where it wrote nothing. */
type StackedRecord = readonly unknown[];

class StackedManager implements StreamManager<StackedRecord> {
  readonly name: string;
  wake: (() => void) | undefined;
  /** A manager that wanted room in the last packet and got too little: the ones before it skip the next. */
  private starved: number | undefined;

  constructor(private readonly managers: readonly StreamManager<unknown>[]) {
    this.name = managers.map((m) => m.name).join('+');
    for (const m of managers)
      m.wake = () => {
        this.wake?.();
      };
  }

  demand(now: number): SendDemand {
    let d: SendDemand = 'none';
    for (const m of this.managers) {
      const md = m.demand(now);
      if (RANK[md] > RANK[d]) d = md;
    }
    return d;
  }

  nextCheckAt(): number {
    let t = Infinity;
    for (const m of this.managers) t = Math.min(t, m.nextCheckAt?.() ?? Infinity);
    return t;
  }

  write(now: number, w: BitWriter, budgetBits: number): StackedRecord | undefined {
    const start = w.bitLength;
    const end = start + budgetBits;
    const sections: unknown[] = [];
    let wrote = false;
    const n = this.managers.length;
    const skipBefore = this.starved ?? 0;
    this.starved = undefined;
    for (let i = 0; i < n; i++) {
      const m = this.managers[i] as StreamManager<unknown>;
      const at = w.bitLength;
      // Room left once this and every later manager's presence bit is accounted for.
      let room = i < skipBefore ? 0 : end - at - (n - i);
      const share = m.maxShare;
      if (share !== undefined && share < 1 && this.laterWant(now, i))
        room = Math.min(room, Math.floor(budgetBits * share));
      w.writeBool(true);
      const wants = m.demand(now) !== 'none';
      const rec = room > 0 && wants ? m.write(now, w, room) : undefined;
      if (w.bitLength > end) throw new Error(`stream manager ${m.name} overran its budget`);
      if (rec === undefined) {
        w.truncate(at);
        w.writeBool(false);
        // Squeezed out by the managers before it (with the whole packet, it has only itself to blame).
        if (wants && i > 0 && this.starved === undefined && room < budgetBits - n) this.starved = i;
      } else wrote = true;
      sections.push(rec);
    }
    if (wrote) return sections;
    w.truncate(start);
    return undefined;
  }

  read(now: number, r: BitReader): void {
    for (const m of this.managers) if (r.readBool()) m.read(now, r);
  }

  notify(now: number, record: StackedRecord, delivered: boolean): void {
    record.forEach((rec, i) => {
      if (rec !== undefined) this.managers[i]?.notify(now, rec, delivered);
    });
  }

  private laterWant(now: number, i: number): boolean {
    for (let k = i + 1; k < this.managers.length; k++)
      if (this.managers[k]?.demand(now) !== 'none') return true;
    return false;
  }
}

/** Link streams whose managers, one from each of `streams` per link, share the link's stream section in order. */
export function stackLinkStreams(streams: readonly LinkStreams[]): LinkStreams {
  return {
    open: (now: number, id: MirrorId) => new StackedManager(streams.map((s) => s.open(now, id))),
    close: (now: number, id: MirrorId, info: CloseInfo) => {
      for (const s of streams) s.close(now, id, info);
    },
  };
}
