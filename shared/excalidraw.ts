// Excalidraw interchange: a board's objects as an .excalidraw scene (Excalidraw's published JSON format: type,
// version 2, source, elements, appState, files), and the shapes both tools have back from one. Rectangles,
// ellipses, lines, arrows, freehand strokes and text map one to one; a sticky note is a rectangle holding a bound
// text element. What has no counterpart (diamonds, frames, images, embeds) is skipped and counted. A scene is
// hostile input: bounded, every value checked, and every object passes the board's own validation before it is
// kept. Pure: knows nothing of disks, sessions or the UI.
import type { BoardObject, Color, NewObject, ObjectKind } from './board';
import {
  MAX_POINTS,
  MAX_SIZE,
  MAX_STROKE_WIDTH,
  MAX_TEXT_BYTES,
  POINT_EXTENT,
  ROTATION_STEPS,
  WORLD_EXTENT,
  colorToCss,
  parseColor,
  validateObjectFields,
} from './board';
import { INK, LINE_HEIGHT, NOTE_FILL, NOTE_FONT_SIZE, NOTE_PADDING, TEXT_FONT_SIZE } from './look';

/** A scene larger than this is refused before it is parsed. */
export const MAX_EXCALIDRAW_BYTES = 64 * 1024 * 1024;
/** Elements read from one scene at most (a board holds fewer objects than this anyway). */
export const MAX_EXCALIDRAW_ELEMENTS = 200_000;
export const EXCALIDRAW_SOURCE = 'https://ghostboard.app';

/** Excalidraw's font families: 2 is its plain sans-serif (Helvetica), the nearest to the board's system font. */
const SANS = 2;

type Json = Record<string, unknown>;

/** A scene read back: the objects bottom to top, and what could not come along (in words, with counts). */
export interface ExcalidrawImport {
  readonly objects: NewObject[];
  readonly skipped: ReadonlyMap<string, number>;
}

export interface ExcalidrawRefusal {
  readonly refused: string;
}

// ——— geometry ——————————————————————————————————————————————————————————————————————————————————————————————

interface Pt {
  readonly x: number;
  readonly y: number;
}

const radians = (steps: number): number => (steps / 10) * (Math.PI / 180);

function rotate(p: Pt, angle: number): Pt {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return { x: p.x * c - p.y * s, y: p.x * s + p.y * c };
}

/** The object's own box (before rotation, relative to its x, y): its size, or its points' extent. */
function localBox(o: Pick<BoardObject, 'kind' | 'w' | 'h' | 'points'>): { min: Pt; max: Pt } {
  if (!isLinear(o.kind)) return { min: { x: 0, y: 0 }, max: { x: o.w, y: o.h } };
  let min = { x: Infinity, y: Infinity };
  let max = { x: -Infinity, y: -Infinity };
  for (let i = 0; i + 1 < o.points.length; i += 2) {
    const p = { x: o.points[i] ?? 0, y: o.points[i + 1] ?? 0 };
    min = { x: Math.min(min.x, p.x), y: Math.min(min.y, p.y) };
    max = { x: Math.max(max.x, p.x), y: Math.max(max.y, p.y) };
  }
  return Number.isFinite(min.x) ? { min, max } : { min: { x: 0, y: 0 }, max: { x: 0, y: 0 } };
}

const isLinear = (k: ObjectKind): boolean => k === 'line' || k === 'arrow' || k === 'stroke';

// ——— export ————————————————————————————————————————————————————————————————————————————————————————————————

/** Excalidraw's colour: '#rrggbb', or 'transparent' for none. */
const cssOrTransparent = (c: Color): string => (c === null ? 'transparent' : colorToCss(c));

/** A stable fractional index for the n-th element (Excalidraw orders by it): 'a0'…'az', then 'b00'…, then 'c000'…. */
export function fractionalIndex(n: number): string {
  const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const width = n < 62 ? 1 : n < 62 + 62 ** 2 ? 2 : 3;
  let rest = width === 1 ? n : width === 2 ? n - 62 : n - 62 - 62 ** 2;
  let digits = '';
  for (let i = 0; i < width; i++) {
    digits = (DIGITS[rest % 62] ?? '0') + digits;
    rest = Math.floor(rest / 62);
  }
  return String.fromCharCode('a'.charCodeAt(0) + width - 1) + digits;
}

/** A small deterministic number per element (Excalidraw's seed and nonce), so an export is the same every time. */
function stableNumber(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) % 2_000_000_000;
}

