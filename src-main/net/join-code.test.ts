// Tests for join-code generation, normalization and strength; uses no network or clock.
import { describe, it, expect } from 'vitest';
import {
  CODE_WORDS,
  GENERATED_CODE_BITS,
  SPOKEN_CODE_BITS,
  generateJoinCode,
  generateLongJoinCode,
  isSpokenJoinCode,
  joinCodeStrengthBits,
  normalizeJoinCode,
} from './join-code.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('generateJoinCode (spoken)', () => {
  it('is a number from 1 to 256 and two listed words, normalized already and rated at 24 bits', () => {
    for (let i = 0; i < 500; i++) {
      const code = generateJoinCode();
      const m = /^(\d{1,3})-([a-z]+)-([a-z]+)$/.exec(code);
      expect(m, code).not.toBeNull();
      const n = Number(m?.[1]);
      expect(n >= 1 && n <= 256, code).toBe(true);
      expect(CODE_WORDS).toContain(m?.[2]);
      expect(CODE_WORDS).toContain(m?.[3]);
      expect(normalizeJoinCode(code)).toBe(code);
      expect(isSpokenJoinCode(code)).toBe(true);
      expect(joinCodeStrengthBits(code)).toBe(SPOKEN_CODE_BITS);
    }
  });

  it('has 256 distinct lower-case words of 3 to 8 letters', () => {
    expect(CODE_WORDS).toHaveLength(256);
    expect(new Set(CODE_WORDS).size).toBe(256);
    for (const w of CODE_WORDS) expect(w).toMatch(/^[a-z]{3,8}$/);
  });

  it('reaches every number and every word', () => {
    // 20,000 codes: a given word is missed with probability (255/256)^40000 ≈ 1e-68, a number (255/256)^20000.
    const numbers = new Set<string>();
    const words = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const [n, a, b] = generateJoinCode().split('-');
      numbers.add(n ?? '');
      words.add(a ?? '').add(b ?? '');
    }
    expect(numbers.size).toBe(256);
    expect(words.size).toBe(256);
  });
});

describe('generateLongJoinCode', () => {
  it('is two groups of five Crockford symbols', () => {
    for (let i = 0; i < 200; i++) {
      expect(generateLongJoinCode()).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    }
  });

  it('draws on the whole 32-symbol alphabet in every position', () => {
    // 3,000 codes: the chance a given symbol never shows in a position is (31/32)^3000 ≈ 1e-41.
    const seen = Array.from({ length: 10 }, () => new Set<string>());
    for (let i = 0; i < 3_000; i++) {
      Array.from(generateLongJoinCode().replace('-', '')).forEach((c, pos) => seen[pos]?.add(c));
    }
    for (const set of seen) expect([...set].sort().join('')).toBe(ALPHABET);
  });

  it('is normalized already and rated at 50 bits', () => {
    const code = generateLongJoinCode();
    expect(normalizeJoinCode(code)).toBe(code.replace('-', ''));
    expect(joinCodeStrengthBits(code)).toBe(50);
    expect(GENERATED_CODE_BITS).toBe(50);
  });
});

describe('normalizeJoinCode', () => {
  it('forgives case, separators and leading zeros in spoken codes', () => {
    for (const typed of [
      '7-orbit-lantern',
      ' 7 Orbit  LANTERN ',
      '007_orbit.lantern',
      '7-ORBIT lantern',
    ])
      expect(normalizeJoinCode(typed), typed).toBe('7-orbit-lantern');
    expect(normalizeJoinCode('7-orbit-lantern')).not.toBe(normalizeJoinCode('7-lantern-orbit'));
    // Words off the list still normalize alike on both sides, but are not rated as spoken codes.
    expect(normalizeJoinCode('3 Foo Bar')).toBe('3-foo-bar');
    expect(isSpokenJoinCode('3-foo-bar')).toBe(false);
    expect(isSpokenJoinCode('0-orbit-lantern')).toBe(false);
    expect(isSpokenJoinCode('257-orbit-lantern')).toBe(false);
  });

  it('maps o/i/l and strips dashes, spaces and case', () => {
    expect(normalizeJoinCode(' k7qx2-m9trd ')).toBe('K7QX2M9TRD');
    expect(normalizeJoinCode('K7QX2 M9TRD')).toBe('K7QX2M9TRD');
    expect(normalizeJoinCode('ol1i0-LIOO1')).toBe('0111011001');
  });

  it('is idempotent and the same for every spelling of one code', () => {
    const spellings = ['K7QX2-M9TRD', 'k7qx2m9trd', ' K7QX2 - M9TRD', 'k7qx2-m9trd\n'];
    const forms = new Set(spellings.map(normalizeJoinCode));
    expect(forms.size).toBe(1);
    const [form] = [...forms];
    expect(normalizeJoinCode(form ?? '')).toBe(form);
  });

  it('keeps a custom code as typed, upper-cased and trimmed', () => {
    expect(normalizeJoinCode('  correct horse-battery! ')).toBe('CORRECT HORSE-BATTERY!');
    expect(normalizeJoinCode('lou')).toBe('LOU'); // U is outside the alphabet, so no O/L mapping
  });

  it('applies NFC so composed and decomposed accents agree', () => {
    expect(normalizeJoinCode('cafe\u0301')).toBe(normalizeJoinCode('caf\u00e9'));
  });
});

describe('joinCodeStrengthBits', () => {
  it('rates short and simple custom codes as weak', () => {
    expect(joinCodeStrengthBits('1234')).toBeCloseTo(4 * Math.log2(10));
    expect(joinCodeStrengthBits('hug')).toBeCloseTo(3 * Math.log2(26));
    expect(joinCodeStrengthBits('')).toBe(0);
  });

  it('rates longer mixed codes higher', () => {
    expect(joinCodeStrengthBits('correct horse battery staple!')).toBeGreaterThan(100);
  });
});
