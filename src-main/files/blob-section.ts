// The blobs section of a .ghostboard file (version 2): each image's bytes once, base64, under the SHA-256 its
// objects name, written for the images the board shows. Read back as hostile input: a bad hash, type or
// encoding, bytes past the limit or not matching their hash refuse the whole file. Knows nothing of disks or
// sessions.
//
//   "blobs": [ { "hash": "<64 hex digits>", "type": "image/png" | "image/jpeg" | "image/svg+xml", "data": "<base64>" }, … ]
import { createHash } from 'node:crypto';
import type { BoardObject } from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import { isImageType, MAX_IMAGE_BYTES } from '../../shared/images';

/** Blobs a file may hold: a board's images, each at most MAX_IMAGE_BYTES (the file's own size bounds it too). */
export const MAX_FILE_BLOBS = 10_000;

const HASH = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The section for these objects' images (each once, in the order first shown; one not known is left out). */
export function encodeBlobs(
  objects: readonly BoardObject[],
  blobOf: (hash: string) => ImageBlob | undefined,
): { hash: string; type: string; data: string }[] {
  const out: { hash: string; type: string; data: string }[] = [];
  const seen = new Set<string>();
  for (const o of objects) {
    if (o.kind !== 'image' || seen.has(o.blob)) continue;
    seen.add(o.blob);
    const b = blobOf(o.blob);
    if (b === undefined) continue;
    const data = Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.length).toString('base64');
    out.push({ hash: b.hash, type: b.type, data });
  }
  return out;
}

/** The section's blobs, or why the file is refused. */
export function decodeBlobs(raw: unknown): ImageBlob[] | { refused: string } {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_FILE_BLOBS) return { refused: 'bad image list' };
  const out: ImageBlob[] = [];
  for (const b of raw as unknown[]) {
    if (typeof b !== 'object' || b === null) return { refused: 'bad image' };
    const { hash, type, data } = b as Record<string, unknown>;
    if (typeof hash !== 'string' || !HASH.test(hash)) return { refused: 'bad image hash' };
    if (!isImageType(type)) return { refused: 'bad image type' };
    if (typeof data !== 'string' || !BASE64.test(data) || data.length % 4 !== 0)
      return { refused: 'bad image data' };
    if ((data.length / 4) * 3 > MAX_IMAGE_BYTES + 2) return { refused: 'image too large' };
    const bytes = new Uint8Array(Buffer.from(data, 'base64'));
    if (createHash('sha256').update(bytes).digest('hex') !== hash)
      return { refused: 'image bytes do not match their hash' };
    out.push({ hash, type, bytes });
  }
  return out;
}
