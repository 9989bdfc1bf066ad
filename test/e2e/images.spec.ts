// Images between users, in Chromium with three web hosts: A hosts, B joins; A pastes a PNG (Ctrl+V with an image on
// the clipboard, as the page's paste event carries it) and B's board shows it at its natural size (the bytes came
// over the session's blob channel and decoded); B drops a larger PNG on its board, downscaled on B's side to the
// 2048-pixel limit before sending, and A sees it; then C joins late and gets both images. A's image moves like any
// other object (B sees the drag land) and undoes away, the move first. With the host's image space set to 1 MB, a
// larger paste is refused and the user reads why.
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { hostAndJoin } from './harness/scenario';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';
import { withTwoUsers } from './harness/two-users';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

/**
 * Builds a PNG of w × h in the page (a canvas with a pattern, so it does not compress to nothing) and hands it to
 * the board as a paste (on the window) or a drop (on the board at its middle). A string: the e2e project has no
 * DOM types.
 */
function putPng(how: 'paste' | 'drop', w: number, h: number, noise = false): string {
  return `(async () => {
    const c = document.createElement('canvas');
    c.width = ${w}; c.height = ${h};
    const g = c.getContext('2d');
    for (let i = 0; i < 40; i++) {
      g.fillStyle = 'hsl(' + i * 9 + ', 70%, 55%)';
      g.fillRect((i * 37) % ${w}, (i * 53) % ${h}, ${w} / 5, ${h} / 7);
    }
    if (${noise}) {
      // Noise does not compress: a PNG of about 3 bytes a pixel (opaque RGB).
      const px = g.getImageData(0, 0, ${w}, ${h});
      for (let i = 0; i < px.data.length; i += 65536)
        crypto.getRandomValues(px.data.subarray(i, i + 65536));
      for (let i = 3; i < px.data.length; i += 4) px.data[i] = 255;
      g.putImageData(px, 0, 0);
    }
    const blob = await new Promise((r) => c.toBlob(r, 'image/png'));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], 'picture.png', { type: 'image/png' }));
    if (${JSON.stringify(how)} === 'paste') {
      window.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    } else {
      const stage = document.querySelector('[data-testid="board-stage"]');
      const r = stage.getBoundingClientRect();
      const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true };
      stage.dispatchEvent(new DragEvent('dragover', { ...at, dataTransfer: dt }));
      stage.dispatchEvent(new DragEvent('drop', { ...at, dataTransfer: dt }));
    }
    return blob.size;
  })()`;
}

/** Pastes an SVG whose script (an element and an onload) would set window.__svgRan if it ever ran. */
const PASTE_HOSTILE_SVG = `(() => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" onload="window.__svgRan = 1">' +
    '<script>window.__svgRan = 2</script><rect width="120" height="80" fill="teal"/></svg>';
  const dt = new DataTransfer();
  dt.items.add(new File([svg], 'evil.svg', { type: 'image/svg+xml' }));
  window.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
})()`;

/** Every image object on the page: id → what it shows (natural size once drawn). */
const READ_IMAGES = `Object.fromEntries([...document.querySelectorAll('[data-testid^="object-"][data-image]')]
  .map((el) => [el.getAttribute('data-testid'), el.getAttribute('data-image')]))`;

async function images(page: Page): Promise<Record<string, string>> {
  return page.evaluate<Record<string, string>>(READ_IMAGES);
}

/** Where the image showing at this natural size is, in world units (the position mirror). */
async function imageAt(page: Page, natural: string): Promise<{ x: number; y: number }> {
  const el = page.locator(`[data-testid^="object-"][data-image="${natural}"]`);
  return { x: Number(await el.getAttribute('data-x')), y: Number(await el.getAttribute('data-y')) };
}

async function readShare(a: Page): Promise<{ port: string; code: string }> {
  if (!(await a.getByTestId('share-port').isVisible())) await a.getByTestId('share-toggle').click();
  const port = ((await a.getByTestId('share-port').textContent()) ?? '').trim();
  const code = ((await a.getByTestId('share-code').textContent()) ?? '').trim();
  return { port, code };
}

