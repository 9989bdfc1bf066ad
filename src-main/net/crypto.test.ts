// Tests for key derivation, sealing and cookies; uses no network or real clock.
import { describe, it, expect } from 'vitest';
import { createCipheriv } from 'node:crypto';
import {
  COOKIE_LIFETIME_MS,
  COOKIE_SIZE,
  CookieMinter,
  SEAL_OVERHEAD,
  deriveSessionKeys,
  joinCodeSecret,
  open,
  seal,
} from './crypto.js';

const te = new TextEncoder();

function flipBit(bytes: Uint8Array, index: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[index] = (copy[index] ?? 0) ^ 0x01;
  return copy;
}

describe('deriveSessionKeys', () => {
  const isk = new Uint8Array(64).fill(3);

  it('derives 32-byte keys per direction and a 16-byte confirmation, all distinct', () => {
    const k = deriveSessionKeys(isk);
    expect(k.clientToHost).toHaveLength(32);
    expect(k.hostToClient).toHaveLength(32);
    expect(k.hostConfirm).toHaveLength(16);
    expect(k.clientToHost).not.toEqual(k.hostToClient);
    expect(k.hostConfirm).not.toEqual(k.hostToClient.subarray(0, 16));
  });

  it('is deterministic and changes every output with any bit of the ISK', () => {
    expect(deriveSessionKeys(isk)).toEqual(deriveSessionKeys(Uint8Array.from(isk)));
    const a = deriveSessionKeys(isk);
    const b = deriveSessionKeys(flipBit(isk, 63));
    expect(a.clientToHost).not.toEqual(b.clientToHost);
    expect(a.hostToClient).not.toEqual(b.hostToClient);
    expect(a.hostConfirm).not.toEqual(b.hostConfirm);
  });
});

describe('joinCodeSecret', () => {
  it('is the normalized code, so spelling variants agree', () => {
    expect(joinCodeSecret('K7QX2-M9TRD')).toEqual(joinCodeSecret('k7qx2 m9trd'));
    expect(joinCodeSecret('7-orbit-lantern')).toEqual(joinCodeSecret(' 7 Orbit  LANTERN '));
    expect(joinCodeSecret('7-orbit-lantern')).not.toEqual(joinCodeSecret('8-orbit-lantern'));
  });
});

