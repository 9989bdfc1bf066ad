// Co-editing texts on the host (Jupiter's server, shared/text-ot.ts): per text someone edits, the text as the host
// orders it and one OT link per editor (each peer that opened it, and the host's own user's editor). An editor's
// splice is transformed past what it had not seen, committed through the host's ordinary edit checks, and sent on
// to every other editor; a refused one is taken back for its sender alone. A change from elsewhere (an undo's whole
// text, a restore) reaches the editors as a splice too. Knows nothing of the wire (the host's callbacks send) or
// of the UI.
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';
import { MAX_TEXT_BYTES } from '../../shared/board';
import type { OtSplice, TextOp } from '../../shared/text-ot';
import {
  applyOp,
  diffOp,
  isNoop,
  MAX_IN_FLIGHT,
  opSplices,
  OtLink,
  SEEN_MODULUS,
  spliceOp,
} from '../../shared/text-ot';
import { utf8Length } from '../net/stream/params';
import type { BoardChange, Refusal } from './board';

/** The host's own user's editor is keyed by the host's participant id (no connection ever has it). */
export const LOCAL_EDITOR: PeerId = 0;

/** What the host does for its co-editing: read and commit the board, and talk to editors. */
export interface HostTextIo {
  get(id: ObjectId): BoardObject | undefined;
  /** Commits a text as the editor's edit (the host's checks: role, lock, budget); a refusal leaves the board. */
  commit(editor: PeerId, id: ObjectId, text: string): Refusal | undefined;
  /** A splice to an editor (by whom, and how many of the editor's splices the host had seen); null: an ack alone. */
  send(editor: PeerId, id: ObjectId, seen: number, by: PeerId, splice: OtSplice | null): void;
  /** The whole text to a peer that opened it: its link starts here. */
  sync(editor: PeerId, id: ObjectId, text: string): void;
  /** The host dropped a peer's link: it opens again (its splices meanwhile are dropped, uncounted as refusals). */
  dropped(editor: PeerId, id: ObjectId): void;
}

interface Link {
  readonly ot: OtLink;
  /** The `seen` count last told to the editor. */
  told: number;
}

interface Doc {
  text: string;
  readonly links: Map<PeerId, Link>;
}

/** What the host's co-editing refused, by cause. */
export interface HostTextCounters {
  /** Splices of a text the sender had not opened (or whose link was dropped). */
  notOpen: number;
  /** Splices whose `seen` or offsets did not fit: the sender's link is dropped. */
  outOfStep: number;
  /** Splices the board refused (viewer, held by someone else, too long, over budget): taken back. */
  takenBack: number;
  /** Links dropped because their editor left too many splices unacknowledged. */
  overflowed: number;
}

export class HostText {
  private readonly docs = new Map<ObjectId, Doc>();
  readonly counters: HostTextCounters = { notOpen: 0, outOfStep: 0, takenBack: 0, overflowed: 0 };

  constructor(private readonly io: HostTextIo) {}

  /** The text as co-editing has it (undefined when nobody edits it): always the board's (tests check). */
  textOf(id: ObjectId): string | undefined {
    return this.docs.get(id)?.text;
  }

  /** Editors of a text (for tests and stats). */
  editors(id: ObjectId): PeerId[] {
    return [...(this.docs.get(id)?.links.keys() ?? [])];
  }

  /**
   * An editor opens a text: a peer is sent the whole text; the host's own editor, which shows `base`, is sent the
   * difference. A link already open starts again.
   */
  open(editor: PeerId, id: ObjectId, base?: string): Refusal | undefined {
    const o = this.io.get(id);
    if (o === undefined) return { refused: `no object ${id}` };
    let doc = this.docs.get(id);
    if (doc === undefined) {
      doc = { text: o.text, links: new Map() };
      this.docs.set(id, doc);
    }
    const local = editor === LOCAL_EDITOR;
    const link: Link = { ot: new OtLink(!local, local), told: 0 };
    doc.links.set(editor, link);
    if (editor !== LOCAL_EDITOR) this.io.sync(editor, id, doc.text);
    else if (base !== undefined)
      this.forward(link, editor, id, diffOp(base, doc.text, LOCAL_EDITOR));
    return undefined;
  }

