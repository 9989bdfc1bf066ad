// The start screen: host a board or join one, with plain errors for sessions that ended or never started.
// Renders the store; sends 'host' / 'join'. Knows nothing of Konva.
import { type ReactElement, type SubmitEvent, useEffect, useState } from 'react';
import type { SessionStatus, StartBoard } from '../../shared/api';
import { recognizeLink } from '../store/reach-text';
import {
  EMPTY_FIELDS,
  type Mode,
  type StartFields,
  startCommand,
  startReady,
  withAddress,
} from '../store/start-form';
import { endMessage } from '../store/selectors';
import { useAppState, useController } from '../view/context';
import { BoardChoice } from './BoardChoice';
import { DirectorySettings } from './DirectorySettings';
import { Field } from './Field';
import { HostFields } from './HostFields';
import { JoinFields } from './JoinFields';
import { JoinProgress } from './JoinProgress';
import { LanSessions } from './LanSessions';
import { Logo } from './Logo';
import { RecentSessions } from './RecentSessions';
import { recentSessions } from './use-recent';

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
  const last = useAppState((s) => s.lastSession);
  if (refused === null && ended && !ended.isError)
    return <div className="callout info">{ended.text}</div>;
  const error = refused ?? (ended?.isError ? ended.text : null);
  if (error === null) return null;
  // A timeout's detail is the link's own words ("nothing heard for …"): the message says it for people.
  const detail =
    refused === null && status.phase === 'ended' && status.reason !== 'timeout'
      ? status.detail
      : '';
  // A session that had started and then ended did not fail to start: it was lost.
  const lost = refused === null && last?.reached === true;
  const head = lost
    ? last.kind === 'join'
      ? 'Disconnected.'
      : 'The session ended.'
    : mode === 'join'
      ? "Couldn't join."
      : "Couldn't host.";
  return (
    <div className="callout error" role="alert">
      <strong>{head}</strong> {error}
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
        ? p.status.stage === 'looking-up'
          ? `Looking up ${p.status.address}…`
          : p.status.stage === 'relaying'
            ? `Relaying to ${p.status.address}…`
            : `Connecting to ${p.status.address}…`
        : p.mode === 'host'
          ? 'Start hosting'
          : 'Join'}
    </button>
  );
}

/**
 * filesleft: the board to host (New unless the user picks one) and the file picked (Open…, an upload, or a board
 * file the OS asked to open, taken once).
 */
function useBoardPick(setMode: (m: Mode) => void): {
  board: StartBoard;
  picked: StartBoard | null;
  pick: (b: StartBoard) => void;
} {
  const controller = useController();
  const openBoard = useAppState((s) => s.openBoard);
  const [board, setBoard] = useState<StartBoard>({ kind: 'new' });
  const [picked, setPicked] = useState<StartBoard | null>(null);
  const pick = (b: StartBoard): void => {
    setBoard(b);
    if (b.kind === 'file' || b.kind === 'upload') setPicked(b);
  };
  useEffect(() => {
    if (openBoard === null) return;
    setMode('host');
    setBoard({ kind: 'file', path: openBoard });
    setPicked({ kind: 'file', path: openBoard });
    controller.store.dispatch({ type: 'openBoardTaken' });
  }, [openBoard, controller, setMode]);
  return { board, picked, pick };
}

/** The form's state, and the opened link (from the OS) taken into it once. */
function useStartForm(): {
  mode: Mode;
  setMode: (m: Mode) => void;
  f: StartFields;
  update: (change: (f: StartFields) => StartFields) => void;
} {
  const controller = useController();
  const openLink = useAppState((s) => s.openLink);
  // Back from a session, the form it came from (a joiner whose host went away sees the join form again).
  const [mode, setMode] = useState<Mode>(
    () => controller.store.getState().lastSession?.kind ?? 'host',
  );
  const [f, setF] = useState<StartFields>(() => ({ ...EMPTY_FIELDS, name: rememberedName() }));
  useEffect(() => {
    if (openLink === null) return;
    setMode('join');
    setF((old) => withAddress({ ...old, code: '' }, openLink));
    controller.store.dispatch({ type: 'openLinkTaken' });
  }, [openLink, controller]);
  return { mode, setMode, f, update: setF };
}

export function StartScreen(): ReactElement {
  const controller = useController();
  const status = useAppState((s) => s.status);
  const directories = useAppState((s) => s.settings.directories.length);
  const { mode, setMode, f, update } = useStartForm();
  const { board, picked, pick } = useBoardPick(setMode);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const set = (k: 'name' | 'code' | 'port' | 'listName') => (v: string) => {
    update((old) => ({ ...old, [k]: v }));
  };
  const toJoin = (): void => {
    setMode('join');
    setRefused(null);
  };

  const submit = (e: SubmitEvent): void => {
    e.preventDefault();
    rememberName(f.name);
    setBusy(true);
    setRefused(null);
    // Noted before sending: the joined status may overtake the reply.
    if (mode === 'join') recentSessions.attempting(f.address, f.name.trim());
    void controller.invoke(startCommand(mode, f, directories, board)).then((r) => {
      setBusy(false);
      if (!r.ok) setRefused(r.reason);
    });
  };

  const viaDirectory = recognizeLink(f.address)?.link.kind === 'directory';
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
              toJoin();
              update((old) => withAddress(old, address));
            }}
          />
          <RecentSessions
            selected={mode === 'join' ? f.address : ''}
            pick={(r) => {
              toJoin();
              update((old) => ({ ...withAddress({ ...old, code: '' }, r.address), name: r.name }));
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
          {mode === 'join' ? (
            <JoinFields
              f={f}
              setAddress={(v) => {
                update((old) => withAddress(old, v));
              }}
              setCode={set('code')}
            />
          ) : (
            <>
              <BoardChoice board={board} picked={picked} pick={pick} />
              <HostFields
                f={f}
                directories={directories}
                set={set}
                setReach={(reach) => {
                  update((old) => ({ ...old, reach }));
                }}
              />
            </>
          )}
          <Outcome mode={mode} refused={refused} status={status} />
          <SubmitButton mode={mode} status={status} disabled={!startReady(mode, f) || busy} />
          {mode === 'join' && <JoinProgress viaDirectory={viaDirectory} />}
        </form>
        <DirectorySettings />
      </div>
      <p className="start-foot muted">
        Hosted on your machine over UDP · encrypted with the join code
      </p>
    </main>
  );
}
