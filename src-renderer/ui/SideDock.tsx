// The side dock: the export, invite, people and chat panels that are open, stacked in one column beside the board
// (never over it or over each other); the column scrolls if they outgrow it. Renders the store; knows nothing
// of Konva.
import type { ReactElement } from 'react';
import { useAppState } from '../view/context';
import { ChatPanel } from './ChatPanel';
import { ExportPanel } from './ExportPanel';
import { PresenceList } from './PresenceList';
import { SharePanel } from './SharePanel';

export function SideDock(): ReactElement | null {
  const panels = useAppState((s) => s.panels);
  const hosting = useAppState((s) => s.status.phase === 'hosting');
  const share = panels.has('share') && hosting;
  const exporting = panels.has('export');
  if (!share && !exporting && !panels.has('presence') && !panels.has('chat')) return null;
  return (
    <div className="side-dock" data-testid="side-dock">
      {exporting && <ExportPanel />}
      {share && <SharePanel />}
      {panels.has('presence') && <PresenceList />}
      {panels.has('chat') && <ChatPanel />}
    </div>
  );
}
