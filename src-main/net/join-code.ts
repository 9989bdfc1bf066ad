// Join codes: generation, canonical form and a strength estimate; knows nothing of keys or packets.
import { randomBytes, randomInt } from 'node:crypto';

/**
 * The words of speakable codes: 256 short, common, concrete English words, no two alike in spelling, chosen to be
 * easy to say and to spell (our own list). A code is a number from 1 to 256 and two words: 24 bits.
 */
// prettier-ignore
export const CODE_WORDS: readonly string[] = [
  'acorn', 'adobe', 'agent', 'alarm', 'album', 'alpine', 'amber', 'anchor', 'angle', 'apple', 'apron',
  'arrow', 'aspen', 'atlas', 'attic', 'autumn', 'badge', 'bagel', 'baker', 'bamboo', 'banjo', 'barley',
  'basil', 'beacon', 'beaver', 'bench', 'berry', 'bison', 'blanket', 'blossom', 'bongo', 'border', 'bottle',
  'bramble', 'breeze', 'brick', 'bridge', 'bronze', 'brook', 'bucket', 'bugle', 'butter', 'button', 'cabin',
  'cactus', 'camel', 'canal', 'candle', 'canoe', 'canyon', 'carbon', 'cargo', 'carpet', 'carrot', 'castle',
  'cedar', 'cello', 'chalk', 'cherry', 'chess', 'cider', 'cinema', 'circus', 'citrus', 'clover', 'cobalt',
  'cocoa', 'comet', 'copper', 'coral', 'cotton', 'cradle', 'crane', 'crayon', 'cricket', 'crystal', 'dahlia',
  'daisy', 'delta', 'denim', 'desert', 'diamond', 'dolphin', 'domino', 'dragon', 'drum', 'eagle', 'easel',
  'echo', 'elbow', 'ember', 'engine', 'falcon', 'feather', 'fennel', 'ferry', 'fiddle', 'fig', 'flannel',
  'flute', 'forest', 'fossil', 'fox', 'galaxy', 'garden', 'garlic', 'gecko', 'ginger', 'glacier', 'globe',
  'goblet', 'granite', 'grape', 'gravel', 'guitar', 'hammer', 'harbor', 'harvest', 'hazel', 'helmet',
  'heron', 'hickory', 'honey', 'hoop', 'island', 'ivory', 'jacket', 'jasmine', 'jelly', 'jigsaw', 'juniper',
  'kayak', 'kettle', 'kiwi', 'koala', 'ladder', 'lagoon', 'lantern', 'lava', 'lemon', 'lilac', 'linen',
  'lobster', 'locket', 'lotus', 'magnet', 'mango', 'maple', 'marble', 'meadow', 'melon', 'meteor', 'mint',
  'mirror', 'mitten', 'muffin', 'mural', 'napkin', 'nectar', 'needle', 'nickel', 'noodle', 'nutmeg', 'oasis',
  'ocean', 'olive', 'onion', 'orbit', 'orchid', 'otter', 'oyster', 'paddle', 'panda', 'paper', 'parade',
  'parrot', 'pebble', 'pepper', 'piano', 'pickle', 'pillow', 'pine', 'pixel', 'planet', 'plum', 'pocket',
  'pony', 'poppy', 'potato', 'prism', 'pumpkin', 'puzzle', 'quartz', 'quill', 'quilt', 'rabbit', 'radar',
  'radish', 'rainbow', 'raven', 'record', 'ribbon', 'river', 'robin', 'rocket', 'saddle', 'salmon', 'sandal',
  'satin', 'scarf', 'shadow', 'shell', 'silver', 'sketch', 'sled', 'sofa', 'sparrow', 'spider', 'spoon',
  'spruce', 'squash', 'stamp', 'statue', 'sugar', 'summit', 'sunset', 'swan', 'tablet', 'tango', 'teapot',
  'thunder', 'tiger', 'timber', 'toast', 'tomato', 'topaz', 'torch', 'trumpet', 'tulip', 'tunnel', 'turnip',
  'turtle', 'valley', 'velvet', 'violin', 'walnut', 'walrus', 'wagon', 'whistle', 'willow', 'window',
  'winter', 'wizard', 'yogurt', 'zebra', 'zipper',
];
const WORD_INDEX: ReadonlyMap<string, number> = new Map(CODE_WORDS.map((w, i) => [w, i]));
/** Entropy of a speakable code: 8 bits of number and 8 per word. CPace and the host's lock make it enough. */
export const SPOKEN_CODE_BITS = 24;

