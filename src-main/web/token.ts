// The web host's per-launch secret: generation and a constant-time check. Knows nothing of HTTP or the core.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url (43 characters): safe in a URL query or fragment. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True when `given` equals `expected`; the time taken doesn't depend on where they differ or on length. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  // Hashing first gives equal-length inputs, so timingSafeEqual never throws and length isn't leaked.
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}
