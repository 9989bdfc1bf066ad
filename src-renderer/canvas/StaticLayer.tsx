// The board's own content: objects culled to the view (bottom to top), drafts awaiting their id, the shape
// being drawn, the selection's Transformer (one box around all of it) and the marquee. Renders the store;
// draws only (node events go to tools/).
import type Konva from 'konva';
import { type ReactElement, useMemo, useRef } from 'react';
import { Layer } from 'react-konva';
import type { BoardObject, NewObject } from '../../shared/board';
import { draftObject, provisionalId } from '../store/drafts';
import type { Draft } from '../store/state';
import { cullToView } from '../board/bounds';
import { type Size, visibleWorld } from '../board/camera';
import { canEdit, shownObject } from '../store/selectors';
import { useAppState, useTools } from '../view/context';
import { LockedOutline } from './LockBadge';
import { MarqueeRect } from './MarqueeRect';
import { ObjectShape } from './ObjectShape';
import { SelectionTransformer } from './SelectionTransformer';
import { useObjectHandlers } from './use-object-handlers';

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

export function StaticLayer({ size }: { size: Size }): ReactElement {
  const board = useAppState((s) => s.board);
  const moves = useAppState((s) => s.moves);
  const edits = useAppState((s) => s.edits);
  const camera = useAppState((s) => s.camera);
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

  const visible = useMemo(() => {
    const shown = [...board.values()].map((o) => shownObject({ moves, edits }, o));
    return cullToView(shown, visibleWorld(camera, size), CULL_MARGIN_PX / camera.scale);
  }, [board, moves, edits, camera, size]);

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
    <Layer ref={layerRef}>
      {visible.map((o) => (
        <ObjectShape
          key={o.id}
          o={o}
          draggable={selecting && editable && o.pinned !== 1}
          listening={selecting}
          opacity={ghosted.has(o.id) ? 0.25 : 1}
          editing={editing === o.id}
          handlers={handlers}
        />
      ))}
      {drafts.map((d) => (
        <ObjectShape
          key={`draft-${d.key}`}
          o={drawnDraft(d)}
          listening={false}
          opacity={0.7}
          editing={editing !== null && (editing === provisionalId(d.key) || editing === d.id)}
        />
      ))}
      {preview && <ObjectShape o={asObject(preview, 0)} listening={false} />}
      <SelectionTransformer layerRef={layerRef} ids={transformable} version={visible} />
      {lockedSelected.map((o) => (
        <LockedOutline key={`locked-${o.id}`} o={o} scale={camera.scale} />
      ))}
      <MarqueeRect />
    </Layer>
  );
}
