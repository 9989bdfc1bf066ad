// A mirror's images over one link, the two ends' stream managers wired to each other packet by packet: a joining
// mirror takes the group's images before its host exists and hands them over when it comes; what came is not sent
// back; an image is taken once even when two mirrors offer it at once.
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../net/bitstream';
import { Rng } from '../net/rng';
import type { StreamManager } from '../net/stream/manager';
import { blobHash } from '../session/blob-store';
import { HostImages } from '../session/host-images';
import { buildRegistry } from '../session/protocol';
import type { SessionEvent } from '../session/session-events';
import { MirrorImages } from './mirror-images';

/** One packet each way, if either side has one, delivered; whether any went. */
function exchange1(a: StreamManager<unknown>, b: StreamManager<unknown>, now: number): boolean {
  let sent = false;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    if (x.demand(now) === 'none') continue;
    const w = new BitWriter();
    const rec = x.write(now, w, 9000);
    if (rec === undefined) continue;
    sent = true;
    y.read(now, new BitReader(w.finish()));
    x.notify(now, rec, true);
  }
  return sent;
}

/** Packets both ways until neither side has anything to send (bounded); returns the time it went quiet. */
function exchange(a: StreamManager<unknown>, b: StreamManager<unknown>, from: number): number {
  for (let i = 0, now = from; i < 5000; i++, now += 5) if (!exchange1(a, b, now)) return now;
  throw new Error('the link never went quiet');
}

function host(): { images: HostImages; events: SessionEvent[] } {
  const events: SessionEvent[] = [];
  return { images: new HostImages(buildRegistry(), (e) => events.push(e)), events };
}

const bytesOf = (seed: number, n: number): Uint8Array => new Rng(seed).bytes(n);

describe('mirror images over a link', () => {
  it('a joining mirror holds the group’s images until its host exists, then hands them over', () => {
    const founder = new MirrorImages();
    const a = host();
    founder.serve(a.images, 0);
    const bytes = bytesOf(1, 50_000);
    const hash = a.images.put(bytes, 'image/png');
    const joiner = new MirrorImages();
    const now = exchange(founder.open(0, 1), joiner.open(0, 0), 0);
    expect(founder.counters).toMatchObject({ sent: 1, failed: 0 });
    expect(joiner.counters.received).toBe(1);

    const b = host();
    joiner.serve(b.images, now);
    expect(b.images.store.get(hash as string)?.bytes).toEqual(bytes);
    expect(b.events.some((e) => e.type === 'image' && e.hash === hash)).toBe(true);
    expect(b.images.store.reservedBytes).toBe(0);
  });

  it('sends what the host takes later, and nothing back to the mirror it came from', () => {
    const x = new MirrorImages();
    const y = new MirrorImages();
    const hx = host();
    const hy = host();
    x.serve(hx.images, 0);
    y.serve(hy.images, 0);
    const mx = x.open(0, 1);
    const my = y.open(0, 0);
    let now = exchange(mx, my, 0);
    const bytes = bytesOf(2, 3000);
    const hash = blobHash(bytes);
    hy.images.put(bytes, 'image/jpeg');
    now = exchange(mx, my, now);
    expect(hx.images.store.get(hash)?.bytes).toEqual(bytes);
    expect([x.counters.sent, y.counters.sent]).toEqual([0, 1]);
    expect([x.counters.received, y.counters.received]).toEqual([1, 0]);
    // The same image again: the other side has it.
    hy.images.put(bytes, 'image/jpeg');
    exchange(mx, my, now);
    expect(x.counters.received).toBe(1);
  });

  it('takes an image once when two mirrors offer it at once', () => {
    const [p, q] = [new MirrorImages(), new MirrorImages()];
    const [hp, hq] = [host(), host()];
    p.serve(hp.images, 0);
    q.serve(hq.images, 0);
    const bytes = bytesOf(3, 20_000);
    hp.images.put(bytes, 'image/png');
    hq.images.put(bytes, 'image/png');
    const joiner = new MirrorImages();
    const fromP = joiner.open(0, 0);
    const fromQ = joiner.open(0, 1);
    const mp = p.open(0, 2);
    const mq = q.open(0, 2);
    // Both start before either finishes: one is taken, the other turned away.
    let now = 0;
    for (let i = 0; i < 200; i++, now += 5) {
      exchange1(mp, fromP, now);
      exchange1(mq, fromQ, now);
    }
    expect(joiner.counters.received).toBe(1);
    expect(p.counters.sent + q.counters.sent).toBe(1);
    expect(p.counters.failed + q.counters.failed).toBe(1);
  });
});
