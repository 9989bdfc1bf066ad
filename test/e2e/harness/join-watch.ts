// In a joiner's page: clicks Join, then records every value of the board's progress bar (whole percent, objects
// received of the total) until it reaches the total, and the frame after. For the bigjoin bench and the e2e test
// that the bar fills. Plain JS in a string: the page runs it, and the Node side has no DOM types. Knows nothing
// of the app beyond data-testid attributes.

/** Times in ms from the click on Join; Infinity when it did not happen in time. */
export interface JoinWatch {
  /** The board screen showed (the joined status). */
  readonly joined: number;
  /** Each value the bar showed, in order. */
  readonly values: readonly {
    readonly t: number;
    readonly pct: number;
    readonly received: number;
    readonly total: number;
  }[];
  /** The bar reached the total; the frame after it. */
  readonly done: number;
  readonly painted: number;
}

const WATCH_JOIN = `(giveUpMs) => new Promise((resolve) => {
  const t0 = performance.now();
  const values = [];
  let joined = -1;
  let finished = false;
  const look = () => {
    if (finished) return;
    if (joined < 0 && document.querySelector('[data-testid="board-stage"]') !== null)
      joined = performance.now() - t0;
    const bar = document.querySelector('[data-testid="board-progress"]');
    if (bar === null) return;
    const pct = Number(bar.getAttribute('aria-valuenow'));
    const received = Number(bar.getAttribute('data-received'));
    const total = Number(bar.getAttribute('data-total'));
    const last = values[values.length - 1];
    if (last === undefined || last.pct !== pct || last.received !== received)
      values.push({ t: performance.now() - t0, pct, received, total });
    if (total > 0 && received >= total) {
      finished = true;
      observer.disconnect();
      const done = performance.now() - t0;
      requestAnimationFrame(() =>
        requestAnimationFrame(() => resolve({ joined, values, done, painted: performance.now() - t0 })),
      );
    }
  };
  const observer = new MutationObserver(look);
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-valuenow', 'data-received'],
  });
  setTimeout(() => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    resolve({ joined, values, done: Infinity, painted: Infinity });
  }, giveUpMs);
  document.querySelector('[data-testid="join-button"]').click();
})`;

/** The expression to evaluate in the page (after the Join form is filled); it resolves to a JoinWatch. */
export function watchJoinScript(giveUpMs: number): string {
  return `(${WATCH_JOIN})(${giveUpMs})`;
}
