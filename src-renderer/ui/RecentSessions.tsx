// "Recent": the last sessions this user joined; picking one fills the join form, × forgets it. Renders the
// remembered list; knows nothing of the core.
import type { ReactElement } from 'react';
import { type RecentSession, rememberedAddress } from '../store/recent';
import { joinTarget, recognizeLink } from '../store/reach-text';
import { Icon } from './icons';
import { recentSessions, useRecent } from './use-recent';

export function RecentSessions(p: {
  readonly selected: string;
  readonly pick: (r: RecentSession) => void;
}): ReactElement | null {
  const list = useRecent();
  if (list.length === 0) return null;
  const selected = rememberedAddress(p.selected);
  return (
    <section className="lan recent" aria-label="Recent sessions" data-testid="recent-sessions">
      <h2 className="field-label">Recent</h2>
      <ul className="lan-list">
        {list.map((r) => {
          const isLink = recognizeLink(r.address) !== undefined;
          return (
            <li key={r.address} className="recent-row">
              <button
                type="button"
                className={r.address === selected ? 'lan-item active' : 'lan-item'}
                title={`Join ${r.host} again as ${r.name}`}
                data-testid="recent-session"
                onClick={() => {
                  p.pick(r);
                }}
              >
                <span className="lan-name">{r.host}</span>
                <span className="lan-meta mono">
                  {isLink ? `link · ${joinTarget(r.address)}` : r.address}
                </span>
              </button>
              <button
                type="button"
                className="icon-btn small"
                aria-label={`Forget ${r.host} (${joinTarget(r.address)})`}
                data-testid="recent-remove"
                onClick={() => {
                  recentSessions.remove(r.address);
                }}
              >
                <Icon name="close" size={14} />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
