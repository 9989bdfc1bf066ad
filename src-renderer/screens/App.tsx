// The top of the UI: the start screen or the board, plus toasts and the app-connection banner. Renders the store.
import { type ReactElement, useEffect } from 'react';
import { BoardScreen } from './BoardScreen';
import { useAppState } from '../view/context';
import { StartScreen } from '../ui/StartScreen';
import { BridgeBanner, HostAwayBanner, Toasts } from '../ui/Toasts';
import { recentSessions } from '../ui/use-recent';
import { boardFileTitle } from '../../shared/file-title';

/** A join that got in is remembered among the recent sessions, under the host's name. */
function useRememberJoined(): void {
  const hostName = useAppState((s) => (s.status.phase === 'joined' ? s.status.hostName : null));
  useEffect(() => {
    if (hostName !== null) recentSessions.joined(hostName, Date.now());
  }, [hostName]);
}

/** files: the tab's (web host's) title names the host's open board file, marked while unsaved. */
function useFileTitle(): void {
  const name = useAppState((s) => s.file?.name ?? null);
  const dirty = useAppState((s) => s.file?.dirty ?? false);
  useEffect(() => {
    document.title = boardFileTitle(name === null ? null : { name, dirty });
  }, [name, dirty]);
}

export function App(): ReactElement {
  const phase = useAppState((s) => s.status.phase);
  useRememberJoined();
  useFileTitle();
  const onBoard = phase === 'hosting' || phase === 'joined';
  return (
    <>
      <BridgeBanner />
      <HostAwayBanner />
      {onBoard ? <BoardScreen /> : <StartScreen />}
      <Toasts />
    </>
  );
}