describe('seal / open', () => {
  const key = new Uint8Array(32).fill(7);
  const header = Uint8Array.of(0x12, 0x34, 0x56);
  const plaintext = te.encode('a pointer moved to (120, 45)');
  const sealed = seal(key, 42, header, plaintext);

  it('round-trips and keeps the header in clear', () => {
    expect(sealed).toHaveLength(header.length + plaintext.length + SEAL_OVERHEAD);
    expect(sealed.subarray(0, header.length)).toEqual(header);
    expect(open(key, 42, sealed, header.length)).toEqual(plaintext);
  });

  it("carries the first 80 bits of standard ChaCha20-Poly1305's tag, and nothing that isn't exactly that", () => {
    const nonce = Buffer.alloc(12);
    nonce.writeUInt32BE(42, 8);
    const full = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
    full.setAAD(header, { plaintextLength: plaintext.length });
    const ciphertext = Buffer.concat([full.update(plaintext), full.final()]);
    const tag = full.getAuthTag();
    expect(SEAL_OVERHEAD).toBe(10);
    expect(sealed).toEqual(Uint8Array.from([...header, ...ciphertext, ...tag.subarray(0, 10)]));
    // The full tag, or one byte short, is a different split of the packet: rejected.
    const withFullTag = Uint8Array.from([...header, ...ciphertext, ...tag]);
    expect(open(key, 42, withFullTag, header.length)).toBeNull();
    expect(open(key, 42, sealed.subarray(0, sealed.length - 1), header.length)).toBeNull();
  });

  it('round-trips an empty payload and an empty header', () => {
    const s = seal(key, 0, new Uint8Array(0), new Uint8Array(0));
    expect(s).toHaveLength(SEAL_OVERHEAD);
    expect(open(key, 0, s, 0)).toEqual(new Uint8Array(0));
  });

  it('rejects a flipped bit anywhere: header, ciphertext or tag', () => {
    for (let i = 0; i < sealed.length; i++) {
      expect(open(key, 42, flipBit(sealed, i), header.length), `byte ${i}`).toBeNull();
    }
  });

  it('rejects the wrong seq, the wrong key and the wrong header split', () => {
    expect(open(key, 43, sealed, header.length)).toBeNull();
    expect(open(new Uint8Array(32).fill(8), 42, sealed, header.length)).toBeNull();
    expect(open(key, 42, sealed, header.length - 1)).toBeNull();
  });

  it('rejects every truncation', () => {
    for (let n = 0; n < sealed.length; n++) {
      expect(open(key, 42, sealed.subarray(0, n), header.length), `length ${n}`).toBeNull();
    }
  });

  it('never throws on bad arguments', () => {
    expect(open(new Uint8Array(5), 42, sealed, header.length)).toBeNull();
    expect(open(key, -1, sealed, header.length)).toBeNull();
    expect(open(key, 2 ** 53, sealed, header.length)).toBeNull();
    expect(open(key, 42, sealed, -1)).toBeNull();
    expect(open(key, 42, sealed, 1.5)).toBeNull();
  });

  it('uses both 32-bit halves of the sequence in the nonce', () => {
    const seqs = [2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 2, Number.MAX_SAFE_INTEGER];
    for (const seq of seqs) {
      const s = seal(key, seq, header, plaintext);
      expect(open(key, seq, s, header.length), `seq ${seq}`).toEqual(plaintext);
    }
    // Sequences differing only in the high half must not share a nonce.
    const low = seal(key, 1, header, plaintext);
    const high = seal(key, 2 ** 32 + 1, header, plaintext);
    expect(low).not.toEqual(high);
    expect(open(key, 1, high, header.length)).toBeNull();
  });

  it('asserts a valid seq when sealing', () => {
    expect(() => seal(key, -1, header, plaintext)).toThrow(RangeError);
    expect(() => seal(key, 2 ** 53, header, plaintext)).toThrow(RangeError);
  });
});

describe('CookieMinter', () => {
  const secret = new Uint8Array(32).fill(3);
  const minter = new CookieMinter(secret);
  const source = '192.0.2.7:40000';
  const bound = Uint8Array.from({ length: 43 }, (_, i) => i);
  const now = 1_700_000_000_123;
  const cookie = minter.mint(now, source, bound);

  it('verifies within its lifetime', () => {
    expect(cookie).toHaveLength(COOKIE_SIZE);
    expect(minter.verify(now, source, bound, cookie)).toBe(true);
    expect(minter.verify(now + 9_000, source, bound, cookie)).toBe(true);
    expect(new CookieMinter(secret).verify(now + 1, source, bound, cookie)).toBe(true);
  });

  it('fails after the lifetime and when stamped too far in the future', () => {
    expect(minter.verify(now + COOKIE_LIFETIME_MS + 1, source, bound, cookie)).toBe(false);
    expect(minter.verify(now - 3_000, source, bound, cookie)).toBe(false);
  });

  it('fails for another source, binding or secret', () => {
    expect(minter.verify(now, '192.0.2.7:40001', bound, cookie)).toBe(false);
    expect(minter.verify(now, source, flipBit(bound, 42), cookie)).toBe(false);
    expect(new CookieMinter().verify(now, source, bound, cookie)).toBe(false);
  });

  it('fails for any flipped bit and for a wrong length', () => {
    for (let i = 0; i < cookie.length; i++) {
      expect(minter.verify(now, source, bound, flipBit(cookie, i)), `byte ${i}`).toBe(false);
    }
    expect(minter.verify(now, source, bound, cookie.subarray(0, COOKIE_SIZE - 1))).toBe(false);
    expect(minter.verify(now, source, bound, new Uint8Array(COOKIE_SIZE + 1))).toBe(false);
  });

  it('keeps verifying the previous secret after one rotation, not after two', () => {
    const m = new CookieMinter(secret);
    const c = m.mint(now, source, bound);
    m.rotate();
    expect(m.verify(now + 1, source, bound, c)).toBe(true);
    expect(m.verify(now + 1, source, bound, m.mint(now + 1, source, bound))).toBe(true);
    m.rotate();
    expect(m.verify(now + 2, source, bound, c)).toBe(false);
  });
});
