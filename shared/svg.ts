// A board (or a selection) as an SVG document: vector shapes drawn as the canvas draws them (shared/look.ts), text
// as SVG text (wrapped to its box as the canvas wraps it, by an estimate of glyph widths), freehand strokes as
// smooth curves. Pure: knows nothing of disks, sessions or the DOM.
import type { BoardObject, Color } from './board';
import { colorToCss } from './board';
import {
  arrowHead,
  FONT_FAMILY,
  INK,
  LINE_HEIGHT,
  NOTE_CORNER,
  NOTE_FILL,
  NOTE_FONT_SIZE,
  NOTE_PADDING,
  RECT_CORNER,
  TEXT_FONT_SIZE,
} from './look';

export interface SvgOptions {
  /** The page colour behind the drawing, or null for transparent. */
  readonly background?: Color;
  /** Empty space around the drawing, in board units. */
  readonly padding?: number;
  /** An image's bytes as a data URL, by its content hash (absent or undefined: its place is outlined). */
  readonly imageUrl?: (hash: string) => string | undefined;
}

/** Average advance of a glyph of the system sans-serif, as a share of the font size (for wrapping). */
const GLYPH_WIDTH = 0.55;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const n = (v: number): string => String(Math.round(v * 100) / 100);
const paint = (c: Color): string => (c === null ? 'none' : colorToCss(c));

/** The box an object covers on the board, its rotation and stroke included. */
export function coveredBox(o: BoardObject): Box {
  const xs: number[] = [];
  const ys: number[] = [];
  const corners: [number, number][] =
    o.points.length >= 2
      ? Array.from({ length: o.points.length >> 1 }, (_, i) => [
          o.points[2 * i] ?? 0,
          o.points[2 * i + 1] ?? 0,
        ])
      : [
          [0, 0],
          [o.w, 0],
          [0, o.h],
          [o.w, o.h],
        ];
  const a = (o.rotation / 10) * (Math.PI / 180);
  const [c, s] = [Math.cos(a), Math.sin(a)];
  for (const [px, py] of corners) {
    xs.push(o.x + px * c - py * s);
    ys.push(o.y + px * s + py * c);
  }
  const pad = o.strokeWidth / 2 + (o.kind === 'arrow' ? arrowHead(o) / 2 : 0);
  const x = Math.min(...xs) - pad;
  const y = Math.min(...ys) - pad;
  return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** The characters a reader sees (an emoji with its modifiers is one). */
const graphemes = (s: string): string[] => Array.from(segmenter.segment(s), (g) => g.segment);

/** Lines of `text` as they wrap in a box `width` wide (words first, then characters of a word too long). */
export function wrapText(text: string, width: number, fontSize: number): string[] {
  const perLine = Math.max(1, Math.floor(width / (fontSize * GLYPH_WIDTH)));
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      const next = line === '' ? word : `${line} ${word}`;
      if (graphemes(next).length <= perLine) {
        line = next;
        continue;
      }
      if (line !== '') out.push(line);
      let rest = graphemes(word);
      while (rest.length > perLine) {
        out.push(rest.slice(0, perLine).join(''));
        rest = rest.slice(perLine);
      }
      line = rest.join('');
    }
    out.push(line);
  }
  return out;
}

function textBlock(
  text: string,
  at: { x: number; y: number },
  box: { w: number; h: number },
  size: number,
  color: Color,
): string {
  const step = size * LINE_HEIGHT;
  // Lines past the box are cut, as the canvas cuts a note's.
  const lines = wrapText(text, box.w, size).slice(0, Math.max(1, Math.floor(box.h / step) || 1));
  const spans = lines
    .map(
      (l, i) => `<tspan x="${n(at.x)}" y="${n(at.y + (i + 0.5) * step)}">${escapeXml(l)}</tspan>`,
    )
    .join('');
  // Each line centred on the middle of its line box, as the canvas sets it.
  return `<text font-family="${escapeXml(FONT_FAMILY)}" font-size="${size}" fill="${paint(color)}" dominant-baseline="central" xml:space="preserve">${spans}</text>`;
}

/** A freehand stroke's points as a smooth path through them (a cardinal spline, as the canvas bends it). */
function smoothPath(pts: readonly number[], tension = 0.35): string {
  const count = pts.length >> 1;
  const p = (i: number): [number, number] => {
    const j = Math.max(0, Math.min(count - 1, i));
    return [pts[2 * j] ?? 0, pts[2 * j + 1] ?? 0];
  };
  if (count < 3) return `M${pts.map(n).join(' ')}`;
  const [x0, y0] = p(0);
  let d = `M${n(x0)} ${n(y0)}`;
  for (let i = 0; i < count - 1; i++) {
    const [ax, ay] = p(i - 1);
    const [bx, by] = p(i);
    const [cx, cy] = p(i + 1);
    const [dx, dy] = p(i + 2);
    const k = tension / 3;
    d += ` C${n(bx + (cx - ax) * k)} ${n(by + (cy - ay) * k)} ${n(cx - (dx - bx) * k)} ${n(cy - (dy - by) * k)} ${n(cx)} ${n(cy)}`;
  }
  return d;
}

