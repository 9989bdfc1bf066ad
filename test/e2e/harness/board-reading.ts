// Reading the board a page shows, for end-to-end tests: its objects and where they are (the canvas's position
// mirror: one element per object with data-x, data-y, data-z, …), and screen points on the board's stage. Knows
// nothing of what a test does with them.
import type { Locator, Page } from '@playwright/test';

export interface Pt {
  readonly x: number;
  readonly y: number;
}

export const objectsOf = (page: Page): Locator => page.locator('[data-testid^="object-"]');

/** A numeric attribute of an element (NaN when missing). */
export async function num(loc: Locator, name: string): Promise<number> {
  return Number(await loc.getAttribute(name));
}

/** An object's world position as this page's canvas shows it now. */
export async function worldOf(page: Page, id: string): Promise<Pt> {
  const loc = page.getByTestId(`object-${id}`);
  return { x: await num(loc, 'data-x'), y: await num(loc, 'data-y') };
}

/**
 * Every object on this page: id → world position (the position mirror), read in one go in the page so an object
 * leaving between two reads cannot stall the poll. A string: the e2e project has no DOM types.
 */
export const READ_BOARD = `[...document.querySelectorAll('[data-testid^="object-"]')].map((el) => [
  el.getAttribute('data-testid'),
  el.getAttribute('data-x'),
  el.getAttribute('data-y'),
])`;

/** The board as this page shows it: id → world position. */
export async function board(page: Page): Promise<Record<string, Pt>> {
  const rows = await page.evaluate<[string | null, string | null, string | null][]>(READ_BOARD);
  const out: Record<string, Pt> = {};
  for (const [id, x, y] of rows)
    out[(id ?? '').replace('object-', '')] = { x: Number(x), y: Number(y) };
  return out;
}

/** Screen points on this page's board stage: (x, y) from its top-left corner. */
export async function stageAt(page: Page): Promise<(x: number, y: number) => Pt> {
  const box = await page.getByTestId('board-stage').boundingBox();
  if (box === null) throw new Error('board-stage has no box');
  return (x, y) => ({ x: box.x + x, y: box.y + y });
}
