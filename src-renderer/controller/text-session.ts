// Typing into one text or note, co-edited with others (textot): the editor is a Jupiter client of the core
// (shared/text-ot.ts). Each change goes as one splice with how many of the core's it had seen; the core's splices
// (others' typing) are transformed past ours not yet acknowledged and applied to the box, the caret moving with
// them. Typing before the object has an id (just created) opens it and goes as one splice once it has. Knows nothing
// of the DOM, React or the store.
import type { ApiEvent } from '../../shared/api';
import type { ObjectId } from '../../shared/board';
import { MAX_TEXT_BYTES } from '../../shared/board';
import type { TextOp } from '../../shared/text-ot';
import { applyOp, diffOp, isNoop, opSplices, OtLink, spliceOp } from '../../shared/text-ot';
import { utf8Length } from '../board/text-splice';
import type { Invoke } from './drag-session';

export type TextSpliceEvent = Extract<ApiEvent, { type: 'text-splice' }>;

export class TextSession {
  private value: string;
  /** What the core was told the box showed when it opened (what our first splice is made on). */
  private base: string;
  private link = new OtLink(true, true);
  private opened = false;
  private closed = false;
  /** Told the transformed operation of each splice from the core that changed the text (the box follows it). */
  onRemote: ((op: TextOp) => void) | undefined;

  constructor(
    private id: ObjectId | null,
    initial: string,
    private readonly invoke: Invoke,
  ) {
    this.value = initial;
    this.base = initial;
    if (id !== null) this.open(id);
  }

  get text(): string {
    return this.value;
  }

  get objectId(): ObjectId | null {
    return this.id;
  }

  /** The user changed the text; false (and nothing sent) when it would be longer than the board allows. */
  change(next: string): boolean {
    if (utf8Length(next) > MAX_TEXT_BYTES) return false;
    if (next === this.value) return true;
    const op = diffOp(this.value, next, 0);
    this.value = next;
    if (this.opened && !this.closed) this.send(op);
    return true;
  }

  /** The object now has its id: open it and send what was typed meanwhile (and close it, if the box did). */
  setId(id: ObjectId): void {
    this.id = id;
    this.open(id);
    if (this.closed) void this.invoke({ cmd: 'text-close', id });
  }

  /** The box closed. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.opened && this.id !== null) void this.invoke({ cmd: 'text-close', id: this.id });
  }

  /** A splice from the core (or its acknowledgement); false when it does not fit (the session reopens). */
  remote(e: TextSpliceEvent): boolean {
    if (!this.opened || this.closed || e.id !== this.id) return true;
    if (e.splice === null) {
      if (this.link.ack(e.seen)) return true;
      this.reopen(e.id);
      return false;
    }
    const s = e.splice;
    const op = this.link.receive({ seen: e.seen, op: spliceOp(s.at, s.remove, s.insert, e.by) });
    const next = op === undefined ? undefined : applyOp(this.value, op);
    if (op === undefined || next === undefined) {
      this.reopen(e.id);
      return false;
    }
    this.value = next;
    // Acknowledged at once: the core then forgets it (a splice of ours would carry the same).
    this.send({ by: 0, parts: [] });
    if (!isNoop(op)) this.onRemote?.(op);
    return true;
  }

  private open(id: ObjectId): void {
    this.opened = true;
    void this.invoke({ cmd: 'text-open', id, base: this.base });
    const typed = diffOp(this.base, this.value, 0);
    if (!isNoop(typed)) this.send(typed);
  }

  /** Out of step with the core (never expected): open again from what the box shows. */
  private reopen(id: ObjectId): void {
    void this.invoke({ cmd: 'text-close', id });
    this.link = new OtLink(true, true);
    this.base = this.value;
    this.open(id);
  }

  private send(op: TextOp): void {
    const id = this.id;
    if (id === null) return;
    const splices = opSplices(op);
    if (splices.length === 0) splices.push({ at: 0, remove: 0, insert: '' });
    for (const s of splices) {
      const m = this.link.send(spliceOp(s.at, s.remove, s.insert, 0));
      void this.invoke({ cmd: 'text-edit', id, seen: m.seen, ...s });
    }
  }
}
