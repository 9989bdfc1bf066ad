// Seeded, reproducible PRNG (sfc32 seeded through splitmix32) for tests and simulations; knows nothing of the network or of wall-clock time.

const TWO_POW_32 = 2 ** 32;

/** One step of splitmix32: spreads a plain integer seed over all 32 bits. */
function splitmix32(state: number): number {
  let z = state;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Rng {
  readonly seed: number;
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    if (!Number.isFinite(seed)) throw new RangeError(`Rng seed must be finite, got ${seed}`);
    this.seed = seed;
    // Seeds beyond 32 bits fold their high word in, so 2**40 and 0 differ.
    const low = seed >>> 0;
    const high = Math.floor(seed / TWO_POW_32) >>> 0;
    const base = (low ^ Math.imul(high, 0x9e3779b1)) >>> 0;
    this.a = splitmix32(base + 0x9e3779b9);
    this.b = splitmix32(base + 2 * 0x9e3779b9);
    this.c = splitmix32(base + 3 * 0x9e3779b9);
    this.d = splitmix32(base + 4 * 0x9e3779b9);
    // sfc32's first outputs are correlated with the seed; burn them.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** Uniform integer in [0, 2**32). */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1) with 32 bits of resolution. */
  next(): number {
    return this.uint32() / TWO_POW_32;
  }

  /** Uniform integer in [0, maxExclusive); maxExclusive is an integer in 1..2**53. */
  int(maxExclusive: number): number {
    if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > 2 ** 53) {
      throw new RangeError(`Rng.int bound must be an integer in 1..2**53, got ${maxExclusive}`);
    }
    if (maxExclusive <= TWO_POW_32) return Math.floor(this.next() * maxExclusive);
    // Wider spans need 53 bits of fraction, or most values could never be drawn.
    const fraction = ((this.uint32() >>> 5) * 2 ** 26 + (this.uint32() >>> 6)) / 2 ** 53;
    return Math.floor(fraction * maxExclusive);
  }

  /** Uniform integer in [min, max], both inclusive. */
  range(min: number, max: number): number {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
      throw new RangeError(`Rng.range needs safe integers min <= max, got ${min}..${max}`);
    }
    return min + this.int(max - min + 1);
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      let word = this.uint32();
      for (let j = i; j < n && j < i + 4; j++) {
        out[j] = word & 0xff;
        word >>>= 8;
      }
    }
    return out;
  }

  pick<T>(arr: readonly T[]): T {
    if (arr.length === 0) throw new RangeError('Rng.pick from an empty array');
    return arr[this.int(arr.length)] as T;
  }
}
