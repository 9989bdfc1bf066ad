// The two-user whiteboard scenario, written once against two Playwright pages (browser tabs on two web hosts,
// or two Electron windows). Talks to the renderer only through data-testid attributes.
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from '@playwright/test';

export interface Users {
  /** Hosts the session. */
  readonly a: Page;
  /** Joins it. */
  readonly b: Page;
}

/** The first number in an attribute or text ("12.5 kbit/s" → 12.5); NaN when there is none. */
function firstNumber(s: string | null): number {
  const m = /-?\d+(?:\.\d+)?/.exec(s ?? '');
  return m ? Number(m[0]) : Number.NaN;
}

async function attr(loc: Locator, name: string): Promise<number> {
  return firstNumber(await loc.getAttribute(name));
}

async function worldXY(loc: Locator): Promise<{ x: number; y: number }> {
  return { x: await attr(loc, 'data-x'), y: await attr(loc, 'data-y') };
}

/** Waits until `loc` sits at (x, y), world units rounded (the API's world coordinates are integers). */
async function expectAt(loc: Locator, x: number, y: number, what: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const p = await worldXY(loc);
        return { x: Math.round(p.x), y: Math.round(p.y) };
      },
      { message: what },
    )
    .toEqual({ x: Math.round(x), y: Math.round(y) });
}

async function stageBox(page: Page): Promise<{ x: number; y: number }> {
  const box = await page.getByTestId('board-stage').boundingBox();
  if (box === null) throw new Error('board-stage has no box');
  return box;
}

async function shoot(users: Users, info: TestInfo, step: string): Promise<void> {
  await users.a.screenshot({ path: info.outputPath(`${step}-a.png`) });
  await users.b.screenshot({ path: info.outputPath(`${step}-b.png`) });
}

/** Opens a panel with its toggle unless what is inside is already visible. */
async function ensureOpen(page: Page, toggle: string, inside: string): Promise<void> {
  if (!(await page.getByTestId(inside).isVisible())) await page.getByTestId(toggle).click();
  await expect(page.getByTestId(inside)).toBeVisible();
}

/** Closes a panel that may cover the board, if it is open and has a toggle. */
async function ensureClosed(page: Page, toggle: string, inside: string): Promise<void> {
  if (!(await page.getByTestId(inside).isVisible())) return;
  if ((await page.getByTestId(toggle).count()) === 0) return;
  await page.getByTestId(toggle).click();
  await expect(page.getByTestId(inside)).toBeHidden();
}

function visibleTestId(page: Page, ...ids: string[]): Locator {
  return page.locator(ids.map((id) => `[data-testid="${id}"]:visible`).join(', ')).first();
}

async function readShare(a: Page): Promise<{ port: string; code: string }> {
  // The invitation may show on its own after hosting, or behind the share toggle.
  await expect(visibleTestId(a, 'share-port', 'share-toggle')).toBeVisible();
  await ensureOpen(a, 'share-toggle', 'share-port');
  await expect(a.getByTestId('share-port')).toHaveText(/^\s*\d{1,5}\s*$/);
  await expect(a.getByTestId('share-code')).toHaveText(/\S{4,}/);
  await expect(a.getByTestId('share-address').first()).not.toBeEmpty();
  const port = ((await a.getByTestId('share-port').textContent()) ?? '').trim();
  const code = ((await a.getByTestId('share-code').textContent()) ?? '').trim();
  await ensureClosed(a, 'share-toggle', 'share-port');
  return { port, code };
}

export async function hostAndJoin(users: Users, info: TestInfo): Promise<void> {
  const { a, b } = users;
  await a.getByTestId('host-name').fill('Alice');
  await a.getByTestId('host-button').click();
  const { port, code } = await readShare(a);

  await ensureOpen(b, 'join-tab', 'join-name');
  await b.getByTestId('join-name').fill('Bob');
  await b.getByTestId('join-address').fill(`127.0.0.1:${port}`);
  await b.getByTestId('join-code').fill(code);
  await b.getByTestId('join-button').click();
  await expect(a.getByTestId('board-stage')).toBeVisible();
  await expect(b.getByTestId('board-stage')).toBeVisible();
  await shoot(users, info, '1-joined');
}

/** A's pointer moves; B's mirror of it lands where A's own mirror says A's pointer is (world units). */
export async function pointerArrives(users: Users, info: TestInfo): Promise<void> {
  const { a, b } = users;
  const box = await stageBox(a);
  const remote = b.locator('[data-testid^="remote-pointer-"]');
  for (const [dx, dy] of [
    [200, 150],
    [420, 260],
  ] as const) {
    await a.mouse.move(box.x + dx, box.y + dy, { steps: 6 });
    const local = await worldXY(a.getByTestId('local-pointer'));
    expect(Number.isFinite(local.x) && Number.isFinite(local.y)).toBe(true);
    await expect(remote).toHaveCount(1);
    await expectAt(remote, local.x, local.y, "B's mirror of A's pointer");
  }
  await shoot(users, info, '2-pointer');
}

