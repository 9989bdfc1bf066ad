// Unit tests of the board's overview: where it is drawn, what each object draws, and that it is drawn again, a
// slice of idle time at a time, after the board changes (never left stale). A recording 2D context, a fake clock
// and a hand-run idle queue stand in for the page.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../shared/board';
import {
  Overview,
  type OverviewHost,
  overviewFrame,
  OVERVIEW_PX,
  paintObject,
  type Painter,
  REDRAW_GAP_MS,
  sameLook,
  type Surface,
  underlay,
} from './overview';

type Call = [string, ...unknown[]];

/** A context that records its calls (and the fill style of each fill), and the clock it advances per call. */
function recorder(clock?: { t: number; perCall: number }): { ctx: Painter; calls: Call[] } {
  const calls: Call[] = [];
  const state: Record<string, unknown> = {};
  const ctx = new Proxy(state, {
    get(_t, key: string) {
      if (key in state) return state[key];
      return (...args: unknown[]) => {
        if (clock) clock.t += clock.perCall;
        calls.push([key, ...args, ...(key.startsWith('fill') ? [state.fillStyle] : [])]);
      };
    },
    set(_t, key: string, v: unknown) {
      state[key] = v;
      return true;
    },
  }) as unknown as Painter;
  return { ctx, calls };
}

const base: BoardObject = {
  id: 1,
  kind: 'rect',
  x: 100,
  y: 50,
  w: 40,
  h: 20,
  rotation: 0,
  z: 1,
  stroke: 0x1e1e1e,
  fill: null,
  strokeWidth: 2,
  points: [],
  text: '',
  blob: '',
  lockedBy: null,
  pinned: 0,
};

const obj = (o: Partial<BoardObject>): BoardObject => ({ ...base, ...o });
const none = (): undefined => undefined;

describe('overviewFrame', () => {
  it('fits the board in OVERVIEW_PX, never above 1 px a world unit', () => {
    const big = overviewFrame({ x: -100, y: 0, w: 8192, h: 4096 });
    expect(big).toEqual({ x: -100, y: 0, scale: OVERVIEW_PX / 8192, width: 2048, height: 1024 });
    expect(overviewFrame({ x: 0, y: 0, w: 300, h: 200 })?.scale).toBe(1);
    expect(overviewFrame(null)).toBeNull();
    expect(overviewFrame({ x: 0, y: 0, w: 0, h: 10 })).toBeNull();
  });
});

describe('underlay', () => {
  const px = { width: 1000, height: 500 };
  const shot = { x: 0, y: 0, scale: 1 };
  const overview = { x: -2000, y: -1000, scale: 0.25 };

  it('is not drawn while the snapshot covers the canvas (a pan within it, a zoom in)', () => {
    expect(underlay(shot, shot, px, px, 1, overview)).toBeNull();
    expect(underlay({ x: -300, y: -100, scale: 2 }, shot, px, px, 1, overview)).toBeNull();
  });

  it('zoomed out, puts world points where the camera does and clears the snapshot’s own area', () => {
    // Out to half about the canvas centre: the snapshot shrinks to the middle quarter.
    const view = { x: 250, y: 125, scale: 0.5 };
    const u = underlay(view, shot, px, px, 1, overview);
    expect(u).not.toBeNull();
    if (u === null) return;
    // The overview's pixel (px, py) is world (px / 0.25 - 2000, …), on screen at world × 0.5 + (250, 125).
    const screen = (opx: number, opy: number) => ({ x: u.m * opx + u.dx, y: u.m * opy + u.dy });
    expect(screen(0, 0)).toEqual({ x: -2000 * 0.5 + 250, y: -1000 * 0.5 + 125 });
    expect(screen(500, 250)).toEqual({ x: 0 * 0.5 + 250, y: -0 * 0.5 + 125 });
    expect(u.clear).toEqual({ x: 250, y: 125, w: 500, h: 250 });
  });

  it('counts device pixels on a 2× screen, and rounds the cleared area inwards', () => {
    const dev = { width: 2000, height: 1000 };
    const u = underlay({ x: 100.3, y: 0, scale: 1 }, shot, dev, dev, 2, overview);
    expect(u?.clear).toEqual({ x: 201, y: 0, w: 1999, h: 1000 });
    expect(u?.m).toBe(8);
  });
});

