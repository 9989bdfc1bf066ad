// Picks the bridge to the app core: Electron's preload, else the web host's WebSocket, else (only with ?fake=1
// and no real bridge) the dev fake. Knows nothing of React or the store.
import type { GhostboardBridge } from '../../shared/api';
import { apiProtocols, apiUrl, createWsBridge, type BridgeState, takeToken } from './ws-bridge';

declare global {
  interface Window {
    ghostboard?: GhostboardBridge;
  }
}

export interface ChosenBridge {
  readonly bridge: GhostboardBridge;
  readonly kind: 'electron' | 'web' | 'fake';
  /** The bridge state now and on every change (web host only: IPC to the preload cannot be lost). */
  readonly onBridgeState: ((listener: (s: BridgeState) => void) => () => void) | null;
}

export async function selectBridge(): Promise<ChosenBridge> {
  const existing = window.ghostboard;
  if (existing) return { bridge: existing, kind: 'electron', onBridgeState: null };
  if (new URLSearchParams(location.search).get('fake') === '1') {
    const { createFakeBridge } = await import('../dev/fake-bridge');
    return { bridge: createFakeBridge(), kind: 'fake', onBridgeState: null };
  }
  let storage: Storage | undefined;
  try {
    storage = sessionStorage;
  } catch {
    storage = undefined; // storage blocked: the token lives only in memory
  }
  const token = takeToken({ location, history, storage });
  const ws = createWsBridge({ url: apiUrl(location), protocols: apiProtocols(token) });
  window.ghostboard = ws;
  const onBridgeState = (listener: (s: BridgeState) => void): (() => void) => {
    listener(ws.bridgeState());
    return ws.onBridgeState(listener);
  };
  return { bridge: ws, kind: 'web', onBridgeState };
}
