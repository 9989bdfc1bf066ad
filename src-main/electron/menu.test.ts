// The menu template: developer items only in development; the usual edit roles everywhere.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { buildMenuTemplate } from './menu';

function roles(items: readonly MenuItemConstructorOptions[]): string[] {
  return items.flatMap((i) => [
    ...(i.role === undefined ? [] : [i.role]),
    ...(Array.isArray(i.submenu) ? roles(i.submenu) : []),
  ]);
}

describe('buildMenuTemplate', () => {
  it.each([true, false])('has the edit and view roles (mac: %s)', (isMac) => {
    const r = roles(buildMenuTemplate({ appName: 'Ghostboard', isMac, isDev: false }));
    for (const role of [
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'selectAll',
      'zoomIn',
      'togglefullscreen',
    ])
      expect(r).toContain(role);
    expect(r).not.toContain('reload');
    expect(r).not.toContain('toggleDevTools');
  });

  it('adds reload and devtools in development only', () => {
    const r = roles(buildMenuTemplate({ appName: 'Ghostboard', isMac: false, isDev: true }));
    expect(r).toContain('reload');
    expect(r).toContain('toggleDevTools');
  });

  it('has an app menu on macOS only', () => {
    expect(buildMenuTemplate({ appName: 'G', isMac: true, isDev: false })[0]?.label).toBe('G');
    expect(buildMenuTemplate({ appName: 'G', isMac: false, isDev: false })[0]?.label).toBe('File');
  });
});