describe('paintObject', () => {
  it('draws a shape at its place, turned by its rotation', () => {
    const { ctx, calls } = recorder();
    paintObject(ctx, obj({ fill: 0xa5d8ff, rotation: 900 }), 1, none);
    expect(calls[1]).toEqual(['translate', 100, 50]);
    expect(calls[2]?.[0]).toBe('rotate');
    expect(calls[2]?.[1]).toBeCloseTo(Math.PI / 2);
    expect(calls.map((c) => c[0])).toEqual([
      'save',
      'translate',
      'rotate',
      'beginPath',
      'rect',
      'fill',
      'stroke',
      'restore',
    ]);
    expect(calls.find((c) => c[0] === 'fill')?.[1]).toBe('#a5d8ff');
  });

  it('draws what is a couple of px at its scale as one box in its colour', () => {
    const { ctx, calls } = recorder();
    paintObject(ctx, obj({ kind: 'ellipse', w: 10, h: 10, fill: 0xb2f2bb }), 0.1, none);
    expect(calls.find((c) => c[0] === 'fillRect')).toEqual(['fillRect', 0, 0, 10, 10, '#b2f2bb']);
    expect(calls.some((c) => c[0] === 'ellipse')).toBe(false);
  });

  it('draws a freehand line with fewer points zoomed out, text and notes as bars, pictures when ready', () => {
    const points = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? i : 0));
    const line = recorder();
    paintObject(line.ctx, obj({ kind: 'stroke', w: 100, h: 10, points }), 0.125, none);
    const segments = line.calls.filter((c) => c[0] === 'lineTo').length;
    expect(segments).toBeGreaterThan(0);
    expect(segments).toBeLessThan(49);
    const text = recorder();
    paintObject(text.ctx, obj({ kind: 'text', w: 400, h: 60, text: 'ab\n\ncd' }), 0.1, none);
    expect(text.calls.filter((c) => c[0] === 'fillRect')).toHaveLength(2);
    const note = recorder();
    paintObject(note.ctx, obj({ kind: 'note', w: 200, h: 200, fill: null, text: 'x' }), 0.1, none);
    expect(note.calls.find((c) => c[0] === 'fill')?.[1]).toBe('#fff3bf');
    const img = { width: 1, height: 1 } as unknown as CanvasImageSource;
    const pic = recorder();
    paintObject(pic.ctx, obj({ kind: 'image', w: 64, h: 48 }), 0.1, () => img);
    expect(pic.calls.find((c) => c[0] === 'drawImage')).toEqual(['drawImage', img, 0, 0, 64, 48]);
    const loading = recorder();
    paintObject(loading.ctx, obj({ kind: 'image', w: 64, h: 48 }), 0.1, none);
    expect(loading.calls.some((c) => c[0] === 'drawImage')).toBe(false);
  });
});

/** A page for the overview: surfaces that record, idle callbacks run by the test, a clock each call advances. */
function fakeHost(): {
  host: OverviewHost;
  clock: { t: number; perCall: number };
  surfaces: { calls: Call[]; size: [number, number] }[];
  queue: { run: (budget: number) => void; at: number }[];
  idle: (budget?: number) => void;
} {
  const clock = { t: 0, perCall: 0 };
  const surfaces: { calls: Call[]; size: [number, number] }[] = [];
  const queue: { run: (budget: number) => void; at: number }[] = [];
  const host: OverviewHost = {
    surface(width, height) {
      const { ctx, calls } = recorder(clock);
      const entry = { calls, size: [width, height] as [number, number] };
      surfaces.push(entry);
      const s: Surface = {
        image: { id: surfaces.length } as unknown as CanvasImageSource,
        ctx,
        fit(w, h) {
          entry.size = [w, h];
          calls.length = 0;
        },
      };
      return s;
    },
    idle(run, afterMs) {
      queue.push({ run, at: clock.t + afterMs });
    },
    now: () => clock.t,
  };
  // Runs the idle callbacks due (the clock moved on to the first when none is).
  const idle = (budget = 6): void => {
    const next = queue.shift();
    if (next === undefined) return;
    clock.t = Math.max(clock.t, next.at);
    next.run(budget);
  };
  return { host, clock, surfaces, queue, idle };
}

const boardOf = (objects: BoardObject[]): ReadonlyMap<number, BoardObject> =>
  new Map(objects.map((o) => [o.id, o]));

/** The x of each object drawn, in order. */
const rectsAt = (calls: Call[]): unknown[] =>
  calls.filter((c) => c[0] === 'translate').map((c) => c[1]);

