// The board's overview: all of it, drawn small and plainly (the level of detail of a far zoom: boxes, straight
// decimated lines, text as bars) into one bitmap, which the board layer shows under its sharp snapshot wherever
// the snapshot lacks the view, so zooming out mid-gesture never shows blank board and never forces a whole
// redraw. After the board changes it is drawn again a slice at a time while the page is idle, into a second
// bitmap that replaces the first once whole. Knows the canvas 2D API and board objects; nothing of Konva, React
// or the store.
import type { BoardObject } from '../../shared/board';
import { colorToCss } from '../../shared/board';
import {
  arrowHead,
  INK,
  LINE_HEIGHT,
  NOTE_FILL,
  NOTE_FONT_SIZE,
  NOTE_PADDING,
  TEXT_FONT_SIZE,
} from '../../shared/look';
import { boardBounds } from '../board/bounds';
import type { Rect } from '../board/camera';
import { decimate, isFine, isTiny } from '../board/detail';

/** The overview's longest side, px: 16 MB at most, and about 2× the view's pixels at the fit of a large board. */
export const OVERVIEW_PX = 2048;
/** Longest idle slice spent drawing, ms (a frame's slack on a 60 Hz display). */
export const SLICE_MS = 6;
/** A new drawing starts at least this long after the last one started (a stream of remote edits). */
export const REDRAW_GAP_MS = 1000;
/** How many objects are drawn between looks at the clock. */
const CHECK_EVERY = 32;

/** The part of a 2D context the overview draws with (a recording fake in tests). */
export type Painter = Pick<
  CanvasRenderingContext2D,
  | 'save'
  | 'restore'
  | 'translate'
  | 'rotate'
  | 'scale'
  | 'setTransform'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'ellipse'
  | 'rect'
  | 'fill'
  | 'stroke'
  | 'fillRect'
  | 'clearRect'
  | 'drawImage'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'lineCap'
  | 'lineJoin'
  | 'globalAlpha'
>;

/** A bitmap to draw the overview into. */
export interface Surface {
  readonly image: CanvasImageSource;
  readonly ctx: Painter;
  /** Resizes the bitmap (clearing it) when it is not `width` × `height` px. */
  fit(width: number, height: number): void;
}

/** The overview ready to show: `image` holds world (x, y) at its top-left, `scale` px per world unit. */
export interface OverviewShot {
  readonly image: CanvasImageSource;
  readonly x: number;
  readonly y: number;
  readonly scale: number;
  readonly width: number;
  readonly height: number;
}

/** Where a board of these bounds is drawn: its box at a scale that fits OVERVIEW_PX, never above 1. */
export function overviewFrame(
  bounds: Rect | null,
): { x: number; y: number; scale: number; width: number; height: number } | null {
  if (bounds === null || !(bounds.w > 0) || !(bounds.h > 0)) return null;
  const scale = Math.min(1, OVERVIEW_PX / Math.max(bounds.w, bounds.h));
  return {
    x: bounds.x,
    y: bounds.y,
    scale,
    width: Math.max(1, Math.ceil(bounds.w * scale)),
    height: Math.max(1, Math.ceil(bounds.h * scale)),
  };
}

/**
 * Where a frame draws the overview, in device px: scaled by `m` and moved by (dx, dy), then `clear` emptied (the
 * snapshot's own area, rounded inwards, so nothing shows twice); null when the snapshot, at `shot` and `shotPx`
 * device px wide and high, covers the canvas of `canvasPx` for the camera `view`.
 */
export function underlay(
  view: { x: number; y: number; scale: number },
  shot: { x: number; y: number; scale: number },
  shotPx: { width: number; height: number },
  canvasPx: { width: number; height: number },
  ratio: number,
  overview: Pick<OverviewShot, 'x' | 'y' | 'scale'>,
): { m: number; dx: number; dy: number; clear: Rect } | null {
  const k = view.scale / shot.scale;
  const sx = (view.x - shot.x * k) * ratio;
  const sy = (view.y - shot.y * k) * ratio;
  const sw = shotPx.width * k;
  const sh = shotPx.height * k;
  const edge = 0.5;
  if (
    sx <= edge &&
    sy <= edge &&
    sx + sw >= canvasPx.width - edge &&
    sy + sh >= canvasPx.height - edge
  )
    return null;
  const x0 = Math.ceil(sx);
  const y0 = Math.ceil(sy);
  return {
    m: (view.scale / overview.scale) * ratio,
    dx: (view.x + overview.x * view.scale) * ratio,
    dy: (view.y + overview.y * view.scale) * ratio,
    clear: {
      x: x0,
      y: y0,
      w: Math.max(0, Math.floor(sx + sw) - x0),
      h: Math.max(0, Math.floor(sy + sh) - y0),
    },
  };
}

/** A picture's bitmap when it is ready to draw (the dark board's counter-inverted copy there). */
export type ImageOf = (o: BoardObject) => CanvasImageSource | undefined;

