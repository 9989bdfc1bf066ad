// The top of the UI: the start screen or the board, plus toasts and the app-connection banner. Renders the store.
import { type ReactElement, useEffect } from 'react';
import { BoardScreen } from './BoardScreen';
import { useAppState } from '../view/context';
import { StartScreen } from '../ui/StartScreen';
import { BridgeBanner, HostAwayBanner, Toasts } from '../ui/Toasts';
import { recentSessions } from '../ui/use-recent';

/** A join that got in is remembered among the recent sessions, under the host's name. */
function useRememberJoined(): void {
  const hostName = useAppState((s) => (s.status.phase === 'joined' ? s.status.hostName : null));
  useEffect(() => {
    if (hostName !== null) recentSessions.joined(hostName, Date.now());
  }, [hostName]);
}

export function App(): ReactElement {
  const phase = useAppState((s) => s.status.phase);
  useRememberJoined();
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
