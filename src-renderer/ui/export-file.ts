// Getting a board out of the app as a file: the core writes the text (a .ghostboard copy, an .excalidraw scene, an
// SVG); a PNG is that SVG drawn onto a canvas at 1× or 2×. Files leave as downloads (the desktop app asks where to
// save them). DOM only; knows nothing of Konva or the store.
import type { ExportFormat } from '../../shared/api';

/** A PNG is refused beyond this many pixels (browsers cap a canvas near 16k per side and 268M pixels). */
export const MAX_PNG_PIXELS = 64_000_000;
export const MAX_PNG_SIDE = 16_384;

export const MIME: Readonly<Record<ExportFormat | 'png', string>> = {
  ghostboard: 'application/vnd.ghostboard+json',
  excalidraw: 'application/vnd.excalidraw+json',
  svg: 'image/svg+xml',
  png: 'image/png',
};

/** A file name for an export made now: ghostboard-2026-11-26-1042.png. */
export function exportName(ext: string, now = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
  return `ghostboard-${stamp}.${ext}`;
}

/** The SVG document's size in pixels (its width and height attributes). */
export function svgSize(svg: string): { w: number; h: number } | null {
  const m = /<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"/.exec(svg);
  return m ? { w: Number(m[1]), h: Number(m[2]) } : null;
}

/** The scale a PNG can be drawn at: the one asked for, or less when the picture would be too large. */
export function pngScale(size: { w: number; h: number }, wanted: number): number {
  const bySide = MAX_PNG_SIDE / Math.max(size.w, size.h, 1);
  const byArea = Math.sqrt(MAX_PNG_PIXELS / Math.max(1, size.w * size.h));
  return Math.min(wanted, bySide, byArea);
}

/** Draws the SVG onto a canvas at `scale`: the PNG, and the scale it was drawn at. */
export async function svgToPng(
  svg: string,
  wanted: number,
): Promise<{ blob: Blob; scale: number }> {
  const size = svgSize(svg);
  if (size === null) throw new Error('the picture has no size');
  const scale = pngScale(size, wanted);
  const url = URL.createObjectURL(new Blob([svg], { type: MIME.svg }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(size.w * scale));
    canvas.height = Math.max(1, Math.round(size.h * scale));
    const ctx = canvas.getContext('2d');
    if (ctx === null) throw new Error('no canvas to draw on');
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => {
      canvas.toBlob(resolve, MIME.png);
    });
    if (blob === null) throw new Error('the picture could not be encoded');
    return { blob, scale };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Saves a file the way a page can: a download (the desktop app shows its save dialog). */
export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the file over.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

/** Puts a PNG on the clipboard; false where the page may not (no permission, no focus). */
export async function copyPng(blob: Blob): Promise<boolean> {
  try {
    await navigator.clipboard.write([new ClipboardItem({ [MIME.png]: blob })]);
    return true;
  } catch {
    return false;
  }
}
