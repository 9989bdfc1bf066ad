// The board's context menu: a right click on an object, the selection or the bare canvas (or Shift+F10 / the Menu
// key, at the selection) opens it with cut, copy, paste, duplicate, delete, bring to front, send to back,
// lock/unlock and select all, each with its shortcut, disabled when it does not apply. Arrow keys, Home and End
// move between items, Enter or Space runs one, Escape or a click elsewhere closes it; it is kept inside the
// window. Renders the store; the actions are the clipboard module's.
import {
  type ReactElement,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { toScreen, toWorld } from '../board/camera';
import { selectionBounds } from '../board/selection';
import type { Pt } from '../board/simplify';
import type { ClipboardActions } from '../clipboard/clipboard-actions';
import { canEdit } from '../store/selectors';
import { useAppState, useController, useTools } from '../view/context';

const MOD = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+';

interface Item {
  readonly id: string;
  readonly label: string;
  readonly keys: string;
  readonly enabled: boolean;
  readonly run: () => void;
}

interface Open {
  /** Where it shows (CSS px in the window) and the board point it was opened at (a paste lands there). */
  readonly screen: Pt;
  readonly world: Pt | null;
}

/** Window px kept free around the menu. */
const MARGIN = 8;

export function ContextMenu(props: {
  readonly actions: ClipboardActions;
  readonly stageRef: RefObject<HTMLDivElement | null>;
}): ReactElement | null {
  const { actions, stageRef } = props;
  const controller = useController();
  const tools = useTools();
  const [open, setOpen] = useState<Open | null>(null);
  const selection = useAppState((s) => s.selection);
  const board = useAppState((s) => s.board);
  const editable = useAppState(canEdit);
  const menuRef = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<Pt | null>(null);

  // Right click on the board opens it where clicked; Shift+F10 or the Menu key at the selection (or the centre).
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const atClick = (e: MouseEvent): void => {
      // A text box being typed into keeps the browser's own menu (its text's cut, copy and paste).
      const t = e.target;
      if (t instanceof HTMLElement && (t.isContentEditable || t.tagName === 'TEXTAREA')) return;
      e.preventDefault();
      const r = stage.getBoundingClientRect();
      const c = controller.store.getState().camera;
      setOpen({
        screen: { x: e.clientX, y: e.clientY },
        world: toWorld(c, e.clientX - r.left, e.clientY - r.top),
      });
    };
    const byKey = (e: KeyboardEvent): void => {
      const menuKey = e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey);
      if (!menuKey || controller.store.getState().editing !== null) return;
      const t = e.target;
      if (t instanceof HTMLElement && (t.isContentEditable || t.tagName === 'INPUT')) return;
      e.preventDefault();
      const s = controller.store.getState();
      const r = stage.getBoundingClientRect();
      const box = selectionBounds(s.selection.flatMap((id) => s.board.get(id) ?? []));
      const at = box
        ? toScreen(s.camera, box.x + box.w / 2, box.y + box.h / 2)
        : { x: r.width / 2, y: r.height / 2 };
      const x = Math.min(Math.max(at.x, 0), r.width);
      const y = Math.min(Math.max(at.y, 0), r.height);
      setOpen({ screen: { x: r.left + x, y: r.top + y }, world: toWorld(s.camera, x, y) });
    };
    stage.addEventListener('contextmenu', atClick);
    window.addEventListener('keydown', byKey);
    return () => {
      stage.removeEventListener('contextmenu', atClick);
      window.removeEventListener('keydown', byKey);
    };
  }, [controller, stageRef]);

  // Kept inside the window, then the first enabled item focused (keyboard navigable at once).
  useLayoutEffect(() => {
    const el = menuRef.current;
    if (!open || !el) {
      setPlace(null);
      return;
    }
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const x = Math.max(MARGIN, Math.min(open.screen.x, window.innerWidth - w - MARGIN));
    const y = Math.max(MARGIN, Math.min(open.screen.y, window.innerHeight - h - MARGIN));
    setPlace({ x, y });
  }, [open]);
  // Once placed (visible, so focusable): the first enabled item has the focus.
  useEffect(() => {
    const el = menuRef.current;
    if (place === null || !el || el.contains(document.activeElement)) return;
    el.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [place]);

  // A press anywhere else closes it (the press still does what it does there).
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent): void => {
      if (!(e.target instanceof Node) || !menuRef.current?.contains(e.target)) setOpen(null);
    };
    const blur = (): void => {
      setOpen(null);
    };
    window.addEventListener('pointerdown', away, true);
    window.addEventListener('blur', blur);
    window.addEventListener('wheel', blur, true);
    return () => {
      window.removeEventListener('pointerdown', away, true);
      window.removeEventListener('blur', blur);
      window.removeEventListener('wheel', blur, true);
    };
  }, [open]);

  if (!open) return null;
  const chosen = selection.flatMap((id) => board.get(id) ?? []);
  const any = chosen.length > 0;
  const locked = any && chosen.every((o) => o.pinned === 1);
  const free = chosen.some((o) => o.pinned !== 1);
  const items: Item[] = [
    {
      id: 'cut',
      label: 'Cut',
      keys: `${MOD}X`,
      enabled: editable && free,
      run: () => actions.cut(),
    },
    { id: 'copy', label: 'Copy', keys: `${MOD}C`, enabled: any, run: () => actions.copy() },
    {
      id: 'paste',
      label: 'Paste',
      keys: `${MOD}V`,
      enabled: editable,
      run: () => void actions.pasteFromSystem(open.world),
    },
    {
      id: 'duplicate',
      label: 'Duplicate',
      keys: `${MOD}D`,
      enabled: editable && any,
      run: () => actions.duplicate(),
    },
    {
      id: 'delete',
      label: 'Delete',
      keys: 'Del',
      enabled: editable && free,
      run: () => controller.deleteSelection(),
    },
    {
      id: 'front',
      label: 'Bring to front',
      keys: ']',
      enabled: editable && free,
      run: () => actions.restack(true),
    },
    {
      id: 'back',
      label: 'Send to back',
      keys: '[',
      enabled: editable && free,
      run: () => actions.restack(false),
    },
    locked
      ? {
          id: 'unlock',
          label: 'Unlock',
          keys: `${MOD}Shift+L`,
          enabled: editable,
          run: () => actions.setLocked(false),
        }
      : {
          id: 'lock',
          label: 'Lock',
          keys: `${MOD}Shift+L`,
          enabled: editable && any,
          run: () => actions.setLocked(true),
        },
    {
      id: 'select-all',
      label: 'Select all',
      keys: `${MOD}A`,
      enabled: board.size > 0,
      run: () => tools.handle({ type: 'keyDown', key: { key: 'a', mod: true } }),
    },
  ];

  const move = (from: HTMLElement, step: number | 'first' | 'last'): void => {
    const buttons = [
      ...(menuRef.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? []),
    ];
    if (buttons.length === 0) return;
    const at = buttons.indexOf(from as HTMLButtonElement);
    const next =
      step === 'first'
        ? 0
        : step === 'last'
          ? buttons.length - 1
          : (at + step + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };

  return (
    <div
      ref={menuRef}
      className="context-menu"
      role="menu"
      aria-label="Board actions"
      data-testid="context-menu"
      style={{
        left: (place ?? open.screen).x,
        top: (place ?? open.screen).y,
        visibility: place ? 'visible' : 'hidden',
      }}
      onContextMenu={(e) => {
        e.preventDefault();
      }}
      onKeyDown={(e) => {
        const from = e.target as HTMLElement;
        const keys: Record<string, () => void> = {
          ArrowDown: () => {
            move(from, 1);
          },
          ArrowUp: () => {
            move(from, -1);
          },
          Home: () => {
            move(from, 'first');
          },
          End: () => {
            move(from, 'last');
          },
          Escape: () => {
            setOpen(null);
          },
          Tab: () => {
            setOpen(null);
          },
        };
        const run = keys[e.key];
        // Every key stays in the menu while it is open (none reaches the board's shortcuts).
        e.stopPropagation();
        if (run) {
          e.preventDefault();
          run();
        }
      }}
    >
      {items.map((it) => (
        <button
          key={it.id}
          type="button"
          role="menuitem"
          data-testid={`menu-${it.id}`}
          disabled={!it.enabled}
          onClick={() => {
            setOpen(null);
            it.run();
          }}
        >
          <span>{it.label}</span>
          <kbd>{it.keys}</kbd>
        </button>
      ))}
    </div>
  );
}
