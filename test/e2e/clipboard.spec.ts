// Clipboard, duplicate, lock and the context menu, in Chromium with two users each hosting a board of their own
// on a web host of their own (two sessions): A draws a rectangle, an ellipse and a text and copies them; B pastes
// them into its board (same kinds, texts and layout, selected), duplicates them, cuts the duplicates and undoes
// the cut; locks one (a padlock flag; a drag and a delete leave it be), unlocks it from the context menu; copies
// from A's menu and pastes on B, cuts from B's menu; the menu's actions by mouse and keyboard; plain text pasted
// makes a text box, and a damaged payload is refused.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { RunningHost } from './harness/web-host';
import { selectedIds, withTwoUsers } from './harness/two-users';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

interface Shape {
  readonly id: string;
  readonly kind: string;
  readonly x: number;
  readonly y: number;
  readonly text: string | null;
  readonly pinned: boolean;
}

async function host(page: Page, name: string): Promise<void> {
  await page.getByTestId('host-name').fill(name);
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
}

async function stageAt(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = await page.getByTestId('board-stage').boundingBox();
  if (box === null) throw new Error('board-stage has no box');
  return { x: box.x + x, y: box.y + y };
}

function objects(page: Page): Locator {
  return page.locator('[data-testid^="object-"]');
}

/** Every object the page shows (its position mirror), sorted by kind, then x, then y. */
async function shapes(page: Page): Promise<Shape[]> {
  const out: Shape[] = [];
  for (const loc of await objects(page).all()) {
    out.push({
      id: ((await loc.getAttribute('data-testid')) ?? '').replace('object-', ''),
      kind: (await loc.getAttribute('data-kind')) ?? '',
      x: Number(await loc.getAttribute('data-x')),
      y: Number(await loc.getAttribute('data-y')),
      text: await loc.getAttribute('data-text'),
      pinned: (await loc.getAttribute('data-pinned')) === '1',
    });
  }
  return out.sort((a, b) => a.kind.localeCompare(b.kind) || a.x - b.x || a.y - b.y);
}

/** The shapes' kinds, texts and layout relative to the first (what a paste keeps). */
function layout(list: readonly Shape[]): string[] {
  const first = list[0];
  return list.map(
    (s) => `${s.kind} ${s.x - (first?.x ?? 0)},${s.y - (first?.y ?? 0)} ${s.text ?? ''}`,
  );
}

async function drag(page: Page, tool: string, x: number, y: number): Promise<void> {
  await page.getByTestId(`tool-${tool}`).click();
  const from = await stageAt(page, x, y);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 90, from.y + 60, { steps: 5 });
  await page.mouse.up();
}

/**
 * Screen point of an object's origin (its world x, y) on this page: the board stage says where the camera is
 * (data-camera: x, y, scale). A string: the e2e project has no DOM types.
 */
async function screenOf(page: Page, s: Shape): Promise<{ x: number; y: number }> {
  return page.evaluate<{ x: number; y: number }>(`(() => {
    const el = document.querySelector('[data-testid="board-stage"]');
    const r = el.getBoundingClientRect();
    const [cx, cy, scale] = el.dataset.camera.split(' ').map(Number);
    return { x: r.left + cx + ${s.x} * scale, y: r.top + cy + ${s.y} * scale };
  })()`);
}

/** Dispatches a paste event carrying `data` (type → value), as the browser does for Ctrl+V. */
async function pasteData(page: Page, data: Record<string, string>): Promise<void> {
  await page.evaluate(`(() => {
    const dt = new DataTransfer();
    for (const [type, value] of Object.entries(${JSON.stringify(data)})) dt.setData(type, value);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  })()`);
}

