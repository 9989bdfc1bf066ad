import { describe, expect, it } from 'vitest';
import type { OtMessage, TextOp } from './text-ot';
import { applyOp, diffOp, opSplices, OtLink, spliceOp, transform, transformIndex } from './text-ot';

// Property tests of the text OT, repeated over seeds (a failure names its seed): TP1 over random operations on
// Unicode text with surrogate pairs, and a star of Jupiter links (a host and three editors, any number of
// operations in flight, delivered in order per direction but interleaved at random) converging.

/** mulberry32: a small seeded PRNG (shared/ may not import the network's). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', 'é', ' ', '\n', '😀', '𝄞', '中'];

function randomText(r: () => number, max: number): string {
  let s = '';
  const n = Math.floor(r() * max);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)] ?? 'a';
  return s;
}

/** A code-unit offset of `s` that does not cut a surrogate pair. */
function boundary(r: () => number, s: string): number {
  let i = Math.floor(r() * (s.length + 1));
  const c = s.charCodeAt(i - 1);
  if (i > 0 && i < s.length && c >= 0xd800 && c <= 0xdbff) i--;
  return i;
}

/** A random operation on `s`: one splice (what an editor sends) or a few of them. */
function randomOp(r: () => number, s: string, by: number): TextOp {
  let text = s;
  let op: TextOp = { by, parts: [] };
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const at = boundary(r, text);
    const end = boundary(r, text.slice(at)) + at;
    const next = text.slice(0, at) + randomText(r, 4) + text.slice(end);
    op = composeByText(s, next, by);
    text = next;
  }
  return op;
}

/** The splices' overall effect as one operation (what diffOp of the two texts gives). */
function composeByText(before: string, after: string, by: number): TextOp {
  return diffOp(before, after, by);
}

function must(s: string | undefined, seed: number): string {
  if (s === undefined) throw new Error(`seed ${seed}: an operation did not fit`);
  return s;
}

describe('text OT', () => {
  it('applies a splice and refuses operations that do not fit', () => {
    expect(applyOp('hello', spliceOp(1, 3, 'EY', 1))).toBe('hEYo');
    expect(applyOp('hi', spliceOp(3, 0, 'x', 1))).toBeUndefined();
    expect(applyOp('hi', { by: 1, parts: [1, -5] })).toBeUndefined();
    // Cutting a surrogate pair in two is refused.
    expect(applyOp('a😀b', spliceOp(2, 0, 'x', 1))).toBeUndefined();
    expect(applyOp('a😀b', { by: 1, parts: [1.5] })).toBeUndefined();
    expect(applyOp('a😀b', { by: 1, parts: [1, ''] })).toBeUndefined();
  });

  it('diffOp never cuts a surrogate pair', () => {
    // '😀' and '😁' share their high surrogate.
    const op = diffOp('x😀y', 'x😁y', 1);
    expect(op.parts).toEqual([1, '😁', -2]);
    expect(applyOp('x😀y', op)).toBe('x😁y');
  });

  it('keeps both inserts at one place, the lower author first, whichever way round', () => {
    const a = spliceOp(2, 0, 'A', 1);
    const b = spliceOp(2, 0, 'B', 2);
    const [a2, b2] = transform(a, b);
    expect(applyOp(must(applyOp('xxyy', a), 0), b2)).toBe('xxAByy');
    expect(applyOp(must(applyOp('xxyy', b), 0), a2)).toBe('xxAByy');
  });

  it('keeps an insert made inside a range another deleted', () => {
    const del = spliceOp(1, 4, '', 1);
    const ins = spliceOp(3, 0, 'Z', 2);
    const [d2, i2] = transform(del, ins);
    const one = must(applyOp(must(applyOp('abcdef', del), 0), i2), 0);
    const two = must(applyOp(must(applyOp('abcdef', ins), 0), d2), 0);
    expect(one).toBe('aZf');
    expect(two).toBe(one);
  });

  it('TP1: a then b′ equals b then a′ for random operations (2,000 seeds)', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rng(seed);
      const s = randomText(r, 12);
      const a = randomOp(r, s, 1 + Math.floor(r() * 3));
      const b = randomOp(r, s, 4 + Math.floor(r() * 3));
      const [a2, b2] = transform(a, b);
      const one = applyOp(must(applyOp(s, a), seed), b2);
      const two = applyOp(must(applyOp(s, b), seed), a2);
      expect(one, `seed ${seed}`).toBeDefined();
      expect(one, `seed ${seed}`).toBe(two);
      // The transformed operation, as splices one after another, does the same.
      let bySplices = must(applyOp(s, b), seed);
      for (const sp of opSplices(a2))
        bySplices = must(applyOp(bySplices, spliceOp(sp.at, sp.remove, sp.insert, a2.by)), seed);
      expect(bySplices, `seed ${seed}`).toBe(two);
    }
  });

  it('moves a caret past inserts before it and into deletions over it', () => {
    expect(transformIndex(3, spliceOp(1, 0, 'xy', 1))).toBe(5);
    expect(transformIndex(3, spliceOp(5, 0, 'xy', 1))).toBe(3);
    expect(transformIndex(3, spliceOp(1, 4, '', 1))).toBe(1);
    expect(transformIndex(3, spliceOp(3, 0, 'q', 1))).toBe(4);
    // A sticky caret stays before someone else's insert at it, and still follows one before it.
    expect(transformIndex(3, spliceOp(3, 0, 'q', 1), true)).toBe(3);
    expect(transformIndex(3, spliceOp(2, 0, 'q', 1), true)).toBe(4);
    expect(transformIndex(3, { by: 1, parts: [1, -2, 'q'] }, true)).toBe(1);
  });

  it('OtLink: a link refuses an acknowledgement of operations never sent', () => {
    const l = new OtLink(false);
    l.send(spliceOp(0, 0, 'a', 1));
    expect(l.ack(1)).toBe(true);
    expect(l.ack(2)).toBe(false);
    expect(l.receive({ seen: 5, op: spliceOp(0, 0, 'b', 2) })).toBeUndefined();
  });

  it('a host and three editors converge with operations in flight both ways (500 seeds)', () => {
    for (let seed = 1; seed <= 500; seed++) starRun(seed);
  });
});

