// Mirrors the selection into an invisible DOM element (data-testid="selection": the ids, how many, and the one
// box around them in world units), so tests and accessibility tooling can read what Konva only paints.
import { type ReactElement, useMemo } from 'react';
import { selectionBounds } from '../board/selection';
import { shownObject } from '../store/selectors';
import { useAppState } from '../view/context';

export function SelectionMirror(): ReactElement {
  const selection = useAppState((s) => s.selection);
  const board = useAppState((s) => s.board);
  const moves = useAppState((s) => s.moves);
  const edits = useAppState((s) => s.edits);
  const box = useMemo(() => {
    const shown = selection.flatMap((id) => {
      const o = board.get(id);
      return o ? [shownObject({ moves, edits }, o)] : [];
    });
    return selectionBounds(shown);
  }, [selection, board, moves, edits]);
  const round = (v: number | undefined): string | undefined =>
    v === undefined ? undefined : String(Math.round(v));
  return (
    <span
      className="position-mirror"
      aria-hidden="true"
      data-testid="selection"
      data-count={selection.length}
      data-ids={selection.join(',')}
      data-x={round(box?.x)}
      data-y={round(box?.y)}
      data-w={round(box?.w)}
      data-h={round(box?.h)}
    />
  );
}
