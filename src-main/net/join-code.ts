// Join codes: generation, canonical form and a strength estimate; knows nothing of keys or packets.
import { randomBytes } from 'node:crypto';

/** Crockford base32: no I, L, O or U, so codes read aloud or copied by hand survive. */
const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUP_LENGTH = 5;
const GENERATED_LENGTH = 2 * GROUP_LENGTH;
const BITS_PER_SYMBOL = 5;
/** Entropy of a generated code: 10 symbols × 5 bits. */
export const GENERATED_CODE_BITS = GENERATED_LENGTH * BITS_PER_SYMBOL;

const CROCKFORD_RUN = /^[0-9A-HJKMNP-TV-Z]+$/;
const SEPARATORS = /[\s-]+/g;

export function generateJoinCode(): string {
  // 256 is a multiple of 32, so masking each byte to 5 bits keeps every symbol uniform.
  const bytes = randomBytes(GENERATED_LENGTH);
  let code = '';
  for (const byte of bytes) code += CROCKFORD_ALPHABET.charAt(byte & 31);
  return `${code.slice(0, GROUP_LENGTH)}-${code.slice(GROUP_LENGTH)}`;
}

/**
 * The form both sides feed to key derivation, so it must be deterministic and identical on host
 * and client. A code that reads as Crockford base32 is forgiven spacing, case and the O/0, I/L/1
 * confusions; a user-chosen code (`--code`) is kept as typed apart from trimming and case.
 */
export function normalizeJoinCode(input: string): string {
  const typed = input.normalize('NFC').trim().toUpperCase();
  const mapped = typed.replace(SEPARATORS, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return CROCKFORD_RUN.test(mapped) ? mapped : typed;
}

/** Rough entropy estimate in bits so the CLI can warn about weak user-chosen codes. */
export function joinCodeStrengthBits(code: string): number {
  const normalized = normalizeJoinCode(code);
  if (normalized.length === GENERATED_LENGTH && CROCKFORD_RUN.test(normalized)) {
    return GENERATED_CODE_BITS;
  }
  // Code points, not graphemes: a rough count is all a strength hint needs.
  const symbols = Array.from(normalized);
  // Guess the alphabet the user drew from by the character classes present.
  let alphabet = 0;
  if (symbols.some((c) => c >= '0' && c <= '9')) alphabet += 10;
  if (symbols.some((c) => c >= 'A' && c <= 'Z')) alphabet += 26;
  if (symbols.some((c) => c < '\x7f' && !/[0-9A-Z]/.test(c))) alphabet += 33;
  if (symbols.some((c) => c >= '\x7f')) alphabet += 100;
  return alphabet === 0 ? 0 : Math.log2(alphabet) * symbols.length;
}