function body(o: BoardObject, imageUrl: SvgOptions['imageUrl']): string {
  const stroke = `stroke="${paint(o.stroke)}" stroke-width="${o.strokeWidth}"`;
  switch (o.kind) {
    case 'rect':
      return `<rect width="${o.w}" height="${o.h}" rx="${RECT_CORNER}" fill="${paint(o.fill)}" ${stroke}/>`;
    case 'ellipse':
      return `<ellipse cx="${n(o.w / 2)}" cy="${n(o.h / 2)}" rx="${n(o.w / 2)}" ry="${n(o.h / 2)}" fill="${paint(o.fill)}" ${stroke}/>`;
    case 'line':
    case 'stroke': {
      const d = o.kind === 'stroke' ? smoothPath(o.points) : `M${o.points.map(n).join(' ')}`;
      return `<path d="${d}" fill="none" ${stroke} stroke-linecap="round" stroke-linejoin="round"/>`;
    }
    case 'arrow': {
      const count = o.points.length >> 1;
      const tip = [o.points[2 * count - 2] ?? 0, o.points[2 * count - 1] ?? 0] as const;
      const from = [o.points[2 * count - 4] ?? 0, o.points[2 * count - 3] ?? 0] as const;
      const a = Math.atan2(tip[1] - from[1], tip[0] - from[0]);
      const len = arrowHead(o);
      const side = (sign: number): string =>
        `${n(tip[0] - len * Math.cos(a) + (sign * len * Math.sin(a)) / 2)},${n(tip[1] - len * Math.sin(a) - (sign * len * Math.cos(a)) / 2)}`;
      return (
        `<path d="M${o.points.map(n).join(' ')}" fill="none" ${stroke} stroke-linecap="round" stroke-linejoin="round"/>` +
        `<polygon points="${n(tip[0])},${n(tip[1])} ${side(1)} ${side(-1)}" fill="${paint(o.stroke)}" ${stroke} stroke-linejoin="round"/>`
      );
    }
    case 'text':
      return textBlock(o.text, { x: 0, y: 0 }, o, TEXT_FONT_SIZE, o.stroke ?? INK);
    case 'image': {
      const url = imageUrl?.(o.blob);
      // Without its bytes (not here yet): the picture's place and size, outlined.
      return url === undefined
        ? `<rect width="${o.w}" height="${o.h}" fill="#f1f3f5" stroke="#adb5bd" stroke-dasharray="6 4"/>`
        : `<image width="${o.w}" height="${o.h}" preserveAspectRatio="none" href="${escapeXml(url)}"/>`;
    }
    case 'note': {
      const inner = {
        w: Math.max(0, o.w - 2 * NOTE_PADDING),
        h: Math.max(0, o.h - 2 * NOTE_PADDING),
      };
      const edge =
        o.stroke === null ? 'stroke="none"' : `stroke="${paint(o.stroke)}" stroke-width="1"`;
      return (
        `<rect width="${o.w}" height="${o.h}" rx="${NOTE_CORNER}" fill="${paint(o.fill ?? NOTE_FILL)}" ${edge}/>` +
        textBlock(o.text, { x: NOTE_PADDING, y: NOTE_PADDING }, inner, NOTE_FONT_SIZE, INK)
      );
    }
  }
}

/** An SVG document of these objects (bottom to top), sized to what they cover plus the padding. */
export function toSvg(objects: readonly BoardObject[], options: SvgOptions = {}): string {
  const pad = options.padding ?? 16;
  let view: Box = { x: 0, y: 0, w: 0, h: 0 };
  objects.forEach((o, i) => {
    const b = coveredBox(o);
    if (i === 0) view = b;
    else {
      const x = Math.min(view.x, b.x);
      const y = Math.min(view.y, b.y);
      view = {
        x,
        y,
        w: Math.max(view.x + view.w, b.x + b.w) - x,
        h: Math.max(view.y + view.h, b.y + b.h) - y,
      };
    }
  });
  const x = Math.floor(view.x - pad);
  const y = Math.floor(view.y - pad);
  const w = Math.ceil(view.w + 2 * pad);
  const h = Math.ceil(view.h + 2 * pad);
  const page =
    options.background === undefined || options.background === null
      ? ''
      : `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${paint(options.background)}"/>`;
  const shapes = objects
    .map((o) => {
      const turn = o.rotation === 0 ? '' : ` rotate(${n(o.rotation / 10)})`;
      return `<g transform="translate(${o.x} ${o.y})${turn}">${body(o, options.imageUrl)}</g>`;
    })
    .join('\n');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="${x} ${y} ${w} ${h}">\n` +
    `${page}\n${shapes}\n</svg>\n`
  );
}
