import { describe, expect, it } from 'vitest';
import type { Impairment } from '../net/impairment';
import { NO_IMPAIRMENT } from '../net/impairment';
import { Rng } from '../net/rng';
import type { CrimpConfig } from './crimp';
import { DEFAULT_CRIMP_CONFIG } from './crimp';
import { CrimpSim } from './testing/crimp-sim';

const SEEDS = Number(process.env.GB_SIM_SEEDS ?? 200);

/** Lossy, jittery, reordering, duplicating directions, each its own delay (asymmetric paths). */
function lossyConditions(seed: number, loss: number): () => Impairment {
  const rng = new Rng(seed ^ 0x1a55);
  return () => ({
    ...NO_IMPAIRMENT,
    loss,
    delayMs: rng.range(5, 60),
    jitterMs: rng.range(0, 20),
    reorder: 0.05,
    duplicate: 0.05,
  });
}

interface Figures {
  lost: number;
  naks: number;
  repairs: number;
}

/** Every mirror originates at random for 1 s, then the lossy mesh runs on until quiet: all must be in and released. */
function runSeed(
  seed: number,
  mirrors: number,
  loss: number,
  config: Partial<CrimpConfig>,
): Figures {
  const s = new CrimpSim({ seed, mirrors, config, conditions: lossyConditions(seed, loss) });
  const trafficEnd = 1_000;
  s.sim.every(10, (now) => {
    if (now > trafficEnd) return;
    for (const node of s.nodes) {
      if (!s.rng.bool(0.3)) continue;
      const payload = s.rng.bytes(s.rng.range(0, 200));
      expect(s.originate(node, payload), `seed ${seed}: originate refused`).toBe(true);
    }
  });
  // Quiescence: every mirror has every payload and has released it (checked every 100 ms), or a deadline.
  let quiet = false;
  s.sim.every(
    100,
    () => {
      quiet = s.nodes.every(
        (n) =>
          n.deliveries.size + n.group.stats().originated === s.originatedAt.size &&
          n.group.stats().bufferedPayloads === 0,
      );
    },
    trafficEnd,
  );
  s.sim.runUntilTrue(() => quiet, trafficEnd + 30_000);
  const msg = `seed ${seed} (${mirrors} mirrors)`;
  for (const node of s.nodes) {
    // Plain checks in the loop (thousands of payloads per seed); one expect names the first failure.
    const wrong: string[] = [];
    let own = 0;
    for (const key of s.originatedAt.keys()) {
      if (key.startsWith(`${node.id}:`)) own++;
      else if (node.deliveries.get(key)?.count !== 1)
        wrong.push(`${key} x${node.deliveries.get(key)?.count ?? 0}`);
    }
    expect(wrong.slice(0, 5), `${msg}: mirror ${node.id}'s deliveries`).toEqual([]);
    expect(node.deliveries.size, `${msg}: mirror ${node.id} delivered extra`).toBe(
      s.originatedAt.size - own,
    );
    const st = node.group.stats();
    expect(
      [st.bufferedPayloads, st.bufferedBytes, st.pendingRequests],
      `${msg}: mirror ${node.id} still holds payloads, bytes, requests`,
    ).toEqual([0, 0, 0]);
    expect(
      st.members.filter((m) => m.out !== null),
      `${msg}: nobody declared out`,
    ).toEqual([]);
  }
  const sum = (f: (n: ReturnType<(typeof s.nodes)[number]['group']['stats']>) => number): number =>
    s.nodes.reduce((a, n) => a + f(n.group.stats()), 0);
  return {
    lost: s.lostFirstTransmissions,
    naks: sum((st) => st.naksSent),
    repairs: sum((st) => st.repairsSent),
  };
}

const LOSS = 0.2;
/**
 * Bounds from the design for the SRM path (larger groups), on average per first transmission lost. A request
 * round succeeds when its NAK and the repair both get through, so a missing payload costs 1/(1-p)^2 rounds on
 * average; suppression keeps a round to one NAK however many mirrors miss the payload, so NAKs per loss stay below
 * 1/(1-p)^2. The origin answers every NAK that reaches it at once; the other holders wait two to three one-way
 * delays to the requester, by when they have mostly heard the origin's repair and hold theirs: on average under
 * two repairs per round that got its NAK through, 2/(1-p) per loss. Without suppression every holder would repair
 * every NAK: (n-1)/(1-p)^2.
 */
const SRM_BOUNDS = { naks: 1 / (1 - LOSS) ** 2, repairs: 2 / (1 - LOSS) };
/**
 * A small group trades messages for latency (fastRepairMaxMembers): a round asks at most fastAskTargets members
 * fastMaxCopies times each, and a round fails only if every one of those NAKs or its repair was lost, so a gap
 * costs fewer than 1/(1-p)^2 rounds of at most copies x targets NAKs; every repair answers a NAK that arrived.
 * Gaps from reordering count too, so the bound is per first transmission lost only on average and loosely.
 */
const FAST_ROUND_NAKS = DEFAULT_CRIMP_CONFIG.fastMaxCopies * DEFAULT_CRIMP_CONFIG.fastAskTargets;
const FAST_BOUNDS = {
  naks: FAST_ROUND_NAKS / (1 - LOSS) ** 2,
  repairs: FAST_ROUND_NAKS / (1 - LOSS),
};

const CASES = [
  { mirrors: 3, path: 'fast repair', config: {}, bounds: FAST_BOUNDS },
  { mirrors: 3, path: 'SRM', config: { fastRepairMaxMembers: 0 }, bounds: SRM_BOUNDS },
  { mirrors: 5, path: 'SRM', config: {}, bounds: SRM_BOUNDS },
] as const;

describe('CRIMP over lossy simulated links', () => {
  for (const { mirrors, path, config, bounds } of CASES) {
    it(`delivers every payload exactly once to every mirror at 20 % loss and releases it (${mirrors} mirrors, ${path}, ${SEEDS} seeds)`, () => {
      const total: Figures = { lost: 0, naks: 0, repairs: 0 };
      for (let seed = 1; seed <= SEEDS; seed++) {
        let f: Figures;
        try {
          f = runSeed(seed, mirrors, LOSS, config);
        } catch (e) {
          // Whatever threw (an assertion, or the harness seeing a spin), the seed goes with it.
          if (e instanceof Error && !e.message.includes(`seed ${seed}`))
            e.message = `seed ${seed} (${mirrors} mirrors): ${e.message}`;
          throw e;
        }
        total.lost += f.lost;
        total.naks += f.naks;
        total.repairs += f.repairs;
      }
      const naksPerLoss = total.naks / total.lost;
      const repairsPerLoss = total.repairs / total.lost;
      console.log(
        `crimp ${mirrors} mirrors (${path}), 20% loss, ${SEEDS} seeds: ${total.lost} first transmissions lost, ${naksPerLoss.toFixed(3)} NAKs and ${repairsPerLoss.toFixed(3)} repairs per loss`,
      );
      expect(total.lost).toBeGreaterThan(SEEDS);
      expect(naksPerLoss).toBeLessThan(bounds.naks);
      expect(repairsPerLoss).toBeLessThan(bounds.repairs);
    });
  }
});
