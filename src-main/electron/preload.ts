// The sandboxed preload: exposes exactly `window.ghostboard` (GhostboardBridge) over three IPC channels (commands,
// events, the start screen's open dialog), never ipcRenderer itself. Bundled as CommonJS (sandboxed preloads can't be ES modules). Knows nothing of the core.
import type { IpcRendererEvent } from 'electron';
import { contextBridge, ipcRenderer } from 'electron';
import type { ApiCommand, ApiEvent, ApiReply, GhostboardBridge } from '../../shared/api';
import { IPC_CHOOSE_BOARD, IPC_EVENT, IPC_INVOKE } from '../../shared/api';

const bridge: GhostboardBridge = {
  invoke(command: ApiCommand): Promise<ApiReply> {
    return ipcRenderer.invoke(IPC_INVOKE, command) as Promise<ApiReply>;
  },
  subscribe(listener: (event: ApiEvent) => void): () => void {
    const handler = (_event: IpcRendererEvent, apiEvent: ApiEvent): void => {
      listener(apiEvent);
    };
    ipcRenderer.on(IPC_EVENT, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT, handler);
    };
  },
  async chooseBoardFile(): Promise<string | undefined> {
    const path: unknown = await ipcRenderer.invoke(IPC_CHOOSE_BOARD);
    return typeof path === 'string' ? path : undefined;
  },
};

contextBridge.exposeInMainWorld('ghostboard', bridge);
