// The bandwidth panel's engineering view of a join to a session with several hosts (mirrors): each host the probes
// reached, its round-trip time, and the one joined. Renders a NearestHosts; knows nothing of the store or the bridge.
import type { ReactElement } from 'react';
import type { NearestHosts } from '../../shared/api';
import { probedHostText } from '../store/bandwidth-words';

export function ProbedHosts({ nearest }: { nearest: NearestHosts }): ReactElement {
  return (
    <section aria-label="Hosts probed">
      <h3 className="section-title">Hosts probed · {nearest.hosts.length}</h3>
      <ul className="probed-hosts" data-testid="probed-hosts">
        {nearest.hosts.map((h, i) => (
          <li
            key={h.address}
            className={i === nearest.chosen ? 'chosen' : undefined}
            data-testid="probed-host"
            data-chosen={i === nearest.chosen}
          >
            <span className="mono">{h.address}</span>
            <span className="probed-rtt">{probedHostText(h)}</span>
            {i === nearest.chosen && <span className="badge host">joined</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
