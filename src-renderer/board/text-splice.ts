// The one splice that turns the old text into the new (what `{cmd:'text'}` sends per edit), and applying one.
// Offsets are UTF-16 code units, as JavaScript strings index. Pure; knows nothing of the DOM.

export interface Splice {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

/** The smallest splice (common prefix and suffix kept), never splitting a surrogate pair; null when equal. */
export { diffSplice } from '../../shared/text-ot';

export function applySplice(text: string, s: Splice): string {
  const at = Math.min(s.at, text.length);
  return text.slice(0, at) + s.insert + text.slice(at + s.remove);
}

/** UTF-8 length, the unit of MAX_TEXT_BYTES. */
export function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}
