// Remote telepointers and ghosts of objects others are dragging, resizing or rotating (a whole selection: every
// object its holder holds), on their own layer, moved every animation frame from the interpolated tracks (interp/). React re-renders it only when who is shown changes, never per frame.
import type Konva from 'konva';
import { type ReactElement, useEffect, useRef, useState } from 'react';
import { Group, Layer } from 'react-konva';
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';
import { colorToCss } from '../../shared/board';
import { withHeldObjects } from '../interp/held-drags';
import type { LiveDrag, LiveFrame } from '../interp/remote-live';
import { useAppState, useController } from '../view/context';
import { Ghost, GHOST_BODY, GHOST_BOX, GHOST_TAG, Pointer } from './LiveShapes';
import type { PositionMirror } from './position-mirror';

interface Shown {
  readonly pointers: readonly PeerId[];
  readonly drags: readonly { peer: PeerId; id: ObjectId; dropped: boolean; shaped: boolean }[];
}

const keyOf = (s: Shown): string =>
  `${s.pointers.join(',')}|${s.drags.map((d) => `${d.peer}:${d.id}:${d.dropped ? 1 : 0}:${d.shaped ? 1 : 0}`).join(',')}`;

const ghostId = (peer: PeerId, id: ObjectId): string => `ghost-${peer}-${id}`;

function shownOf(f: LiveFrame): Shown {
  return {
    pointers: f.pointers.map((p) => p.peer),
    drags: f.drags.map((d) => ({
      peer: d.peer,
      id: d.id,
      dropped: d.dropped,
      shaped: d.shape !== undefined,
    })),
  };
}

/**
 * Puts a ghost where its drag is now: moved, or (a resize or rotate) turned, its body scaled from the board's
 * size to the live one as the holder's own canvas scales it, and its outline sized to match.
 */
function placeGhost(g: Konva.Group, o: BoardObject, d: LiveDrag): void {
  g.position(d);
  const w = d.shape?.w ?? o.w;
  const h = d.shape?.h ?? o.h;
  const degrees = (d.shape?.rotation ?? o.rotation) / 10;
  g.rotation(degrees);
  // The name stays upright however the object turns.
  g.findOne(`.${GHOST_TAG}`)?.rotation(-degrees);
  g.findOne(`.${GHOST_BODY}`)?.scale({ x: o.w > 0 ? w / o.w : 1, y: o.h > 0 ? h / o.h : 1 });
  g.findOne<Konva.Rect>(`.${GHOST_BOX}`)?.size({ width: w + 8, height: h + 8 });
}

/** Runs the per-frame loop: positions nodes imperatively, and reports structure changes to React. */
function useLiveFrames(
  layerRef: React.RefObject<Konva.Layer | null>,
  mirror: PositionMirror,
): Shown {
  const controller = useController();
  const [shown, setShown] = useState<Shown>({ pointers: [], drags: [] });
  const shownKey = useRef(keyOf(shown));
  useEffect(() => {
    let raf = 0;
    const tick = (): void => {
      const now = performance.now();
      const board = controller.store.getState().board;
      const frame = withHeldObjects(controller.live.frame(now), board);
      const next = shownOf(frame);
      const key = keyOf(next);
      if (key !== shownKey.current) {
        shownKey.current = key;
        setShown(next);
      }
      const ghosted = controller.live.ghosted(now);
      for (const d of frame.drags) ghosted.add(d.id);
      controller.store.dispatch({ type: 'ghosted', ids: ghosted });
      const layer = layerRef.current;
      if (layer) {
        for (const p of frame.pointers) layer.findOne(`#ptr-${p.peer}`)?.position(p);
        for (const d of frame.drags) {
          const g = layer.findOne<Konva.Group>(`#${ghostId(d.peer, d.id)}`);
          const o = board.get(d.id);
          if (g && o) placeGhost(g, o, d);
        }
        if (layer.isVisible()) layer.batchDraw();
      }
      mirror.frame(frame);
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(raf);
    };
  }, [controller, layerRef, mirror]);
  return shown;
}

export function LiveLayer({ mirror }: { mirror: PositionMirror }): ReactElement {
  const controller = useController();
  const participants = useAppState((s) => s.participants);
  const board = useAppState((s) => s.board);
  const camera = useAppState((s) => s.camera);
  const scale = camera.scale;
  const layerRef = useRef<Konva.Layer>(null);
  const shown = useLiveFrames(layerRef, mirror);

  const who = (peer: PeerId): { name: string; color: string } => {
    const p = participants.find((q) => q.id === peer);
    return { name: p?.name ?? 'Someone', color: p ? colorToCss(p.color) : '#868e96' };
  };
  const dragging = new Set(shown.drags.filter((d) => !d.dropped).map((d) => d.peer));

  return (
    // Hidden while it shows nothing: an empty canvas cleared each frame still costs the page a copy of its
    // pixels to the compositor every frame (about 1.3 ms a frame on the CPU at 1280×800).
    <Layer
      ref={layerRef}
      x={camera.x}
      y={camera.y}
      scaleX={scale}
      scaleY={scale}
      visible={shown.pointers.length + shown.drags.length > 0}
    >
      {shown.drags.map(({ peer, id, shaped }, i) => {
        const o = board.get(id);
        if (!o) return null;
        const { name, color } = who(peer);
        // One name tag per peer, on its first ghost (the object it reports dragging).
        const labelled = shown.drags.findIndex((d) => d.peer === peer) === i;
        return (
          <Group
            key={ghostId(peer, id)}
            id={ghostId(peer, id)}
            x={o.x}
            y={o.y}
            rotation={o.rotation / 10}
            onPointerDown={() => {
              controller.toast('info', `${name} is moving this right now.`);
            }}
          >
            <Ghost
              o={o}
              name={name}
              color={color}
              scale={scale}
              labelled={labelled}
              shaped={shaped}
            />
          </Group>
        );
      })}
      {shown.pointers.map((peer) => {
        const { name, color } = who(peer);
        return (
          <Group key={`ptr-${peer}`} id={`ptr-${peer}`} listening={false}>
            <Pointer name={name} color={color} scale={scale} labelled={!dragging.has(peer)} />
          </Group>
        );
      })}
    </Layer>
  );
}
