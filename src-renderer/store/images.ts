// What the store's images say beyond each entry: how far this user's own upload is (an image on its way to the
// host that no object shows yet). Pure; knows nothing of React or Konva.
import type { AppState } from './state';

/** The least-advanced upload under way, as a fraction, or null when none is. */
export function uploadProgress(s: Pick<AppState, 'images' | 'board'>): number | null {
  let least: number | null = null;
  for (const [hash, e] of s.images) {
    if (!('received' in e) || !e.upload || e.total === 0 || e.received >= e.total) continue;
    let shown = false;
    for (const o of s.board.values()) if (o.blob === hash) shown = true;
    if (!shown) least = Math.min(least ?? 1, e.received / e.total);
  }
  return least;
}