/** Crockford base32: no I, L, O or U, so codes read aloud or copied by hand survive. */
const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUP_LENGTH = 5;
const GENERATED_LENGTH = 2 * GROUP_LENGTH;
const BITS_PER_SYMBOL = 5;
/** Entropy of a long generated code: 10 symbols × 5 bits. */
export const GENERATED_CODE_BITS = GENERATED_LENGTH * BITS_PER_SYMBOL;

const CROCKFORD_RUN = /^[0-9A-HJKMNP-TV-Z]+$/;
const SEPARATORS = /[\s-]+/g;
/** "7-orbit-lantern", "7 Orbit Lantern", "07_orbit.lantern": a number and two words, any separators. */
const SPOKEN = /^(\d{1,3})[\s\-_.]+([a-z]+)[\s\-_.]+([a-z]+)$/;

/** The default code: short enough to read out on a call, like `7-orbit-lantern`. */
export function generateJoinCode(): string {
  const word = (): string => CODE_WORDS[randomInt(CODE_WORDS.length)] ?? 'acorn';
  return `${randomInt(1, 257)}-${word()}-${word()}`;
}

/** A long code (50 bits, `K7QX2-M9TRD`) for sessions that want more than the host's lock. */
export function generateLongJoinCode(): string {
  // 256 is a multiple of 32, so masking each byte to 5 bits keeps every symbol uniform.
  const bytes = randomBytes(GENERATED_LENGTH);
  let code = '';
  for (const byte of bytes) code += CROCKFORD_ALPHABET.charAt(byte & 31);
  return `${code.slice(0, GROUP_LENGTH)}-${code.slice(GROUP_LENGTH)}`;
}

/**
 * The form both sides feed to key derivation, so it must be deterministic and identical on host and client. A
 * spoken code is forgiven case, separators and leading zeros; a code that reads as Crockford base32 is forgiven
 * spacing, case and the O/0, I/L/1 confusions; a user-chosen code (`--code`) is kept as typed apart from
 * trimming and case.
 */
export function normalizeJoinCode(input: string): string {
  const typed = input.normalize('NFC').trim();
  const spoken = SPOKEN.exec(typed.toLowerCase());
  if (spoken?.[1] !== undefined && spoken[2] !== undefined && spoken[3] !== undefined) {
    return `${Number(spoken[1])}-${spoken[2]}-${spoken[3]}`;
  }
  const upper = typed.toUpperCase();
  const mapped = upper.replace(SEPARATORS, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return CROCKFORD_RUN.test(mapped) ? mapped : upper;
}

/** Whether a code is one this module would generate as a spoken code (number 1–256, both words listed). */
export function isSpokenJoinCode(code: string): boolean {
  const m = SPOKEN.exec(normalizeJoinCode(code));
  if (m?.[1] === undefined || m[2] === undefined || m[3] === undefined) return false;
  const n = Number(m[1]);
  return n >= 1 && n <= 256 && WORD_INDEX.has(m[2]) && WORD_INDEX.has(m[3]);
}

/** Rough entropy estimate in bits so the CLI can warn about weak user-chosen codes. */
export function joinCodeStrengthBits(code: string): number {
  if (isSpokenJoinCode(code)) return SPOKEN_CODE_BITS;
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
