// The Electron main process: one hardened window on the built renderer, the IPC gate in front of the app core,
// the menu (with the File menu's native dialogs), the window title, remembered window bounds, single instance, and
// what the OS asks it to open (invite links, double-clicked board files). Knows nothing of sessions or the network.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IpcMainInvokeEvent } from 'electron';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, screen, session } from 'electron';
import { IPC_CHOOSE_BOARD, IPC_EVENT, IPC_INVOKE } from '../../shared/api';
import { createAppCore, directoriesFromArgs, directoriesFromEnv } from '../app/core';
import type { AppCore } from '../app/core-api';
import { registerAppScheme, serveAppProtocol } from './app-protocol';
import { BOARD_FILTER, FileActions, fileMenuItems } from './file-menu';
import type { FileShell } from './file-menu';
import { APP_START_URL, handleInvoke, isTrustedSender, runCommand } from './ipc';
import { buildMenuTemplate } from './menu';
import { OpenRequests, requestsIn } from './open-requests';
import { loadRecent, saveRecent } from './recent-files';
import { hardenSession, hardenWebContents } from './security';
import {
  fitToDisplays,
  loadWindowState,
  MIN_HEIGHT,
  MIN_WIDTH,
  saveWindowState,
} from './window-state';

/** dist/main/electron/ once bundled; the renderer is built to dist/renderer/. */
const HERE = dirname(fileURLToPath(import.meta.url));
const RENDERER_DIR = join(HERE, '..', '..', 'renderer');
const PRELOAD = join(HERE, 'preload.cjs');

const log = (line: string): void => {
  process.stderr.write(`ghostboard: ${line}\n`);
};

let mainWindow: BrowserWindow | null = null;

function stateFile(): string {
  return join(app.getPath('userData'), 'window-state.json');
}

/** The window's close asks this first: unsaved changes are saved, let go or kept open (FileActions.mayClose). */
interface CloseGuard {
  readonly unsaved: boolean;
  mayClose(): Promise<boolean>;
}

