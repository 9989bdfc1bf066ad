// Latency histograms for the mirrors bench: fixed 0.5 ms buckets, so the users' processes can each count what
// they saw and the bench merges them exactly (percentiles of percentiles would not be). Pure; knows nothing of
// sessions or processes.

/** Bucket width, ms: the figures are quoted to a millisecond, half of one is fine enough. */
export const BUCKET_MS = 0.5;
/** Latencies past this (ms) share the last bucket: a sample that late is a stall, not a latency to resolve. */
const MAX_MS = 10_000;
const LAST = Math.floor(MAX_MS / BUCKET_MS);

/** Bucket index → samples in it; JSON as [[index, count], …] between processes. */
export type Histogram = Map<number, number>;
export type HistogramJson = [number, number][];

export function record(h: Histogram, ms: number): void {
  const i = Math.min(LAST, Math.max(0, Math.floor(ms / BUCKET_MS)));
  h.set(i, (h.get(i) ?? 0) + 1);
}

export function toJson(h: Histogram): HistogramJson {
  return [...h.entries()].sort((a, b) => a[0] - b[0]);
}

/** Adds a histogram that came as JSON (from another process) into `into`; ignores malformed entries. */
export function mergeJson(into: Histogram, j: unknown): void {
  if (!Array.isArray(j)) return;
  for (const e of j as unknown[]) {
    if (!Array.isArray(e)) continue;
    const [i, n] = e as unknown[];
    if (typeof i !== 'number' || typeof n !== 'number') continue;
    into.set(i, (into.get(i) ?? 0) + n);
  }
}

export function count(h: Histogram): number {
  let n = 0;
  for (const c of h.values()) n += c;
  return n;
}

/** The p-th percentile (0..100), ms, as the middle of its bucket; NaN when empty. */
export function percentileOf(h: Histogram, p: number): number {
  const total = count(h);
  if (total === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [i, n] of [...h.entries()].sort((a, b) => a[0] - b[0])) {
    seen += n;
    if (seen >= rank) return (i + 0.5) * BUCKET_MS;
  }
  return NaN;
}
