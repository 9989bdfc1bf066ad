// One seeded edit storm over real processes and lossy proxies (creates, grab-drag-drop moves, deletes from every peer), then a wait for every board to hash like the host's; shared by the vitest suite and the soak program. Knows nothing of vitest.
import { Rng } from '../../src-main/net/rng';
import type { GhostProc } from './harness';
import { Lab, lossyImpairment, num, settledBoards, sleep } from './harness';

export interface StormOptions {
  readonly durationMs: number;
  readonly loss: number;
  readonly delayMs: number;
  /** Hang guard for convergence after the storm. */
  readonly settleLimitMs: number;
}

export const STORM_DEFAULTS: StormOptions = {
  durationMs: 3000,
  loss: 0.1,
  delayMs: 20,
  settleLimitMs: 40_000,
};

export interface StormResult {
  readonly seed: number;
  readonly converged: boolean;
  /** Host first. */
  readonly hashes: readonly string[];
  readonly objects: readonly number[];
  /** Commands written, per actor. */
  readonly commands: readonly number[];
  /** Refusals seen, per actor (lost races are expected; they must not break convergence). */
  readonly refused: readonly number[];
  /** `error` events (malformed commands): a storm that sends any would test less than it claims. */
  readonly errors: number;
  /** Drops the host announced: the storm really moved things. */
  readonly drops: number;
  /** From the end of the storm until every edit was in and every hash matched (or the guard ran out). */
  readonly settleMs: number;
  readonly totalMs: number;
}

const KINDS = ['rect', 'ellipse', 'note', 'text', 'line'] as const;

/** The object ids an actor currently knows, from its own event stream. */
function knownIds(p: GhostProc): number[] {
  const ids = new Set<number>();
  for (const e of p.events) {
    if (e.ev === 'object') ids.add(num(e, 'id'));
    else if (e.ev === 'deleted') ids.delete(num(e, 'id'));
  }
  return [...ids];
}

/** One actor's storm: its choices come from its own RNG, so a seed replays the same intentions. */
async function act(p: GhostProc, rng: Rng, until: number): Promise<number> {
  let sent = 0;
  const coord = (): number => rng.int(2000) - 1000;
  while (performance.now() < until) {
    const ids = knownIds(p);
    const pick = ids[rng.int(Math.max(1, ids.length))];
    const roll = rng.next();
    if (pick === undefined || ids.length < 3 || roll < 0.35) {
      const kind = KINDS[rng.int(KINDS.length)] ?? 'rect';
      const [w, h] = [10 + rng.int(200), 10 + rng.int(200)];
      p.send({ cmd: 'create', kind, x: coord(), y: coord(), w, h, text: `s${rng.int(1000)}` });
      sent++;
    } else if (roll < 0.85) {
      p.send({ cmd: 'grab', id: pick });
      sent++;
      const steps = 1 + rng.int(4);
      let [x, y] = [coord(), coord()];
      for (let i = 0; i < steps; i++) {
        await sleep(15 + rng.int(40));
        [x, y] = [x + rng.int(41) - 20, y + rng.int(41) - 20];
        p.send({ cmd: 'drag', id: pick, x, y });
        sent++;
      }
      p.send(rng.bool(0.15) ? { cmd: 'delete', id: pick } : { cmd: 'drop', id: pick, x, y });
      sent++;
    } else {
      p.send({ cmd: 'delete', id: pick });
      sent++;
    }
    await sleep(30 + rng.int(120));
  }
  return sent;
}

/** Runs one seed end to end in its own lab (host + 3 joiners, each through its own proxy). */
export async function runStorm(
  seed: number,
  o: StormOptions = STORM_DEFAULTS,
): Promise<StormResult> {
  const started = performance.now();
  const lab = new Lab();
  try {
    const impairment = lossyImpairment(o.loss, o.delayMs);
    const names = ['Bea', 'Cal', 'Dev'].map((name) => ({ name }));
    const s = await lab.session(seed, impairment, names, { name: 'Ana' });
    const until = performance.now() + o.durationMs;
    const commands = await Promise.all(
      s.all.map((p, i) => act(p, new Rng(seed * 8 + i + 1), until)),
    );
    const stormEnd = performance.now();
    const { states, settled } = await settledBoards(s.all, o.settleLimitMs, 250);
    const settleMs = performance.now() - stormEnd;
    return {
      seed,
      converged: settled,
      hashes: states.map((b) => b.hash),
      objects: states.map((b) => b.objects),
      commands,
      refused: s.all.map((p) => p.events.filter((e) => e.ev === 'refused').length),
      errors: s.all.reduce((n, p) => n + p.events.filter((e) => e.ev === 'error').length, 0),
      drops: s.host.events.filter((e) => e.ev === 'dropped').length,
      settleMs: Math.round(settleMs),
      totalMs: Math.round(performance.now() - started),
    };
  } finally {
    await lab.close();
  }
}

/** Wraps jobs so that at most `limit` run at once; the others wait their turn in call order. */
export function limiter(limit: number): <R>(job: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    // A finishing job hands its slot straight to the next waiter, so a newcomer can never slip in between.
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/** Runs `fn` over `items` with at most `limit` in flight; results in item order. */
export async function pooled<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
