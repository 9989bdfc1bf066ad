// Converting boards between formats: .ghostboard (ours), .excalidraw (Excalidraw's scene) and .svg (export only),
// by file name. What one format cannot hold is reported, never silently dropped. Pure over text: the CLI reads and
// writes the files. Knows nothing of sessions or the network.
import type { BoardObject, NewObject } from '../../shared/board';
import { NEW_OBJECT_FIELDS } from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import { fromExcalidraw, toExcalidraw } from '../../shared/excalidraw';
import { toSvg } from '../../shared/svg';
import type { BoardState } from '../board';
import { apply, emptyBoard, MAX_OBJECTS, objectsByZ } from '../board';
import { decodeBoardFileContent, encodeBoardFile } from './board-codec';

export type BoardFormat = 'ghostboard' | 'excalidraw' | 'svg';

/** The format a file name says, or undefined for one this tool does not know. */
export function formatOf(file: string): BoardFormat | undefined {
  const m = /\.(ghostboard|excalidraw|svg)$/i.exec(file);
  return m?.[1]?.toLowerCase() as BoardFormat | undefined;
}

export interface Converted {
  readonly text: string;
  readonly objects: number;
  /** What did not come along, in words with counts (e.g. "2 diamond elements skipped"). */
  readonly lost: readonly string[];
}

/** A board from new objects, bottom to top, with ids from 1 (as a host creates them). */
export function boardOf(objects: readonly NewObject[]): BoardState {
  const state = emptyBoard();
  for (const fields of objects.slice(0, MAX_OBJECTS)) apply(state, { type: 'create', fields });
  return state;
}

/** Reads a board in `from`'s format (never svg), or says why not. */
export function readBoard(
  text: string,
  from: Exclude<BoardFormat, 'svg'>,
): { state: BoardState; lost: string[]; blobs: readonly ImageBlob[] } | { refused: string } {
  if (from === 'ghostboard') {
    const r = decodeBoardFileContent(text);
    return 'refused' in r ? r : { state: r.state, lost: [], blobs: r.blobs };
  }
  const r = fromExcalidraw(text);
  if ('refused' in r) return r;
  const lost = [...r.skipped].map(([what, count]) => `${count} ${what} skipped`);
  if (r.objects.length > MAX_OBJECTS)
    lost.push(`${r.objects.length - MAX_OBJECTS} objects past the board's ${MAX_OBJECTS} skipped`);
  return { state: boardOf(r.objects), lost, blobs: [] };
}

/**
 * A board file's objects as new ones to add to a live board, bottom to top, and what cannot come along: images
 * (their bytes go to the host as uploads of their own) and what the format itself skipped.
 */
export function importableObjects(
  text: string,
  from: Exclude<BoardFormat, 'svg'>,
): { objects: NewObject[]; lost: string[] } | { refused: string } {
  const r = readBoard(text, from);
  if ('refused' in r) return r;
  const all = objectsByZ(r.state);
  const objects = all
    .filter((o) => o.kind !== 'image')
    .map((o) => Object.fromEntries(NEW_OBJECT_FIELDS.map((k) => [k, o[k]])) as NewObject);
  const images = all.length - objects.length;
  const lost = [...r.lost];
  if (images > 0) lost.push(`${images} images skipped (paste or drop them instead)`);
  return { objects, lost };
}

/** The board as `to`'s text, with the images' bytes these blobs hold. */
export function writeBoard(
  state: BoardState,
  to: BoardFormat,
  blobs: readonly ImageBlob[] = [],
): string {
  const byHash = new Map(blobs.map((b) => [b.hash, b]));
  const blobOf = (h: string): ImageBlob | undefined => byHash.get(h);
  // A board file keeps the board's own counters (the ids it handed out); an export only what it shows.
  if (to === 'ghostboard') return encodeBoardFile(state, blobOf);
  return exportBoard(objectsByZ(state), to, false, blobOf);
}

/** Objects of a live board (any order) as `to`'s text: bottom to top, an SVG on white unless `transparent`. */
export function exportBoard(
  objects: readonly BoardObject[],
  to: BoardFormat,
  transparent = false,
  blobOf: (hash: string) => ImageBlob | undefined = () => undefined,
): string {
  const state = emptyBoard();
  for (const o of objects) {
    state.objects.set(o.id, { ...o, lockedBy: null });
    state.nextId = Math.max(state.nextId, o.id + 1);
    state.topZ = Math.max(state.topZ, o.z);
  }
  const data = (hash: string): { type: string; url: string } | undefined => {
    const b = blobOf(hash);
    return (
      b && { type: b.type, url: `data:${b.type};base64,${Buffer.from(b.bytes).toString('base64')}` }
    );
  };
  if (to === 'ghostboard') return encodeBoardFile(state, blobOf);
  if (to === 'excalidraw') return toExcalidraw(objectsByZ(state), data);
  return toSvg(objectsByZ(state), {
    background: transparent ? null : 0xffffff,
    imageUrl: (hash) => data(hash)?.url,
  });
}

/** Converts a board's text from one format to another. */
export function convertBoard(
  text: string,
  from: BoardFormat,
  to: BoardFormat,
): Converted | { refused: string } {
  if (from === 'svg') return { refused: 'an SVG is an export: it cannot be read back as a board' };
  const r = readBoard(text, from);
  if ('refused' in r) return r;
  return { text: writeBoard(r.state, to, r.blobs), objects: r.state.objects.size, lost: r.lost };
}
