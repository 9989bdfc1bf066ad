// The board's own content: objects culled to the view (bottom to top), drafts awaiting their id, the shape
// being drawn, the selection's Transformer (one box around all of it) and the marquee. Culled and detailed for
// the settled camera (use-settled-camera), not every camera step, and drawn through a snapshot when the board is
// dear to draw (snapshot-layer): told here when the objects drawn changed and which are live. Renders the
// store; draws only (node events go to tools/).
import type Konva from 'konva';
import {
  memo,
  type ReactElement,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import { Layer } from 'react-konva';
import type { BoardObject, NewObject } from '../../shared/board';
import { draftObject, provisionalId } from '../store/drafts';
import type { Draft } from '../store/state';
import { cullToView } from '../board/bounds';
import { type Size, visibleWorld } from '../board/camera';
import { detailScale } from '../board/detail';
import { canEdit, shownObject } from '../store/selectors';
import type { Store } from '../store/store';
import { useAppState, useController, useTools } from '../view/context';
import { counterInverted, useDarkScheme } from './dark-ink';
import { imageCache } from './image-cache';
import { LockedOutline } from './LockBadge';
import { MarqueeRect } from './MarqueeRect';
import { ObjectShape, type ObjectShapeProps } from './ObjectShape';
import { browserOverview } from './overview-host';
import { SelectionTransformer } from './SelectionTransformer';
import { SnapshotLayer } from './snapshot-layer';
import { useObjectHandlers } from './use-object-handlers';
import { useSettledCamera } from './use-settled-camera';

/** Screen px beyond the view edge still drawn, so panning doesn't reveal pop-in. */
const CULL_MARGIN_PX = 200;

const NONE: readonly number[] = [];

/**
 * Each draft's object, made once per draft (a draft is replaced when it changes): a paste of many objects
 * renders its drafts again with every reply, and ObjectShape skips one whose object is the same.
 */
const draftObjects = new WeakMap<Draft, BoardObject>();
function drawnDraft(d: Draft): BoardObject {
  let o = draftObjects.get(d);
  if (o === undefined) draftObjects.set(d, (o = draftObject(d)));
  return o;
}

const asObject = (o: NewObject, id: number): BoardObject => ({
  ...o,
  id,
  z: Infinity,
  lockedBy: null,
  pinned: 0,
});

/**
 * One store subscription for every board object's useShown, which calls them only when this user's moves or
 * edits change: the camera changes at every frame of a pan or zoom, and thousands of listeners called each time
 * (20,000 on a large board) cost a frame's slack.
 */
class ShownFeed {
  private readonly listeners = new Set<() => void>();
  private moves: unknown = null;
  private edits: unknown = null;
  private off: (() => void) | null = null;

  constructor(private readonly store: Store) {}

  readonly subscribe = (l: () => void): (() => void) => {
    if (this.off === null) {
      const s = this.store.getState();
      this.moves = s.moves;
      this.edits = s.edits;
      this.off = this.store.subscribe(this.changed);
    }
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
      if (this.listeners.size > 0) return;
      this.off?.();
      this.off = null;
    };
  };

  private readonly changed = (): void => {
    const s = this.store.getState();
    if (s.moves === this.moves && s.edits === this.edits) return;
    this.moves = s.moves;
    this.edits = s.edits;
    for (const l of this.listeners) l();
  };
}

const feeds = new WeakMap<Store, ShownFeed>();
function feedOf(store: Store): ShownFeed {
  let f = feeds.get(store);
  if (f === undefined) feeds.set(store, (f = new ShownFeed(store)));
  return f;
}

/**
 * One board object as this user sees it (their move or resize shown over the board's): each reads its own from
 * the store, so a drag re-renders the objects dragged, not the list of thousands.
 */
function useShown(o: BoardObject): BoardObject {
  const { store } = useController();
  const seen = useRef<{
    moves: unknown;
    edits: unknown;
    o: BoardObject;
    shown: BoardObject;
  } | null>(null);
  const read = (): BoardObject => {
    const s = store.getState();
    const c = seen.current;
    if (c !== null && c.moves === s.moves && c.edits === s.edits && c.o === o) return c.shown;
    const shown = shownObject(s, o);
    seen.current = { moves: s.moves, edits: s.edits, o, shown };
    return shown;
  };
  return useSyncExternalStore(feedOf(store).subscribe, read);
}

const BoardObjectShape = memo(function BoardObjectShape(p: ObjectShapeProps): ReactElement {
  return <ObjectShape {...p} o={useShown(p.o)} />;
});

/** Whether `b` draws what `a` drew, live objects aside (those are drawn over the snapshot anyway). */
function sameAtRest(
  a: readonly BoardObject[],
  b: readonly BoardObject[],
  live: { has(id: number): boolean },
): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && !(x !== undefined && y !== undefined && x.id === y.id && live.has(x.id)))
      return false;
  }
  return true;
}

