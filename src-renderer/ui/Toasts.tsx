// Short-lived messages (refused grabs naming the holder, notices), the "connection to the app lost" banner and
// the "host is not answering" one.
// Renders the store; knows nothing of Konva or the bridge.
import { type ReactElement, useEffect } from 'react';
import type { Toast } from '../store/state';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';

const TOAST_MS = 4500;

function ToastItem({ t }: { t: Toast }): ReactElement {
  const { store } = useController();
  useEffect(() => {
    const timer = setTimeout(() => {
      store.dispatch({ type: 'dismissToast', id: t.id });
    }, TOAST_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [store, t.id]);
  return (
    <li className={`toast ${t.level}`} role={t.level === 'error' ? 'alert' : 'status'}>
      <span>{t.text}</span>
      <button
        type="button"
        className="icon-btn small"
        aria-label="Dismiss"
        onClick={() => {
          store.dispatch({ type: 'dismissToast', id: t.id });
        }}
      >
        <Icon name="close" size={14} />
      </button>
    </li>
  );
}

export function Toasts(): ReactElement {
  const toasts = useAppState((s) => s.toasts);
  return (
    <ol className="toasts">
      {toasts.map((t) => (
        <ToastItem key={t.id} t={t} />
      ))}
    </ol>
  );
}

/**
 * The host has gone quiet: the board stays, read-only, while the app tries to rejoin; a copy can be saved
 * meanwhile (the Export panel).
 */
export function HostAwayBanner(): ReactElement | null {
  const controller = useController();
  const status = useAppState((s) => s.status);
  if (status.phase !== 'joined' || status.reconnecting === undefined) return null;
  const { attempt, elsewhere, nearer } = status.reconnecting;
  return (
    <div className="link-banner host-away" role="alert" data-testid="host-away">
      <span className="spinner" aria-hidden="true" />
      {nearer === true ? (
        <span>
          Moving to a host of this session that answers sooner than {status.hostName}… Your board
          stays here, read-only, until it is live again.
        </span>
      ) : elsewhere === true ? (
        <span>
          {status.hostName} stopped answering. Reconnecting to another host… Your board stays here,
          read-only, until it is live again.
        </span>
      ) : (
        <span>
          {status.hostName} is not answering.{' '}
          {attempt === 0
            ? 'Waiting for them…'
            : `Trying to reconnect${attempt > 1 ? ` (try ${attempt})` : ''}…`}{' '}
          Your board stays here, read-only, until they are back.
        </span>
      )}
      <button
        type="button"
        className="btn small"
        data-testid="host-away-save"
        onClick={() => {
          controller.store.dispatch({ type: 'panel', panel: 'export', open: true });
        }}
      >
        Save a copy
      </button>
    </div>
  );
}

export function BridgeBanner(): ReactElement | null {
  const bridge = useAppState((s) => s.bridge);
  if (bridge === 'open') return null;
  return (
    <div className="link-banner" role="alert">
      <span className="spinner" aria-hidden="true" />
      {bridge === 'lost'
        ? 'Connection to the app lost. Reconnecting…'
        : 'Connecting to the app… Is Ghostboard running?'}
    </div>
  );
}
