// The application menu: the usual roles and shortcuts, with reload and devtools only in development. Builds a
// plain template (Electron types only), so it is unit-tested without a binary.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  readonly appName: string;
  readonly isMac: boolean;
  readonly isDev: boolean;
  /** files: the File menu's own items (New, Open…, Save…), above Close or Quit. */
  readonly fileItems?: readonly MenuItemConstructorOptions[];
}

const sep: MenuItemConstructorOptions = { type: 'separator' };

function appMenu(appName: string): MenuItemConstructorOptions {
  return {
    label: appName,
    submenu: [
      { role: 'about' },
      sep,
      { role: 'services' },
      sep,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      sep,
      { role: 'quit' },
    ],
  };
}

function viewMenu(isDev: boolean): MenuItemConstructorOptions {
  const dev: MenuItemConstructorOptions[] = isDev
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, sep]
    : [];
  return {
    label: 'View',
    submenu: [
      ...dev,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      sep,
      { role: 'togglefullscreen' },
    ],
  };
}

export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { appName, isMac, isDev, fileItems = [] } = options;
  return [
    ...(isMac ? [appMenu(appName)] : []),
    { label: 'File', submenu: [...fileItems, isMac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        sep,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    viewMenu(isDev),
    {
      label: 'Window',
      submenu: isMac
        ? [{ role: 'minimize' }, { role: 'zoom' }, sep, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    { role: 'help', submenu: isMac ? [] : [{ role: 'about', label: `About ${appName}` }] },
  ];
}
