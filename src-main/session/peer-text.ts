// Co-editing texts on a joined peer (a Jupiter client toward the host, and a Jupiter server toward this side's own
// editor; shared/text-ot.ts): per text the editor opened, the text as this side has it (the host's, with this
// side's splices not yet acknowledged on top) and two OT links. The editor's splices apply here at once and go up;
// the host's are transformed past ours and go on to the editor. Until the host's whole text arrives (the sync),
// what the editor types waits, and is then transformed past the difference. A text stays open after its editor
// closes until the host has acknowledged everything and the board's ghost shows the same text, so the board never
// steps back. Knows nothing of the wire (callbacks send) or of the UI.
import type { ObjectId, PeerId } from '../../shared/board';
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
  transform,
} from '../../shared/text-ot';

/** The host's participant id: the author of a sync's difference. */
const HOST_ID: PeerId = 0;

export interface PeerTextIo {
  /** Our participant id (the author of our splices). */
  me(): PeerId;
  /** The text the board's ghost of the object shows now, if any. */
  ghostText(id: ObjectId): string | undefined;
  /** This side's text of an object changed: show it on the board. */
  show(id: ObjectId, text: string): void;
  open(id: ObjectId): void;
  close(id: ObjectId): void;
  /** Our splice to the host (null: an ack alone). */
  send(id: ObjectId, seen: number, splice: OtSplice | null): void;
  /** A splice to this side's editor (null: an ack alone). */
  toEditor(id: ObjectId, seen: number, by: PeerId, splice: OtSplice | null): void;
}

interface Doc {
  text: string;
  /** Waiting for the host's sync: `base` is what our text was when we opened, `early` what was typed since. */
  syncing: { base: string; early: TextOp[] } | undefined;
  up: OtLink;
  upTold: number;
  editor: OtLink | undefined;
  editorTold: number;
}

export class PeerText {
  private readonly docs = new Map<ObjectId, Doc>();
  /** Links that fell out of step with the host (and were opened again). */
  resyncs = 0;

  constructor(private readonly io: PeerTextIo) {}

  /** The text to show for an object: ours while we have it open, else the ghost's. */
  textOf(id: ObjectId, ghost: string): string {
    return this.docs.get(id)?.text ?? ghost;
  }

  isOpen(id: ObjectId): boolean {
    return this.docs.has(id);
  }

  /** This side's editor opened a text, showing `base`: it is sent the difference to ours. */
  openEditor(id: ObjectId, base: string): void {
    let doc = this.docs.get(id);
    if (doc === undefined) {
      const text = this.io.ghostText(id) ?? base;
      doc = {
        text,
        syncing: { base: text, early: [] },
        up: new OtLink(true),
        upTold: 0,
        editor: undefined,
        editorTold: 0,
      };
      this.docs.set(id, doc);
      this.io.open(id);
    }
    doc.editor = new OtLink(false, true);
    doc.editorTold = 0;
    this.toEditor(doc, id, diffOp(base, doc.text, HOST_ID));
  }

  /** This side's editor's splice, made after it had seen `seen` of ours; false when it does not fit. */
  editorEdit(id: ObjectId, seen: number, s: OtSplice): boolean {
    const doc = this.docs.get(id);
    // A sync that never comes (the host refused the open: a viewer) holds no more than a link would.
    if (doc?.syncing !== undefined && doc.syncing.early.length >= MAX_IN_FLIGHT) return false;
    const op = doc?.editor?.receive({ seen, op: spliceOp(s.at, s.remove, s.insert, this.io.me()) });
    const next = op === undefined || doc === undefined ? undefined : applyOp(doc.text, op);
    if (doc === undefined || op === undefined || next === undefined) return false;
    if (isNoop(op)) return true;
    doc.text = next;
    if (doc.syncing !== undefined) doc.syncing.early.push(op);
    else this.sendUp(doc, id, op);
    this.io.show(id, next);
    return true;
  }

  editorAck(id: ObjectId, seen: number): void {
    this.docs.get(id)?.editor?.ack(seen);
  }

  /** The editor closed: the text closes once the host has everything and the ghost caught up (tick). */
  closeEditor(id: ObjectId): void {
    const doc = this.docs.get(id);
    if (doc !== undefined) doc.editor = undefined;
  }