export const StaticLayer = memo(function StaticLayer({ size }: { size: Size }): ReactElement {
  const { store } = useController();
  const board = useAppState((s) => s.board);
  const moves = useAppState((s) => s.moves);
  const edits = useAppState((s) => s.edits);
  const images = useAppState((s) => s.images);
  const imagesReady = useSyncExternalStore(
    useCallback((l: () => void) => imageCache.subscribe(l), []),
    () => imageCache.version,
  );
  const tool = useAppState((s) => s.tool);
  const selection = useAppState((s) => s.selection);
  const editing = useAppState((s) => s.editing);
  const ghosted = useAppState((s) => s.ghosted);
  const drafts = useAppState((s) => s.drafts);
  const preview = useAppState((s) => s.preview);
  const editable = useAppState(canEdit);
  const tools = useTools();
  const handlers = useObjectHandlers(tools);
  const layerRef = useRef<Konva.Layer>(null);
  const snapshot = useMemo(() => new SnapshotLayer(), []);
  const overview = useMemo(() => browserOverview(), []);
  const dark = useDarkScheme();
  // The whole board drawn small, under the snapshot where a zoom out leaves it: drawn again when it changes.
  // (A new function when a picture decodes: imagesReady.)
  const imageOf = useMemo(() => {
    return (o: BoardObject): CanvasImageSource | undefined => {
      const entry = images.get(o.blob);
      const el = entry && 'url' in entry ? imageCache.get(o.blob, entry.url) : undefined;
      return el !== undefined && dark ? counterInverted(el) : el;
    };
  }, [images, imagesReady, dark]);
  useEffect(() => {
    snapshot.overview = overview;
    overview.show(board, imageOf);
  }, [snapshot, overview, board, imageOf]);
  const attach = useCallback(
    (layer: Konva.Layer | null) => {
      layerRef.current = layer;
      snapshot.attach(layer);
    },
    [snapshot],
  );
  const camera = useSettledCamera(store, size, snapshot, CULL_MARGIN_PX);
  const detail = detailScale(camera.scale);

  // Culled where the board says objects are; this user's moves and edits shown on those (a drag stays in view)
  // by each object itself, and here only for the locked outlines.
  const culled = useMemo(
    () => cullToView(board.values(), visibleWorld(camera, size), CULL_MARGIN_PX / camera.scale),
    [board, camera, size],
  );
  const visible = useMemo(
    () => culled.map((o) => shownObject({ moves, edits }, o)),
    [culled, moves, edits],
  );

  const live = useMemo(() => {
    const ids = new Set<number>([...moves.keys(), ...edits.keys()]);
    if (editing !== null) ids.add(editing);
    return ids;
  }, [moves, edits, editing]);
  useEffect(() => {
    snapshot.setLive(live);
  }, [snapshot, live]);
  // After each commit: anything drawn at rest that changed means the snapshot is drawn afresh.
  const drawn = useRef<{ list: readonly BoardObject[]; deps: readonly unknown[] } | null>(null);
  useLayoutEffect(() => {
    const deps = [camera, ghosted, editing, tool, editable, detail, images, imagesReady];
    const was = drawn.current;
    drawn.current = { list: visible, deps };
    if (
      was === null ||
      !sameAtRest(was.list, visible, live) ||
      deps.some((d, i) => d !== was.deps[i])
    )
      snapshot.invalidate();
  });

  const selecting = tool === 'select';
  // What is locked in place is neither resized nor dragged: outside the Transformer, outlined instead.
  const transformable = useMemo(
    () =>
      selecting && editable && editing === null
        ? selection.filter((id) => board.get(id)?.pinned !== 1)
        : NONE,
    [selecting, editable, editing, selection, board],
  );
  const lockedSelected = useMemo(
    () => visible.filter((o) => o.pinned === 1 && selection.includes(o.id)),
    [visible, selection],
  );
  return (
    <Layer ref={attach}>
      {culled.map((o) => (
        <BoardObjectShape
          key={o.id}
          o={o}
          draggable={selecting && editable && o.pinned !== 1}
          listening={selecting}
          opacity={ghosted.has(o.id) ? 0.25 : 1}
          editing={editing === o.id}
          handlers={handlers}
          detail={detail}
        />
      ))}
      {drafts.map((d) => (
        <ObjectShape
          key={`draft-${d.key}`}
          name="draft"
          o={drawnDraft(d)}
          listening={false}
          opacity={0.7}
          editing={editing !== null && (editing === provisionalId(d.key) || editing === d.id)}
        />
      ))}
      {preview && <ObjectShape name="draft" o={asObject(preview, 0)} listening={false} />}
      <SelectionTransformer layerRef={layerRef} ids={transformable} version={culled} />
      {lockedSelected.map((o) => (
        <LockedOutline key={`locked-${o.id}`} o={o} scale={camera.scale} />
      ))}
      <MarqueeRect />
    </Layer>
  );
});