function bars(ctx: Painter, text: string, x: number, y: number, w: number, size: number): void {
  const lines = text.split('\n').slice(0, 6);
  for (let i = 0; i < lines.length; i++) {
    const n = lines[i]?.length ?? 0;
    if (n === 0) continue;
    const len = Math.max(0, Math.min(w, n * size * 0.5));
    ctx.fillRect(x, y + i * size * LINE_HEIGHT + size * 0.3, len, size * 0.5);
  }
}

function polyline(ctx: Painter, pts: readonly number[]): void {
  ctx.beginPath();
  ctx.moveTo(pts[0] ?? 0, pts[1] ?? 0);
  for (let i = 2; i + 1 < pts.length; i += 2) ctx.lineTo(pts[i] ?? 0, pts[i + 1] ?? 0);
}

function fillAndStroke(ctx: Painter, o: BoardObject): void {
  if (o.fill !== null) {
    ctx.fillStyle = colorToCss(o.fill);
    ctx.fill();
  }
  if (o.stroke !== null) {
    ctx.strokeStyle = colorToCss(o.stroke);
    ctx.lineWidth = o.strokeWidth;
    ctx.stroke();
  }
}

/**
 * Draws one object in world units, as the canvas draws it at detail `scale` but plainer (square corners, no
 * shadow, text as bars, pictures stretched to their box).
 */
export function paintObject(ctx: Painter, o: BoardObject, scale: number, imageOf: ImageOf): void {
  ctx.save();
  ctx.translate(o.x, o.y);
  if (o.rotation !== 0) ctx.rotate((o.rotation / 10) * (Math.PI / 180));
  if (o.kind !== 'image' && isTiny(o.w, o.h, scale)) {
    ctx.fillStyle = colorToCss(o.fill ?? o.stroke ?? (o.kind === 'note' ? NOTE_FILL : INK));
    ctx.fillRect(0, 0, Math.max(1, o.w), Math.max(1, o.h));
    ctx.restore();
    return;
  }
  switch (o.kind) {
    case 'rect':
      ctx.beginPath();
      ctx.rect(0, 0, o.w, o.h);
      fillAndStroke(ctx, o);
      break;
    case 'ellipse':
      ctx.beginPath();
      ctx.ellipse(o.w / 2, o.h / 2, Math.abs(o.w / 2), Math.abs(o.h / 2), 0, 0, 2 * Math.PI);
      fillAndStroke(ctx, o);
      break;
    case 'line':
    case 'arrow':
    case 'stroke': {
      if (o.stroke === null) break;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.strokeStyle = colorToCss(o.stroke);
      ctx.lineWidth = o.strokeWidth;
      polyline(ctx, isFine(scale) ? o.points : decimate(o.points, 1.5 / scale));
      ctx.stroke();
      if (o.kind === 'arrow') arrowTip(ctx, o);
      break;
    }
    case 'text':
      ctx.fillStyle = colorToCss(o.stroke ?? INK);
      ctx.globalAlpha = 0.35;
      bars(ctx, o.text, 0, 0, o.w, TEXT_FONT_SIZE);
      break;
    case 'note':
      ctx.beginPath();
      ctx.rect(0, 0, o.w, o.h);
      ctx.fillStyle = colorToCss(o.fill ?? NOTE_FILL);
      ctx.fill();
      if (o.stroke !== null) {
        ctx.strokeStyle = colorToCss(o.stroke);
        ctx.lineWidth = 1;
        ctx.stroke();
      }
      ctx.fillStyle = colorToCss(INK);
      ctx.globalAlpha = 0.35;
      bars(ctx, o.text, NOTE_PADDING, NOTE_PADDING, o.w - 2 * NOTE_PADDING, NOTE_FONT_SIZE);
      break;
    case 'image': {
      const img = imageOf(o);
      if (img !== undefined) ctx.drawImage(img, 0, 0, o.w, o.h);
      else {
        ctx.fillStyle = '#f1f3f5';
        ctx.fillRect(0, 0, o.w, o.h);
      }
      break;
    }
  }
  ctx.restore();
}

/** An arrow's head at its last point, along its last segment. */
function arrowTip(ctx: Painter, o: BoardObject): void {
  const n = o.points.length;
  if (n < 4 || o.stroke === null) return;
  const x1 = o.points[n - 2] ?? 0;
  const y1 = o.points[n - 1] ?? 0;
  const a = Math.atan2(y1 - (o.points[n - 3] ?? 0), x1 - (o.points[n - 4] ?? 0));
  const len = arrowHead(o);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - len * Math.cos(a - 0.46), y1 - len * Math.sin(a - 0.46));
  ctx.lineTo(x1 - len * Math.cos(a + 0.46), y1 - len * Math.sin(a + 0.46));
  ctx.closePath();
  ctx.fillStyle = colorToCss(o.stroke);
  ctx.fill();
}

/** The fields an object's overview drawing reads. */
const LOOK = [
  'kind',
  'x',
  'y',
  'w',
  'h',
  'rotation',
  'z',
  'stroke',
  'fill',
  'strokeWidth',
  'points',
  'text',
  'blob',
] as const satisfies readonly (keyof BoardObject)[];

