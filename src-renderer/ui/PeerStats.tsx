// One peer's connection in the bandwidth panel: rates, RTT, loss, window, packet shaping and traffic by kind.
// Renders a ConnectionStats; knows nothing of the store or the bridge.
import type { ReactElement } from 'react';
import type { ConnectionStats } from '../../shared/api';
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

function KindBars({ stats }: { stats: ConnectionStats }): ReactElement {
  const max = Math.max(1, ...stats.byKind.flatMap((k) => [k.kbpsIn, k.kbpsOut]));
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
        {stats.byKind.map((k) => (
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
  stats,
  who,
}: {
  stats: ConnectionStats;
  who: Participant | null;
}): ReactElement {
  const occupancy = stats.windowSize > 0 ? stats.inFlight / stats.windowSize : 0;
  return (
    <article className="peer-card" aria-label={`Link to ${stats.name}`}>
      <header className="peer-head">
        <span className="peer-dot" style={{ background: who ? cssColor(who.color) : '#adb5bd' }} />
        <strong>{stats.name}</strong>
        {stats.path !== undefined && (
          <span
            className={`path-badge ${stats.path}`}
            data-testid="peer-path"
            data-path={stats.path}
            title={pathTip(stats.path)}
          >
            {pathBadge(stats.path)}
          </span>
        )}
        <span className="muted small">
          {stats.packetsPerSecond} pkt/s × {stats.packetBytes} B
        </span>
      </header>
      <div className="metrics">
        <Metric label="In" value={kbps(stats.kbpsIn)} />
        <Metric label="Out" value={kbps(stats.kbpsOut)} />
        <Metric
          label="RTT"
          value={`${Math.round(stats.rttMs)} ms`}
          {...(stats.rttMs > 300 ? { tone: 'warn' as const } : {})}
        />
        <Metric
          label="Loss"
          value={`${stats.lossPct.toFixed(1)} %`}
          {...(stats.lossPct > 5
            ? { tone: 'bad' as const }
            : stats.lossPct > 1
              ? { tone: 'warn' as const }
              : {})}
        />
        <Metric label="Packets in" value={`${Math.round(stats.packetsPerSecondIn)}/s`} />
        <Metric label="Packets out" value={`${Math.round(stats.packetsPerSecondOut)}/s`} />
        <Metric
          label="Allowed"
          value={stats.allowedKbps === null ? '—' : kbps(stats.allowedKbps)}
        />
        <Metric
          label="Estimated"
          value={stats.estimatedKbps === null ? 'measuring…' : kbps(stats.estimatedKbps)}
        />
      </div>
      <div className="window" title="Packets in flight of the send window">
        <span className="metric-label">
          Window {stats.inFlight}/{stats.windowSize}
        </span>
        <span className="window-track">
          <span
            className={`window-fill${occupancy > 0.85 ? ' full' : ''}`}
            style={{ width: `${Math.min(1, occupancy) * 100}%` }}
          />
        </span>
      </div>
      <KindBars stats={stats} />
    </article>
  );
}
