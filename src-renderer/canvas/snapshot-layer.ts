// Draws the board layer cheaply when drawing it whole is dear, and carries its camera. The board's objects at
// rest are drawn once into a snapshot (an offscreen canvas at the camera of that moment); a frame then shows the
// snapshot — moved and scaled by how far the camera has gone since, over the board's overview (overview.ts) where
// a zoom out leaves it short — under what is live: the objects being dragged, resized or typed in,
// and everything that is not a board object (drafts, the shape being drawn, the selection's handles, the
// marquee). The snapshot is drawn again only when told (invalidate: the objects changed, or the camera settled)
// or when what is live changes. A layer that draws whole in a few milliseconds is drawn whole every time, as
// Konva would. The layer's own transform (what its nodes, hit graph and drags go by) is the camera the snapshot
// was drawn for and follows the camera only when the layer is cheap or settles, so a pan does not make Konva
// walk every node; a press on the board catches it up at once. The hit graph is drawn lazily: only when a
// pointer asks what is under it, not on every draw. Knows Konva and nothing of React, the store or the tools.
import type Konva from 'konva';
import { type Canvas, HitCanvas, SceneCanvas } from 'konva/lib/Canvas';
import { DD } from 'konva/lib/DragAndDrop';
import type { Camera } from '../board/camera';
import { type OverviewShot, underlay } from './overview';

/** A whole draw dearer than this switches to the snapshot; cheaper than CHEAP_MS (twice in a row) switches back. */
const DEAR_MS = 8;
const CHEAP_MS = 4;
/** How long a dear layer is still before its hit graph is drawn ahead of any press. */
const HIT_AHEAD_MS = 300;
/** The children drawn into the snapshot: board objects (ObjectShape), id `obj-<id>`. */
const OBJECT_NAME = 'object';

interface Shot {
  readonly canvas: SceneCanvas;
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

type DrawScene = (can?: Canvas, top?: Konva.Node) => Konva.Layer;
type DrawHit = (can?: Canvas, top?: Konva.Node) => Konva.Layer;
type Intersect = (pos: { x: number; y: number }) => unknown;
interface LayerInternals {
  drawScene: DrawScene;
  drawHit: DrawHit;
  _getIntersection: Intersect;
}

const idOf = (node: Konva.Node): number => Number(node.id().slice(4));

/** The layer's Transformers: among its last children, after every board object. */
function transformers(layer: Konva.Layer): Konva.Transformer[] {
  const out: Konva.Transformer[] = [];
  const children = layer.getChildren();
  for (let i = children.length - 1; i >= 0; i--) {
    const n = children[i];
    if (n === undefined || n.name() === OBJECT_NAME) break;
    if (n.getClassName() === 'Transformer') out.push(n as Konva.Transformer);
  }
  return out;
}

/** Where the layer's Transformers are and what they hold (their anchors take pointers). */
function handlesKey(layer: Konva.Layer): string {
  return transformers(layer)
    .map((t) =>
      t.isVisible() && t.nodes().length > 0
        ? `${t
            .nodes()
            .map((n) => n.id())
            .join()}@${t.x()},${t.y()},${t.width()},${t.height()},${t.rotation()}`
        : '',
    )
    .join('|');
}

export class SnapshotLayer {
  private layer: Konva.Layer | null = null;
  private restore: (() => void) | null = null;
  private shot: Shot | null = null;
  private dirty = true;
  /** Whether frames compose the snapshot (the layer is dear to draw whole) or draw everything. */
  private composing = false;
  private cheapRuns = 0;
  private hitDirty = true;
  /** Ids drawn live: given by the caller (moves, edits, the text being edited) and Konva's gestures now. */
  private given = new Set<number>();
  private gesture = new Set<number>();
  private liveKey = '';
  private handles = '';
  /** How long the last whole draw (or snapshot) took, ms. */
  lastDrawMs = 0;
  /** The camera now (the Stage's other layers show this). */
  private view: Camera = { x: 0, y: 0, scale: 1 };
  /** The hit graph drawn ahead, once the layer has been still a moment (a dear one takes a while to draw). */
  private hitTimer: ReturnType<typeof setTimeout> | undefined;
  private drawHitNow: (() => void) | null = null;
  /** The board objects' hit graph at rest, kept like the snapshot: a new selection redraws only the handles'. */
  private hitShot: HitCanvas | null = null;
  private hitShotKey = '';
  private shotGen = 0;
  /** Called when a press on the board caught the layer up with the camera (the caller re-culls). */
  onCatchUp: (() => void) | null = null;
  /** The whole board drawn small (overview.ts): shown under the snapshot where the snapshot lacks the view. */
  overview: { readonly ready: OverviewShot | null } | null = null;

