// What a joiner's probes of a session's hosts (mirrors) found, as the renderer's stats and the CLI's `probed` event
// show it. Pure; knows nothing of sockets or of the UI.
import type { NearestHosts } from '../../shared/api';
import { addressKey } from '../net/address';
import type { ProbeOutcome } from '../net/nearest-probe';

/** RTTs to a tenth of a ms: the figures a person or a script compares. */
function tenths(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 10) / 10;
}

export function nearestHosts(o: ProbeOutcome): NearestHosts {
  return {
    hosts: o.candidates.map((c) => ({
      address: addressKey(c.address),
      rttMs: tenths(c.rttMs),
      incompatible: c.incompatible,
    })),
    chosen: o.chosen ?? null,
  };
}

/** The CLI's `probed` event: each host with its RTT (null: no answer), the one joined (null: none), and why not. */
export function probedLine(o: ProbeOutcome): Record<string, unknown> {
  const n = nearestHosts(o);
  return {
    ev: 'probed',
    hosts: n.hosts.map((h) => ({
      address: h.address,
      rttMs: h.rttMs,
      ...(h.incompatible ? { incompatible: true } : {}),
    })),
    chosen: n.chosen === null ? null : (n.hosts[n.chosen]?.address ?? null),
    ...(o.chosen === undefined ? { failure: o.failure } : {}),
  };
}
