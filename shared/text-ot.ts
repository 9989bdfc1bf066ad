// Operational transformation of one text (Jupiter, after Nichols et al. 1995, with ot.js's operations): an
// operation walks the text (retain n, delete n, insert s), transform() makes two concurrent operations converge
// (TP1), and OtLink is one end of a two-party Jupiter link, on which any number of operations may be in flight
// either way. Offsets are UTF-16 code units, as JavaScript strings and a textarea's selection count. Shared by the
// host, a peer and the renderer's editor; pure, knows nothing of the wire, the board or the DOM.

/** One step of an operation: n > 0 keeps n units, n < 0 deletes -n units, a (non-empty) string is inserted. */
export type OtPart = number | string;

/** An operation by one participant (`by`, its peer id: the tie-break when two insert at one place). */
export interface TextOp {
  readonly by: number;
  /** Canonical: no zero or empty parts, no two of a kind in a row, an insert before a delete, no trailing retain. */
  readonly parts: readonly OtPart[];
}

/** Ops a link end keeps in flight at most before it gives up (the other end then resynchronizes). */
export const MAX_IN_FLIGHT = 500;
/** The in-flight window's counts travel modulo this (10 bits on the wire). */
export const SEEN_MODULUS = 1024;

/** Builds canonical parts. */
class Builder {
  readonly parts: OtPart[] = [];

  retain(n: number): void {
    if (n <= 0) return;
    const last = this.parts[this.parts.length - 1];
    if (typeof last === 'number' && last > 0) this.parts[this.parts.length - 1] = last + n;
    else this.parts.push(n);
  }

  insert(s: string): void {
    if (s === '') return;
    const p = this.parts;
    const last = p[p.length - 1];
    if (typeof last === 'string') p[p.length - 1] = last + s;
    else if (typeof last === 'number' && last < 0) {
      // An insert next to a delete goes first, so equal edits have one form.
      const before = p[p.length - 2];
      if (typeof before === 'string') p[p.length - 2] = before + s;
      else p.splice(p.length - 1, 0, s);
    } else p.push(s);
  }

  delete(n: number): void {
    if (n <= 0) return;
    const last = this.parts[this.parts.length - 1];
    if (typeof last === 'number' && last < 0) this.parts[this.parts.length - 1] = last - n;
    else this.parts.push(-n);
  }

  op(by: number): TextOp {
    const p = this.parts;
    const last = p[p.length - 1];
    if (typeof last === 'number' && last > 0) p.pop();
    return { by, parts: p };
  }
}

/** The operation of one splice: `remove` units at `at` replaced by `insert`. */
export function spliceOp(at: number, remove: number, insert: string, by: number): TextOp {
  const b = new Builder();
  b.retain(at);
  b.insert(insert);
  b.delete(remove);
  return b.op(by);
}