  /** React ref callback for the board's Konva layer. */
  readonly attach = (layer: Konva.Layer | null): void => {
    if (layer === this.layer) return;
    this.restore?.();
    this.restore = null;
    this.layer = layer;
    this.shot = null;
    this.dirty = true;
    if (layer) {
      this.restore = this.patch(layer);
      this.place(this.view);
    }
  };

  /** The camera moved: cheap, the layer follows it; else frames move the snapshot along. */
  follow(c: Camera): void {
    this.view = c;
    if (!this.composing) this.place(c);
    this.layer?.batchDraw();
  }

  /**
   * The camera settled (or moved too far): the layer takes it, and is drawn afresh for it when `redraw` (the
   * snapshot was taken at another scale, or lacks board now in view); a pan over what it holds needs none.
   */
  settle(c: Camera, redraw = true): void {
    this.view = c;
    this.place(c);
    if (redraw || !this.composing) this.invalidate();
    else this.layer?.batchDraw();
  }

  /** The camera the snapshot was taken at, while frames show one. */
  get shotCamera(): Camera | null {
    return this.composing && this.shot ? this.shot : null;
  }

  private place(c: Camera): void {
    const l = this.layer;
    if (!l || (l.x() === c.x && l.y() === c.y && l.scaleX() === c.scale)) return;
    l.setAttrs({ x: c.x, y: c.y, scaleX: c.scale, scaleY: c.scale });
    this.hitDirty = true;
  }

  /** A press while the layer lags the camera: put it where the camera is before Konva looks for a target. */
  private readonly catchUp = (): void => {
    const l = this.layer;
    if (!l || (l.x() === this.view.x && l.y() === this.view.y && l.scaleX() === this.view.scale))
      return;
    this.onCatchUp?.();
  };

  /** Whether an overview is ready to show under the snapshot. */
  get hasOverview(): boolean {
    return (this.overview?.ready ?? null) !== null;
  }

  /** Whether frames show the snapshot now (the layer is dear to draw whole). */
  get snapshotting(): boolean {
    return this.composing;
  }

  /** The objects drawn changed, or the camera settled: the next frame draws the snapshot afresh. */
  invalidate(): void {
    this.dirty = true;
    this.hitDirty = true;
    this.layer?.batchDraw();
  }

  /** The ids drawn live (over the snapshot) besides Konva's own drags and transforms. */
  setLive(ids: Iterable<number>): void {
    this.given = new Set(ids);
    this.liveChanged();
  }

  private liveChanged(): void {
    const key = [...new Set([...this.given, ...this.gesture])].sort((a, b) => a - b).join(',');
    if (key === this.liveKey) return;
    this.liveKey = key;
    this.invalidate();
  }

  /** Whether the object is drawn live now (given, or in a Konva gesture). */
  isLive(id: number): boolean {
    return this.given.has(id) || this.gesture.has(id);
  }

  private isLiveNode(node: Konva.Node): boolean {
    const id = idOf(node);
    return this.given.has(id) || this.gesture.has(id);
  }

  private inShot(node: Konva.Node): boolean {
    if (node.name() !== OBJECT_NAME) return false;
    return this.given.size + this.gesture.size === 0 || !this.isLiveNode(node);
  }

  /**
   * The children drawn over the snapshot, in the layer's order. With no object live they are the last few, after
   * every board object (transformers(), above): found without walking thousands of objects each frame.
   */
  private liveNodes(layer: Konva.Layer): Konva.Node[] {
    const children = layer.getChildren();
    if (this.given.size + this.gesture.size > 0) return children.filter((n) => !this.inShot(n));
    let i = children.length;
    while (i > 0 && children[i - 1]?.name() !== OBJECT_NAME) i--;
    return children.slice(i);
  }

