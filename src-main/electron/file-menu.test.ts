// The File menu on fakes: its items and shortcuts, each action's commands through the shell's command path, the
// confirmation before unsaved changes go, the recent list, the refusals shown, and the window title.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { ApiReply } from '../../shared/api';
import type { FileEvent, FileShell } from './file-menu';
import { FileActions, fileMenuItems, windowTitle } from './file-menu';
import { buildMenuTemplate } from './menu';
import { addRecent, parseRecent, RECENT_MAX } from './recent-files';

interface Fake extends FileShell {
  readonly sent: unknown[];
  readonly errors: string[];
  readonly stored: (readonly string[])[];
  readonly asked: string[];
  readonly offered: string[];
  openChoice: string | undefined;
  saveChoice: string | undefined;
  suggested: string | undefined;
  discard: boolean;
  onClose: 'save' | 'discard' | 'cancel';
  reply: ApiReply;
}

function fakeShell(): Fake {
  const f: Fake = {
    sent: [],
    errors: [],
    stored: [],
    asked: [],
    offered: [],
    openChoice: '/boards/a.ghostboard',
    saveChoice: '/boards/b',
    suggested: undefined,
    discard: false,
    onClose: 'cancel',
    reply: { ok: true },
    run(command) {
      f.sent.push(command);
      return Promise.resolve(f.reply);
    },
    chooseOpen: () => Promise.resolve(f.openChoice),
    chooseSave(name) {
      f.suggested = name;
      return Promise.resolve(f.saveChoice);
    },
    confirmDiscard(name) {
      f.asked.push(name);
      return Promise.resolve(f.discard);
    },
    askSaveOnClose(name) {
      f.asked.push(`close ${name}`);
      return Promise.resolve(f.onClose);
    },
    showError(title, reason) {
      f.errors.push(`${title}: ${reason}`);
    },
    storeRecent(list) {
      f.stored.push(list);
    },
    offerToStart(path) {
      f.offered.push(path);
    },
  };
  return f;
}

const plan: FileEvent = {
  type: 'file',
  name: 'plan',
  path: '/boards/plan.ghostboard',
  dirty: false,
};

function item(
  items: readonly MenuItemConstructorOptions[],
  label: string,
): MenuItemConstructorOptions {
  const i = items.find((x) => x.label === label);
  if (i === undefined) throw new Error(`no ${label}`);
  return i;
}

