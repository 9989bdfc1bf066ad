// The one splice that turns the old text into the new (what `{cmd:'text'}` sends per edit), and applying one.
// Offsets are UTF-16 code units, as JavaScript strings index. Pure; knows nothing of the DOM.

export interface Splice {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** The smallest splice (common prefix and suffix kept), never splitting a surrogate pair; null when equal. */
export function diffSplice(before: string, after: string): Splice | null {
  if (before === after) return null;
  let start = 0;
  const minLen = Math.min(before.length, after.length);
  while (start < minLen && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let endB = before.length;
  let endA = after.length;
  while (
    endB > start &&
    endA > start &&
    before.charCodeAt(endB - 1) === after.charCodeAt(endA - 1)
  ) {
    endB--;
    endA--;
  }
  if (endB < before.length && isLowSurrogate(before.charCodeAt(endB))) {
    endB++;
    endA++;
  }
  return { at: start, remove: endB - start, insert: after.slice(start, endA) };
}

export function applySplice(text: string, s: Splice): string {
  const at = Math.min(s.at, text.length);
  return text.slice(0, at) + s.insert + text.slice(at + s.remove);
}

/** UTF-8 length, the unit of MAX_TEXT_BYTES. */
export function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}