  private patch(layer: Konva.Layer): () => void {
    const internals = layer as unknown as LayerInternals;
    const drawScene = internals.drawScene.bind(layer);
    const drawHit = internals.drawHit.bind(layer);
    const intersect = internals._getIntersection.bind(layer);
    internals.drawScene = (can, top) => {
      // Drawing elsewhere (an export, a cache): the real thing.
      if (can !== undefined || top !== undefined) return drawScene(can, top);
      if (!this.composing) {
        this.hitDirty = true;
        const t0 = performance.now();
        drawScene();
        this.lastDrawMs = performance.now() - t0;
        if (this.lastDrawMs > DEAR_MS) {
          this.composing = true;
          this.dirty = true;
        }
        return layer;
      }
      if (this.dirty || this.shot === null || this.stale(layer)) {
        this.takeShot(layer, drawScene);
        this.hitDirty = true;
      }
      // The handles are the one live thing that takes pointers: their hit graph follows them.
      const handles = handlesKey(layer);
      if (handles !== this.handles) {
        this.handles = handles;
        this.hitDirty = true;
      }
      this.compose(layer);
      if (this.hitDirty) this.hitAhead();
      return layer;
    };
    internals.drawHit = (can, top) => {
      if (can !== undefined || top !== undefined) return drawHit(can, top);
      this.hitDirty = true;
      return layer;
    };
    this.drawHitNow = () => {
      this.hitDirty = false;
      if (this.composing) this.composeHit(layer, drawHit);
      else drawHit();
    };
    internals._getIntersection = (pos) => {
      // Mid-gesture (a drag or a resize) the hit graph waits, as Konva's own does: the pointer is taken.
      if (this.hitDirty && this.gesture.size === 0 && !DD.isDragging) this.drawHitNow?.();
      return intersect(pos);
    };
    const gestureOf = (e: Konva.KonvaEventObject<Event>): number[] => {
      const ids = new Set<number>();
      const group = e.target.findAncestors(`.${OBJECT_NAME}`, true)[0];
      if (group) ids.add(idOf(group));
      for (const tr of transformers(layer))
        if (group === undefined || tr.nodes().includes(group))
          for (const n of tr.nodes()) ids.add(idOf(n));
      return [...ids];
    };
    const start = (e: Konva.KonvaEventObject<Event>): void => {
      for (const id of gestureOf(e)) this.gesture.add(id);
      this.liveChanged();
    };
    const end = (): void => {
      this.gesture.clear();
      this.liveChanged();
    };
    layer.on('dragstart.snapshot transformstart.snapshot', start);
    layer.on('dragend.snapshot transformend.snapshot', end);
    const container = layer.getStage().container();
    container.addEventListener('pointerdown', this.catchUp, true);
    return () => {
      clearTimeout(this.hitTimer);
      this.drawHitNow = null;
      container.removeEventListener('pointerdown', this.catchUp, true);
      internals.drawScene = drawScene;
      internals.drawHit = drawHit;
      internals._getIntersection = intersect;
      layer.off('.snapshot');
    };
  }

  /** The hit graph: the objects' (drawn afresh only when they or the camera changed), then what is live. */
  private composeHit(layer: Konva.Layer, drawHit: DrawHit): void {
    const hc = layer.hitCanvas;
    (layer as unknown as { _syncHitCanvasSize(): void })._syncHitCanvasSize();
    if (!hc.width || !hc.height) return;
    const key = `${this.shotGen}|${layer.x()},${layer.y()},${layer.scaleX()}|${hc.width}x${hc.height}`;
    if (this.hitShot === null || key !== this.hitShotKey) {
      const c = this.hitShot ?? new HitCanvas({ pixelRatio: hc.getPixelRatio() });
      c.setPixelRatio(hc.getPixelRatio());
      c.setSize(hc.getWidth(), hc.getHeight());
      c.getContext().clear();
      const hidden = layer.getChildren((n) => n.visible() && !this.inShot(n));
      for (const n of hidden) n.visible(false);
      try {
        drawHit(c);
      } finally {
        for (const n of hidden) n.visible(true);
      }
      this.hitShot = c;
      this.hitShotKey = key;
    }
    const ctx = hc.getContext();
    ctx.clear();
    const native = ctx._context;
    native.save();
    native.setTransform(1, 0, 0, 1, 0, 0);
    native.drawImage(this.hitShot._canvas, 0, 0);
    native.restore();
    for (const n of this.liveNodes(layer)) n.drawHit(hc);
  }