  /** The host's whole text: our link starts here, and what was typed meanwhile goes up past the difference. */
  onSync(id: ObjectId, text: string): void {
    const doc = this.docs.get(id);
    if (doc?.syncing === undefined) return;
    let theirs = diffOp(doc.syncing.base, text, HOST_ID);
    const early = doc.syncing.early;
    doc.syncing = undefined;
    doc.up = new OtLink(true);
    doc.upTold = 0;
    for (const mine of early) {
      // What was typed goes before what the sync brought at its place, as a key at the caret goes before what
      // arrives there (OtLink's byRole). The difference is everyone else's typing in one lump: after it, our keys
      // would sit at the end of a run someone may still be typing, and their next key would come after ours.
      const [t, m] = transform(theirs, mine, false);
      theirs = t;
      this.sendUp(doc, id, m);
    }
    const next = applyOp(doc.text, theirs);
    if (next === undefined) {
      this.resync(doc, id);
      return;
    }
    doc.text = next;
    this.toEditor(doc, id, theirs);
    this.io.show(id, next);
  }

  /** A splice from the host (someone else's, or ours taken back), after it had seen `seen` of ours. */
  onSplice(id: ObjectId, seen: number, by: PeerId, s: OtSplice): void {
    const doc = this.docs.get(id);
    // Before the sync, the splices of a link we left: the sync brings their effect.
    if (doc === undefined || doc.syncing !== undefined) return;
    const op = doc.up.receive({ seen, op: spliceOp(s.at, s.remove, s.insert, by) });
    const next = op === undefined ? undefined : applyOp(doc.text, op);
    if (op === undefined || next === undefined) {
      this.resync(doc, id);
      return;
    }
    doc.text = next;
    this.toEditor(doc, id, op);
    this.io.show(id, next);
  }

  onAck(id: ObjectId, seen: number): void {
    const doc = this.docs.get(id);
    if (doc === undefined || doc.syncing !== undefined) return;
    if (!doc.up.ack(seen)) this.resync(doc, id);
  }

  /** The host dropped our link (out of step, or too much unacknowledged): open it again. */
  onDropped(id: ObjectId): void {
    const doc = this.docs.get(id);
    if (doc !== undefined && doc.syncing === undefined) this.resync(doc, id);
  }

  /** The object is gone. */
  deleted(id: ObjectId): void {
    this.docs.delete(id);
  }

  /** Acks both ways, and closes texts no editor has open once they are settled. */
  tick(): void {
    for (const [id, doc] of this.docs) {
      if (doc.syncing === undefined && doc.upTold !== doc.up.received) {
        doc.upTold = doc.up.received;
        this.io.send(id, doc.upTold % SEEN_MODULUS, null);
      }
      if (doc.editor !== undefined && doc.editorTold !== doc.editor.received) {
        doc.editorTold = doc.editor.received;
        this.io.toEditor(id, doc.editorTold % SEEN_MODULUS, HOST_ID, null);
      }
      const settled =
        doc.editor === undefined &&
        doc.syncing === undefined &&
        doc.up.inFlight === 0 &&
        this.io.ghostText(id) === doc.text;
      if (settled) {
        this.docs.delete(id);
        this.io.close(id);
      }
    }
  }

  /**
   * Out of step with the host (a link it dropped, or a splice that does not fit): close and open again from our
   * text as it is; what the host had not applied of ours is lost, the sync brings its truth.
   */
  private resync(doc: Doc, id: ObjectId): void {
    this.resyncs++;
    this.io.close(id);
    this.io.open(id);
    doc.syncing = { base: doc.text, early: [] };
    doc.up = new OtLink(true);
    doc.upTold = 0;
  }

  private sendUp(doc: Doc, id: ObjectId, op: TextOp): void {
    for (const s of opSplices(op)) {
      const m = doc.up.send(spliceOp(s.at, s.remove, s.insert, op.by));
      doc.upTold = m.seen;
      this.io.send(id, m.seen % SEEN_MODULUS, s);
    }
    if (doc.up.inFlight > MAX_IN_FLIGHT) this.resync(doc, id);
  }

  private toEditor(doc: Doc, id: ObjectId, op: TextOp): void {
    const editor = doc.editor;
    if (editor === undefined) return;
    for (const s of opSplices(op)) {
      const m = editor.send(spliceOp(s.at, s.remove, s.insert, op.by));
      doc.editorTold = m.seen;
      this.io.toEditor(id, m.seen % SEEN_MODULUS, op.by, s);
    }
  }
}
