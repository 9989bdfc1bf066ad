// The board screen's layout: the board area (canvas with a dotted grid that follows the camera, and the small
// floating controls: status, tool bar, people and panel toggles, zoom, chat button), the tool options docked
// below it, and the side dock (invite, people, chat) and the bandwidth panel docked to its right. Panels are
// docked, never floated over the canvas: the canvas is what is left, so a gesture on it is always the board's.
// The one place that mounts both canvas/ and ui/, which never import each other. Renders the store; knows
// nothing of Konva beyond mounting the canvas.
import { type ReactElement, useEffect, useRef, useState } from 'react';
import type { Size } from '../board/camera';
import { BoardCanvas } from '../canvas/BoardCanvas';
import { useClipboard } from '../clipboard/use-clipboard';
import { TextEditor } from '../canvas/TextEditor';
import { BandwidthPanel } from '../ui/BandwidthPanel';
import { ChatButton } from '../ui/ChatPanel';
import { ContextMenu } from '../ui/ContextMenu';
import { useAppState, useController } from '../view/context';
import { SideDock } from '../ui/SideDock';
import { StylePanel } from '../ui/StylePanel';
import { Toolbar } from '../ui/Toolbar';
import { ImpairmentBadge, StatusPill, TopRight } from '../ui/TopBar';
import { useShortcuts } from '../ui/use-shortcuts';
import { useImageInput } from '../ui/use-image-input';
import { ImageUploads } from '../ui/ImageUploads';
import { browserStorage } from '../ui/use-recent';
import { BoardProgress } from '../ui/BoardProgress';
import { fitBoard } from '../ui/ZoomControls';
import { firstInviteOf } from '../store/invite-once';
import { ZoomControls } from '../ui/ZoomControls';
import { useGrid } from './use-grid';

function useSize(ref: React.RefObject<HTMLDivElement | null>): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      setSize({ width: el.clientWidth, height: el.clientHeight });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
    };
  }, [ref]);
  return size;
}

export function BoardScreen(): ReactElement {
  const controller = useController();
  const stageRef = useRef<HTMLDivElement>(null);
  const size = useSize(stageRef);
  const clipboard = useClipboard(controller, size);
  const space = useShortcuts(controller, size, clipboard);
  useImageInput(controller, stageRef, size);
  const panels = useAppState((s) => s.panels);
  const status = useAppState((s) => s.status);
  const fitted = useRef(false);

  useEffect(() => {
    if (firstInviteOf(browserStorage(), status))
      controller.store.dispatch({ type: 'panel', panel: 'share', open: true });
  }, [controller, status]);

  useEffect(() => {
    if (fitted.current || size.width === 0) return;
    fitted.current = true;
    fitBoard(controller.store, size);
  }, [controller, size]);

  const gridRef = useRef<HTMLDivElement>(null);
  useGrid(stageRef, gridRef, controller.store);
  return (
    <div className="board-screen">
      <div className="board-main">
        <div className="board-area">
          <div ref={stageRef} className="board-canvas" data-testid="board-stage">
            <div ref={gridRef} className="board-grid" data-testid="board-grid" aria-hidden="true" />
            {size.width > 0 && <BoardCanvas size={size} spaceHeld={space} />}
            <TextEditor />
          </div>
          <div className="board-top">
            <div className="top-left">
              <StatusPill />
              <ImpairmentBadge />
            </div>
            <Toolbar />
            <TopRight />
          </div>
          <ZoomControls size={size} />
          <BoardProgress />
          <ImageUploads />
          <ChatButton />
        </div>
        <StylePanel />
      </div>
      <SideDock />
      {panels.has('bandwidth') && <BandwidthPanel />}
      <ContextMenu actions={clipboard} stageRef={stageRef} />
    </div>
  );
}
