// React glue shared by ui/ and canvas/: the controller and the tool machines in context, and a hook that
// renders a slice of the store (useSyncExternalStore). Knows nothing of Konva or the bridge.
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Controller } from '../controller/controller';
import type { AppState } from '../store/state';
import type { Tools } from '../tools/Tools';

export const ControllerContext = createContext<Controller | null>(null);

export function useController(): Controller {
  const c = useContext(ControllerContext);
  if (c === null) throw new Error('useController outside ControllerContext');
  return c;
}

export const ToolsContext = createContext<Tools | null>(null);

/** The tool state machines: the canvas forwards pointer events to them, the shortcuts keys. */
export function useTools(): Tools {
  const t = useContext(ToolsContext);
  if (t === null) throw new Error('useTools outside ToolsContext');
  return t;
}

/** Re-renders when the selected slice changes (by identity: select fields, don't build new objects). */
export function useAppState<T>(select: (s: AppState) => T): T {
  const { store } = useController();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

/** A participant colour as CSS. */
export function cssColor(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, '0')}`;
}