describe('Overview', () => {
  const many = (n: number, dx = 0): BoardObject[] =>
    Array.from({ length: n }, (_, i) => obj({ id: i + 1, z: n - i, x: i * 50 + dx }));

  it('draws the whole board bottom to top in idle slices, and shows it only once whole', () => {
    const page = fakeHost();
    page.clock.perCall = 0.01;
    const overview = new Overview(page.host);
    const objects = many(300);
    overview.show(boardOf(objects), none);
    expect(overview.ready).toBeNull();
    let slices = 0;
    while (overview.ready === null && page.queue.length > 0) {
      page.idle(1);
      slices++;
    }
    expect(slices).toBeGreaterThan(1);
    expect(overview.current).toBe(true);
    const drawn = page.surfaces[0]?.calls ?? [];
    // z runs opposite to x here: bottom to top is right to left.
    const xs = rectsAt(drawn) as number[];
    expect(xs).toHaveLength(300);
    expect(xs[0]).toBe(299 * 50);
    expect(xs.at(-1)).toBe(0);
    expect(overview.ready).toMatchObject({ x: -3, y: 47, scale: OVERVIEW_PX / (299 * 50 + 46) });
  });

  it('is drawn again after the board changes, so the change shows (a stale overview is a bug)', () => {
    const page = fakeHost();
    const overview = new Overview(page.host);
    let readies = 0;
    overview.onReady = () => readies++;
    overview.show(boardOf(many(3)), none);
    while (page.queue.length > 0) page.idle();
    const first = overview.ready;
    expect(readies).toBe(1);
    // One object moves far right: the next drawing spans it, and draws it there.
    const moved = many(3).map((o) => (o.id === 2 ? { ...o, x: 5000 } : o));
    overview.show(boardOf(moved), none);
    expect(overview.current).toBe(false);
    while (page.queue.length > 0) page.idle();
    expect(readies).toBe(2);
    expect(overview.current).toBe(true);
    expect(overview.ready).not.toBe(first);
    expect(overview.ready?.width).toBeGreaterThan(first?.width ?? 0);
    const drawn = page.surfaces.at(-1)?.calls ?? [];
    expect(rectsAt(drawn)).toContain(5000);
    expect(rectsAt(drawn)).not.toContain(50);
  });

  it('a change that does not show in it (a lock taken) draws nothing again', () => {
    const page = fakeHost();
    const overview = new Overview(page.host);
    overview.show(boardOf(many(3)), none);
    while (page.queue.length > 0) page.idle();
    const first = overview.ready;
    const calls = page.surfaces[0]?.calls.length;
    const locked = many(3).map((o) => (o.id === 2 ? { ...o, lockedBy: 7 } : o));
    overview.show(boardOf(locked), none);
    while (page.queue.length > 0) page.idle();
    expect(overview.current).toBe(true);
    expect(overview.ready).toBe(first);
    expect(page.surfaces).toHaveLength(1);
    expect(page.surfaces[0]?.calls.length).toBe(calls);
    expect(sameLook(boardOf(many(3)), boardOf(locked))).toBe(true);
    expect(sameLook(boardOf(many(3)), boardOf(many(3, 1)))).toBe(false);
    expect(sameLook(boardOf(many(3)), boardOf(many(2)))).toBe(false);
  });

  it('waits REDRAW_GAP_MS between drawings of a stream of changes, and draws the last one given', () => {
    const page = fakeHost();
    const overview = new Overview(page.host);
    overview.show(boardOf(many(2)), none);
    while (page.queue.length > 0) page.idle();
    for (let i = 1; i <= 5; i++) overview.show(boardOf(many(2, i)), none);
    expect(page.queue).toHaveLength(1);
    expect(page.queue[0]?.at).toBe(REDRAW_GAP_MS);
    while (page.queue.length > 0) page.idle();
    expect(overview.current).toBe(true);
    expect(rectsAt(page.surfaces.at(-1)?.calls ?? [])).toContain(5);
  });

  it('a change while a drawing is under way is drawn after it, not lost', () => {
    const page = fakeHost();
    page.clock.perCall = 0.05;
    const overview = new Overview(page.host);
    overview.show(boardOf(many(200)), none);
    page.idle(1);
    expect(overview.ready).toBeNull();
    const later = many(200, 7);
    overview.show(boardOf(later), none);
    while (page.queue.length > 0) page.idle(1);
    expect(overview.current).toBe(true);
    expect(rectsAt(page.surfaces.at(-1)?.calls ?? [])).toContain(7);
  });

  it('a new picture source (an image decoded, the theme turned) draws it again; an empty board has none', () => {
    const page = fakeHost();
    const overview = new Overview(page.host);
    const board = boardOf(many(1));
    overview.show(board, none);
    while (page.queue.length > 0) page.idle();
    overview.show(board, () => undefined);
    expect(overview.current).toBe(false);
    while (page.queue.length > 0) page.idle();
    expect(overview.current).toBe(true);
    overview.show(new Map(), none);
    while (page.queue.length > 0) page.idle();
    expect(overview.ready).toBeNull();
  });
});