describe('the File menu', () => {
  it('has New, Open…, Open Recent, Save and Save As… with their shortcuts, above Quit', () => {
    const actions = new FileActions(fakeShell(), ['/x.ghostboard']);
    const items = fileMenuItems(actions);
    expect(
      items.filter((i) => i.accelerator !== undefined).map((i) => [i.label, i.accelerator]),
    ).toEqual([
      ['New', 'CmdOrCtrl+N'],
      ['Open…', 'CmdOrCtrl+O'],
      ['Save', 'CmdOrCtrl+S'],
      ['Save As…', 'CmdOrCtrl+Shift+S'],
    ]);
    const recent = item(items, 'Open Recent').submenu as MenuItemConstructorOptions[];
    expect(recent.map((i) => i.label ?? i.type)).toEqual([
      '/x.ghostboard',
      'separator',
      'Clear Recent',
    ]);
    const none = fileMenuItems(new FileActions(fakeShell(), []));
    expect(item(none, 'Open Recent').submenu).toEqual([
      { label: 'No Recent Files', enabled: false },
    ]);
    const file = buildMenuTemplate({
      appName: 'G',
      isMac: false,
      isDev: false,
      fileItems: items,
    }).find((m) => m.label === 'File');
    const sub = file?.submenu as MenuItemConstructorOptions[];
    expect(sub[0]?.label).toBe('New');
    expect(sub.at(-1)?.role).toBe('quit');
  });

  it('saves to the open file, or asks where (Save As, with the extension) when there is none', async () => {
    const shell = fakeShell();
    const actions = new FileActions(shell, []);
    actions.onEvent({ type: 'file', name: 'Untitled', dirty: true });
    await actions.save();
    expect(shell.suggested).toBe('Untitled.ghostboard');
    expect(shell.sent).toEqual([{ cmd: 'save-as', path: '/boards/b.ghostboard' }]);
    expect(actions.recent).toEqual(['/boards/b.ghostboard']);
    expect(shell.stored).toEqual([['/boards/b.ghostboard']]);
    actions.onEvent(plan);
    await actions.save();
    expect(shell.sent.at(-1)).toEqual({ cmd: 'save' });
    shell.saveChoice = undefined; // cancelled
    await actions.saveAs();
    expect(shell.sent).toHaveLength(2);
  });

  it('asks before discarding unsaved changes, and opens only when told to', async () => {
    const shell = fakeShell();
    const actions = new FileActions(shell, ['/old.ghostboard']);
    actions.onEvent({ ...plan, dirty: true });
    await actions.open();
    await actions.newBoard();
    expect(shell.asked).toEqual(['plan', 'plan']);
    expect(shell.sent).toEqual([]);
    shell.discard = true;
    await actions.open();
    expect(shell.sent).toEqual([{ cmd: 'open', path: '/boards/a.ghostboard' }]);
    expect(actions.recent).toEqual([
      '/boards/a.ghostboard',
      '/boards/plan.ghostboard',
      '/old.ghostboard',
    ]);
    await actions.newBoard();
    expect(shell.sent.at(-1)).toEqual({ cmd: 'new' });
    // Clean: no question.
    actions.onEvent(plan);
    await actions.open('/old.ghostboard');
    expect(shell.asked).toHaveLength(4);
    expect(actions.recent).toEqual([
      '/old.ghostboard',
      '/boards/plan.ghostboard',
      '/boards/a.ghostboard',
    ]);
    actions.clearRecent();
    expect(actions.recent).toEqual([]);
  });

  it("asks before closing with unsaved changes: Save closes once saved, Don't Save closes, Cancel stays", async () => {
    const shell = fakeShell();
    const actions = new FileActions(shell, []);
    actions.onEvent(plan);
    expect(actions.unsaved).toBe(false);
    expect(await actions.mayClose()).toBe(true);
    expect(shell.asked).toEqual([]);
    actions.onEvent({ ...plan, dirty: true });
    expect(actions.unsaved).toBe(true);
    expect(await actions.mayClose()).toBe(false);
    expect(shell.sent).toEqual([]);
    shell.onClose = 'discard';
    expect(await actions.mayClose()).toBe(true);
    expect(shell.sent).toEqual([]);
    shell.onClose = 'save';
    expect(await actions.mayClose()).toBe(true);
    expect(shell.sent).toEqual([{ cmd: 'save' }]);
    shell.reply = { ok: false, reason: 'disk full' };
    expect(await actions.mayClose()).toBe(false);
    expect(shell.errors).toEqual(['Save: disk full']);
    // Untitled: Save asks where; cancelling that dialog keeps the window open.
    shell.reply = { ok: true };
    actions.onEvent({ type: 'file', name: 'Untitled', dirty: true });
    shell.saveChoice = undefined;
    expect(await actions.mayClose()).toBe(false);
    expect(shell.asked).toEqual([
      'close plan',
      'close plan',
      'close plan',
      'close plan',
      'close Untitled',
    ]);
  });

  it('shows a refusal and keeps a refused file out of the recent list', async () => {
    const shell = fakeShell();
    const actions = new FileActions(shell, []);
    shell.reply = {
      ok: false,
      reason: 'cannot open /boards/a.ghostboard: board file is not valid JSON',
    };
    await actions.open();
    expect(shell.errors).toEqual([
      'Open: cannot open /boards/a.ghostboard: board file is not valid JSON',
    ]);
    expect(actions.recent).toEqual([]);
    shell.reply = { ok: false, reason: 'not in a session' };
    await actions.newBoard();
    expect(shell.errors.at(-1)).toBe('New board: not in a session');
  });

  it('puts a named open file first in the recent list however it was opened (filesleft)', () => {
    const shell = fakeShell();
    const actions = new FileActions(shell, ['/old.ghostboard']);
    actions.onEvent({ type: 'file', name: 'Untitled', dirty: false });
    expect(shell.stored).toEqual([]);
    actions.onEvent(plan);
    actions.onEvent({ ...plan, dirty: true }); // the same file again: stored once
    expect(actions.recent).toEqual(['/boards/plan.ghostboard', '/old.ghostboard']);
    expect(shell.stored).toEqual([['/boards/plan.ghostboard', '/old.ghostboard']]);
  });

  it('opens a double-clicked file in place of the hosted board, or offers it to the start screen (filesleft)', async () => {
    const shell = fakeShell();
    const actions = new FileActions(shell, []);
    await actions.openFromOs('/boards/x.ghostboard');
    expect(shell.offered).toEqual(['/boards/x.ghostboard']);
    expect(shell.sent).toEqual([]);
    actions.onEvent({ ...plan, dirty: true });
    await actions.openFromOs('/boards/y.ghostboard');
    expect(shell.asked).toEqual(['plan']);
    expect(shell.sent).toEqual([]);
    shell.discard = true;
    await actions.openFromOs('/boards/y.ghostboard');
    expect(shell.sent).toEqual([{ cmd: 'open', path: '/boards/y.ghostboard' }]);
    expect(shell.offered).toHaveLength(1);
    // Hosting ended: offered again.
    actions.onEvent({ type: 'status', status: { phase: 'idle' } });
    await actions.openFromOs('/boards/z.ghostboard');
    expect(shell.offered.at(-1)).toBe('/boards/z.ghostboard');
  });

  it('titles the window with the file name, marked while unsaved, and plain when not hosting', () => {
    expect(windowTitle(undefined)).toBe('Ghostboard');
    expect(windowTitle(plan)).toBe('plan — Ghostboard');
    expect(windowTitle({ ...plan, dirty: true })).toBe('• plan — Ghostboard');
    const actions = new FileActions(fakeShell(), []);
    actions.onEvent({ ...plan, dirty: true });
    expect(actions.title).toBe('• plan — Ghostboard');
    actions.onEvent({ type: 'status', status: { phase: 'idle' } });
    expect(actions.title).toBe('Ghostboard');
  });
});

describe('the recent list', () => {
  it('keeps the last RECENT_MAX, newest first, once each', () => {
    let list: string[] = [];
    for (let i = 0; i < 12; i++) list = addRecent(list, `/f${i % 10}`);
    expect(list).toEqual(['/f1', '/f0', '/f9', '/f8', '/f7', '/f6', '/f5', '/f4']);
    expect(list).toHaveLength(RECENT_MAX);
  });

  it('reads a hostile or damaged file as what it can: strings only, bounded', () => {
    expect(parseRecent('not json')).toEqual([]);
    expect(parseRecent('{"a":1}')).toEqual([]);
    expect(parseRecent('["/a", 3, null, "", "/b"]')).toEqual(['/a', '/b']);
    expect(
      parseRecent(JSON.stringify(Array.from({ length: 50 }, (_, i) => `/p${i}`))),
    ).toHaveLength(RECENT_MAX);
    expect(parseRecent(JSON.stringify(['x'.repeat(5000)]))).toEqual([]);
  });
});
