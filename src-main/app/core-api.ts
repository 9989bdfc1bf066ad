// What every host process (Electron shell, web host, tests) needs of the app core: the renderer API surface plus
// a shutdown. Knows nothing of Electron, HTTP or sockets.
import type { ApiCommand, ApiEvent, ApiReply } from '../../shared/api';

export interface AppCore {
  /** Runs one validated command (adapters validate with parseCommand before calling). */
  invoke(command: ApiCommand): Promise<ApiReply>;
  /** Every event from now on; returns the unsubscribe function. Call invoke({cmd:'sync'}) for the current state. */
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /**
   * A join link opened from outside (the OS handed the desktop app a ghostboard:// URL, or the web host got one
   * on its command line): the start screen offers it. False when it is not a well-formed link.
   */
  openLink(text: string): boolean;
  /**
   * filesleft: desktop: a board file the OS asked the app to open while it hosts none: the start screen offers to
   * host it (again on sync, until a session starts).
   */
  offerBoardFile?(path: string): void;
  /** filesleft: desktop: the recent board files (the shell keeps them), for the start screen, again on sync. */
  setRecentFiles?(paths: readonly string[]): void;
  /** Leaves any session, closes sockets and timers. */
  close(): Promise<void>;
}

export interface AppCoreOptions {
  /** Where the core keeps autosaves and settings. */
  readonly dataDir: string;
  /** Address a hosted session binds (default all interfaces; tests use loopback). */
  readonly bind?: string;
  /**
   * Directories (HOST:PORT) to use until the user saves their own in the settings (a command-line flag, or the
   * GHOSTBOARD_DIRECTORY environment variable, comma-separated).
   */
  readonly directories?: readonly string[];
}
