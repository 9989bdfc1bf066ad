// Top corners: the session/connection status on the left; people, invite, bandwidth and leave on the right.
// Renders the store; knows nothing of Konva or the bridge.
import type { ReactElement } from 'react';
import type { Participant, SessionStatus } from '../../shared/api';
import { impairmentText } from '../store/bandwidth-words';
import { pathLabel, pathTip } from '../store/reach-text';
import type { BridgeState, Panel } from '../store/state';
import { useAppState, useController } from '../view/context';
import { cssColor } from '../view/context';
import { Icon } from './icons';
import { Logo } from './Logo';

function statusText(
  st: SessionStatus,
  bridge: BridgeState,
  people: number,
  hostRtt: number | null,
): [string, string] {
  if (bridge !== 'open') return ['bad', 'App connection lost'];
  switch (st.phase) {
    case 'hosting':
      return ['good', `Hosting · ${people} ${people === 1 ? 'person' : 'people'}`];
    case 'joined':
      if (st.reconnecting?.nearer === true) return ['busy', 'Moving to a nearer host…'];
      if (st.reconnecting?.elsewhere === true) return ['busy', 'Reconnecting to another host…'];
      if (st.reconnecting !== undefined) return ['busy', `Reconnecting to ${st.hostName}…`];
      if (st.received < st.total) return ['busy', `Loading board ${st.received}/${st.total}`];
      return [
        hostRtt !== null && hostRtt > 250 ? 'warn' : 'good',
        `Connected to ${st.hostName}${hostRtt === null ? '' : ` · ${Math.round(hostRtt)} ms`}`,
      ];
    case 'connecting':
      return [
        'busy',
        st.stage === 'looking-up'
          ? 'Looking up the session…'
          : st.stage === 'relaying'
            ? 'Connecting through the relay…'
            : 'Connecting…',
      ];
    case 'ended':
    case 'idle':
      return ['bad', 'Not connected'];
  }
}

export function StatusPill(): ReactElement {
  const status = useAppState((s) => s.status);
  const bridge = useAppState((s) => s.bridge);
  const participants = useAppState((s) => s.participants);
  const host = participants.find((p) => p.isHost && !p.isSelf);
  const [tone, text] = statusText(status, bridge, participants.length, host?.rttMs ?? null);
  const path = status.phase === 'joined' && bridge === 'open' ? status.path : undefined;
  return (
    <div className="status-pill" role="status" aria-live="polite">
      <Logo size={22} />
      <span className={`dot ${tone}`} aria-hidden="true" />
      <span>{text}</span>
      {path !== undefined && (
        <span
          className={`path-badge ${path}`}
          data-testid="path-badge"
          data-path={path}
          title={pathTip(path)}
        >
          {pathLabel(path)}
        </span>
      )}
    </div>
  );
}

/**
 * While this app impairs its own traffic (the bandwidth panel's network conditions), a badge says so, whatever
 * panel is open and after a reload: it opens the panel, and its × turns the impairment off.
 */
export function ImpairmentBadge(): ReactElement | null {
  const controller = useController();
  // A string: the badge renders again only when the conditions change, not with every stats snapshot.
  const text = useAppState((s) => (s.stats === null ? null : impairmentText(s.stats.conditions)));
  if (text === null) return null;
  return (
    <div className="impairment-badge" data-testid="impairment-badge" role="status">
      <button
        type="button"
        className="impairment-open"
        data-tip="Simulated network conditions · open the bandwidth panel"
        onClick={() => {
          controller.store.dispatch({ type: 'panel', panel: 'bandwidth', open: true });
        }}
      >
        Simulated network: {text}
      </button>
      <button
        type="button"
        className="impairment-off"
        aria-label="Turn simulated network conditions off"
        data-testid="impairment-off"
        onClick={() => {
          void controller
            .invoke({ cmd: 'conditions', conditions: { lossPct: 0, delayMs: 0, kbps: 0 } })
            .then((r) => {
              if (!r.ok) controller.toast('warn', `Conditions not changed: ${r.reason}`);
            });
        }}
      >
        <Icon name="close" size={14} />
      </button>
    </div>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase();
}

export function Avatar({ p, size = 28 }: { p: Participant; size?: number }): ReactElement {
  return (
    <span
      className="avatar"
      style={{ background: cssColor(p.color), width: size, height: size }}
      aria-hidden="true"
    >
      {initials(p.name)}
    </span>
  );
}

function TogglePanelButton(p: {
  panel: Panel;
  icon: 'share' | 'bandwidth' | 'chat' | 'download';
  label: string;
  tip: string;
}): ReactElement {
  const { store } = useController();
  const open = useAppState((s) => s.panels.has(p.panel));
  return (
    <button
      type="button"
      className={`icon-btn${open ? ' active' : ''}`}
      aria-pressed={open}
      aria-label={p.label}
      data-tip={p.tip}
      data-testid={`${p.panel}-toggle`}
      onClick={() => {
        store.dispatch({ type: 'panel', panel: p.panel, open: !open });
      }}
    >
      <Icon name={p.icon} />
    </button>
  );
}

export function TopRight(): ReactElement {
  const controller = useController();
  const participants = useAppState((s) => s.participants);
  const hosting = useAppState((s) => s.status.phase === 'hosting');
  const presenceOpen = useAppState((s) => s.panels.has('presence'));
  const shown = participants.slice(0, 5);
  return (
    <div className="top-right">
      <button
        type="button"
        className={`avatars${presenceOpen ? ' active' : ''}`}
        aria-label={`${participants.length} people here; show the list`}
        data-tip="People"
        onClick={() => {
          controller.store.dispatch({ type: 'panel', panel: 'presence', open: !presenceOpen });
        }}
      >
        {shown.map((p) => (
          <Avatar key={p.id} p={p} />
        ))}
        {participants.length > shown.length && (
          <span className="avatar more">+{participants.length - shown.length}</span>
        )}
      </button>
      <div className="bar">
        {hosting && (
          <TogglePanelButton panel="share" icon="share" label="Invite people" tip="Invite" />
        )}
        <TogglePanelButton panel="export" icon="download" label="Export" tip="Export" />
        <TogglePanelButton
          panel="bandwidth"
          icon="bandwidth"
          label="Bandwidth panel"
          tip="Bandwidth · B"
        />
        <button
          type="button"
          className="icon-btn"
          aria-label="Leave the session"
          data-tip="Leave"
          onClick={() => {
            void controller.invoke({ cmd: 'leave' });
          }}
        >
          <Icon name="leave" />
        </button>
      </div>
    </div>
  );
}
