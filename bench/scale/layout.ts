// Where each scale-bench bot's pointer lives (a 16-wide grid, 1,000 units apart) and who its nearest peers are.
// Pure; knows nothing of sessions.
const COLUMNS = 16;
const SPACING = 1000;

export function home(i: number): { x: number; y: number } {
  return { x: (i % COLUMNS) * SPACING, y: Math.floor(i / COLUMNS) * SPACING };
}

/** The k bots (of 0..total-1, not i) whose homes are closest to i's; ties go to the lower index. */
export function nearest(i: number, total: number, k: number): number[] {
  const me = home(i);
  const d = (j: number): number => {
    const h = home(j);
    return (h.x - me.x) ** 2 + (h.y - me.y) ** 2;
  };
  return Array.from({ length: total }, (_, j) => j)
    .filter((j) => j !== i)
    .sort((a, b) => d(a) - d(b) || a - b)
    .slice(0, k);
}