  close(editor: PeerId, id: ObjectId): void {
    const doc = this.docs.get(id);
    if (doc === undefined) return;
    doc.links.delete(editor);
    if (doc.links.size === 0) this.docs.delete(id);
  }

  /** A participant left: its links go. */
  gone(editor: PeerId): void {
    for (const id of [...this.docs.keys()]) this.close(editor, id);
  }

  /** An editor's splice, made after it had seen `seen` of the host's. */
  edit(editor: PeerId, id: ObjectId, seen: number, s: OtSplice): Refusal | undefined {
    const doc = this.docs.get(id);
    const link = doc?.links.get(editor);
    if (doc === undefined || link === undefined) {
      // A link dropped (the editor was told) or a text deleted: nothing to say.
      this.counters.notOpen++;
      return undefined;
    }
    const op = link.ot.receive({ seen, op: spliceOp(s.at, s.remove, s.insert, editor) });
    const next = op === undefined ? undefined : applyOp(doc.text, op);
    if (op === undefined || next === undefined) {
      this.counters.outOfStep++;
      this.drop(editor, id);
      return undefined;
    }
    if (isNoop(op)) return undefined;
    const before = doc.text;
    // The text is the host's before the commit, so the board's echo of it (boardChanged) finds nothing new.
    doc.text = next;
    const refused =
      utf8Length(next) > MAX_TEXT_BYTES
        ? { refused: 'that is as much text as one object can hold' }
        : this.io.commit(editor, id, next);
    if (refused !== undefined) {
      // Its sender has it already: take it back there; nobody else ever saw it.
      doc.text = before;
      this.counters.takenBack++;
      this.forward(link, editor, id, diffOp(next, before, LOCAL_EDITOR));
      return refused;
    }
    for (const [other, l] of doc.links) if (other !== editor) this.forward(l, other, id, op);
    return undefined;
  }

  /** An editor says it has seen `seen` of the host's splices; one that cannot have is dropped. */
  ack(editor: PeerId, id: ObjectId, seen: number): Refusal | undefined {
    const link = this.docs.get(id)?.links.get(editor);
    if (link === undefined || link.ot.ack(seen)) return undefined;
    this.counters.outOfStep++;
    this.drop(editor, id);
    return undefined;
  }

  /** The board changed: a text edited here that changed otherwise reaches its editors as a splice. */
  boardChanged(c: BoardChange): void {
    if (c.type === 'delete') {
      this.docs.delete(c.id);
      return;
    }
    const doc = this.docs.get(c.object.id);
    if (doc === undefined || doc.text === c.object.text) return;
    const op = diffOp(doc.text, c.object.text, LOCAL_EDITOR);
    doc.text = c.object.text;
    for (const [editor, l] of doc.links) this.forward(l, editor, c.object.id, op);
  }

  /** Acks what each editor sent since the host last told it (a splice to it carries one too). */
  tick(): void {
    for (const [id, doc] of this.docs)
      for (const [editor, l] of doc.links)
        if (l.told !== l.ot.received) {
          l.told = l.ot.received;
          this.io.send(editor, id, l.told % SEEN_MODULUS, LOCAL_EDITOR, null);
        }
  }

  private forward(link: Link, editor: PeerId, id: ObjectId, op: TextOp): void {
    for (const s of opSplices(op)) {
      const m = link.ot.send(spliceOp(s.at, s.remove, s.insert, op.by));
      link.told = m.seen;
      this.io.send(editor, id, m.seen % SEEN_MODULUS, op.by, s);
    }
    if (link.ot.inFlight > MAX_IN_FLIGHT) {
      // An editor that never acknowledges would hold the host's splices for ever: it is dropped (it opens again).
      this.counters.overflowed++;
      this.drop(editor, id);
    }
  }

  private drop(editor: PeerId, id: ObjectId): void {
    this.close(editor, id);
    if (editor !== LOCAL_EDITOR) this.io.dropped(editor, id);
  }
}
