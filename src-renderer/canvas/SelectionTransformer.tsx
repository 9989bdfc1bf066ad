// The Konva Transformer around the selected objects (resize, rotate), attached by node id. Draws only; the
// resulting edit is made by the objects' onTransformEnd handler.
import type Konva from 'konva';
import { type ReactElement, type RefObject, useEffect, useRef } from 'react';
import { Transformer } from 'react-konva';
import type { ObjectId } from '../../shared/board';

interface Props {
  readonly layerRef: RefObject<Konva.Layer | null>;
  readonly ids: readonly ObjectId[];
  /** Changes whenever the drawn objects may have changed (re-attach to fresh nodes). */
  readonly version: unknown;
}

export function SelectionTransformer({ layerRef, ids, version }: Props): ReactElement {
  const trRef = useRef<Konva.Transformer>(null);
  useEffect(() => {
    const tr = trRef.current;
    const layer = layerRef.current;
    if (!tr || !layer) return;
    // The layer's own children, not a search of every node under it (a large board has tens of thousands).
    const wanted = new Set(ids.map((id) => `obj-${id}`));
    tr.nodes(wanted.size === 0 ? [] : layer.getChildren((n) => wanted.has(n.id())));
    layer.batchDraw();
  }, [layerRef, ids, version]);
  return (
    <Transformer
      ref={trRef}
      rotateEnabled
      flipEnabled={false}
      ignoreStroke
      anchorSize={9}
      anchorCornerRadius={3}
      borderStroke="#4f46e5"
      anchorStroke="#4f46e5"
      rotationSnaps={[0, 45, 90, 135, 180, 225, 270, 315]}
      boundBoxFunc={(oldBox, newBox) =>
        Math.abs(newBox.width) < 4 && Math.abs(newBox.height) < 4 ? oldBox : newBox
      }
    />
  );
}
