// Remembers the main window's size and position in a small JSON file, validated on read. Pure data and
// node:fs only (no Electron import): the shell passes displays' work areas in.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface WindowState {
  /** Absent: let the OS place the window. */
  readonly x?: number;
  readonly y?: number;
  readonly width: number;
  readonly height: number;
  readonly maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 800, maximized: false };
export const MIN_WIDTH = 640;
export const MIN_HEIGHT = 420;
const MAX_SIDE = 16_384;
const MAX_COORD = 100_000;
/** How much of the title bar must lie on a display for a remembered position to be kept. */
const MIN_VISIBLE = 64;

const intIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The state in `v`, or undefined when anything is missing, of the wrong type or out of range. */
export function parseWindowState(v: unknown): WindowState | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const { x, y, width, height, maximized } = o;
  if (!intIn(width, MIN_WIDTH, MAX_SIDE) || !intIn(height, MIN_HEIGHT, MAX_SIDE)) return undefined;
  if (typeof maximized !== 'boolean') return undefined;
  if (x === undefined && y === undefined) return { width, height, maximized };
  if (!intIn(x, -MAX_COORD, MAX_COORD) || !intIn(y, -MAX_COORD, MAX_COORD)) return undefined;
  return { x, y, width, height, maximized };
}

/** Keeps the remembered position only if the window's top strip is visible on some display now. */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state;
  const { x, y } = state;
  const visible = workAreas.some((a) => {
    const overlapX = Math.min(x + state.width, a.x + a.width) - Math.max(x, a.x);
    return overlapX >= MIN_VISIBLE && y >= a.y && y + MIN_VISIBLE <= a.y + a.height;
  });
  if (visible) return state;
  return { width: state.width, height: state.height, maximized: state.maximized };
}

/** The saved state, or the default when the file is missing, unreadable or invalid. */
export function loadWindowState(file: string): WindowState {
  try {
    return parseWindowState(JSON.parse(readFileSync(file, 'utf8'))) ?? DEFAULT_WINDOW_STATE;
  } catch {
    return DEFAULT_WINDOW_STATE;
  }
}

/** Written whole then renamed, so a crash mid-write leaves the old file. Failure is only logged. */
export function saveWindowState(file: string, bounds: Rect, maximized: boolean): void {
  const state = parseWindowState({
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
    maximized,
  });
  if (state === undefined) return;
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify(state) + '\n');
    renameSync(`${file}.tmp`, file);
  } catch (e) {
    process.stderr.write(`window state not saved: ${String(e)}\n`);
  }
}