/** One splice: `remove` units at `at` replaced by `insert` (what the wire and the editor carry). */
export interface OtSplice {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

/** The operation as splices applied one after another, left to right (each at its offset in the text so far). */
export function opSplices(op: TextOp): OtSplice[] {
  const out: OtSplice[] = [];
  let pos = 0;
  let cur: { at: number; remove: number; insert: string } | undefined;
  for (const p of op.parts) {
    if (typeof p === 'number' && p > 0) {
      if (cur !== undefined) out.push(cur);
      cur = undefined;
      pos += p;
      continue;
    }
    cur ??= { at: pos, remove: 0, insert: '' };
    if (typeof p === 'string') {
      cur.insert += p;
      pos += p.length;
    } else cur.remove -= p;
  }
  if (cur !== undefined) out.push(cur);
  return out;
}

/** The smallest splice turning `before` into `after` (common prefix and suffix kept, surrogate pairs whole). */
export function diffSplice(before: string, after: string): OtSplice | null {
  if (before === after) return null;
  let start = 0;
  const min = Math.min(before.length, after.length);
  while (start < min && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  if (start > 0 && isHigh(before.charCodeAt(start - 1))) start--;
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
  if (endB < before.length && isLow(before.charCodeAt(endB))) {
    endB++;
    endA++;
  }
  return { at: start, remove: endB - start, insert: after.slice(start, endA) };
}

/** The smallest operation turning `before` into `after` (diffSplice as an operation). */
export function diffOp(before: string, after: string, by: number): TextOp {
  const s = diffSplice(before, after);
  return s === null ? { by, parts: [] } : spliceOp(s.at, s.remove, s.insert, by);
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Whether offset `i` of `s` falls between the halves of a surrogate pair. */
function splitsPair(s: string, i: number): boolean {
  return i > 0 && i < s.length && isHigh(s.charCodeAt(i - 1)) && isLow(s.charCodeAt(i));
}

/**
 * The text after the operation, or undefined when it does not fit the text (walks past its end, cuts a surrogate
 * pair in two, or is not canonical): untrusted operations are checked here.
 */
export function applyOp(text: string, op: TextOp): string | undefined {
  let out = '';
  let i = 0;
  for (const p of op.parts) {
    if (typeof p === 'string') {
      if (p === '') return undefined;
      out += p;
      continue;
    }
    if (!Number.isSafeInteger(p) || p === 0) return undefined;
    const n = Math.abs(p);
    if (i + n > text.length || splitsPair(text, i + n)) return undefined;
    if (p > 0) out += text.slice(i, i + n);
    i += n;
  }
  return out + text.slice(i);
}

/**
 * a' and b' such that a then b' equals b then a' (TP1). When both insert at one place, a's insert goes first if
 * `aFirst` (by default: the lower `by`). Parts past an operation's end keep the rest of the text.
 */
export function transform(a: TextOp, b: TextOp, aFirst = a.by < b.by): [TextOp, TextOp] {
  const a2 = new Builder();
  const b2 = new Builder();
  let i = 0;
  let j = 0;
  // What is left of the current part of each (a retain or delete partly used up is shortened in place).
  let restP: OtPart | undefined = a.parts[0];
  let restQ: OtPart | undefined = b.parts[0];
  while (restP !== undefined || restQ !== undefined) {
    const p: OtPart | undefined = restP;
    const q: OtPart | undefined = restQ;
    if (typeof p === 'string' && (typeof q !== 'string' || aFirst)) {
      a2.insert(p);
      b2.retain(p.length);
      restP = a.parts[++i];
      continue;
    }
    if (typeof q === 'string') {
      a2.retain(q.length);
      b2.insert(q);
      restQ = b.parts[++j];
      continue;
    }
    // Past the end of one operation, it keeps the rest.
    if (p === undefined) {
      if (q === undefined) break;
      if (q < 0) b2.delete(-q);
      else b2.retain(q);
      restQ = b.parts[++j];
      continue;
    }
    if (typeof p === 'string') break; // unreachable: a string p was handled above
    if (q === undefined) {
      if (p < 0) a2.delete(-p);
      else a2.retain(p);
      restP = a.parts[++i];
      continue;
    }
    const n = Math.min(Math.abs(p), Math.abs(q));
    if (p > 0 && q > 0) {
      a2.retain(n);
      b2.retain(n);
    } else if (p < 0 && q > 0) a2.delete(n);
    else if (p > 0 && q < 0) b2.delete(n);
    // Both delete the same units: neither does it again.
    const leftP = shorten(p, n);
    const leftQ = shorten(q, n);
    restP = leftP === 0 ? a.parts[++i] : leftP;
    restQ = leftQ === 0 ? b.parts[++j] : leftQ;
  }
  return [a2.op(a.by), b2.op(b.by)];
}

function shorten(p: number, n: number): number {
  return p > 0 ? p - n : p + n;
}

/**
 * Where offset `index` is after the operation. An insert at the offset itself pushes it on, unless `sticky` (a
 * caret: someone else typing where ours is goes after it, so two people typing at one place each keep their words
 * whole).
 */
export function transformIndex(index: number, op: TextOp, sticky = false): number {
  let left = index;
  let out = index;
  for (const p of op.parts) {
    if (typeof p === 'string') {
      if (sticky && left === 0) break;
      out += p.length;
    } else if (p > 0) left -= p;
    else {
      out -= Math.min(left, -p);
      left += p;
    }
    if (left < 0) break;
  }
  return out;
}

/** Whether the operation changes nothing. */
export function isNoop(op: TextOp): boolean {
  return op.parts.length === 0;
}

/** A message on a link: the operation, made after its sender had seen `seen` of the receiver's operations. */
export interface OtMessage {
  readonly seen: number;
  readonly op: TextOp;
}

/**
 * One end of a two-party Jupiter link. Its own operations are applied locally at once and kept until the other end
 * says it has seen them; an operation from the other end is transformed past those it had not seen yet.
 */
export class OtLink {
  /**
   * `otherIsUpstream`: the other end is nearer the host (a peer's host, an editor's core). When both ends' operations
   * insert at one place, the lower author's goes first; with one author, or always when `byRole` (an editor and its
   * own core), the end nearer the user does: what the user typed at its caret stays before what arrives there.
   */
  constructor(
    private readonly otherIsUpstream: boolean,
    private readonly byRole = false,
  ) {}

  /** Operations received from the other end. */
  received = 0;
  /** Our operations sent so far. */
  private sent = 0;
  /** Ours the other end has not seen, each in our current context (after everything received). */
  private pending: TextOp[] = [];

  get inFlight(): number {
    return this.pending.length;
  }

  /** Our operation (already applied here): the message that carries it. */
  send(op: TextOp): OtMessage {
    this.pending.push(op);
    this.sent++;
    return { seen: this.received, op };
  }

  /** The other end has seen `seen` of ours (a full count, or modulo SEEN_MODULUS); false when it cannot have. */
  ack(seen: number): boolean {
    const from = this.sent - this.pending.length;
    const full = from + ((((seen - from) % SEEN_MODULUS) + SEEN_MODULUS) % SEEN_MODULUS);
    if (full > this.sent) return false;
    this.pending.splice(0, full - from);
    return true;
  }

  /** An operation from the other end, in our context; undefined when its `seen` is impossible. */
  receive(m: OtMessage): TextOp | undefined {
    if (!this.ack(m.seen)) return undefined;
    let op = m.op;
    for (let k = 0; k < this.pending.length; k++) {
      const mine = this.pending[k] as TextOp;
      const first = this.byRole || op.by === mine.by ? !this.otherIsUpstream : op.by < mine.by;
      const [theirs, ours] = transform(op, mine, first);
      this.pending[k] = ours;
      op = theirs;
    }
    this.received++;
    return op;
  }
}
