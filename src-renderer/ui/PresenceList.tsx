// Who is here: name, colour, role, round trip and idle time; the host can make someone a viewer or remove them.
// Renders the store; knows nothing of Konva.
import type { ReactElement } from 'react';
import type { Participant, PathKind } from '../../shared/api';
import type { Controller } from '../controller/controller';
import { pathBadge, pathTip } from '../store/reach-text';
import { formatIdle, selfParticipant } from '../store/selectors';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';
import { Avatar } from './TopBar';

function roleLabel(p: Participant): string {
  if (p.isHost) return 'Host';
  return p.role === 'editor' ? 'Editor' : 'Viewer';
}

function HostActions({ p, controller }: { p: Participant; controller: Controller }): ReactElement {
  const other = p.role === 'editor' ? 'viewer' : 'editor';
  return (
    <div className="person-actions">
      <button
        type="button"
        className="btn ghost small"
        onClick={() => {
          void controller.invoke({ cmd: 'role', peer: p.id, role: other });
        }}
      >
        {other === 'viewer' ? 'Make viewer' : 'Make editor'}
      </button>
      <button
        type="button"
        className="btn ghost small danger"
        onClick={() => {
          void controller.invoke({ cmd: 'kick', peer: p.id });
        }}
      >
        Remove
      </button>
    </div>
  );
}

function PersonRow({
  p,
  amHost,
  path,
}: {
  p: Participant;
  amHost: boolean;
  path: PathKind | undefined;
}): ReactElement {
  const controller = useController();
  const rtt = p.isSelf ? 'this device' : p.rttMs === null ? 'RTT —' : `${Math.round(p.rttMs)} ms`;
  return (
    <li className="person">
      <Avatar p={p} size={30} />
      <div className="person-main">
        <div className="person-name">
          {p.name}
          {p.isSelf && <span className="muted"> (you)</span>}
        </div>
        <div className="person-meta">
          <span className={`badge ${p.isHost ? 'host' : p.role}`}>{roleLabel(p)}</span>
          <span>{rtt}</span>
          {path !== undefined && (
            <span className={`path-badge ${path}`} title={pathTip(path)}>
              {pathBadge(path)}
            </span>
          )}
          <span className={p.idleMs < 10_000 ? 'active-dot' : 'muted'}>{formatIdle(p.idleMs)}</span>
        </div>
      </div>
      {amHost && !p.isSelf && <HostActions p={p} controller={controller} />}
    </li>
  );
}

export function PresenceList(): ReactElement {
  const { store } = useController();
  const participants = useAppState((s) => s.participants);
  const amHost = useAppState((s) => selfParticipant(s)?.isHost ?? false);
  const stats = useAppState((s) => s.stats);
  return (
    <section className="popover presence" aria-label="People">
      <header className="popover-head">
        <h2>People · {participants.length}</h2>
        <button
          type="button"
          className="icon-btn small"
          aria-label="Close"
          onClick={() => {
            store.dispatch({ type: 'panel', panel: 'presence', open: false });
          }}
        >
          <Icon name="close" size={16} />
        </button>
      </header>
      <ul className="people">
        {participants.map((p) => (
          <PersonRow
            key={p.id}
            p={p}
            amHost={amHost}
            path={p.isSelf ? undefined : stats?.peers.find((l) => l.peer === p.id)?.path}
          />
        ))}
      </ul>
    </section>
  );
}
