// The top of the UI: the start screen or the board, plus toasts and the app-connection banner. Renders the store.
import type { ReactElement } from 'react';
import { BoardScreen } from './BoardScreen';
import { useAppState } from './context';
import { StartScreen } from './StartScreen';
import { LinkBanner, Toasts } from './Toasts';

export function App(): ReactElement {
  const phase = useAppState((s) => s.status.phase);
  const onBoard = phase === 'hosting' || phase === 'joined';
  return (
    <>
      <LinkBanner />
      {onBoard ? <BoardScreen /> : <StartScreen />}
      <Toasts />
    </>
  );
}