function createWindow(guard: CloseGuard): BrowserWindow {
  const saved = fitToDisplays(
    loadWindowState(stateFile()),
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...saved,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    title: 'Ghostboard',
    // The page's own background (styles/base.css --bg), so a dark system shows no white flash before it paints.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#15171c' : '#f6f7f9',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    },
  });
  if (saved.maximized) win.maximize();
  win.once('ready-to-show', () => {
    win.show();
  });
  let closing = false;
  win.on('close', (event) => {
    saveWindowState(stateFile(), win.getNormalBounds(), win.isMaximized());
    if (closing || !guard.unsaved) return;
    // Asked first; a quit waits on it too, and a Cancel here cancels the quit.
    event.preventDefault();
    void guard.mayClose().then((ok) => {
      if (!ok || win.isDestroyed()) return;
      closing = true;
      win.close();
    });
  });
  // The title is the open file's (set from the core's file events), not the page's.
  win.on('page-title-updated', (event) => {
    event.preventDefault();
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  win.loadURL(APP_START_URL).catch((e: unknown) => {
    log(`could not load the renderer from ${RENDERER_DIR}: ${String(e)}`);
  });
  return win;
}

function senderOf(event: IpcMainInvokeEvent) {
  const win = mainWindow;
  const frame = event.senderFrame;
  return {
    fromOurWindow: win !== null && !win.isDestroyed() && event.sender === win.webContents,
    isMainFrame: frame !== null && frame.parent === null,
    frameUrl: frame?.url,
  };
}

/** The native open dialog for a board file, on our window. */
async function chooseBoardFile(): Promise<string | undefined> {
  const o = { filters: [BOARD_FILTER], properties: ['openFile' as const] };
  const w = mainWindow === null || mainWindow.isDestroyed() ? undefined : mainWindow;
  const r = await (w ? dialog.showOpenDialog(w, o) : dialog.showOpenDialog(o));
  return r.canceled ? undefined : r.filePaths[0];
}

function wireCore(core: AppCore): void {
  ipcMain.handle(IPC_INVOKE, (event, payload: unknown) =>
    handleInvoke(core, senderOf(event), payload, log),
  );
  // The start screen's Open… (filesleft): a path only the user picked reaches the host command.
  ipcMain.handle(IPC_CHOOSE_BOARD, (event) =>
    isTrustedSender(senderOf(event)) ? chooseBoardFile() : undefined,
  );
  core.subscribe((apiEvent) => {
    const win = mainWindow;
    if (win !== null && !win.isDestroyed()) win.webContents.send(IPC_EVENT, apiEvent);
  });
}

/** Closes the core once before the process exits (quit waits for it). */
function closeCoreOnQuit(core: AppCore): void {
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    core
      .close()
      .catch((e: unknown) => {
        log(`core did not close cleanly: ${String(e)}`);
      })
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}

/** The File menu's dialogs on our window, its commands through the same gate as the renderer's. */
function fileShell(core: AppCore, dataDir: string, rebuildMenu: () => void): FileShell {
  const win = (): BrowserWindow | undefined =>
    mainWindow === null || mainWindow.isDestroyed() ? undefined : mainWindow;
  return {
    run: (command) => runCommand(core, command, log),
    chooseOpen: chooseBoardFile,
    async chooseSave(name) {
      const o = { defaultPath: name, filters: [BOARD_FILTER] };
      const w = win();
      const r = await (w ? dialog.showSaveDialog(w, o) : dialog.showSaveDialog(o));
      return r.canceled || r.filePath === '' ? undefined : r.filePath;
    },
    async askSaveOnClose(name) {
      const o = {
        type: 'warning' as const,
        buttons: ['Save', "Don't Save", 'Cancel'],
        defaultId: 0,
        cancelId: 2,
        message: `Save the changes to ${name} before closing?`,
        detail: "Your changes are lost if you don't save them.",
      };
      const w = win();
      const r = await (w ? dialog.showMessageBox(w, o) : dialog.showMessageBox(o));
      return r.response === 0 ? 'save' : r.response === 1 ? 'discard' : 'cancel';
    },
    async confirmDiscard(name) {
      const o = {
        type: 'warning' as const,
        buttons: ['Discard Changes', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        message: `Discard the unsaved changes to ${name}?`,
      };
      const w = win();
      const r = await (w ? dialog.showMessageBox(w, o) : dialog.showMessageBox(o));
      return r.response === 0;
    },
    showError(title, reason) {
      dialog.showErrorBox(title, reason);
    },
    storeRecent(list) {
      saveRecent(dataDir, list);
      rebuildMenu();
      core.setRecentFiles?.(list);
    },
    offerToStart(path) {
      core.offerBoardFile?.(path);
    },
  };
}

async function start(): Promise<void> {
  await app.whenReady();
  const isDev = !app.isPackaged;
  const dataDir = app.getPath('userData');
  const setMenu = (files?: FileActions): void => {
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildMenuTemplate({
          appName: app.name,
          isMac: process.platform === 'darwin',
          isDev,
          ...(files === undefined ? {} : { fileItems: fileMenuItems(files) }),
        }),
      ),
    );
  };
  setMenu();
  hardenSession(session.defaultSession);
  serveAppProtocol(session.defaultSession, RENDERER_DIR);
  const fromArgs = directoriesFromArgs(process.argv);
  const core = createAppCore({
    dataDir,
    directories: fromArgs.length > 0 ? fromArgs : directoriesFromEnv(),
  });
  wireCore(core);
  const actions: FileActions = new FileActions(
    fileShell(core, dataDir, () => {
      setMenu(actions);
    }),
    loadRecent(dataDir),
  );
  setMenu(actions);
  core.setRecentFiles?.(actions.recent);
  core.subscribe((e) => {
    actions.onEvent(e);
    const win = mainWindow;
    if ((e.type === 'file' || e.type === 'status') && win !== null && !win.isDestroyed())
      win.setTitle(actions.title);
  });
  requests.attach((r) => {
    if (r.kind === 'link') core.openLink(r.link);
    else void actions.openFromOs(r.path);
  });
  closeCoreOnQuit(core);
  mainWindow = createWindow(actions);
  app.on('activate', () => {
    mainWindow ??= createWindow(actions);
  });
}

app.setName('Ghostboard');
// Tests and side-by-side instances: a separate profile (and so a separate single-instance lock).
if (process.env.GHOSTBOARD_USER_DATA) app.setPath('userData', process.env.GHOSTBOARD_USER_DATA);
registerAppScheme();
app.on('web-contents-created', (_event, contents) => {
  hardenWebContents(contents, log);
});

/** Invite links and board files the OS hands us (filesleft); until the core exists they wait here. */
const requests = new OpenRequests();
// Windows and Linux pass a link or a double-clicked file as an argument.
requests.offer(...requestsIn(process.argv, process.cwd()));

// macOS hands links and files over as events, possibly before the app is ready.
app.on('open-url', (event, url) => {
  event.preventDefault();
  requests.offer({ kind: 'link', link: url });
});
app.on('open-file', (event, path) => {
  event.preventDefault();
  requests.offer({ kind: 'board', path });
});
// A packaged app is the scheme's handler (electron-builder's protocols register it at install too); a development
// run is not registered, since the OS would start the bare Electron binary without the app.
if (app.isPackaged) app.setAsDefaultProtocolClient('ghostboard');

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv, workingDirectory) => {
    requests.offer(...requestsIn(argv, workingDirectory));
    if (mainWindow === null) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  start().catch((e: unknown) => {
    log(`failed to start: ${String(e)}`);
    app.exit(1);
  });
}
