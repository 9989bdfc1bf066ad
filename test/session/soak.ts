// The storm soak: `npx tsx test/session/soak.ts --seeds 200 [--from 1] [--parallel 4] [--loss 0.1] [--ms 3000]` runs many seeded edit storms over real processes and prints each failing seed, then a JSON summary as the last line. Knows nothing of vitest.
import { parseArgs } from 'node:util';
import type { StormResult } from './storm';
import { pooled, runStorm, STORM_DEFAULTS } from './storm';
import { killAll } from './harness';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '200' },
    from: { type: 'string', default: '1' },
    parallel: { type: 'string', default: '4' },
    loss: { type: 'string', default: String(STORM_DEFAULTS.loss) },
    ms: { type: 'string', default: String(STORM_DEFAULTS.durationMs) },
  },
});
const count = Number(values.seeds);
const from = Number(values.from);
const parallel = Number(values.parallel);
const options = { ...STORM_DEFAULTS, loss: Number(values.loss), durationMs: Number(values.ms) };
if (![count, from, parallel].every((n) => Number.isInteger(n) && n >= 1) || !(options.loss < 1)) {
  console.error('usage: soak.ts --seeds N [--from S] [--parallel P] [--loss 0..1) [--ms STORM_MS]');
  process.exit(2);
}

type Outcome = StormResult | { readonly seed: number; readonly error: string };

/** Converged, and every board holds as many objects as the host's. */
function passed(r: Outcome): r is StormResult {
  return !('error' in r) && r.converged && new Set(r.objects).size === 1;
}

const started = performance.now();
let done = 0;
const seeds = Array.from({ length: count }, (_, i) => from + i);
const outcomes = await pooled(seeds, parallel, async (seed): Promise<Outcome> => {
  let r: Outcome;
  try {
    r = await runStorm(seed, options);
  } catch (e) {
    r = { seed, error: e instanceof Error ? e.message : String(e) };
  }
  done++;
  if (!passed(r)) console.log(JSON.stringify({ failed: r }));
  else if (done % 10 === 0) console.error(`${done}/${count} seeds`);
  return r;
});
await killAll();

const ok = outcomes.filter(passed);
const settle = ok.map((r) => r.settleMs).sort((a, b) => a - b);
const at = (q: number): number | null => settle[Math.floor(q * (settle.length - 1))] ?? null;
console.log(
  JSON.stringify({
    seeds: count,
    from,
    loss: options.loss,
    stormMs: options.durationMs,
    passed: ok.length,
    failedSeeds: outcomes.filter((r) => !ok.includes(r as StormResult)).map((r) => r.seed),
    commands: ok.reduce((n, r) => n + r.commands.reduce((a, b) => a + b, 0), 0),
    settleMs: { p50: at(0.5), p95: at(0.95), max: at(1) },
    wallSeconds: Math.round((performance.now() - started) / 1000),
  }),
);
process.exit(ok.length === count ? 0 : 1);