function baseElement(id: string, type: string, index: number): Json {
  return {
    id,
    type,
    angle: 0,
    strokeColor: colorToCss(INK),
    backgroundColor: 'transparent',
    fillStyle: 'solid',
    strokeWidth: 2,
    strokeStyle: 'solid',
    roughness: 0,
    opacity: 100,
    groupIds: [],
    frameId: null,
    index: fractionalIndex(index),
    roundness: null,
    seed: stableNumber(id),
    version: 1,
    versionNonce: stableNumber(`${id}/nonce`),
    isDeleted: false,
    boundElements: null,
    updated: 1,
    link: null,
    locked: false,
  };
}

function textElement(
  id: string,
  index: number,
  text: string,
  box: { x: number; y: number; w: number; h: number; angle: number },
  size: number,
  color: Color,
  containerId: string | null,
): Json {
  return {
    ...baseElement(id, 'text', index),
    x: box.x,
    y: box.y,
    width: box.w,
    height: box.h,
    angle: box.angle,
    strokeColor: cssOrTransparent(color),
    text,
    originalText: text,
    fontSize: size,
    fontFamily: SANS,
    textAlign: 'left',
    verticalAlign: 'top',
    containerId,
    autoResize: false,
    lineHeight: LINE_HEIGHT,
  };
}

/** An image's bytes for an export: its type and its data URL. */
export interface ImageData {
  readonly type: string;
  readonly url: string;
}

/**
 * The scene of these objects (bottom to top), as .excalidraw text. An image goes with its bytes in the scene's
 * files when `imageOf` has them; without them it is left out (an Excalidraw image cannot be empty).
 */
export function toExcalidraw(
  objects: readonly BoardObject[],
  imageOf: (hash: string) => ImageData | undefined = () => undefined,
): string {
  const elements: Json[] = [];
  const files: Record<string, Json> = {};
  for (const o of objects) {
    const id = `gb-${o.id}`;
    if (o.kind === 'image') {
      const data = imageOf(o.blob);
      if (data === undefined) continue;
      files[o.blob] = { mimeType: data.type, id: o.blob, dataURL: data.url, created: 1 };
      const c = rotate({ x: o.w / 2, y: o.h / 2 }, radians(o.rotation));
      elements.push({
        ...baseElement(id, 'image', elements.length),
        x: o.x + c.x - o.w / 2,
        y: o.y + c.y - o.h / 2,
        width: o.w,
        height: o.h,
        angle: radians(o.rotation),
        strokeColor: 'transparent',
        status: 'saved',
        fileId: o.blob,
        scale: [1, 1],
        crop: null,
      });
      continue;
    }
    const angle = radians(o.rotation);
    const box = localBox(o);
    // Excalidraw turns an element about its box's centre, the board about the object's x, y.
    const mid = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2 };
    const turned = rotate(mid, angle);
    const centre = { x: o.x + turned.x, y: o.y + turned.y };
    const width = box.max.x - box.min.x;
    const height = box.max.y - box.min.y;
    const style = {
      strokeColor: cssOrTransparent(o.stroke),
      backgroundColor: cssOrTransparent(o.fill),
      strokeWidth: o.strokeWidth,
      angle,
    };
    if (isLinear(o.kind)) {
      // Points relative to the first, which sits at the element's x, y.
      const x0 = o.points[0] ?? 0;
      const y0 = o.points[1] ?? 0;
      const points: [number, number][] = [];
      for (let i = 0; i + 1 < o.points.length; i += 2)
        points.push([(o.points[i] ?? 0) - x0, (o.points[i + 1] ?? 0) - y0]);
      const ex = centre.x - (box.min.x + box.max.x) / 2 + x0;
      const ey = centre.y - (box.min.y + box.max.y) / 2 + y0;
      const type = o.kind === 'stroke' ? 'freedraw' : o.kind;
      const linear: Json = {
        ...baseElement(id, type, elements.length),
        ...style,
        backgroundColor: 'transparent',
        x: ex,
        y: ey,
        width,
        height,
        points,
        lastCommittedPoint: null,
      };
      if (o.kind === 'stroke') Object.assign(linear, { pressures: [], simulatePressure: true });
      else
        Object.assign(linear, {
          startBinding: null,
          endBinding: null,
          startArrowhead: null,
          endArrowhead: o.kind === 'arrow' ? 'arrow' : null,
          elbowed: false,
        });
      elements.push(linear);
      continue;
    }
    const at = { x: centre.x - width / 2, y: centre.y - height / 2 };
    if (o.kind === 'text') {
      elements.push(
        textElement(
          id,
          elements.length,
          o.text,
          { ...at, w: width, h: height, angle },
          TEXT_FONT_SIZE,
          o.stroke ?? INK,
          null,
        ),
      );
      continue;
    }
    const shape: Json = {
      ...baseElement(id, o.kind === 'ellipse' ? 'ellipse' : 'rectangle', elements.length),
      ...style,
      x: at.x,
      y: at.y,
      width,
      height,
      roundness: o.kind === 'ellipse' ? null : { type: 3 },
    };
    if (o.kind !== 'note') {
      elements.push(shape);
      continue;
    }
    // A note: its fill (the board's default when it has none) and its text bound inside, padded as drawn.
    const textId = `${id}-text`;
    shape.backgroundColor = colorToCss(o.fill ?? NOTE_FILL);
    shape.boundElements = [{ type: 'text', id: textId }];
    elements.push(shape);
    const inner = {
      x: at.x + NOTE_PADDING,
      y: at.y + NOTE_PADDING,
      w: Math.max(0, width - 2 * NOTE_PADDING),
      h: Math.max(0, height - 2 * NOTE_PADDING),
      angle,
    };
    elements.push(textElement(textId, elements.length, o.text, inner, NOTE_FONT_SIZE, INK, id));
  }
  return JSON.stringify(
    {
      type: 'excalidraw',
      version: 2,
      source: EXCALIDRAW_SOURCE,
      elements,
      appState: { viewBackgroundColor: '#ffffff', gridSize: null },
      files,
    },
    null,
    2,
  );
}

