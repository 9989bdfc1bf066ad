// "Sending image… N %" while this user's image travels to the host (its object appears once the host has it): an
// image whose bytes are on their way that no object shows yet. Renders the store only.
import type { ReactElement } from 'react';
import { uploadProgress } from '../store/images';
import { useAppState } from '../view/context';

export function ImageUploads(): ReactElement | null {
  const images = useAppState((s) => s.images);
  const board = useAppState((s) => s.board);
  const f = uploadProgress({ images, board });
  if (f === null) return null;
  const pct = Math.floor(f * 100);
  return (
    <div
      className="join-progress"
      role="progressbar"
      aria-valuenow={pct}
      aria-valuemin={0}
      aria-valuemax={100}
      data-testid="image-upload"
    >
      <span>Sending image… {pct}%</span>
      <span className="window-track">
        <span className="window-fill" style={{ width: `${pct}%` }} />
      </span>
    </div>
  );
}
