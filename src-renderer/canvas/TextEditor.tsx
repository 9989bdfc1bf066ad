// The HTML textarea laid over a text or sticky note being edited: each change is sent as one splice, and others'
// typing into the same text shows as it comes, the caret and selection moving with it (textot); an empty
// text box is deleted when editing ends, a text box grows to fit. A note or text just placed is edited under
// its provisional id: the box is on screen and focused in the click's own frame, and stays mounted (with what
// was typed) when the host's id replaces the provisional one. Store in, controller out; draws no Konva.
import {
  type CSSProperties,
  type ReactElement,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { BoardObject } from '../../shared/board';
import { colorToCss, MAX_SIZE } from '../../shared/board';
import { transformIndex } from '../../shared/text-ot';
import type { Camera } from '../board/camera';
import { isProvisional } from '../store/drafts';
import { editedObject } from '../store/selectors';
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

function Editor(p: { o: BoardObject; camera: Camera; editKey: number }): ReactElement {
  const { o, camera, editKey } = p;
  const controller = useController();
  const ref = useRef<HTMLTextAreaElement>(null);
  // One session per opening of the editor (editKey), whatever id the object has meanwhile; it starts with what
  // was typed before the box showed.
  const [session] = useState(() => controller.textSession(editKey, o.id, o.text));
  const [value, setValue] = useState(session.text);

  // Layout, not passive: focused in the commit that shows the box, before the next key press is handled.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
    return controller.editorKeys.attach(editKey, { focus: () => el.focus() });
  }, [controller, editKey]);

  // Others' typing: the box takes the session's text, and the selection follows the splice (it stays before
  // someone else's typing at the caret). Set on the element at once, so the next key lands where the user sees.
  useLayoutEffect(() => {
    session.onRemote = (op) => {
      const el = ref.current;
      if (el) {
        const start = transformIndex(el.selectionStart, op, true);
        const end = transformIndex(el.selectionEnd, op, true);
        const direction = el.selectionDirection;
        el.value = session.text;
        el.setSelectionRange(start, end, direction);
      }
      setValue(session.text);
    };
    // Not closed here (a development remount runs this twice): finishing closes it, or the next opening does.
    return () => {
      session.onRemote = undefined;
    };
  }, [session]);

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
    session.close();
    // A draft closed before its id came keeps showing what was typed (the splice follows the id).
    if (isProvisional(o.id))
      controller.store.dispatch({ type: 'edited', id: o.id, patch: { text: session.text } });
    if (o.kind !== 'text' || !el) return;
    if (session.text.trim() === '') {
      controller.remove(o.id);
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
  const editKey = useAppState((s) => s.editKey);
  const board = useAppState((s) => s.board);
  const drafts = useAppState((s) => s.drafts);
  const moves = useAppState((s) => s.moves);
  const edits = useAppState((s) => s.edits);
  const camera = useAppState((s) => s.camera);
  const o = editedObject({ editing, board, drafts, moves, edits });
  if (!o) return null;
  return <Editor key={editKey} o={o} camera={camera} editKey={editKey} />;
}
