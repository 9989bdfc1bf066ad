// Mirrors what the canvas shows into tiny invisible DOM elements (data-testid + integer world data-x/data-y),
// so tests and accessibility tooling can read positions Konva only paints: this user's pointer
// (`local-pointer`), remote pointers (`remote-pointer-<peer>`) and board objects (`object-<id>`, including live
// drags; its size and rotation as data-w/data-h/data-rotation, live during someone's resize or rotate; a text's
// or note's text as data-text, its kind as data-kind, its stacking order as data-z, data-pinned="1" while locked
// in place; an image's as data-image: its natural size "WxH" once drawn, else "loading N%" or "failed"). Written
// imperatively, once per animation frame and right after local input; never renders React.
import type { LiveShape } from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';
import type { Controller } from '../controller/controller';
import type { LiveFrame } from '../interp/remote-live';
import { shownObject } from '../store/selectors';
import type { AppState } from '../store/state';
import { imageCache } from './image-cache';

interface Point {
  readonly x: number;
  readonly y: number;
}

const EMPTY_FRAME: LiveFrame = { pointers: [], drags: [] };
const OBJECT = 'object-';
const REMOTE = 'remote-pointer-';
const LOCAL = 'local-pointer';

export class PositionMirror {
  private root: HTMLElement | null = null;
  private readonly els = new Map<string, HTMLElement>();
  private remote: LiveFrame = EMPTY_FRAME;
  /** The board state the object elements were last fully written from. */
  private synced: Pick<AppState, 'board' | 'moves' | 'edits' | 'images'> | null = null;
  /** The image cache's version when the object elements were last written (an image decoded since is news). */
  private imagesDrawn = -1;
  /** Objects written at a live-drag position last time (to put back when the drag ends). */
  private overridden = new Set<ObjectId>();

  constructor(private readonly controller: Controller) {}

  /** React ref callback for the container. */
  readonly attach = (el: HTMLElement | null): void => {
    this.root = el;
    this.els.clear();
    this.synced = null;
    this.overridden.clear();
    if (el) {
      el.replaceChildren();
      this.write();
    }
  };

  /** Once per animation frame, with what the live layer draws in it. */
  frame(f: LiveFrame): void {
    this.remote = f;
    this.write();
  }

  /** After this user's own input, between frames: the pointer and own drags are already where they are. */
  readonly local = (): void => {
    this.write();
  };

  private write(): void {
    if (this.root === null) return;
    const lp = this.controller.localPointer();
    if (lp) this.put(LOCAL, lp);
    else this.remove(LOCAL);
    this.writePointers();
    this.writeObjects();
  }

  private writePointers(): void {
    const live = new Set<string>();
    for (const p of this.remote.pointers) {
      const key = `${REMOTE}${p.peer}`;
      live.add(key);
      this.put(key, p);
    }
    for (const key of this.els.keys())
      if (key.startsWith(REMOTE) && !live.has(key)) this.remove(key);
  }

  private writeObjects(): void {
    const s = this.controller.store.getState();
    const synced = this.synced;
    if (
      synced?.board !== s.board ||
      synced.moves !== s.moves ||
      synced.edits !== s.edits ||
      synced.images !== s.images ||
      this.imagesDrawn !== imageCache.version
    ) {
      this.synced = { board: s.board, moves: s.moves, edits: s.edits, images: s.images };
      this.imagesDrawn = imageCache.version;
      this.overridden.clear();
      for (const key of this.els.keys())
        if (key.startsWith(OBJECT) && !s.board.has(Number(key.slice(OBJECT.length))))
          this.remove(key);
      for (const o of s.board.values()) {
        const key = `${OBJECT}${o.id}`;
        const shown = shownObject(s, o);
        this.put(key, shown);
        this.putShape(key, shown);
        if (o.kind === 'text' || o.kind === 'note') this.putText(key, o.text);
        this.putFlags(key, o);
        if (o.kind === 'image') this.putImage(key, imageState(s, o.blob));
      }
    }
    // Live drags, the holder's own last: each object shows where its ghost or the dragged node is now.
    const live = new Map<ObjectId, Point & { readonly shape?: LiveShape }>();
    for (const d of this.remote.drags) live.set(d.id, d);
    for (const d of this.controller.localDrags()) live.set(d.id, d);
    for (const id of this.overridden) {
      const o: BoardObject | undefined = s.board.get(id);
      if (o && !live.has(id)) {
        const shown = shownObject(s, o);
        this.put(`${OBJECT}${id}`, shown);
        this.putShape(`${OBJECT}${id}`, shown);
      }
    }
    this.overridden = new Set();
    for (const [id, p] of live) {
      const o = s.board.get(id);
      if (!o) continue;
      this.overridden.add(id);
      this.put(`${OBJECT}${id}`, p);
      this.putShape(`${OBJECT}${id}`, p.shape ?? shownObject(s, o));
    }
  }

  private putShape(key: string, shape: LiveShape): void {
    const el = this.els.get(key);
    if (el === undefined) return;
    const w = String(Math.round(shape.w));
    const h = String(Math.round(shape.h));
    const rotation = String(Math.round(shape.rotation));
    if (el.dataset.w !== w) el.dataset.w = w;
    if (el.dataset.h !== h) el.dataset.h = h;
    if (el.dataset.rotation !== rotation) el.dataset.rotation = rotation;
  }

  private put(key: string, p: Point): void {
    let el = this.els.get(key);
    if (el === undefined) {
      el = document.createElement('span');
      el.dataset.testid = key;
      this.els.set(key, el);
      this.root?.append(el);
    }
    const x = String(Math.round(p.x));
    const y = String(Math.round(p.y));
    if (el.dataset.x !== x) el.dataset.x = x;
    if (el.dataset.y !== y) el.dataset.y = y;
  }

  private putText(key: string, text: string): void {
    const el = this.els.get(key);
    if (el && el.dataset.text !== text) el.dataset.text = text;
  }

  /** Its kind, its stacking order (z), and data-pinned="1" while it is locked in place. */
  private putFlags(key: string, o: BoardObject): void {
    const el = this.els.get(key);
    if (el === undefined) return;
    if (el.dataset.kind !== o.kind) el.dataset.kind = o.kind;
    const z = String(o.z);
    if (el.dataset.z !== z) el.dataset.z = z;
    if (o.pinned === 1) el.dataset.pinned = '1';
    else if (el.dataset.pinned !== undefined) delete el.dataset.pinned;
  }

  private putImage(key: string, state: string): void {
    const el = this.els.get(key);
    if (el && el.dataset.image !== state) el.dataset.image = state;
  }

  private remove(key: string): void {
    this.els.get(key)?.remove();
    this.els.delete(key);
  }
}

/** What an image object shows: its natural size once decoded, else how much of it has arrived. */
function imageState(s: AppState, hash: string): string {
  const n = imageCache.natural(hash);
  if (n === 'failed') return 'failed';
  if (n !== undefined) return `${n.w}x${n.h}`;
  const e = s.images.get(hash);
  const pct = e && 'received' in e && e.total > 0 ? Math.floor((e.received / e.total) * 100) : 0;
  return `loading ${pct}%`;
}