test('copy in one board, paste in another; duplicate, cut and undo, lock, the context menu', async ({
  browser,
}, info) => {
  await withTwoUsers(browser, hosts, async ({ a, b }) => {
    await Promise.all([host(a, 'Alice'), host(b, 'Bob')]);

    let copied: Shape[] = [];
    await test.step('A draws a rectangle, an ellipse and a text, selects all and copies', async () => {
      await drag(a, 'rect', 100, 120);
      await drag(a, 'ellipse', 260, 200);
      await a.keyboard.press('t');
      const at = await stageAt(a, 120, 320);
      await a.mouse.click(at.x, at.y);
      await a.keyboard.type('from A');
      await a.keyboard.press('Escape');
      await expect(objects(a)).toHaveCount(3);
      await expect(a.locator('[data-text="from A"]')).toHaveCount(1);
      await a.getByTestId('tool-select').click();
      await a.keyboard.press('Control+a');
      await expect.poll(async () => (await selectedIds(a)).length).toBe(3);
      await a.keyboard.press('Control+c');
      copied = await shapes(a);
    });

    await test.step('B pastes at its pointer: the same shapes, layout and text, selected', async () => {
      const at = await stageAt(b, 500, 400);
      await b.mouse.move(at.x, at.y);
      await b.keyboard.press('Control+v');
      await expect(objects(b)).toHaveCount(3);
      await expect.poll(async () => layout(await shapes(b))).toEqual(layout(copied));
      const pasted = await shapes(b);
      await expect.poll(() => selectedIds(b)).toEqual(pasted.map((s) => s.id).sort());
      // A's board is A's: nothing came back to it.
      await expect(objects(a)).toHaveCount(3);
    });

    let originals: Shape[] = [];
    await test.step('B duplicates them (Ctrl+D): three more, offset, and they are the selection', async () => {
      originals = await shapes(b);
      await b.keyboard.press('Control+d');
      await expect(objects(b)).toHaveCount(6);
      const all = await shapes(b);
      const added = all.filter((s) => !originals.some((o) => o.id === s.id));
      expect(layout(added)).toEqual(layout(originals));
      expect(added.map((s) => [s.x - (originals[added.indexOf(s)]?.x ?? 0)])).toEqual([
        [24],
        [24],
        [24],
      ]);
      await expect.poll(() => selectedIds(b)).toEqual(added.map((s) => s.id).sort());
    });

    await test.step('B cuts the duplicates (Ctrl+X), then one undo brings all three back', async () => {
      await b.keyboard.press('Control+x');
      await expect(objects(b)).toHaveCount(3);
      await b.keyboard.press('Control+z');
      await expect(objects(b)).toHaveCount(6);
      // And one more undo takes the whole duplicate back at once.
      await b.keyboard.press('Control+z');
      await expect(objects(b)).toHaveCount(3);
    });

    await test.step('B locks the rectangle: a drag and a delete leave it be; the menu unlocks it', async () => {
      const rect = (await shapes(b)).find((s) => s.kind === 'rect');
      if (rect === undefined) throw new Error('no rectangle');
      const loc = b.getByTestId(`object-${rect.id}`);
      const p = await screenOf(b, rect);
      const inside = { x: p.x + 30, y: p.y + 20 };
      await b.keyboard.press('Escape');
      await b.mouse.click(inside.x, inside.y);
      await expect.poll(() => selectedIds(b)).toEqual([rect.id]);
      await b.keyboard.press('Control+Shift+L');
      await expect(loc).toHaveAttribute('data-pinned', '1');
      await b.mouse.move(inside.x, inside.y);
      await b.mouse.down();
      await b.mouse.move(inside.x + 150, inside.y + 90, { steps: 8 });
      await b.mouse.up();
      await b.keyboard.press('Delete');
      await expect(b.getByText('A locked object was not deleted: unlock it first.')).toBeVisible();
      await expect(loc).toHaveAttribute('data-x', String(rect.x));
      await expect(loc).toHaveAttribute('data-y', String(rect.y));

      await b.mouse.click(inside.x, inside.y, { button: 'right' });
      const menu = b.getByTestId('context-menu');
      await expect(menu).toBeVisible();
      await expect(b.getByTestId('menu-delete')).toBeDisabled();
      await expect(b.getByTestId('menu-cut')).toBeDisabled();
      await expect(b.getByTestId('menu-copy')).toBeEnabled();
      await expect(b.getByTestId('menu-unlock')).toContainText('Ctrl+Shift+L');
      await b.screenshot({ path: info.outputPath('locked-menu-b.png') });
      await b.getByTestId('menu-unlock').click();
      await expect(menu).toBeHidden();
      await expect(loc).not.toHaveAttribute('data-pinned', '1');
      // Unlocked, it moves.
      await b.mouse.move(inside.x, inside.y);
      await b.mouse.down();
      await b.mouse.move(inside.x + 100, inside.y, { steps: 8 });
      await b.mouse.up();
      await expect.poll(async () => Number(await loc.getAttribute('data-x'))).not.toBe(rect.x);
    });

    await test.step('the menu copies on A; Ctrl+V pastes it on B; the menu cuts it there', async () => {
      const rect = (await shapes(a)).find((s) => s.kind === 'rect');
      if (rect === undefined) throw new Error('no rectangle on A');
      const p = await screenOf(a, rect);
      await a.keyboard.press('Escape');
      await a.mouse.click(p.x + 30, p.y + 20, { button: 'right' });
      await expect.poll(() => selectedIds(a)).toEqual([rect.id]);
      await a.getByTestId('menu-copy').click();
      await expect(a.getByTestId('context-menu')).toBeHidden();

      const before = await objects(b).count();
      await b.keyboard.press('Escape');
      const at = await stageAt(b, 600, 450);
      await b.mouse.move(at.x, at.y);
      await b.keyboard.press('Control+v');
      await expect(objects(b)).toHaveCount(before + 1);
      const [pasted] = await selectedIds(b);
      const loc = b.getByTestId(`object-${pasted ?? ''}`);
      await expect(loc).toHaveAttribute('data-kind', 'rect');
      const q = await screenOf(b, {
        ...rect,
        x: Number(await loc.getAttribute('data-x')),
        y: Number(await loc.getAttribute('data-y')),
      });
      await b.mouse.click(q.x + 30, q.y + 20, { button: 'right' });
      await b.getByTestId('menu-cut').click();
      await expect(objects(b)).toHaveCount(before);
      await expect(loc).toHaveCount(0);
    });

    await test.step('the menu by keyboard: Shift+F10, arrows, Enter duplicates; Escape closes', async () => {
      const before = await objects(b).count();
      await b.keyboard.press('Control+a');
      await expect.poll(async () => (await selectedIds(b)).length).toBe(before);
      await b.keyboard.press('Shift+F10');
      const menu = b.getByTestId('context-menu');
      await expect(menu).toBeVisible();
      // Focus starts on the first enabled item; Cut, Copy, Paste, then Duplicate.
      await expect(b.getByTestId('menu-cut')).toBeFocused();
      await b.keyboard.press('ArrowDown');
      await b.keyboard.press('ArrowDown');
      await b.keyboard.press('ArrowDown');
      await expect(b.getByTestId('menu-duplicate')).toBeFocused();
      await b.keyboard.press('Enter');
      await expect(menu).toBeHidden();
      await expect(objects(b)).toHaveCount(2 * before);
      await b.keyboard.press('Shift+F10');
      await expect(menu).toBeVisible();
      await b.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(objects(b)).toHaveCount(2 * before);
    });

    await test.step('the menu on the bare canvas: stays on screen, pastes, selects all, front and back', async () => {
      await b.keyboard.press('Escape');
      await expect.poll(() => selectedIds(b)).toEqual([]);
      const corner = await stageAt(b, 0, 0);
      const box = await b.getByTestId('board-stage').boundingBox();
      if (box === null) throw new Error('no box');
      // Near the bottom-right corner of the window: the menu moves to stay inside 1280 × 800.
      await b.mouse.click(corner.x + box.width - 4, corner.y + box.height - 4, { button: 'right' });
      const menu = b.getByTestId('context-menu');
      await expect(menu).toBeVisible();
      const m = await menu.boundingBox();
      if (m === null) throw new Error('no menu box');
      expect(m.x).toBeGreaterThanOrEqual(0);
      expect(m.y).toBeGreaterThanOrEqual(0);
      expect(m.x + m.width).toBeLessThanOrEqual(1280);
      expect(m.y + m.height).toBeLessThanOrEqual(800);
      for (const id of ['cut', 'copy', 'duplicate', 'delete', 'front', 'back', 'lock'])
        await expect(b.getByTestId(`menu-${id}`)).toBeDisabled();
      await expect(b.getByTestId('menu-paste')).toBeEnabled();
      // A press elsewhere closes it.
      const away = await stageAt(b, 640, 60);
      await b.mouse.click(away.x, away.y);
      await expect(menu).toBeHidden();

      const before = await objects(b).count();
      const spot = await stageAt(b, 700, 150);
      await b.mouse.click(spot.x, spot.y, { button: 'right' });
      await b.getByTestId('menu-paste').click();
      await expect(objects(b)).not.toHaveCount(before);
      const pasted = await selectedIds(b);
      expect(pasted.length).toBeGreaterThan(0);

      await b.mouse.click(spot.x, spot.y, { button: 'right' });
      await b.getByTestId('menu-select-all').click();
      await expect.poll(async () => (await selectedIds(b)).length).toBe(await objects(b).count());
      await b.mouse.click(spot.x, spot.y, { button: 'right' });
      await b.getByTestId('menu-back').click();
      await expect(menu).toBeHidden();
    });

    await test.step('plain text pasted makes a text box; a damaged payload is refused whole', async () => {
      const before = await objects(b).count();
      await b.keyboard.press('Escape');
      await pasteData(b, { 'text/plain': 'pasted words' });
      await expect(b.locator('[data-text="pasted words"][data-kind="text"]')).toHaveCount(1);
      await pasteData(b, {
        'application/x-ghostboard':
          '{"format":"ghostboard-clip","version":1,"objects":[{"kind":"rect"}]}',
        'text/plain': 'fallback',
      });
      await expect(b.getByText('Not pasted: a damaged object on the clipboard.')).toBeVisible();
      await expect(objects(b)).toHaveCount(before + 1);
    });

    await test.step('right clicks drew nothing with a drawing tool', async () => {
      const before = await objects(b).count();
      await b.getByTestId('tool-rect').click();
      const p = await stageAt(b, 300, 500);
      await b.mouse.click(p.x, p.y, { button: 'right' });
      await b.keyboard.press('Escape');
      await expect(objects(b)).toHaveCount(before);
    });
  });
});
