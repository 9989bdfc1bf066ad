// Images on the board, as every process sees them: the formats accepted, the default limits on their bytes, and
// how a content hash is written. Data and pure helpers only; knows nothing of how the bytes travel or are drawn.

/** The formats an image may have, by index on the wire. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** Bytes of one image, at most (a paste past it is refused; the renderer downscales well below it). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Bytes of every image of one session together, by default (the host may set another limit). */
export const DEFAULT_SESSION_IMAGE_BYTES = 32 * 1024 * 1024;
/** The renderer re-encodes a raster image whose longer side is past this many pixels (the default). */
export const DEFAULT_IMAGE_MAX_SIDE = 2048;

/** An image's bytes, by the SHA-256 (hex) an image object names them with. */
export interface ImageBlob {
  readonly hash: string;
  readonly type: ImageType;
  readonly bytes: Uint8Array;
}

export function isImageType(s: unknown): s is ImageType {
  return (IMAGE_TYPES as readonly unknown[]).includes(s);
}

/** Lowercase hex of bytes. */
export function bytesToHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** Bytes of an even-length hex string (a programmer error when it is not hex). */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) throw new RangeError('not hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** "2 MB", "512 KB": a byte count for people. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}
