// One peer's link in the bandwidth panel: rates, RTT, loss, window, packet shaping and traffic by kind.
// Renders a LinkStats; knows nothing of the store or the bridge.
import type { ReactElement } from 'react';
import type { LinkStats } from '../../shared/api';
import type { Participant } from '../../shared/api';
import { pathBadge, pathTip } from '../store/reach-text';
import { cssColor } from '../view/context';

export function kbps(v: number): string {
  if (v >= 1000) return `${(v / 1000).toFixed(2)} Mbit/s`;
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} kbit/s`;
}

function Metric({
  label,
  value,
  tone,
}: {
  label: string;
  value: string;
  tone?: 'warn' | 'bad';
}): ReactElement {
  return (
    <div className="metric">
      <span className="metric-label">{label}</span>
      <span className={`metric-value${tone ? ` ${tone}` : ''}`}>{value}</span>
    </div>
  );
}

function KindBars({ link }: { link: LinkStats }): ReactElement {
  const max = Math.max(1, ...link.byKind.flatMap((k) => [k.kbpsIn, k.kbpsOut]));
  return (
    <table className="kinds">
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">In</th>
          <th scope="col">Out</th>
        </tr>
      </thead>
      <tbody>
        {link.byKind.map((k) => (
          <tr key={k.kind}>
            <th scope="row">{k.kind}</th>
            <td>
              <span className="kbar in" style={{ width: `${(k.kbpsIn / max) * 100}%` }} />
              <span className="knum">{k.kbpsIn.toFixed(1)}</span>
            </td>
            <td>
              <span className="kbar out" style={{ width: `${(k.kbpsOut / max) * 100}%` }} />
              <span className="knum">{k.kbpsOut.toFixed(1)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function PeerStats({
  link,
  who,
}: {
  link: LinkStats;
  who: Participant | null;
}): ReactElement {
  const occupancy = link.windowSize > 0 ? link.inFlight / link.windowSize : 0;
  return (
    <article className="peer-card" aria-label={`Link to ${link.name}`}>
      <header className="peer-head">
        <span className="peer-dot" style={{ background: who ? cssColor(who.color) : '#adb5bd' }} />
        <strong>{link.name}</strong>
        {link.path !== undefined && (
          <span
            className={`path-badge ${link.path}`}
            data-testid="peer-path"
            data-path={link.path}
            title={pathTip(link.path)}
          >
            {pathBadge(link.path)}
          </span>
        )}
        <span className="muted small">
          {link.packetsPerSecond} pkt/s × {link.packetBytes} B
        </span>
      </header>
      <div className="metrics">
        <Metric label="In" value={kbps(link.kbpsIn)} />
        <Metric label="Out" value={kbps(link.kbpsOut)} />
        <Metric
          label="RTT"
          value={`${Math.round(link.rttMs)} ms`}
          {...(link.rttMs > 300 ? { tone: 'warn' as const } : {})}
        />
        <Metric
          label="Loss"
          value={`${link.lossPct.toFixed(1)} %`}
          {...(link.lossPct > 5
            ? { tone: 'bad' as const }
            : link.lossPct > 1
              ? { tone: 'warn' as const }
              : {})}
        />
        <Metric label="Packets in" value={`${Math.round(link.packetsPerSecondIn)}/s`} />
        <Metric label="Packets out" value={`${Math.round(link.packetsPerSecondOut)}/s`} />
        <Metric label="Allowed" value={link.allowedKbps === null ? '—' : kbps(link.allowedKbps)} />
        <Metric
          label="Estimated"
          value={link.estimatedKbps === null ? 'measuring…' : kbps(link.estimatedKbps)}
        />
      </div>
      <div className="window" title="Packets in flight of the send window">
        <span className="metric-label">
          Window {link.inFlight}/{link.windowSize}
        </span>
        <span className="window-track">
          <span
            className={`window-fill${occupancy > 0.85 ? ' full' : ''}`}
            style={{ width: `${Math.min(1, occupancy) * 100}%` }}
          />
        </span>
      </div>
      <KindBars link={link} />
    </article>
  );
}
