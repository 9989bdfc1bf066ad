// Copy, cut, paste and duplicate of the selection, lock and unlock, bring to front and send to back: what the
// keyboard and the context menu run. A copy writes the clipboard payload (payload.ts) in three flavours: its own
// type, HTML carrying it, and the objects' texts as plain text; a paste takes the first of them that holds
// something, refuses a bad payload whole with a notice, and makes plain text a text object. Pasted objects keep
// their layout and stacking order, are created one by one under provisional ids (drawn at once) as one undo step,
// and end selected. Knows nothing of React or Konva; the DOM only as the clipboard's DataTransfer and API.
import type { BoardObject, NewObject, ObjectId } from '../../shared/board';
import { NEW_OBJECT_FIELDS, WORLD_EXTENT } from '../../shared/board';
import type { Size } from '../board/camera';
import { toWorld } from '../board/camera';
import { selectionBounds } from '../board/selection';
import { placedShape } from '../board/shapes';
import type { Pt } from '../board/simplify';
import type { Controller } from '../controller/controller';
import { lockedNotice } from '../controller/controller';
import { canEdit, shownObject } from '../store/selectors';
import {
  CLIP_MIME,
  clipHtml,
  clipText,
  decodeClip,
  encodeClip,
  fitText,
  payloadFromHtml,
} from './payload';

/** World units a duplicate lands right and down of its original. */
export const DUPLICATE_OFFSET = 24;
/** A pasted text box: its width, and world units per line of text. */
const TEXT_WIDTH = 320;
const TEXT_LINE = 28;

const clampWorld = (v: number): number =>
  Math.max(-WORLD_EXTENT, Math.min(WORLD_EXTENT, Math.round(v)));

/** What a clipboard holds, as read: the payload (if any) and the plain text. */
export interface ClipContent {
  readonly payload: string | undefined;
  readonly text: string;
}

/** The fields a copy keeps of an object (what a create gives). */
function newFields(o: BoardObject): NewObject {
  const out: Record<string, unknown> = {};
  for (const k of NEW_OBJECT_FIELDS) out[k] = o[k];
  return out as unknown as NewObject;
}

/** A DataTransfer's content: Ghostboard's own type first, then HTML carrying it, then plain text. */
export function readTransfer(dt: Pick<DataTransfer, 'getData'>): ClipContent {
  const own = dt.getData(CLIP_MIME);
  const payload = own !== '' ? own : payloadFromHtml(dt.getData('text/html'));
  return { payload, text: dt.getData('text/plain') };
}

export class ClipboardActions {
  private size: Size = { width: 0, height: 0 };
  /**
   * What this window copied last: what a menu's paste uses when the system clipboard cannot be read (no
   * permission), if the clipboard's text is still what that copy wrote or cannot be read either.
   */
  private last: ClipContent | null = null;
  /**
   * Step numbers of pastes and restacks (one undo step each); a fresh start per window, so a reload never reuses
   * one.
   */
  private nextStep = Math.floor(Math.random() * 2 ** 40);

  constructor(private readonly controller: Controller) {}

  /** The board area's size (for the view's centre). */
  setSize(size: Size): void {
    this.size = size;
  }

  /** The selected objects as this user sees them, bottom to top. */
  selected(): BoardObject[] {
    const s = this.controller.store.getState();
    return s.selection
      .flatMap((id) => {
        const o = s.board.get(id);
        return o ? [shownObject(s, o)] : [];
      })
      .sort((a, b) => a.z - b.z);
  }

  /** Writes the selection to a copy or cut event's clipboard; false when nothing is selected. */
  writeTo(dt: Pick<DataTransfer, 'setData'>): boolean {
    const objects = this.selected().map(newFields);
    if (objects.length === 0) return false;
    const payload = encodeClip(objects);
    const text = clipText(objects);
    dt.setData('text/plain', text);
    dt.setData('text/html', clipHtml(payload, text));
    dt.setData(CLIP_MIME, payload);
    this.last = { payload, text };
    return true;
  }

  /** Copy from a menu (no key event): the browser's copy command raises the copy event writeTo answers. */
  copy(): void {
    if (this.selected().length === 0) return;
    // Deprecated, but still the one way to raise the copy event (which alone may write Ghostboard's own type) from
    // a click, in Chromium and Electron alike; the async API writes only standard types, and asks permission.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    if (!document.execCommand('copy')) this.copyWithoutEvent();
  }

  /** Cut from a menu: copy, then delete (what is locked stays). */
  cut(): void {
    if (this.selected().length === 0) return;
    this.copy();
    this.deleteAfterCut();
  }

  /** After a cut's copy: the selection goes, one undo step (what is locked stays, with a notice). */
  deleteAfterCut(): void {
    this.controller.deleteSelection();
  }

  /** Pastes what a paste event carries, at the pointer (or the view's centre). */
  pasteTransfer(dt: Pick<DataTransfer, 'getData'>): void {
    this.paste(readTransfer(dt), null);
  }

  /** Paste from a menu: reads the system clipboard (asking permission), else this window's last copy. */
  async pasteFromSystem(at: Pt | null): Promise<void> {
    const read = await readSystemClipboard();
    const last = this.last;
    const content =
      read === undefined || (read.payload === undefined && last !== null && read.text === last.text)
        ? last
        : read;
    if (content === null) {
      this.controller.toast(
        'info',
        'Nothing to paste (or this window may not read the clipboard).',
      );
      return;
    }
    this.paste(content, at);
  }

