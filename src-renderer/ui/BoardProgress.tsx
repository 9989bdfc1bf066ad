// "Receiving the board… N/M" with a bar that fills while a joiner's board arrives; it shows the full bar for a
// moment once everything is in, then goes. Renders the store only.
import { type ReactElement, useEffect, useRef, useState } from 'react';
import { boardProgress } from '../store/board-progress';
import { useAppState } from '../view/context';

/** How long the full bar stays after the last object came. */
const FULL_SHOWN_MS = 800;

export function BoardProgress(): ReactElement | null {
  const status = useAppState((s) => s.status);
  const p = boardProgress(status);
  const active = p !== null;
  const complete = p !== null && p.received >= p.total;
  // Only a download this screen watched ends on a full bar (not a board that was whole when it came).
  const watched = useRef(false);
  const [lingering, setLingering] = useState(false);
  useEffect(() => {
    if (active && !complete) {
      watched.current = true;
      return undefined;
    }
    if (!complete || !watched.current) return undefined;
    watched.current = false;
    setLingering(true);
    const timer = setTimeout(() => setLingering(false), FULL_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [active, complete]);
  if (p === null || (complete && !lingering)) return null;
  return (
    <div
      className="join-progress"
      role="progressbar"
      aria-valuenow={p.percent}
      aria-valuemin={0}
      aria-valuemax={100}
      data-testid="board-progress"
      data-received={p.received}
      data-total={p.total}
    >
      <span>
        {complete ? 'Board received' : 'Receiving the board…'} {p.received}/{p.total}
      </span>
      <span className="window-track">
        <span className="window-fill" style={{ width: `${p.percent}%` }} />
      </span>
    </div>
  );
}
