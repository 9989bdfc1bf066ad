// What every host process (Electron shell, web host, tests) needs of the app core: the renderer API surface plus
// a shutdown. Knows nothing of Electron, HTTP or sockets.
import type { ApiCommand, ApiEvent, ApiReply } from '../../shared/api';

export interface AppCore {
  /** Runs one validated command (adapters validate with parseCommand before calling). */
  invoke(command: ApiCommand): Promise<ApiReply>;
  /** Every event from now on; returns the unsubscribe function. Call invoke({cmd:'sync'}) for the current state. */
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /** Leaves any session, closes sockets and timers. */
  close(): Promise<void>;
}

export interface AppCoreOptions {
  /** Where the core keeps autosaves and settings. */
  readonly dataDir: string;
  /** Address a hosted session binds (default all interfaces; tests use loopback). */
  readonly bind?: string;
}
