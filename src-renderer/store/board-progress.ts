// How far a joiner's board download is, from the joined status the core sends at each step. Pure; no framework.
import type { SessionStatus } from '../../shared/api';

export interface BoardProgress {
  readonly received: number;
  readonly total: number;
  /** Whole percent, 0..100 (100 only once every object announced has come). */
  readonly percent: number;
}

/** The board download of a joined session (null otherwise, or when the host had nothing to send). */
export function boardProgress(status: SessionStatus): BoardProgress | null {
  if (status.phase !== 'joined' || status.total <= 0) return null;
  const received = Math.min(status.received, status.total);
  return { received, total: status.total, percent: Math.floor((received * 100) / status.total) };
}
