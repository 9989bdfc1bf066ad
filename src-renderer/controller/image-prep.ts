// Gets a pasted or dropped image file ready to send: PNG, JPEG or SVG only; a raster image whose longer side is
// past the limit (or whose bytes are) is drawn smaller on a canvas and re-encoded (PNG stays PNG, JPEG stays
// JPEG), an SVG is sent as it is (it is only ever drawn from an <img>, where it runs no script) unless its bytes
// are past the limit, when it is rasterized. Knows nothing of React, Konva or the core.
import type { ImageType } from '../../shared/images';
import { formatBytes, isImageType, MAX_IMAGE_BYTES } from '../../shared/images';

export interface PreparedImage {
  readonly type: ImageType;
  /** The bytes, base64. */
  readonly data: string;
  /** Pixels of the image as sent (an SVG's own size). */
  readonly width: number;
  readonly height: number;
}

export interface PrepOptions {
  /** Longer side, pixels, past which a raster image is downscaled. */
  readonly maxSide: number;
  /** Bytes past which an image is downscaled (or refused, when even that does not bring it under). */
  readonly maxBytes?: number;
}

/** The image ready to send, or why it cannot be (not an image we take, too large even downscaled). */
export async function prepareImage(
  file: Blob,
  o: PrepOptions,
): Promise<PreparedImage | { refused: string }> {
  const type = file.type;
  if (!isImageType(type)) return { refused: 'only PNG, JPEG and SVG images can be pasted' };
  const maxBytes = o.maxBytes ?? MAX_IMAGE_BYTES;
  const img = await decode(file);
  if (img === undefined) return { refused: 'the image could not be read' };
  // An SVG without a size of its own draws at the browser's default for replaced elements.
  const width = img.naturalWidth || 300;
  const height = img.naturalHeight || 150;
  const fits = Math.max(width, height) <= o.maxSide && file.size <= maxBytes;
  if (type === 'image/svg+xml' ? file.size <= maxBytes : fits)
    return { type, data: await base64(file), width, height };
  const out: ImageType = type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
  let scale = Math.min(1, o.maxSide / Math.max(width, height));
  // Smaller until the bytes fit: a few tries, each 70 % of the last.
  for (let tries = 0; tries < 8; tries++, scale *= 0.7) {
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    const blob = await encode(img, w, h, out);
    if (blob !== undefined && blob.size <= maxBytes)
      return { type: out, data: await base64(blob), width: w, height: h };
  }
  return { refused: `image too large (over ${formatBytes(maxBytes)} even downscaled)` };
}

function decode(file: Blob): Promise<HTMLImageElement | undefined> {
  const url = URL.createObjectURL(file);
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      resolve(undefined);
    };
    img.src = url;
  });
}

function encode(
  img: HTMLImageElement,
  w: number,
  h: number,
  type: ImageType,
): Promise<Blob | undefined> {
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (ctx === null) return Promise.resolve(undefined);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, 0, 0, w, h);
  return new Promise((resolve) => {
    canvas.toBlob((b) => resolve(b ?? undefined), type, 0.85);
  });
}

async function base64(b: Blob): Promise<string> {
  const bytes = new Uint8Array(await b.arrayBuffer());
  let s = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The first PNG, JPEG or SVG file among these (a paste's or a drop's), or undefined. */
export function imageFileOf(files: Iterable<File>): File | undefined {
  for (const f of files) if (isImageType(f.type)) return f;
  return undefined;
}

/** The size an image takes on the board at first: its own, fitted within `maxSide` world units. */
export function placedSize(width: number, height: number, maxSide = 640): { w: number; h: number } {
  const k = Math.min(1, maxSide / Math.max(width, height, 1));
  return { w: Math.max(1, Math.round(width * k)), h: Math.max(1, Math.round(height * k)) };
}
