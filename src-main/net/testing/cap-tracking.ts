// Test and benchmark fixture: a greedy sender through a simulated bottleneck whose cap changes every phase;
// reports what got through and what was lost in the second half of each phase. Knows nothing of sessions.
import { addressKey } from '../address';
import { NO_IMPAIRMENT } from '../impairment';
import { SIM_CLIENT, SIM_HOST } from './pair';
import { string } from '../stream/params';
import { RATE_PRESETS } from '../stream/rate';
import { RpcRegistry } from '../stream/rpc';
import { makeStreamPair } from './stream-pair';

export interface CapPhase {
  readonly capKbps: number;
  /** Delivered on the wire (28 B IPv4/UDP per datagram), second half of the phase. */
  readonly achievedKbps: number;
  /** Offered but not delivered (tail drops at the bottleneck), second half of the phase. */
  readonly lossPct: number;
}

/** Host → client bulk reliable events at the lan rate, 30 ms one way, one phase per cap. */
export function runCapTracking(
  seed: number,
  capsKbps: readonly number[],
  phaseMs = 20_000,
): CapPhase[] {
  const registry = new RpcRegistry();
  const Bulk = registry.register('bulk', {
    policy: 'reliableOrdered',
    channel: 1,
    params: { data: string(120) },
  });
  const pair = makeStreamPair({
    seed,
    registry,
    hostRate: RATE_PRESETS.lan,
    clientRate: RATE_PRESETS.lan,
    conditions: { ...NO_IMPAIRMENT, delayMs: 30 },
  });
  pair.net.logging = false;
  const payload = 'x'.repeat(100);
  // A greedy sender: the host keeps 40 messages queued.
  pair.sim.every(10, () => {
    const rpc = pair.hostSide.s.rpc;
    while (rpc.events.queueLength < 40) rpc.send(Bulk, { data: payload });
  });
  const key = `${addressKey(SIM_HOST)}>${addressKey(SIM_CLIENT)}`;
  const phases: CapPhase[] = [];
  for (const cap of capsKbps) {
    pair.net.setConditions(SIM_HOST, SIM_CLIENT, {
      ...NO_IMPAIRMENT,
      delayMs: 30,
      bandwidthBps: cap * 1000,
      maxQueueMs: 200,
    });
    const start = pair.sim.now;
    pair.sim.runUntil(start + phaseMs / 2); // adapt
    const before = { ...(pair.net.wireBytes.get(key) ?? { offered: 0, delivered: 0 }) };
    pair.sim.runUntil(start + phaseMs); // measure
    const after = pair.net.wireBytes.get(key) ?? { offered: 0, delivered: 0 };
    const delivered = after.delivered - before.delivered;
    const offered = after.offered - before.offered;
    phases.push({
      capKbps: cap,
      achievedKbps: (delivered * 8) / (phaseMs / 2),
      lossPct: (100 * (offered - delivered)) / Math.max(1, offered),
    });
  }
  return phases;
}