// ——— import ————————————————————————————————————————————————————————————————————————————————————————————————

const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** Excalidraw's colour as the board's: a hex colour, or none for 'transparent' (anything else: `fallback`). */
function colorOf(v: unknown, fallback: Color): Color {
  if (typeof v !== 'string') return fallback;
  const c = parseColor(v);
  return c === undefined ? fallback : c;
}

/** Text cut to what one object holds (whole characters, by UTF-8 bytes). */
function clipText(s: string): { text: string; clipped: boolean } {
  const enc = new TextEncoder();
  if (enc.encode(s).length <= MAX_TEXT_BYTES) return { text: s, clipped: false };
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = enc.encode(ch).length;
    if (bytes + n > MAX_TEXT_BYTES) break;
    out += ch;
    bytes += n;
  }
  return { text: out, clipped: true };
}

/** At most MAX_POINTS points, evenly picked, the first and last kept. */
function thinPoints(points: readonly Pt[]): Pt[] {
  if (points.length <= MAX_POINTS) return [...points];
  const out: Pt[] = [];
  for (let i = 0; i < MAX_POINTS; i++) {
    const p = points[Math.round((i * (points.length - 1)) / (MAX_POINTS - 1))];
    if (p) out.push(p);
  }
  return out;
}

function readPoints(v: unknown): Pt[] | undefined {
  if (!Array.isArray(v) || v.length < 1 || v.length > 100_000) return undefined;
  const out: Pt[] = [];
  for (const p of v as unknown[]) {
    if (!Array.isArray(p)) return undefined;
    const x = num(p[0]);
    const y = num(p[1]);
    if (x === undefined || y === undefined) return undefined;
    out.push({ x, y });
  }
  return out;
}

/** The board's rotation steps (0..3599) from Excalidraw's radians. */
function rotationSteps(angle: number): number {
  const steps = Math.round(((angle * 180) / Math.PI) * 10) % ROTATION_STEPS;
  return steps < 0 ? steps + ROTATION_STEPS : steps;
}

/**
 * The board object for one element, or why it is skipped. `bound`: the text inside it, for a rectangle that
 * holds one (it becomes a note).
 */
