// The app's impairment must decide exactly as the simulator's SimNetwork.send does for the same seed and inputs.
import { describe, expect, it } from 'vitest';
import type { Bottleneck, Impairment } from './impairment';
import { shapeDatagram } from './impairment';
import { Rng } from './rng';
import { SimNetwork } from './testing/network';
import { UDP_IPV4_OVERHEAD } from './stats';

const ROUGH: Impairment = {
  loss: 0.1,
  delayMs: 20,
  jitterMs: 8,
  reorder: 0.05,
  duplicate: 0.05,
  bandwidthBps: 256_000,
  maxQueueMs: 60,
};

describe('shapeDatagram', () => {
  for (const seed of [1, 7, 2024]) {
    it(`matches SimNetwork.send delivery times (seed ${seed})`, () => {
      const sim = new SimNetwork(new Rng(seed), ROUGH);
      const bottleneck: Bottleneck = { conditions: ROUGH, busyUntil: 0 };
      const rng = new Rng(seed);
      const inputs = new Rng(seed ^ 0x5eed);
      const from = { address: '127.0.0.1', port: 1 };
      const to = { address: '127.0.0.1', port: 2 };
      let now = 0;
      const verdicts = new Set<string>();
      for (let i = 0; i < 2000; i++) {
        now += inputs.next() * 12;
        const size = inputs.range(1, 1200);
        sim.send(now, { from, to, bytes: new Uint8Array(size) });
        const v = shapeDatagram(bottleneck, rng, now, size + UDP_IPV4_OVERHEAD);
        verdicts.add(v.kind);
        const expected = sim.log[i]?.deliveredAt;
        expect(v.kind === 'deliver' ? v.at : [], `seed ${seed} datagram ${i}`).toEqual(expected);
      }
      expect([...verdicts].sort()).toEqual(['deliver', 'lost', 'queue-full']);
    });
  }
});
