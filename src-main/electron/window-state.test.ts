// Window state: hostile or stale files fall back to defaults; off-screen positions are dropped.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  loadWindowState,
  parseWindowState,
  saveWindowState,
} from './window-state';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'gb-win-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('parseWindowState', () => {
  it('accepts a full state and one without a position', () => {
    const s = { x: 10, y: 20, width: 1000, height: 700, maximized: true };
    expect(parseWindowState(s)).toEqual(s);
    expect(parseWindowState({ width: 800, height: 600, maximized: false })).toEqual({
      width: 800,
      height: 600,
      maximized: false,
    });
  });

  it.each([
    null,
    [],
    'x',
    { width: 800, height: 600 },
    { width: 10, height: 600, maximized: false },
    { width: 800, height: 1e9, maximized: false },
    { width: 800.5, height: 600, maximized: false },
    { width: '800', height: 600, maximized: false },
    { x: 1, width: 800, height: 600, maximized: false },
    { x: 1e9, y: 0, width: 800, height: 600, maximized: false },
    { x: Number.NaN, y: 0, width: 800, height: 600, maximized: false },
  ])('refuses %j', (v) => {
    expect(parseWindowState(v)).toBeUndefined();
  });
});

describe('fitToDisplays', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  it('keeps a visible position and drops an off-screen one', () => {
    const on = { x: 100, y: 100, width: 800, height: 600, maximized: false };
    expect(fitToDisplays(on, screen)).toEqual(on);
    expect(fitToDisplays({ ...on, x: 3000 }, screen)).toEqual({
      width: 800,
      height: 600,
      maximized: false,
    });
    expect(fitToDisplays({ ...on, y: -50 }, screen).x).toBeUndefined();
    expect(
      fitToDisplays({ ...on, x: 3000 }, [...screen, { x: 1920, y: 0, width: 1920, height: 1080 }])
        .x,
    ).toBe(3000);
  });
});

describe('load and save', () => {
  it('round-trips, and falls back to the default on a missing or corrupt file', () => {
    const file = join(tmp(), 'window-state.json');
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
    saveWindowState(file, { x: 5.2, y: 6.7, width: 900, height: 650 }, false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      x: 5,
      y: 7,
      width: 900,
      height: 650,
      maximized: false,
    });
    expect(loadWindowState(file)).toEqual({
      x: 5,
      y: 7,
      width: 900,
      height: 650,
      maximized: false,
    });
    writeFileSync(file, '{"width": 900, "height"');
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(file, '{"width": 1, "height": 1, "maximized": false}');
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
  });
});