function readElement(e: Json, bound: Json | undefined): NewObject | string {
  const type = e.type;
  const x = num(e.x);
  const y = num(e.y);
  const width = num(e.width) ?? 0;
  const height = num(e.height) ?? 0;
  if (x === undefined || y === undefined) return 'elements without a position';
  const angle = num(e.angle) ?? 0;
  const steps = rotationSteps(angle);
  const stroke = colorOf(e.strokeColor, INK);
  const fill = colorOf(e.backgroundColor, null);
  const strokeWidth = Math.min(MAX_STROKE_WIDTH, Math.max(0, Math.round(num(e.strokeWidth) ?? 2)));
  let kind: ObjectKind;
  let local: { w: number; h: number; points: number[] };
  let text = '';
  if (type === 'rectangle' || type === 'ellipse' || type === 'text') {
    kind = type === 'ellipse' ? 'ellipse' : type === 'text' ? 'text' : 'rect';
    local = { w: Math.abs(width), h: Math.abs(height), points: [] };
    if (type === 'text') text = typeof e.text === 'string' ? e.text : '';
    if (type === 'rectangle' && bound !== undefined) {
      kind = 'note';
      text = typeof bound.text === 'string' ? bound.text : '';
    }
  } else if (type === 'line' || type === 'arrow' || type === 'freedraw') {
    kind = type === 'freedraw' ? 'stroke' : type;
    const pts = readPoints(e.points);
    if (pts === undefined) return 'lines with bad points';
    const thin = thinPoints(pts);
    const flat = thin.flatMap((p) => [Math.round(p.x), Math.round(p.y)]);
    if (flat.some((v) => Math.abs(v) > POINT_EXTENT)) return 'lines too long for one object';
    local = { w: 0, h: 0, points: flat.length === 2 ? [...flat, ...flat] : flat };
  } else return `${typeof type === 'string' ? type : 'unknown'} elements`;

  // Excalidraw turns about the box's centre, the board about x, y: the same centre, then back from it.
  const box = localBox({ kind, ...local });
  const mid = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2 };
  const centre = isLinear(kind)
    ? { x: x + mid.x, y: y + mid.y }
    : { x: x + local.w / 2, y: y + local.h / 2 };
  const turned = rotate(mid, radians(steps));
  const ox = Math.round(centre.x - turned.x);
  const oy = Math.round(centre.y - turned.y);
  if (Math.abs(ox) > WORLD_EXTENT || Math.abs(oy) > WORLD_EXTENT) return 'elements off the board';
  const w = Math.round(isLinear(kind) ? box.max.x - box.min.x : local.w);
  const h = Math.round(isLinear(kind) ? box.max.y - box.min.y : local.h);
  if (w > MAX_SIZE || h > MAX_SIZE) return 'elements too large';
  const clipped = clipText(text);
  const o: NewObject = {
    kind,
    x: ox,
    y: oy,
    w,
    h,
    rotation: steps,
    stroke: kind === 'note' ? null : stroke,
    fill: kind === 'note' ? (fill ?? NOTE_FILL) : isLinear(kind) || kind === 'text' ? null : fill,
    strokeWidth,
    text: clipped.text,
    points: local.points,
    blob: '',
  };
  return validateObjectFields(o) ?? o;
}

/**
 * The shapes of an .excalidraw scene as new board objects, bottom to top (ids are the board's to give), with
 * what was skipped; or a refusal when the text is no Excalidraw scene at all.
 */
export function fromExcalidraw(text: string): ExcalidrawImport | ExcalidrawRefusal {
  if (text.length > MAX_EXCALIDRAW_BYTES) return { refused: 'the Excalidraw file is too large' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { refused: 'not an Excalidraw file (not JSON)' };
  }
  if (!isRecord(data) || data.type !== 'excalidraw' || !Array.isArray(data.elements))
    return { refused: 'not an Excalidraw file' };
  const version = num(data.version);
  if (version !== undefined && version > 2)
    return { refused: `an Excalidraw file of a newer version (${version})` };
  const raw = data.elements as unknown[];
  if (raw.length > MAX_EXCALIDRAW_ELEMENTS) return { refused: `too many elements (${raw.length})` };
  const objects: NewObject[] = [];
  const skipped = new Map<string, number>();
  const skip = (why: string): void => {
    skipped.set(why, (skipped.get(why) ?? 0) + 1);
  };
  for (const e of raw) if (!isRecord(e)) skip('malformed elements');
  const live = raw.filter((e): e is Json => isRecord(e) && e.isDeleted !== true);
  const byId = new Map<string, Json>();
  for (const e of live) if (typeof e.id === 'string') byId.set(e.id, e);
  // Text bound in a rectangle becomes that rectangle's note; text in any other container stands alone.
  const noteText = new Map<Json, Json>();
  const inNote = new Set<Json>();
  for (const e of live) {
    if (e.type !== 'text' || typeof e.containerId !== 'string') continue;
    const box = byId.get(e.containerId);
    if (box?.type === 'rectangle' && !noteText.has(box)) {
      noteText.set(box, e);
      inNote.add(e);
    }
  }
  for (const e of live) {
    if (inNote.has(e)) continue;
    const bound = noteText.get(e);
    const r = readElement(e, bound);
    if (typeof r === 'string') {
      skip(r);
      continue;
    }
    const given = (bound ?? e).text;
    if (typeof given === 'string' && utf8(r.text) < utf8(given)) skip('texts cut short');
    objects.push(r);
  }
  return { objects, skipped };
}

const utf8 = (s: string): number => new TextEncoder().encode(s).length;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
