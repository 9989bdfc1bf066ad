// "On this network": the sessions other hosts announce on the LAN; picking one fills the join address. Renders
// the store's list; knows nothing of mDNS.
import type { ReactElement } from 'react';
import type { LanSessionInfo } from '../../shared/api';
import { lanJoinAddress, lanShown } from '../store/lan';
import { useAppState } from '../view/context';

function usersText(n: number | null): string {
  return n === null ? '' : n === 1 ? ' · 1 person' : ` · ${n} people`;
}

export function LanSessions(p: {
  readonly selected: string;
  readonly pick: (address: string) => void;
}): ReactElement | null {
  const list = lanShown(useAppState((s) => s.lan));
  if (list.length === 0) return null;
  return (
    <section className="lan" aria-label="Sessions on this network" data-testid="lan-sessions">
      <h2 className="field-label">On this network</h2>
      <ul className="lan-list">
        {list.map((s: LanSessionInfo) => {
          const address = lanJoinAddress(s);
          return (
            <li key={`${s.id}-${address}`}>
              <button
                type="button"
                className={address === p.selected ? 'lan-item active' : 'lan-item'}
                disabled={!s.compatible}
                title={s.compatible ? `Join ${s.name} at ${address}` : 'A different app version'}
                data-testid="lan-session"
                onClick={() => {
                  p.pick(address);
                }}
              >
                <span className="lan-name">{s.name}</span>
                <span className="lan-meta mono">
                  {address}
                  {s.compatible ? usersText(s.users) : ' · other version'}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
