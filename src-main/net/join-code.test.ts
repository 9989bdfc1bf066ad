// Tests for join-code generation, normalization and strength; uses no network or clock.
import { describe, it, expect } from 'vitest';
import {
  GENERATED_CODE_BITS,
  generateJoinCode,
  joinCodeStrengthBits,
  normalizeJoinCode,
} from './join-code.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('generateJoinCode', () => {
  it('is two groups of five Crockford symbols', () => {
    for (let i = 0; i < 200; i++) {
      expect(generateJoinCode()).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    }
  });

  it('draws on the whole 32-symbol alphabet in every position', () => {
    // 3,000 codes: the chance a given symbol never shows in a position is (31/32)^3000 ≈ 1e-41.
    const seen = Array.from({ length: 10 }, () => new Set<string>());
    for (let i = 0; i < 3_000; i++) {
      Array.from(generateJoinCode().replace('-', '')).forEach((c, pos) => seen[pos]?.add(c));
    }
    for (const set of seen) expect([...set].sort().join('')).toBe(ALPHABET);
  });

  it('is normalized already and rated at 50 bits', () => {
    const code = generateJoinCode();
    expect(normalizeJoinCode(code)).toBe(code.replace('-', ''));
    expect(joinCodeStrengthBits(code)).toBe(50);
    expect(GENERATED_CODE_BITS).toBe(50);
  });
});

describe('normalizeJoinCode', () => {
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
