// The docked bandwidth panel: totals, the 60-second chart, each peer's connection, and the network-conditions control.
// Says first, in words, what is sent and whether the links keep up; the engineering figures are one click away.
// Renders the store's latest 'stats'; knows nothing of Konva.
import { type ReactElement, useState } from 'react';
import { bandwidthWords } from '../store/bandwidth-words';
import { BandwidthChart } from './BandwidthChart';
import { ConditionsControl } from './ConditionsControl';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';
import { kbps, PeerStats } from './PeerStats';
import { ProbedHosts } from './ProbedHosts';

export function BandwidthPanel(): ReactElement {
  const { store } = useController();
  const stats = useAppState((s) => s.stats);
  const participants = useAppState((s) => s.participants);
  const packetsIn = stats?.peers.reduce((a, p) => a + p.packetsPerSecondIn, 0) ?? 0;
  const packetsOut = stats?.peers.reduce((a, p) => a + p.packetsPerSecondOut, 0) ?? 0;
  const words = bandwidthWords(stats);
  const [details, setDetails] = useState(false);
  return (
    <aside className="dock" aria-label="Bandwidth">
      <header className="dock-head">
        <h2>Bandwidth</h2>
        <span className="live-dot" aria-hidden="true" />
        <span className="muted small">live</span>
        <button
          type="button"
          className="icon-btn small push-right"
          aria-label="Close the bandwidth panel"
          onClick={() => {
            store.dispatch({ type: 'panel', panel: 'bandwidth', open: false });
          }}
        >
          <Icon name="close" size={16} />
        </button>
      </header>
      <div className="dock-body">
        <section className={`link-summary ${words.tone}`} data-testid="bandwidth-summary">
          <h3>{words.headline}</h3>
          {words.lines.map((l) => (
            <p key={l}>{l}</p>
          ))}
        </section>
        <div className="totals">
          <div className="total in">
            <span className="metric-label">Total in</span>
            <span className="total-value" data-testid="bandwidth-total-in">
              {kbps(stats?.totalKbpsIn ?? 0)}
            </span>
            <span className="muted small">{Math.round(packetsIn)} packets/s</span>
          </div>
          <div className="total out">
            <span className="metric-label">Total out</span>
            <span className="total-value" data-testid="bandwidth-total-out">
              {kbps(stats?.totalKbpsOut ?? 0)}
            </span>
            <span className="muted small">{Math.round(packetsOut)} packets/s</span>
          </div>
        </div>
        <button
          type="button"
          className="details-toggle"
          aria-expanded={details}
          data-testid="bandwidth-details"
          onClick={() => {
            setDetails(!details);
          }}
        >
          {details ? 'Hide the engineering details' : 'Show the engineering details'}
        </button>
        {details && (
          <>
            <BandwidthChart />
            {stats?.nearest !== undefined && <ProbedHosts nearest={stats.nearest} />}
            <h3 className="section-title">Peers · {stats?.peers.length ?? 0}</h3>
            {stats === null && <p className="muted small">Waiting for the first measurement…</p>}
            {stats?.peers.length === 0 && <p className="muted small">Nobody connected yet.</p>}
            {stats?.peers.map((peer) => (
              <PeerStats
                key={peer.peer}
                stats={peer}
                who={participants.find((p) => p.id === peer.peer) ?? null}
              />
            ))}
          </>
        )}
        <ConditionsControl />
      </div>
    </aside>
  );
}
