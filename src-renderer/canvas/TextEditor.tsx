// The HTML textarea laid over a text or sticky note being edited: each change is sent as one splice; an empty
// text box is deleted when editing ends, a text box grows to fit. Store in, controller out; draws no Konva.
import { type CSSProperties, type ReactElement, useEffect, useMemo, useRef, useState } from 'react';
import type { BoardObject } from '../../shared/board';
import { colorToCss, MAX_SIZE } from '../../shared/board';
import type { Camera } from '../board/camera';
import { TextSession } from '../controller/text-session';
import { shownObject } from '../store/selectors';
import { useAppState, useController } from '../view/context';
import {
  FONT_FAMILY,
  LINE_HEIGHT,
  NOTE_FONT_SIZE,
  NOTE_PADDING,
  TEXT_FONT_SIZE,
} from './shape-bodies';

function boxStyle(o: BoardObject, c: Camera): CSSProperties {
  const note = o.kind === 'note';
  const pad = note ? NOTE_PADDING * c.scale : 0;
  return {
    left: c.x + o.x * c.scale,
    top: c.y + o.y * c.scale,
    width: o.w * c.scale,
    ...(note ? { height: o.h * c.scale } : { minHeight: o.h * c.scale }),
    padding: pad,
    fontSize: (note ? NOTE_FONT_SIZE : TEXT_FONT_SIZE) * c.scale,
    lineHeight: LINE_HEIGHT,
    fontFamily: FONT_FAMILY,
    color: note ? '#1e1e1e' : colorToCss(o.stroke ?? 0x1e1e1e),
    transform: o.rotation === 0 ? undefined : `rotate(${o.rotation / 10}deg)`,
  };
}

function Editor({ o, camera }: { o: BoardObject; camera: Camera }): ReactElement {
  const controller = useController();
  const ref = useRef<HTMLTextAreaElement>(null);
  const session = useMemo(
    () => new TextSession(o.id, o.text, (c) => controller.invoke(c)),
    [controller, o.id],
  );
  const [value, setValue] = useState(session.text);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (el && o.kind === 'text') {
      el.style.height = 'auto';
      el.style.height = `${el.scrollHeight}px`;
    }
  }, [value, o.kind]);

  const finish = (): void => {
    const el = ref.current;
    controller.store.dispatch({ type: 'editing', id: null });
    if (o.kind !== 'text' || !el) return;
    if (session.text.trim() === '') {
      void controller.invoke({ cmd: 'delete', ids: [o.id] });
      return;
    }
    const h = Math.min(MAX_SIZE, Math.ceil(el.scrollHeight / camera.scale));
    if (Math.abs(h - o.h) > 1) controller.edit(o.id, { h });
  };

  return (
    <textarea
      ref={ref}
      className={`text-editor ${o.kind}`}
      style={boxStyle(o, camera)}
      value={value}
      rows={1}
      spellCheck
      aria-label={o.kind === 'note' ? 'Sticky note text' : 'Text'}
      onChange={(e) => {
        if (session.change(e.target.value)) setValue(e.target.value);
        else controller.toast('warn', 'That is as much text as one object can hold.');
      }}
      onBlur={finish}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
          e.preventDefault();
          ref.current?.blur();
        }
      }}
    />
  );
}

export function TextEditor(): ReactElement | null {
  const editing = useAppState((s) => s.editing);
  const board = useAppState((s) => s.board);
  const moves = useAppState((s) => s.moves);
  const edits = useAppState((s) => s.edits);
  const camera = useAppState((s) => s.camera);
  const raw = editing === null ? undefined : board.get(editing);
  if (!raw) return null;
  return <Editor key={raw.id} o={shownObject({ moves, edits }, raw)} camera={camera} />;
}
