// The desktop File menu (files): New, Open…, Open Recent, Save, Save As… with their shortcuts, what each does
// (native dialogs, a confirmation before unsaved changes are discarded, the recent list) and the window title
// ("name — Ghostboard", "•" while unsaved). Every action reaches the core as a validated command, as the renderer's
// do. Dialogs, the core and the recent list come in as plain functions, so all of it is unit-tested without a
// binary. Knows nothing of sessions or the network.
import type { MenuItemConstructorOptions } from 'electron';
import type { ApiEvent, ApiReply } from '../../shared/api';
import { boardFileTitle } from '../../shared/file-title';
import { addRecent } from './recent-files';

export type FileEvent = Extract<ApiEvent, { type: 'file' }>;

export const BOARD_FILTER = { name: 'Ghostboard board', extensions: ['ghostboard'] };

/** The window's title for the open file (none: not hosting). */
export function windowTitle(file: FileEvent | undefined): string {
  return boardFileTitle(file);
}

/** What the actions need of the world: the command path, native dialogs, the recent list's store. */
export interface FileShell {
  /** Runs a command as the IPC gate does (validated, then the core). */
  run(command: unknown): Promise<ApiReply>;
  /** The open dialog (a .ghostboard filter): the chosen path, or undefined when cancelled. */
  chooseOpen(): Promise<string | undefined>;
  /** The save dialog, suggesting `name`: the chosen path, or undefined when cancelled. */
  chooseSave(name: string): Promise<string | undefined>;
  /** Asks whether to discard `name`'s unsaved changes. */
  confirmDiscard(name: string): Promise<boolean>;
  /** Closing with `name` unsaved: save it first, close without saving, or stay. */
  askSaveOnClose(name: string): Promise<'save' | 'discard' | 'cancel'>;
  /** Tells the user an action was refused. */
  showError(title: string, reason: string): void;
  /** Keeps the recent list (and rebuilds the menu with it, and tells the start screen). */
  storeRecent(list: readonly string[]): void;
  /** filesleft: offers a board file to the start screen (nothing is hosted). */
  offerToStart(path: string): void;
}

export class FileActions {
  private file: FileEvent | undefined;

  constructor(
    private readonly shell: FileShell,
    private recentList: readonly string[],
  ) {}

  get recent(): readonly string[] {
    return this.recentList;
  }

  /**
   * Follows the core's events: the open file (a named one joins the recent list however it was opened: the File
   * menu, the start screen, a double click), and the end of hosting (no file).
   */
  onEvent(e: ApiEvent): void {
    if (e.type === 'file') {
      this.file = e;
      if (e.path !== undefined && this.recentList[0] !== e.path) this.remember(e.path);
    } else if (e.type === 'status' && e.status.phase !== 'hosting') this.file = undefined;
  }

  /**
   * filesleft: a board file the OS asked the app to open (a double click): opened in place of the hosted board
   * (after the same confirmation as Open…), or, hosting none, offered to the start screen.
   */
  async openFromOs(path: string): Promise<void> {
    if (this.file === undefined) this.shell.offerToStart(path);
    else await this.open(path);
  }

  get title(): string {
    return windowTitle(this.file);
  }

  async newBoard(): Promise<void> {
    if (!(await this.mayDiscard())) return;
    this.report('New board', await this.shell.run({ cmd: 'new' }));
  }

  /** Opens `path`, or (none) the one the open dialog gives. */
  async open(path?: string): Promise<void> {
    if (!(await this.mayDiscard())) return;
    const chosen = path ?? (await this.shell.chooseOpen());
    if (chosen === undefined) return;
    const r = await this.shell.run({ cmd: 'open', path: chosen });
    if (r.ok) this.remember(chosen);
    else this.report('Open', r);
  }

  /** Saves to the open file (none: Save As); true when the board is on disk. */
  async save(): Promise<boolean> {
    if (this.file?.path === undefined) return this.saveAs();
    const r = await this.shell.run({ cmd: 'save' });
    this.report('Save', r);
    return r.ok;
  }

  /** Saves where the user says; true when the board is on disk (false: cancelled or refused). */
  async saveAs(): Promise<boolean> {
    const chosen = await this.shell.chooseSave(`${this.file?.name ?? 'Untitled'}.ghostboard`);
    if (chosen === undefined) return false;
    const path = /\.ghostboard$/i.test(chosen) ? chosen : `${chosen}.ghostboard`;
    const r = await this.shell.run({ cmd: 'save-as', path });
    if (r.ok) this.remember(path);
    else this.report('Save As', r);
    return r.ok;
  }

  /** Whether the open board has changes that are not on disk. */
  get unsaved(): boolean {
    return this.file?.dirty === true;
  }

  /**
   * The window is closing (or the app quitting): with unsaved changes the user saves them (the close goes on only
   * when the save worked), lets them go, or stays.
   */
  async mayClose(): Promise<boolean> {
    const f = this.file;
    if (f?.dirty !== true) return true;
    const choice = await this.shell.askSaveOnClose(f.name);
    if (choice === 'cancel') return false;
    if (choice === 'discard') return true;
    return this.save();
  }

  clearRecent(): void {
    this.recentList = [];
    this.shell.storeRecent([]);
  }

  /** Unsaved changes are discarded only when the user says so. */
  private async mayDiscard(): Promise<boolean> {
    const f = this.file;
    return f?.dirty !== true || (await this.shell.confirmDiscard(f.name));
  }

  private remember(path: string): void {
    this.recentList = addRecent(this.recentList, path);
    this.shell.storeRecent(this.recentList);
  }

  private report(title: string, r: ApiReply): void {
    if (!r.ok) this.shell.showError(title, r.reason);
  }
}

/** The File menu's items above Close/Quit: the actions with their accelerators, and Open Recent. */
export function fileMenuItems(actions: FileActions): MenuItemConstructorOptions[] {
  const run = (p: Promise<unknown>): void => {
    void p;
  };
  const recent: MenuItemConstructorOptions[] =
    actions.recent.length === 0
      ? [{ label: 'No Recent Files', enabled: false }]
      : [
          ...actions.recent.map((path): MenuItemConstructorOptions => ({
            label: path,
            click: () => {
              run(actions.open(path));
            },
          })),
          { type: 'separator' },
          {
            label: 'Clear Recent',
            click: () => {
              actions.clearRecent();
            },
          },
        ];
  return [
    {
      label: 'New',
      accelerator: 'CmdOrCtrl+N',
      click: () => {
        run(actions.newBoard());
      },
    },
    {
      label: 'Open…',
      accelerator: 'CmdOrCtrl+O',
      click: () => {
        run(actions.open());
      },
    },
    { label: 'Open Recent', submenu: recent },
    { type: 'separator' },
    {
      label: 'Save',
      accelerator: 'CmdOrCtrl+S',
      click: () => {
        run(actions.save());
      },
    },
    {
      label: 'Save As…',
      accelerator: 'CmdOrCtrl+Shift+S',
      click: () => {
        run(actions.saveAs());
      },
    },
    { type: 'separator' },
  ];
}
