// Dev only (?fake=1&objects=N&seed=S, and the renderer benchmark): a large board made from a seed — half freehand
// strokes of 50 points, the rest rectangles, ellipses, texts and notes — laid out so that the whole board fits in
// a 1280×800 view at the camera's smallest zoom, and the remote pointers that wander over it at 60 Hz. The same
// seed makes the same board. Never used by the real app path; knows nothing of React, Konva or the store.
import type { RemotePointer } from '../../shared/api';
import type { BoardObject, ObjectKind } from '../../shared/board';

/** The board's extent in world units: objects overlap as the count grows, as on a crowded real board. */
export function largeBoardExtent(count: number): { w: number; h: number } {
  const w = Math.min(11_000, Math.round(Math.sqrt(count) * 150));
  return { w, h: Math.round(w * 0.6) };
}

/** A small seeded generator (mulberry32): the same seed, the same board. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COLORS = [0x1e1e1e, 0xe03131, 0x2f9e44, 0x1971c2, 0xf08c00, 0x9c36b5];
const FILLS = [null, 0xa5d8ff, 0xb2f2bb, 0xffec99, 0xffc9c9, 0xd0bfff];
const NOTES = [0xfff3bf, 0xffc9c9, 0xd3f9d8, 0xd0ebff];
const WORDS = [
  'plan',
  'ship',
  'loss',
  'ghost',
  'packet',
  'rate',
  'notify',
  'board',
  'draft',
  'todo',
];

function sentence(r: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(r() * WORDS.length)] ?? 'x');
  return out.join(' ');
}

/** A freehand stroke of 50 points, relative to its top-left corner: a wobbly walk. */
function scribble(r: () => number): { points: number[]; w: number; h: number } {
  const raw: number[] = [];
  let x = 0;
  let y = 0;
  let heading = r() * Math.PI * 2;
  for (let i = 0; i < 50; i++) {
    raw.push(x, y);
    heading += (r() - 0.5) * 0.9;
    const step = 3 + r() * 5;
    x += Math.cos(heading) * step;
    y += Math.sin(heading) * step;
  }
  const xs = raw.filter((_, i) => i % 2 === 0);
  const ys = raw.filter((_, i) => i % 2 === 1);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const points = raw.map((v, i) => Math.round(v - (i % 2 === 0 ? minX : minY)));
  return {
    points,
    w: Math.max(1, Math.round(Math.max(...xs) - minX)),
    h: Math.max(1, Math.round(Math.max(...ys) - minY)),
  };
}

/** `count` objects with ids and stacking 1…count, as a joined peer holds them after the board arrived. */
export function largeBoard(count: number, seed: number): BoardObject[] {
  const r = rng(seed);
  const { w: W, h: H } = largeBoardExtent(count);
  const out: BoardObject[] = [];
  const others: ObjectKind[] = ['rect', 'ellipse', 'text', 'note'];
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const x = Math.round(r() * W);
    const y = Math.round(r() * H);
    const base = {
      id,
      z: id,
      x,
      y,
      rotation: 0,
      lockedBy: null,
      pinned: 0 as const,
      blob: '',
      text: '',
      points: [] as number[],
    };
    const stroke = COLORS[Math.floor(r() * COLORS.length)] ?? 0x1e1e1e;
    if (i % 2 === 0) {
      const s = scribble(r);
      out.push({
        ...base,
        kind: 'stroke',
        w: s.w,
        h: s.h,
        points: s.points,
        stroke,
        fill: null,
        strokeWidth: 2 + Math.floor(r() * 3),
      });
      continue;
    }
    const kind = others[Math.floor(r() * others.length)] ?? 'rect';
    const w = Math.round(60 + r() * 160);
    const h = Math.round(40 + r() * 110);
    if (kind === 'note') {
      const fill = NOTES[Math.floor(r() * NOTES.length)] ?? 0xfff3bf;
      const text = sentence(r, 3 + Math.floor(r() * 6));
      out.push({ ...base, kind, w: 200, h: 160, stroke: null, fill, strokeWidth: 0, text });
    } else if (kind === 'text') {
      const text = sentence(r, 2 + Math.floor(r() * 4));
      out.push({ ...base, kind, w, h: 40, stroke, fill: null, strokeWidth: 0, text });
    } else {
      const fill = FILLS[Math.floor(r() * FILLS.length)] ?? null;
      out.push({ ...base, kind, w, h, stroke, fill, strokeWidth: 2 });
    }
  }
  return out;
}

/** Where `count` remote pointers (peers 2, 3, …) are at time t (s): slow loops across the board. */
export function wanderingPointers(t: number, count: number, boardObjects: number): RemotePointer[] {
  const { w, h } = largeBoardExtent(boardObjects);
  const out: RemotePointer[] = [];
  for (let i = 0; i < count; i++) {
    const k = 0.3 + i * 0.17;
    out.push({
      peer: i + 2,
      x: Math.round(w / 2 + Math.sin(t * k + i) * w * 0.45),
      y: Math.round(h / 2 + Math.sin(t * k * 1.7 + i * 2) * h * 0.45),
      tool: 'select',
      visible: true,
      drag: null,
    });
  }
  return out;
}