/** Whether the overview draws board `b` as it draws board `a` (the same objects, looking the same). */
export function sameLook(
  a: ReadonlyMap<number, BoardObject>,
  b: ReadonlyMap<number, BoardObject>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [id, o] of b) {
    const was = a.get(id);
    if (was === o) continue;
    if (was === undefined || LOOK.some((k) => was[k] !== o[k])) return false;
  }
  return true;
}

/** What the overview needs of the page: bitmaps, idle time and a clock (fakes in tests). */
export interface OverviewHost {
  surface(width: number, height: number): Surface;
  /** Calls `run(budgetMs)` when the page is idle, no sooner than `afterMs` from now. */
  idle(run: (budgetMs: number) => void, afterMs: number): void;
  now(): number;
}

interface Job {
  readonly board: ReadonlyMap<number, BoardObject>;
  readonly imageOf: ImageOf;
  objects: readonly BoardObject[] | null;
  next: number;
  shot: OverviewShot | null;
  surface: Surface | null;
}

export class Overview {
  /** The last whole drawing, or null before the first (or for an empty board). */
  ready: OverviewShot | null = null;
  /** Called when a new drawing replaces `ready`. */
  onReady: (() => void) | null = null;
  private board: ReadonlyMap<number, BoardObject> | null = null;
  private imageOf: ImageOf = () => undefined;
  /** What `ready` shows. */
  private drawnBoard: ReadonlyMap<number, BoardObject> | null = null;
  private drawnImages: ImageOf | null = null;
  private job: Job | null = null;
  private waiting = false;
  private lastStart = -Infinity;
  /** The bitmap `ready` shows, and the other one: drawn into while `ready` is shown, then they swap. */
  private readySurface: Surface | null = null;
  private spare: Surface | null = null;

  constructor(private readonly host: OverviewHost) {}

  /** The board (and how its pictures are drawn) now: drawn again, later, if it differs from what is shown. */
  show(board: ReadonlyMap<number, BoardObject>, imageOf: ImageOf): void {
    this.board = board;
    this.imageOf = imageOf;
    this.pump();
  }

  /** Whether `ready` shows the board last given (nothing waits to be drawn). */
  get current(): boolean {
    return this.board === this.drawnBoard && this.imageOf === this.drawnImages;
  }

  private pump(): void {
    if (this.waiting || this.current || this.board === null) return;
    this.waiting = true;
    const after = this.job === null ? this.lastStart + REDRAW_GAP_MS - this.host.now() : 0;
    this.host.idle(
      (budget) => {
        this.waiting = false;
        this.slice(budget);
        this.pump();
      },
      Math.max(0, after),
    );
  }

  /** Draws for up to `budgetMs`; a drawing finished replaces `ready`. */
  private slice(budgetMs: number): void {
    const t0 = this.host.now();
    if (this.job === null) {
      if (this.board === null || this.current) return;
      this.job = {
        board: this.board,
        imageOf: this.imageOf,
        objects: null,
        next: 0,
        shot: null,
        surface: null,
      };
      this.lastStart = t0;
    }
    const job = this.job;
    if (job.objects === null && this.drawnBoard !== null && job.imageOf === this.drawnImages) {
      // A lock taken or given back changes the board but not its look: nothing to draw.
      if (sameLook(this.drawnBoard, job.board)) {
        this.drawnBoard = job.board;
        this.job = null;
        return;
      }
    }
    if (job.objects === null) {
      // Sorting and measuring 20,000 objects take a slice of their own.
      job.objects = [...job.board.values()].sort((a, b) => a.z - b.z);
      if (this.host.now() - t0 >= budgetMs) return;
    }
    if (job.shot === null && job.next === 0) {
      const frame = overviewFrame(boardBounds(job.objects));
      if (frame !== null) {
        const surface = this.spare ?? this.host.surface(frame.width, frame.height);
        surface.fit(frame.width, frame.height);
        surface.ctx.setTransform(1, 0, 0, 1, 0, 0);
        surface.ctx.clearRect(0, 0, frame.width, frame.height);
        surface.ctx.setTransform(
          frame.scale,
          0,
          0,
          frame.scale,
          -frame.x * frame.scale,
          -frame.y * frame.scale,
        );
        job.surface = surface;
        job.shot = { image: surface.image, ...frame };
        if (this.host.now() - t0 >= budgetMs) return;
      }
    }
    const { objects, surface, shot } = job;
    if (surface !== null && shot !== null) {
      while (job.next < objects.length) {
        const o = objects[job.next++];
        if (o !== undefined) paintObject(surface.ctx, o, shot.scale, job.imageOf);
        if (job.next % CHECK_EVERY === 0 && this.host.now() - t0 >= budgetMs) return;
      }
    }
    // Whole: it replaces what was shown, whose bitmap is drawn into next time.
    const old = this.readySurface;
    this.readySurface = surface;
    this.spare = old;
    this.ready = shot;
    this.drawnBoard = job.board;
    this.drawnImages = job.imageOf;
    this.job = null;
    this.onReady?.();
  }
}