/** A draws a rectangle, then drags it: B sees it move while A's button is down, and land where A dropped it. */
export async function dragIsLive(users: Users, info: TestInfo): Promise<void> {
  const { a, b } = users;
  const box = await stageBox(a);
  await a.getByTestId('tool-rect').click();
  await a.mouse.move(box.x + 300, box.y + 200);
  await a.mouse.down();
  await a.mouse.move(box.x + 420, box.y + 290, { steps: 8 });
  await a.mouse.up();

  const objA = a.locator('[data-testid^="object-"]');
  await expect(objA).toHaveCount(1);
  const testId = (await objA.getAttribute('data-testid')) ?? '';
  const objB = b.getByTestId(testId);
  const start = await worldXY(objA);
  await expectAt(objB, start.x, start.y, 'the new rectangle on B');

  await a.getByTestId('tool-select').click();
  await a.mouse.move(box.x + 360, box.y + 245);
  await a.mouse.down();
  await a.mouse.move(box.x + 440, box.y + 285, { steps: 8 });
  // Button still down: B must already see the object where A has it now (within a few units of smoothing).
  const mid = await worldXY(objA);
  expect(mid.x).toBeGreaterThan(start.x);
  await expect
    .poll(
      async () => {
        const p = await worldXY(objB);
        return Math.abs(p.x - mid.x) <= 5 && Math.abs(p.y - mid.y) <= 5;
      },
      { message: 'B sees the rectangle where A holds it while A is still dragging it' },
    )
    .toBe(true);
  await shoot(users, info, '3-mid-drag');
  await a.mouse.move(box.x + 560, box.y + 365, { steps: 8 });
  await a.mouse.up();

  const end = await worldXY(objA);
  expect(end.x).toBeGreaterThan(start.x);
  expect(end.y).toBeGreaterThan(start.y);
  await expectAt(objB, end.x, end.y, 'the dropped rectangle on B');
  await shoot(users, info, '4-dropped');
}

async function say(from: Page, to: Page, text: string): Promise<void> {
  await from.getByTestId('chat-input').fill(text);
  await from.getByTestId('chat-send').click();
  await expect(to.getByTestId('chat-message').filter({ hasText: text })).toHaveCount(1);
  await expect(from.getByTestId('chat-message').filter({ hasText: text })).toHaveCount(1);
}

export async function chatBothWays(users: Users, info: TestInfo): Promise<void> {
  const { a, b } = users;
  await ensureOpen(a, 'chat-toggle', 'chat-input');
  await ensureOpen(b, 'chat-toggle', 'chat-input');
  await say(a, b, 'hello from Alice');
  await say(b, a, 'hi Alice, Bob here');
  await shoot(users, info, '5-chat');
}

/** The bandwidth panel shows traffic both ways, and the figures change as the session runs. */
export async function bandwidthMoves(users: Users, info: TestInfo): Promise<void> {
  const { a } = users;
  await ensureOpen(a, 'bandwidth-toggle', 'bandwidth-total-in');
  const totalIn = a.getByTestId('bandwidth-total-in');
  const totalOut = a.getByTestId('bandwidth-total-out');
  const read = async (loc: Locator): Promise<number> => firstNumber(await loc.textContent());
  await expect.poll(() => read(totalIn), { message: 'total in > 0' }).toBeGreaterThan(0);
  await expect.poll(() => read(totalOut), { message: 'total out > 0' }).toBeGreaterThan(0);
  const before = `${await totalIn.textContent()}|${await totalOut.textContent()}`;
  const box = await stageBox(a);
  let i = 0;
  await expect
    .poll(
      async () => {
        // Keep some traffic going while the figures refresh (about 4 times a second), over bare canvas: left
        // of and below the rectangle, above the docked tool options.
        i += 1;
        await a.mouse.move(box.x + 100 + (i % 7) * 30, box.y + 420 + (i % 5) * 20);
        return `${await totalIn.textContent()}|${await totalOut.textContent()}`;
      },
      { message: 'the bandwidth figures change' },
    )
    .not.toBe(before);
  await shoot(users, info, '6-bandwidth');
}

/** A gives the session a new code: the invitation shows it at once, and B, already in, stays and is heard. */
export async function newCodeKeepsPeers(users: Users, info: TestInfo): Promise<void> {
  const { a, b } = users;
  await ensureOpen(a, 'share-toggle', 'share-port');
  const code = a.getByTestId('share-code');
  // The app generates spoken codes: a number and two words.
  await expect(code).toHaveText(/^\s*\d{1,3}-[a-z]+-[a-z]+\s*$/);
  const before = ((await code.textContent()) ?? '').trim();
  await a.getByTestId('new-code').click();
  await expect(code).not.toHaveText(before);
  await expect(code).toHaveText(/^\s*\d{1,3}-[a-z]+-[a-z]+\s*$/);
  await shoot(users, info, '7-new-code');
  await ensureClosed(a, 'share-toggle', 'share-port');
  await ensureOpen(a, 'chat-toggle', 'chat-input');
  await ensureOpen(b, 'chat-toggle', 'chat-input');
  await say(b, a, 'still here after the new code');
}

/** The whole scenario, each part a named step in the report. */
export async function runScenario(users: Users, info: TestInfo): Promise<void> {
  await test.step('A hosts, B joins through the UI', () => hostAndJoin(users, info));
  await test.step("B sees A's telepointer arrive", () => pointerArrives(users, info));
  await test.step('B sees A drag a rectangle live', () => dragIsLive(users, info));
  await test.step('chat both ways', () => chatBothWays(users, info));
  await test.step('bandwidth panel shows changing traffic', () => bandwidthMoves(users, info));
  await test.step('a new code keeps the people already in', () => newCodeKeepsPeers(users, info));
}
