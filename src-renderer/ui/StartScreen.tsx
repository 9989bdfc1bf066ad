// The start screen: host a board or join one, with plain errors for sessions that ended or never started.
// Renders the store; sends 'host' / 'join'. Knows nothing of Konva.
import { type ReactElement, type SubmitEvent, useState } from 'react';
import type { ApiCommand, SessionStatus } from '../../shared/api';
import { endMessage } from '../store/selectors';
import { useAppState, useController } from './context';
import { Field } from './Field';
import { LanSessions } from './LanSessions';
import { Logo } from './Logo';

type Mode = 'host' | 'join';
interface Fields {
  readonly name: string;
  readonly address: string;
  readonly code: string;
  readonly port: string;
}
const NAME_KEY = 'ghostboard.name';

function rememberedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

function rememberName(name: string): void {
  try {
    localStorage.setItem(NAME_KEY, name.trim());
  } catch {
    /* private mode: nothing to remember */
  }
}

function startCommand(mode: Mode, f: Fields): ApiCommand {
  if (mode === 'join')
    return { cmd: 'join', options: { name: f.name, address: f.address, code: f.code } };
  const port = Number.parseInt(f.port, 10);
  return { cmd: 'host', options: { name: f.name, ...(f.port.trim() === '' ? {} : { port }) } };
}

function ModeTabs({ mode, pick }: { mode: Mode; pick: (m: Mode) => void }): ReactElement {
  return (
    <div className="segmented" role="tablist" aria-label="Host or join">
      {(['host', 'join'] as const).map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          data-testid={`${m}-tab`}
          aria-selected={mode === m}
          className={mode === m ? 'active' : ''}
          onClick={() => {
            pick(m);
          }}
        >
          {m === 'host' ? 'Host a board' : 'Join a board'}
        </button>
      ))}
    </div>
  );
}

/** Why the last attempt failed (a refused command, or the session's end reason), or a neutral note. */
function Outcome({
  mode,
  refused,
  status,
}: {
  mode: Mode;
  refused: string | null;
  status: SessionStatus;
}): ReactElement | null {
  const ended = endMessage(status);
  if (refused === null && ended && !ended.isError)
    return <div className="callout info">{ended.text}</div>;
  const error = refused ?? (ended?.isError ? ended.text : null);
  if (error === null) return null;
  const detail = refused === null && status.phase === 'ended' ? status.detail : '';
  return (
    <div className="callout error" role="alert">
      <strong>{mode === 'join' ? "Couldn't join." : "Couldn't host."}</strong> {error}
      {detail !== '' && <div className="callout-detail">{detail}</div>}
    </div>
  );
}

function StartHead(): ReactElement {
  return (
    <header className="start-head">
      <Logo />
      <div>
        <h1>Ghostboard</h1>
        <p className="muted">A shared whiteboard that stays smooth on bad networks.</p>
      </div>
    </header>
  );
}

function ModeFields(p: {
  mode: Mode;
  f: Fields;
  set: (k: keyof Fields) => (v: string) => void;
}): ReactElement {
  const { mode, f, set } = p;
  return (
    <>
      {mode === 'join' ? (
        <>
          <Field
            label="Host address"
            value={f.address}
            onChange={set('address')}
            placeholder="192.168.1.24:47810"
            hint="host:port, or [v6]:port"
            testId="join-address"
          />
          <Field
            label="Join code"
            value={f.code}
            onChange={set('code')}
            placeholder="7-orbit-lantern"
            mono
            testId="join-code"
          />
        </>
      ) : (
        <details className="advanced">
          <summary>Advanced</summary>
          <Field
            label="UDP port"
            value={f.port}
            onChange={set('port')}
            placeholder="7350"
            hint="Empty: 7350 if free, else any free port. 0: any free port."
          />
        </details>
      )}
    </>
  );
}

function SubmitButton(p: { mode: Mode; status: SessionStatus; disabled: boolean }): ReactElement {
  const connecting = p.status.phase === 'connecting';
  return (
    <button
      className="btn primary wide"
      type="submit"
      data-testid={`${p.mode}-button`}
      disabled={p.disabled || connecting}
    >
      {connecting && <span className="spinner" aria-hidden="true" />}
      {p.status.phase === 'connecting'
        ? `Connecting to ${p.status.address}…`
        : p.mode === 'host'
          ? 'Start hosting'
          : 'Join'}
    </button>
  );
}

export function StartScreen(): ReactElement {
  const controller = useController();
  const status = useAppState((s) => s.status);
  const [mode, setMode] = useState<Mode>('host');
  const [f, setF] = useState<Fields>(() => ({
    name: rememberedName(),
    address: '',
    code: '',
    port: '',
  }));
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const set = (k: keyof Fields) => (v: string) => {
    setF((old) => ({ ...old, [k]: v }));
  };

  const submit = (e: SubmitEvent): void => {
    e.preventDefault();
    rememberName(f.name);
    setBusy(true);
    setRefused(null);
    void controller.invoke(startCommand(mode, f)).then((r) => {
      setBusy(false);
      if (!r.ok) setRefused(r.reason);
    });
  };

  const ready =
    f.name.trim() !== '' && (mode === 'host' || (f.address.trim() !== '' && f.code.trim() !== ''));
  return (
    <main className="start">
      <div className="start-card">
        <StartHead />
        <ModeTabs
          mode={mode}
          pick={(m) => {
            setMode(m);
            setRefused(null);
          }}
        />
        <form onSubmit={submit} className="start-form">
          <LanSessions
            selected={mode === 'join' ? f.address : ''}
            pick={(address) => {
              setMode('join');
              setRefused(null);
              set('address')(address);
            }}
          />
          <Field
            label="Your name"
            value={f.name}
            onChange={set('name')}
            placeholder="e.g. Grace"
            autoFocus
            max={40}
            testId={`${mode}-name`}
          />
          <ModeFields mode={mode} f={f} set={set} />
          <Outcome mode={mode} refused={refused} status={status} />
          <SubmitButton mode={mode} status={status} disabled={!ready || busy} />
        </form>
      </div>
      <p className="start-foot muted">
        Hosted on your machine over UDP · encrypted with the join code
      </p>
    </main>
  );
}