  /** Pastes a clipboard's content: its objects, or its text as a text object. */
  paste(content: ClipContent, at: Pt | null): void {
    if (!this.editable()) return;
    if (content.payload !== undefined) {
      const objects = decodeClip(content.payload);
      if ('refused' in objects) {
        this.controller.toast('warn', `Not pasted: ${objects.refused}.`);
        return;
      }
      this.place(objects, this.centreOn(objects, at ?? this.target()));
      return;
    }
    const text = content.text.replace(/\r\n?/g, '\n');
    if (text.trim() === '') {
      this.controller.toast('info', 'Nothing to paste.');
      return;
    }
    const fitted = fitText(text);
    if (fitted.cut) this.controller.toast('info', 'The pasted text was cut to fit one text box.');
    const where = at ?? this.target();
    const s = this.controller.store.getState();
    const lines = fitted.text.split('\n').length;
    const box = {
      ...placedShape('text', { x: 0, y: 0 }, s.style),
      text: fitted.text,
      w: TEXT_WIDTH,
      h: lines * TEXT_LINE,
    };
    this.place([box], {
      x: where.x - TEXT_WIDTH / 2 - box.x,
      y: where.y - box.h / 2 - box.y,
    });
  }

  /** The selection again, right and down of it, selected in its place: one undo step. */
  duplicate(): void {
    if (!this.editable()) return;
    const objects = this.selected().map(newFields);
    if (objects.length === 0) return;
    this.place(objects, { x: DUPLICATE_OFFSET, y: DUPLICATE_OFFSET });
  }

  /** Locks the selection in place, or unlocks it: one undo step. */
  setLocked(pinned: boolean): void {
    if (!this.editable()) return;
    const ids = this.selected()
      .filter((o) => (o.pinned === 1) !== pinned)
      .map((o) => o.id);
    if (ids.length === 0) return;
    void this.controller.invoke({ cmd: 'pin', ids, pinned }).then((r) => {
      if (!r.ok) this.controller.toast('warn', r.reason);
    });
  }

  /** Brings the selection to the front (keeping its own order) or sends it to the back: one undo step. */
  restack(front: boolean): void {
    if (!this.editable()) return;
    const objects = this.selected();
    const locked = objects.filter((o) => o.pinned === 1).length;
    if (locked > 0) this.controller.toast('info', lockedNotice(locked, 'moved'));
    const free = objects.filter((o) => o.pinned !== 1);
    // Each restack goes past every other object: the front in bottom-to-top order, the back top to bottom.
    const step = this.nextStep++;
    for (const o of front ? free : [...free].reverse()) this.controller.restack(o.id, front, step);
  }

  /** Whether this user may change the board (a viewer is told why not). */
  private editable(): boolean {
    if (canEdit(this.controller.store.getState())) return true;
    this.controller.toast('info', 'You can look but not draw: the host made you a viewer.');
    return false;
  }

  /** Where a keyboard paste lands: at the pointer when it is on the board, else the view's centre. */
  private target(): Pt {
    const p = this.controller.localPointer();
    if (p) return p;
    const c = this.controller.store.getState().camera;
    return toWorld(c, this.size.width / 2, this.size.height / 2);
  }

  /** The shift that centres the objects' box on `at`. */
  private centreOn(objects: readonly NewObject[], at: Pt): Pt {
    const box = selectionBounds(
      objects.map((o) => ({ ...o, id: 1, z: 0, lockedBy: null, pinned: 0 })),
    );
    if (box === null) return { x: 0, y: 0 };
    return { x: at.x - (box.x + box.w / 2), y: at.y - (box.y + box.h / 2) };
  }

  /**
   * Creates the objects moved by `shift`, bottom to top (so their stacking order is kept), under one step number
   * (one undo step); each shows at once as a draft. Selects them all once the board has them.
   */
  private place(objects: readonly NewObject[], shift: Pt): void {
    const step = this.nextStep++;
    const dx = Math.round(shift.x);
    const dy = Math.round(shift.y);
    const confirmed = objects.map(
      (o) =>
        this.controller.createProvisional(
          { ...o, x: clampWorld(o.x + dx), y: clampWorld(o.y + dy) },
          step,
        ).confirmed,
    );
    void Promise.all(confirmed).then((ids) => {
      this.selectWhenLanded(ids.filter((id): id is ObjectId => id !== null));
    });
  }

  /** Selects the ids as soon as the board holds every one of them (a peer's board is a round trip late). */
  private selectWhenLanded(ids: readonly ObjectId[]): void {
    const { store } = this.controller;
    if (ids.length === 0) return;
    const landed = (): boolean => {
      const s = store.getState();
      return ids.every((id) => s.board.has(id));
    };
    if (landed()) {
      store.dispatch({ type: 'select', ids: [...ids] });
      return;
    }
    const off = store.subscribe(() => {
      if (!landed()) return;
      off();
      store.dispatch({ type: 'select', ids: [...ids] });
    });
  }

  /** A copy with no copy event to answer (the browser refused the command): the API, plain text only. */
  private copyWithoutEvent(): void {
    const objects = this.selected().map(newFields);
    const payload = encodeClip(objects);
    const text = clipText(objects);
    this.last = { payload, text };
    void navigator.clipboard.writeText(text).catch(() => undefined);
  }
}

/** The system clipboard through the async API (HTML first, then text), or undefined when it may not be read. */
async function readSystemClipboard(): Promise<ClipContent | undefined> {
  try {
    const items = await navigator.clipboard.read();
    let text = '';
    for (const item of items) {
      if (item.types.includes('text/html')) {
        const payload = payloadFromHtml(await (await item.getType('text/html')).text());
        if (payload !== undefined) return { payload, text: '' };
      }
      if (text === '' && item.types.includes('text/plain'))
        text = await (await item.getType('text/plain')).text();
    }
    return { payload: undefined, text };
  } catch {
    return undefined;
  }
}