test('an image pasted by one user shows for the other and for a late joiner', async ({
  browser,
}) => {
  await withTwoUsers(browser, hosts, async (users) => {
    const { a, b } = users;
    await hostAndJoin(users, test.info());

    // A pastes a 900 × 600 PNG: B's board draws it at that size.
    const bytes = await a.evaluate<number>(putPng('paste', 900, 600));
    expect(bytes).toBeGreaterThan(1000);
    await expect
      .poll(async () => Object.values(await images(b)), { message: "B's copy of A's image" })
      .toEqual(['900x600']);
    await expect
      .poll(async () => Object.values(await images(a)), { message: "A's own image" })
      .toEqual(['900x600']);

    // B drops a 3000 × 1000 PNG: downscaled on B's side to 2048 wide before it is sent.
    await b.evaluate<number>(putPng('drop', 3000, 1000));
    const both = ['2048x683', '900x600'];
    await expect
      .poll(async () => Object.values(await images(a)).sort(), { message: "A's copy of B's image" })
      .toEqual(both);

    // C joins late and fetches both images from the host.
    const hostC = await startWebHost();
    hosts.push(hostC);
    const { port, code } = await readShare(a);
    const contextC = await browser.newContext();
    try {
      const c = await contextC.newPage();
      await c.goto(hostC.url);
      await c.getByTestId('join-tab').click();
      await c.getByTestId('join-name').fill('Carol');
      await c.getByTestId('join-address').fill(`127.0.0.1:${port}`);
      await c.getByTestId('join-code').fill(code);
      await c.getByTestId('join-button').click();
      await expect(c.getByTestId('board-stage')).toBeVisible();
      await expect
        .poll(async () => Object.values(await images(c)).sort(), {
          message: "the late joiner's images",
        })
        .toEqual(both);
      await c.screenshot({ path: test.info().outputPath('late-joiner.png') });
    } finally {
      await contextC.close();
    }

    // A drags its image 120 px to the right (grabbed above B's, which lies over its middle): B sees it move.
    const before = await imageAt(b, '900x600');
    const box = await a.getByTestId('board-stage').boundingBox();
    if (box === null) throw new Error('no board');
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 - 180 };
    await a.mouse.move(from.x, from.y);
    await a.mouse.down();
    await a.mouse.move(from.x + 60, from.y, { steps: 4 });
    await a.mouse.move(from.x + 120, from.y, { steps: 4 });
    await a.mouse.up();
    await expect
      .poll(() => imageAt(b, '900x600'), { message: "B sees A's image moved" })
      .toEqual({ x: before.x + 120, y: before.y });

    // A's paste undoes away on every screen (an image is an object like any other): the move, then the paste.
    await a.getByTestId('board-stage').click({ position: { x: 5, y: 5 } });
    await a.keyboard.press('Control+z');
    await expect.poll(() => imageAt(b, '900x600'), { message: 'move undone' }).toEqual(before);
    await a.keyboard.press('Control+z');
    const left = ['2048x683'];
    await expect
      .poll(async () => Object.values(await images(b)), { message: 'undone (B)' })
      .toEqual(left);
    await expect
      .poll(async () => Object.values(await images(a)), { message: 'undone (A)' })
      .toEqual(left);
  });
});

test("the host's image space refuses a paste, saying why; an SVG's script never runs", async ({
  browser,
}) => {
  await withTwoUsers(browser, hosts, async (users) => {
    const { a, b } = users;
    // A's board may hold 1 MB of images.
    const set = await a.evaluate<{ ok: boolean }>(
      `window.ghostboard.invoke({ cmd: 'settings', settings: { directories: [], imageSpaceMb: 1 } })`,
    );
    expect(set.ok).toBe(true);
    await hostAndJoin(users, test.info());
    // B pastes 800 x 800 of noise: about 1.9 MB, over the board's 1 MB.
    expect(await b.evaluate<number>(putPng('paste', 800, 800, true))).toBeGreaterThan(1024 * 1024);
    await expect(
      b.locator('.toast', { hasText: "Image not added: the board's image space is full (1 MB)" }),
    ).toBeVisible();
    // A small one still fits.
    await b.evaluate<number>(putPng('paste', 300, 200));
    await expect
      .poll(async () => Object.values(await images(a)), { message: "A's copy of the small image" })
      .toEqual(['300x200']);
    // An SVG with script in it is only ever a picture: it shows at its own size and nothing in it runs.
    await b.evaluate(PASTE_HOSTILE_SVG);
    await expect
      .poll(async () => Object.values(await images(a)).sort(), { message: "A's copy of the SVG" })
      .toEqual(['120x80', '300x200']);
    await expect
      .poll(async () => Object.values(await images(b)).sort())
      .toEqual(['120x80', '300x200']);
    for (const page of [a, b]) expect(await page.evaluate('window.__svgRan ?? null')).toBeNull();
  });
});
