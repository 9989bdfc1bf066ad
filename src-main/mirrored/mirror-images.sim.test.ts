// Images in a session served from mirrors, seeded: an image uploaded to one host reaches every other host over the
// mirror links and every joiner of every host, byte for byte, over lossy, reordering links; a joiner that asked its
// host for an image before the bytes got there is answered when they come; an image the host held before the
// mirrors linked is sent when they do; a host over its session's image space refuses it and says so.
import { describe, expect, it } from 'vitest';
import type { NewObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { MAX_IMAGE_BYTES } from '../../shared/images';
import { Rng } from '../net/rng';
import { blobHash } from '../session/blob-store';
import { hostControls, peerControls } from '../session/controls';
import type { MirrorHostsConfig, ServedMirrors } from './testing/mirror-hosts';
import { DEFAULT_MIRROR_HOSTS, joinMirror, serveMirrorHosts } from './testing/mirror-hosts';

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Runs virtual time in small steps, letting the promises of uploads and creates settle between them. */
async function run(s: ServedMirrors, ms: number): Promise<void> {
  const until = s.sim.now + ms;
  while (s.sim.now < until) {
    s.sim.runUntil(Math.min(until, s.sim.now + 20));
    await flush();
  }
}

async function settle<T>(s: ServedMirrors, p: Promise<T>, ms: number, seed: number): Promise<T> {
  let out: { v: T } | undefined;
  void p.then((v) => (out = { v }));
  const end = s.sim.now + ms;
  while (out === undefined && s.sim.now < end) await run(s, 20);
  if (out === undefined) throw new Error(`seed ${seed}: not settled in ${ms} ms`);
  return out.v;
}

function pngLike(seed: number, n: number): Uint8Array {
  const b = new Rng(seed).bytes(n);
  b.set([0x89, 0x50, 0x4e, 0x47], 0);
  return b;
}

const imageAt = (hash: string, x: number): NewObject => ({
  ...newRect({ x, y: 50, w: 320, h: 200 }),
  kind: 'image',
  blob: hash,
});

function served(seed: number, more: Partial<MirrorHostsConfig> = {}): ServedMirrors {
  const config = {
    ...DEFAULT_MIRROR_HOSTS,
    seed,
    relay: 'presence',
    images: true,
    ...more,
  } as const;
  const s = serveMirrorHosts(config);
  for (const m of s.mirrors) joinMirror(s, config, m, 0);
  const linked = s.sim.runUntilTrue(
    () =>
      s.mirrors.every((m) => m.mirror.node.links.linked().length === s.mirrors.length - 1) &&
      s.mirrors.every((m) => m.joiners.every((j) => j.peer.peerId !== undefined)),
    10_000,
  );
  if (!linked) throw new Error(`seed ${seed}: the mirrors did not link`);
  return s;
}

describe('images across mirrors', () => {
  it('an image a joiner uploads to one host reaches every host and every joiner', async () => {
    for (const seed of [1, 2, 3]) {
      const s = served(seed);
      await run(s, 2000);
      const [m0, m1] = s.mirrors;
      const ana = m1?.joiners[0];
      if (m0 === undefined || ana === undefined) throw new Error('no mirror');
      const bytes = pngLike(seed, 60_000);
      const hash = await settle(
        s,
        peerControls(ana.peer).putImage(s.sim.now, bytes, 'image/png'),
        60_000,
        seed,
      );
      if (typeof hash !== 'string') throw new Error(`seed ${seed}: ${hash.refused}`);
      expect(hash).toBe(blobHash(bytes));
      const id = await settle(
        s,
        peerControls(ana.peer).create(s.sim.now, imageAt(hash, 40)),
        5000,
        seed,
      );
      expect(typeof id, `seed ${seed}`).toBe('number');
      await run(s, 60_000);
      for (const m of s.mirrors) {
        expect(m.host.images.store.get(hash)?.bytes, `seed ${seed} host ${m.id}`).toEqual(bytes);
        for (const j of m.joiners)
          expect(j.peer.images.store.get(hash)?.bytes, `seed ${seed} joiner of ${m.id}`).toEqual(
            bytes,
          );
      }
      // Only the host that took the upload sent it: one copy to each other mirror.
      expect(
        s.mirrors.map((m) => m.images?.counters.sent),
        `seed ${seed}`,
      ).toEqual([0, 2, 0]);
      expect(
        s.mirrors.map((m) => m.images?.counters.received),
        `seed ${seed}`,
      ).toEqual([1, 0, 1]);
      // The create outran the bytes somewhere: a joiner asked a host that had yet to receive them, and got them.
      const waited = s.mirrors.reduce((n, m) => n + m.host.images.counters.unknownWants, 0);
      expect(waited, `seed ${seed}`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('an image held before the mirrors linked is sent once they do', async () => {
    const seed = 7;
    const config = { ...DEFAULT_MIRROR_HOSTS, seed, relay: 'presence', images: true } as const;
    const s = serveMirrorHosts(config);
    // The first host's own user pastes at once, before any link is up.
    const host0 = s.mirrors[0]?.host;
    if (host0 === undefined) throw new Error('no mirror');
    const bytes = pngLike(seed, 20_000);
    const hash = await hostControls(host0).putImage(0, bytes, 'image/jpeg');
    if (typeof hash !== 'string') throw new Error(hash.refused);
    await run(s, 20_000);
    for (const m of s.mirrors)
      expect(m.host.images.store.get(hash)?.bytes, `seed ${seed} host ${m.id}`).toEqual(bytes);
  }, 60_000);

  it('a host without room for an image refuses it, and the others still get it', async () => {
    const seed = 11;
    const s = served(seed);
    const [origin, other, full] = s.mirrors;
    if (origin === undefined || other === undefined || full === undefined)
      throw new Error('no mirror');
    // The third host's image space is all but taken (an upload under way holds it).
    const store = full.host.images.store;
    for (let n = MAX_IMAGE_BYTES; n >= 1000;)
      if (store.reserve(n) !== undefined) n = Math.floor(n / 2);
    expect(store.refusal(30_000)).toBeDefined();
    const bytes = pngLike(seed, 30_000);
    const hash = await hostControls(origin.host).putImage(s.sim.now, bytes, 'image/png');
    if (typeof hash !== 'string') throw new Error(hash.refused);
    await run(s, 30_000);
    expect(other.host.images.store.get(hash)?.bytes, `seed ${seed}`).toEqual(bytes);
    expect(full.host.images.store.has(hash), `seed ${seed}`).toBe(false);
    expect(full.images?.counters.refused, `seed ${seed}`).toBe(1);
    expect(origin.images?.counters, `seed ${seed}`).toMatchObject({ sent: 1, failed: 1 });
  }, 60_000);
});
