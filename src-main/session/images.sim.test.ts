import { describe, expect, it } from 'vitest';
import type { NewObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { NO_IMPAIRMENT } from '../net/impairment';
import { Rng } from '../net/rng';
import { blobHash } from './blob-store';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import type { SimSession } from './testing/sim-session';
import { makeSimSession } from './testing/sim-session';

// Images over the simulated network with loss: a joiner uploads an image to the host as a chunked blob, everyone
// else (a late joiner too) fetches it on seeing the object, bytes checked against the hash; the same image twice
// travels once; the host's limits refuse an upload in words; a create of an image the host lacks is refused.

const lossy = { ...NO_IMPAIRMENT, loss: 0.1, delayMs: 40, jitterMs: 30, reorder: 0.1 };

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

async function run(s: SimSession, until: number): Promise<void> {
  while (s.sim.now < until) {
    s.sim.runUntil(Math.min(until, s.sim.now + 20));
    await flush();
  }
}

/** Runs until the promise settles (or the time is up: then it fails with the seed). */
async function settle<T>(s: SimSession, p: Promise<T>, ms: number): Promise<T> {
  let out: { v: T } | undefined;
  void p.then((v) => (out = { v }));
  const end = s.sim.now + ms;
  while (out === undefined && s.sim.now < end) await run(s, s.sim.now + 20);
  if (out === undefined) throw new Error(`seed ${s.rng.seed}: not settled in ${ms} ms`);
  return out.v;
}

function must<T>(v: T | undefined): T {
  if (v === undefined) throw new Error('missing');
  return v;
}

function imageObject(hash: string): NewObject {
  return { ...newRect({ x: 40, y: 50, w: 320, h: 200 }), kind: 'image', blob: hash };
}

/** Bytes seeded like the session (not a real PNG: the session never decodes images). */
function pngLike(seed: number, n: number): Uint8Array {
  const b = new Rng(seed).bytes(n);
  b.set([0x89, 0x50, 0x4e, 0x47], 0);
  return b;
}

describe('images over the session', () => {
  it('a joiner pastes an image: the host, another peer and a late joiner get the same bytes', async () => {
    const s = makeSimSession({ seed: 60_001, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const ana: Controls = peerControls(must(s.peers[0]));
    const bytes = pngLike(1, 100_000);
    const hash = await settle(s, ana.putImage(s.sim.now, bytes, 'image/png'), 60_000);
    if (typeof hash !== 'string') throw new Error(`seed ${s.rng.seed}: ${hash.refused}`);
    expect(hash).toBe(blobHash(bytes));
    const id = await settle(s, ana.create(s.sim.now, imageObject(hash)), 5000);
    expect(typeof id, `seed ${s.rng.seed}`).toBe('number');
    await run(s, s.sim.now + 30_000);
    s.addPeer('Late');
    await run(s, s.sim.now + 40_000);
    expect(s.host.images.store.get(hash)?.bytes).toEqual(bytes);
    for (const p of s.peers) {
      expect(p.board.get(id as number)?.blob, `seed ${s.rng.seed}`).toBe(hash);
      expect(p.images.store.get(hash)?.bytes, `seed ${s.rng.seed} ${p.options.name}`).toEqual(
        bytes,
      );
    }
    // The late joiner saw its download's progress, up to the whole.
    const late = must(s.peerEvents[2]).filter((e) => e.type === 'image-progress');
    expect(late.at(-1)).toMatchObject({ hash, received: bytes.length, total: bytes.length });
  });

  it('a late joiner fetches every image on the board, a few at a time, and none twice', async () => {
    const s = makeSimSession({ seed: 60_007, conditions: lossy });
    const host = hostControls(s.host);
    const hashes: string[] = [];
    for (let i = 0; i < 9; i++) {
      const h = await host.putImage(0, pngLike(100 + i, 3000 + i * 100), 'image/png');
      if (typeof h !== 'string') throw new Error(h.refused);
      hashes.push(h);
      // Two objects show each image.
      await host.create(0, imageObject(h));
      await host.create(0, imageObject(h));
    }
    s.addPeer('Late');
    await run(s, 20_000);
    const late = must(s.peers[0]);
    expect([...late.images.store.all()].map((b) => b.hash).sort(), `seed ${s.rng.seed}`).toEqual(
      [...hashes].sort(),
    );
    expect(late.images.counters?.startsRefused).toBe(0);
  });

  it('the same image pasted twice is stored and sent once', async () => {
    const s = makeSimSession({ seed: 60_002, conditions: lossy });
    s.addPeer('Ana');
    await run(s, 2000);
    const ana = peerControls(must(s.peers[0]));
    const bytes = pngLike(2, 40_000);
    await settle(s, ana.putImage(s.sim.now, bytes, 'image/jpeg'), 30_000);
    const uploads = (): number => s.hostEvents.filter((e) => e.type === 'image-progress').length;
    const chunksAfterFirst = uploads();
    expect(chunksAfterFirst).toBeGreaterThan(0);
    expect(await settle(s, ana.putImage(s.sim.now, bytes, 'image/jpeg'), 5000)).toBe(
      blobHash(bytes),
    );
    expect(uploads()).toBe(chunksAfterFirst);
    expect([s.host.images.store.size, s.host.images.store.bytes]).toEqual([1, bytes.length]);
    // The host's own paste of it, and two objects showing it: still one blob.
    const host = hostControls(s.host);
    expect(await host.putImage(s.sim.now, bytes, 'image/jpeg')).toBe(blobHash(bytes));
    await settle(s, ana.create(s.sim.now, imageObject(blobHash(bytes))), 5000);
    await host.create(s.sim.now, imageObject(blobHash(bytes)));
    expect(s.host.images.store.size).toBe(1);
  });

  it("the host's limits refuse an upload, saying why, and keep nothing of it", async () => {
    const s = makeSimSession({
      seed: 60_003,
      conditions: lossy,
      imageLimits: { maxImageBytes: 64 * 1024, maxSessionBytes: 100 * 1024 },
    });
    s.addPeer('Ana');
    await run(s, 2000);
    const ana = peerControls(must(s.peers[0]));
    const big = await settle(s, ana.putImage(s.sim.now, pngLike(3, 70_000), 'image/png'), 5000);
    expect(big).toEqual({ refused: 'image too large (68 KB; at most 64 KB)' });
    const first = await settle(s, ana.putImage(s.sim.now, pngLike(4, 60_000), 'image/png'), 30_000);
    expect(typeof first).toBe('string');
    const full = await settle(s, ana.putImage(s.sim.now, pngLike(5, 50_000), 'image/png'), 5000);
    expect(full).toEqual({ refused: "the board's image space is full (100 KB)" });
    expect(s.peerEvents[0]).toContainEqual({
      type: 'refused',
      cmd: 'image',
      reason: "the board's image space is full (100 KB)",
    });
    expect([s.host.images.store.bytes, s.host.images.store.reservedBytes]).toEqual([60_000, 0]);
    expect(s.host.images.counters.refused).toBe(2);
    // The host's own user is held to the same space.
    const host = hostControls(s.host);
    expect(await host.putImage(s.sim.now, pngLike(6, 50_000), 'image/png')).toEqual({
      refused: "the board's image space is full (100 KB)",
    });
  });

  it('a create of an image whose bytes never reached the host is refused', async () => {
    const s = makeSimSession({ seed: 60_004 });
    s.addPeer('Ana');
    await run(s, 2000);
    const ana = peerControls(must(s.peers[0]));
    const r = await settle(s, ana.create(s.sim.now, imageObject(blobHash(pngLike(7, 10)))), 5000);
    expect(r).toEqual({ refused: "the image's bytes have not reached the host" });
    expect(s.host.board.size).toBe(0);
    // An image object needs its hash, and nothing else has one.
    const host = hostControls(s.host);
    expect(await host.create(s.sim.now, { ...imageObject(''), blob: '' })).toMatchObject({
      refused: 'an image needs its content',
    });
    expect(
      await host.create(s.sim.now, newRect({ blob: blobHash(new Uint8Array(1)) })),
    ).toMatchObject({
      refused: 'only an image has content',
    });
  });
});

describe('images and the rest of the session', () => {
  it("an upload never holds up the uploader's chat line (its own channel, the lowest priority)", async () => {
    const s = makeSimSession({ seed: 60_005, conditions: { ...NO_IMPAIRMENT, delayMs: 40 } });
    s.addPeer('Ana');
    await run(s, 2000);
    const ana = peerControls(must(s.peers[0]));
    const upload = ana.putImage(s.sim.now, pngLike(8, 1_000_000), 'image/png');
    await run(s, s.sim.now + 3000);
    const progress = (): number => s.hostEvents.filter((e) => e.type === 'image-progress').length;
    const before = progress();
    // Mid-upload: a line of chat goes out behind a window of 1 KB chunks.
    const sentAt = s.sim.now;
    ana.chat(sentAt, 'still here');
    let heardAt: number | undefined;
    while (heardAt === undefined && s.sim.now < sentAt + 5000) {
      await run(s, s.sim.now + 5);
      if (s.hostEvents.some((e) => e.type === 'chat' && e.text === 'still here'))
        heardAt = s.sim.now;
    }
    // One way is 40 ms and a packet leaves every 15 ms: a chunk leaves room in its packet for a line, and the
    // line's channel never waits for the blobs' (queued behind the window, it would wait up to 16 packets).
    expect(must(heardAt) - sentAt, `seed ${s.rng.seed}`).toBeLessThanOrEqual(40 + 2 * 16);
    expect(progress()).toBeGreaterThan(before);
    expect(typeof (await settle(s, upload, 60_000))).toBe('string');
  });

  it('hostile uploads: calls before hello do nothing, a bad chunk or a silent upload frees its room', async () => {
    const s = makeSimSession({ seed: 60_006 });
    const raw = s.addRaw();
    await run(s, 1000);
    const hash = blobHash(pngLike(9, 5000));
    raw.rpc.send(raw.proto.blobStart, { tid: 1, hash, size: 5000, type: 0 });
    await run(s, s.sim.now + 500);
    expect(s.host.images.store.reservedBytes).toBe(0);
    raw.rpc.send(raw.proto.hello, { name: 'Mallory', viewer: false });
    await run(s, s.sim.now + 500);
    const room = (): number => s.host.images.store.reservedBytes;
    raw.rpc.send(raw.proto.blobStart, { tid: 2, hash, size: 5000, type: 0 });
    await run(s, s.sim.now + 500);
    expect(room()).toBe(5000);
    raw.rpc.send(raw.proto.blobChunk, { tid: 2, offset: 10, data: new Uint8Array(10) });
    await run(s, s.sim.now + 500);
    expect(room()).toBe(0);
    // An upload that stops is given up after BLOB_STALL_MS, and its room freed.
    raw.rpc.send(raw.proto.blobStart, { tid: 3, hash, size: 5000, type: 0 });
    raw.rpc.send(raw.proto.blobChunk, { tid: 3, offset: 0, data: new Uint8Array(100) });
    await run(s, s.sim.now + 1000);
    expect(room()).toBe(5000);
    await run(s, s.sim.now + 31_000);
    expect(room()).toBe(0);
    // Asking for an image the host does not have is counted, and answered with nothing.
    raw.rpc.send(raw.proto.blobWant, { hash });
    await run(s, s.sim.now + 500);
    expect(s.host.images.counters.unknownWants).toBe(1);
    expect([s.host.images.store.size, raw.closed]).toEqual([0, undefined]);
  });
});
