// An image file from disk for a headless paste (the CLI's script `image` command): its bytes and type by its name,
// read only when it is an image the board takes and within the size limit. Knows nothing of the session.
import { readFile, stat } from 'node:fs/promises';
import type { ImageType } from '../../shared/images';
import { formatBytes, MAX_IMAGE_BYTES } from '../../shared/images';

/** An image file's type by its name, or undefined for one the board does not take. */
export function imageTypeOf(file: string): ImageType | undefined {
  const ext = /\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase();
  if (ext === 'png') return 'image/png';
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'svg') return 'image/svg+xml';
  return undefined;
}

export async function readImageFile(
  file: string,
): Promise<{ bytes: Uint8Array; type: ImageType } | { refused: string }> {
  const type = imageTypeOf(file);
  if (type === undefined) return { refused: 'an image is a .png, .jpg or .svg file' };
  const size = await stat(file).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) return { refused: `cannot read ${file}` };
  if (size > MAX_IMAGE_BYTES)
    return {
      refused: `image too large (${formatBytes(size)}; at most ${formatBytes(MAX_IMAGE_BYTES)})`,
    };
  const bytes = await readFile(file).catch(() => undefined);
  return bytes === undefined
    ? { refused: `cannot read ${file}` }
    : { bytes: new Uint8Array(bytes), type };
}