  /** Draws the hit graph when the page is idle, HIT_AHEAD_MS after the last frame that left it stale. */
  private hitAhead(): void {
    clearTimeout(this.hitTimer);
    this.hitTimer = setTimeout(() => {
      requestIdleCallback(() => {
        if (this.hitDirty && this.gesture.size === 0 && !DD.isDragging) this.drawHitNow?.();
      });
    }, HIT_AHEAD_MS);
  }

  /** The canvas was resized (or moved to a screen of another pixel ratio) since the snapshot. */
  private stale(layer: Konva.Layer): boolean {
    const c = layer.getCanvas();
    const s = this.shot?.canvas;
    return s === undefined || s.width !== c.width || s.height !== c.height;
  }

  private takeShot(layer: Konva.Layer, drawScene: DrawScene): void {
    const t0 = performance.now();
    const c = layer.getCanvas();
    const canvas = this.shot?.canvas ?? new SceneCanvas();
    canvas.setPixelRatio(c.getPixelRatio());
    canvas.setSize(c.getWidth(), c.getHeight());
    const hidden = layer.getChildren((n) => n.visible() && !this.inShot(n));
    for (const n of hidden) n.visible(false);
    try {
      drawScene(canvas);
    } finally {
      for (const n of hidden) n.visible(true);
    }
    this.shot = { canvas, x: layer.x(), y: layer.y(), scale: layer.scaleX() };
    this.shotGen++;
    this.dirty = false;
    this.lastDrawMs = performance.now() - t0;
    if (this.lastDrawMs < CHEAP_MS) this.cheapRuns++;
    else this.cheapRuns = 0;
    // Cheap again (fewer objects in view): frames draw everything from the next one on.
    if (this.cheapRuns >= 2) {
      this.composing = false;
      this.cheapRuns = 0;
      this.place(this.view);
    }
  }

  /** The snapshot where the camera puts it now, then what is live, in the layer's order. */
  private compose(layer: Konva.Layer): void {
    const shot = this.shot;
    if (shot === null) return;
    const canvas = layer.getCanvas();
    const ctx = canvas.getContext();
    ctx.clear();
    const v = this.view;
    const k = v.scale / shot.scale;
    const ratio = canvas.getPixelRatio();
    const native = ctx._context;
    const o = this.overview?.ready ?? null;
    const under = o && underlay(v, shot, shot.canvas._canvas, canvas._canvas, ratio, o);
    if (o && under) {
      // Zoomed out past the snapshot: the overview around it (and never under it, where it would show twice).
      native.save();
      native.setTransform(under.m, 0, 0, under.m, under.dx, under.dy);
      native.drawImage(o.image, 0, 0);
      native.setTransform(1, 0, 0, 1, 0, 0);
      native.clearRect(under.clear.x, under.clear.y, under.clear.w, under.clear.h);
      native.restore();
    }
    native.save();
    native.setTransform(k, 0, 0, k, (v.x - shot.x * k) * ratio, (v.y - shot.y * k) * ratio);
    native.drawImage(shot.canvas._canvas, 0, 0);
    native.restore();
    // What is live is drawn by the layer's transform: moved along as the snapshot is while the layer lags the
    // camera (a shape drawn through an opacity buffer keeps the layer's place until it settles).
    const j = v.scale / layer.scaleX();
    native.save();
    native.transform(j, 0, 0, j, v.x - layer.x() * j, v.y - layer.y() * j);
    for (const n of this.liveNodes(layer)) n.drawScene(canvas);
    native.restore();
  }
}
