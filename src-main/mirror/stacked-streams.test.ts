// Stream managers stacked on one link: each section after a presence bit, read back to the right manager, each
// packet's fate told to the managers that wrote into it; a manager squeezed out by the ones before it gets the
// next packet to itself; nothing written leaves nothing behind.
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../net/bitstream';
import type { SendDemand, StreamManager } from '../net/stream/manager';
import { stackLinkStreams } from './stacked-streams';

/** Writes `fill` bits of ones (all the room it is given when fill is 'all'), needing at least `min` bits. */
class Fake implements StreamManager<number> {
  wake: (() => void) | undefined;
  readonly read_: number[] = [];
  readonly fates: [number, boolean][] = [];
  private n = 0;
  constructor(
    readonly name: string,
    public wants: SendDemand,
    private readonly fill: number | 'all',
    private readonly min = 1,
  ) {}
  demand(): SendDemand {
    return this.wants;
  }
  write(_now: number, w: BitWriter, budgetBits: number): number | undefined {
    const bits = this.fill === 'all' ? budgetBits : this.fill;
    if (bits < this.min || bits > budgetBits) return undefined;
    w.writeUint(bits, 16);
    for (let i = 16; i < bits; i++) w.writeBool(true);
    return ++this.n;
  }
  read(_now: number, r: BitReader): void {
    const bits = r.readUint(16);
    for (let i = 16; i < bits; i++) r.readBool();
    this.read_.push(bits);
  }
  notify(_now: number, record: number, delivered: boolean): void {
    this.fates.push([record, delivered]);
  }
}

function stack(managers: Fake[]): StreamManager<unknown> {
  let i = 0;
  const streams = managers.map(() => ({
    open: () => managers[i++] as Fake,
    close: () => undefined,
  }));
  return stackLinkStreams(streams).open(0, 1);
}

describe('stacked link streams', () => {
  it('writes each section after a presence bit and reads each back to its own manager', () => {
    const [a, b, c] = [
      new Fake('a', 'urgent', 40),
      new Fake('b', 'none', 30),
      new Fake('c', 'normal', 50),
    ];
    const out = stack([a, b, c]);
    expect(out.name).toBe('a+b+c');
    expect(out.demand(0)).toBe('urgent');
    const w = new BitWriter();
    const rec = out.write(0, w, 1000);
    expect(rec).toEqual([1, undefined, 1]);
    expect(w.bitLength).toBe(3 + 40 + 50);
    const [ra, rb, rc] = [
      new Fake('a', 'none', 0),
      new Fake('b', 'none', 0),
      new Fake('c', 'none', 0),
    ];
    stack([ra, rb, rc]).read(0, new BitReader(w.finish()));
    expect([ra.read_, rb.read_, rc.read_]).toEqual([[40], [], [50]]);
    out.notify(0, rec, false);
    expect([a.fates, b.fates, c.fates]).toEqual([[[1, false]], [], [[1, false]]]);
  });

  it('gives a manager squeezed out by the ones before it the next packet', () => {
    const pointers = new Fake('pointers', 'urgent', 'all');
    const images = new Fake('images', 'normal', 600, 600);
    const out = stack([pointers, images]);
    const first = out.write(0, new BitWriter(), 1000);
    expect(first).toEqual([1, undefined]);
    const second = out.write(0, new BitWriter(), 1000);
    expect(second).toEqual([undefined, 1]);
    // Then the order holds again.
    expect(out.write(0, new BitWriter(), 1000)).toEqual([2, undefined]);
    // One that cannot write with the whole packet is no reason to skip the others.
    const huge = new Fake('huge', 'normal', 5000, 5000);
    const out2 = stack([new Fake('p', 'urgent', 'all'), huge]);
    out2.write(0, new BitWriter(), 1000);
    expect(out2.write(0, new BitWriter(), 1000)).toBeUndefined();
    expect(out2.write(0, new BitWriter(), 1000)).toEqual([2, undefined]);
  });

  it('takes back its bits when no manager wrote', () => {
    const out = stack([new Fake('a', 'normal', 40, 100), new Fake('b', 'none', 10)]);
    const w = new BitWriter();
    w.writeUint(5, 3);
    expect(out.write(0, w, 50)).toBeUndefined();
    expect(w.bitLength).toBe(3);
  });

  it('passes a manager’s wake on', () => {
    const a = new Fake('a', 'none', 10);
    const out = stack([a, new Fake('b', 'none', 10)]);
    let woken = 0;
    out.wake = () => woken++;
    a.wake?.();
    expect(woken).toBe(1);
  });
});
