// What Ghostboard puts on the system clipboard: a versioned payload of board objects (the fields an editor sets,
// bottom to top, where they were on the board they came from) and its plain-text fallback (the objects' texts).
// A payload read back is hostile input: bounded, every object checked with the board's own field validation, and
// refused whole, with a reason, when anything is wrong. Pure; knows nothing of the DOM, the store or the bridge.
//
//   { "format": "ghostboard-clip", "version": 1, "objects": [OBJECT, …] }
//
// OBJECT: every field of NEW_OBJECT_FIELDS (kind, x, y, w, h, rotation, stroke, fill, strokeWidth, text, points)
// and no other. JSON text, like the board file: the clipboard is no wire, and other programs may carry it.
import type { FieldSpec, NewObject } from '../../shared/board';
import { fieldRefusal, fieldSpec, MAX_TEXT_BYTES, NEW_OBJECT_FIELDS } from '../../shared/board';

export const CLIP_FORMAT = 'ghostboard-clip';
export const CLIP_VERSION = 1;
/** The custom clipboard type a copy writes (and a paste reads first). */
export const CLIP_MIME = 'application/x-ghostboard';
/** Objects one copy may carry; a payload with more is refused whole. */
export const MAX_CLIP_OBJECTS = 10_000;
/**
 * Characters a payload may have before it is parsed: MAX_CLIP_OBJECTS objects of typical size fit well within it,
 * and a larger one would take the renderer's memory several times over while parsed.
 */
export const MAX_CLIP_CHARS = 16 * 1024 * 1024;

/** Why a payload was not pasted, in words for the user. */
export interface ClipRefusal {
  readonly refused: string;
}

const FIELDS: readonly FieldSpec[] = NEW_OBJECT_FIELDS.map((n) => fieldSpec(n));

/** The payload's text: the objects as given (bottom to top), each with its fields in table order. */
export function encodeClip(objects: readonly NewObject[]): string {
  const out = objects.map((o) => {
    const fields: Record<string, unknown> = {};
    for (const f of FIELDS) fields[f.name] = o[f.name as keyof NewObject];
    return fields;
  });
  return JSON.stringify({ format: CLIP_FORMAT, version: CLIP_VERSION, objects: out });
}

/** The objects of a payload, or why it is refused (the first fault found names it). */
export function decodeClip(text: string): NewObject[] | ClipRefusal {
  if (text.length > MAX_CLIP_CHARS) return { refused: 'too much on the clipboard' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { refused: 'the clipboard holds no Ghostboard objects' };
  }
  if (!isRecord(data) || data.format !== CLIP_FORMAT) {
    return { refused: 'the clipboard holds no Ghostboard objects' };
  }
  if (data.version !== CLIP_VERSION) return { refused: 'objects from a newer Ghostboard' };
  const list = data.objects;
  if (!Array.isArray(list) || list.length === 0) return { refused: 'no objects on the clipboard' };
  if (list.length > MAX_CLIP_OBJECTS)
    return { refused: `at most ${MAX_CLIP_OBJECTS} objects can be pasted at once` };
  const out: NewObject[] = [];
  for (const raw of list as unknown[]) {
    const o = readObject(raw);
    if ('refused' in o) return o;
    out.push(o);
  }
  return out;
}

function readObject(raw: unknown): NewObject | ClipRefusal {
  if (!isRecord(raw)) return { refused: 'a damaged object on the clipboard' };
  const keys = Object.keys(raw);
  if (keys.length !== FIELDS.length || !FIELDS.every((f) => Object.hasOwn(raw, f.name)))
    return { refused: 'a damaged object on the clipboard' };
  for (const f of FIELDS) {
    const why = fieldRefusal(f, raw[f.name]);
    if (why !== undefined) return { refused: `a damaged object on the clipboard: ${why}` };
  }
  const o = raw as unknown as NewObject;
  return { ...o, points: [...o.points] };
}

/** The plain-text fallback: the texts of the objects that have one, bottom to top, a line between each. */
export function clipText(objects: readonly NewObject[]): string {
  return objects
    .map((o) => o.text)
    .filter((t) => t.trim() !== '')
    .join('\n');
}

/** Text cut to what one object holds (MAX_TEXT_BYTES of UTF-8), never inside a character. */
export function fitText(text: string): { text: string; cut: boolean } {
  const enc = new TextEncoder();
  if (enc.encode(text).length <= MAX_TEXT_BYTES) return { text, cut: false };
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = enc.encode(ch).length;
    if (bytes + n > MAX_TEXT_BYTES) break;
    out += ch;
    bytes += n;
  }
  return { text: out, cut: true };
}

/**
 * The HTML flavour: the texts to show, and the payload (base64 of its UTF-8) in an attribute, for where only HTML
 * survives the trip (the async clipboard API, other programs).
 */
export function clipHtml(payload: string, text: string): string {
  const escaped = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\n/g, '<br>');
  return `<div data-ghostboard="${toBase64(payload)}">${escaped}</div>`;
}

/** The payload an HTML flavour carries, or undefined when it carries none (or a damaged one). */
export function payloadFromHtml(html: string): string | undefined {
  if (html.length > MAX_CLIP_CHARS * 2) return undefined;
  const m = /data-ghostboard="([A-Za-z0-9+/=]*)"/.exec(html);
  if (m?.[1] === undefined) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
}

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  // In slices: one String.fromCharCode of a whole large payload would pass the engine's argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
