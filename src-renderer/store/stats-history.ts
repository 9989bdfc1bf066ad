// The last 60 s of total kbit/s in and out, as columns ready for a chart. Pure data; no DOM, no uPlot.
import type { StatsSnapshot } from '../../shared/api';

export interface StatsHistory {
  /** Seconds since the core started. */
  readonly t: readonly number[];
  readonly kbpsIn: readonly number[];
  readonly kbpsOut: readonly number[];
}

export const HISTORY_SECONDS = 60;
export const EMPTY_HISTORY: StatsHistory = { t: [], kbpsIn: [], kbpsOut: [] };

/** Appends a snapshot and drops what is older than the window; a clock that went back starts afresh. */
export function appendStats(h: StatsHistory, s: StatsSnapshot): StatsHistory {
  const t = s.at / 1000;
  const last = h.t.at(-1);
  const base = last !== undefined && t < last ? EMPTY_HISTORY : h;
  let first = 0;
  while (first < base.t.length && (base.t[first] ?? 0) < t - HISTORY_SECONDS) first++;
  return {
    t: [...base.t.slice(first), t],
    kbpsIn: [...base.kbpsIn.slice(first), s.totalKbpsIn],
    kbpsOut: [...base.kbpsOut.slice(first), s.totalKbpsOut],
  };
}