/**
 * A host node and three editors, each editor joined by one link (two queues, FIFO each way). Editors and the host
 * make random operations; queues are delivered at random; at the end everything is delivered and all texts match.
 */
function starRun(seed: number): void {
  const r = rng(seed);
  const start = randomText(r, 8);
  let host = start;
  const n = 3;
  const texts = Array.from({ length: n }, () => start);
  // Half the seeds break ties by author, half by role (as an editor and its own core do).
  const byRole = seed % 2 === 0;
  const up = Array.from({ length: n }, () => new OtLink(true, byRole));
  const down = Array.from({ length: n }, () => new OtLink(false, byRole));
  const toHost: OtMessage[][] = Array.from({ length: n }, () => []);
  const toEditor: OtMessage[][] = Array.from({ length: n }, () => []);
  const hostApply = (op: TextOp, from: number): void => {
    host = must(applyOp(host, op), seed);
    for (let k = 0; k < n; k++) if (k !== from) toEditor[k]?.push(must2(down[k]).send(op));
  };
  const must2 = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error(`seed ${seed}: missing`);
    return v;
  };
  const deliver = (k: number, toward: 'host' | 'editor'): void => {
    const q = toward === 'host' ? must2(toHost[k]) : must2(toEditor[k]);
    const m = q.shift();
    if (m === undefined) return;
    if (toward === 'host') {
      const op = must2(must2(down[k]).receive(m));
      hostApply(op, k);
    } else {
      const op = must2(must2(up[k]).receive(m));
      texts[k] = must(applyOp(must2(texts[k]), op), seed);
    }
  };
  for (let step = 0; step < 60; step++) {
    const k = Math.floor(r() * n);
    const roll = r();
    if (roll < 0.3) {
      const op = randomOp(r, must2(texts[k]), k + 1);
      texts[k] = must(applyOp(must2(texts[k]), op), seed);
      must2(toHost[k]).push(must2(up[k]).send(op));
    } else if (roll < 0.4) {
      hostApply(randomOp(r, host, 0), -1);
    } else deliver(k, r() < 0.5 ? 'host' : 'editor');
  }
  for (let k = 0; k < n; k++) while (must2(toHost[k]).length > 0) deliver(k, 'host');
  for (let k = 0; k < n; k++) while (must2(toEditor[k]).length > 0) deliver(k, 'editor');
  for (let k = 0; k < n; k++) expect(texts[k], `seed ${seed}, editor ${k}`).toBe(host);
}
