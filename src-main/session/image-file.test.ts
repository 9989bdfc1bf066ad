import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../shared/images';
import { imageTypeOf, readImageFile } from './image-file';

describe('an image file for a headless paste', () => {
  it('is typed by its name, read within the limit, refused otherwise', async () => {
    expect(['a.PNG', 'b.jpg', 'c.jpeg', 'd.svg', 'e.gif', 'png'].map(imageTypeOf)).toEqual([
      'image/png',
      'image/jpeg',
      'image/jpeg',
      'image/svg+xml',
      undefined,
      undefined,
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'gb-image-'));
    const small = join(dir, 'small.svg');
    writeFileSync(small, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(await readImageFile(small)).toMatchObject({ type: 'image/svg+xml' });
    const big = join(dir, 'big.png');
    writeFileSync(big, new Uint8Array(MAX_IMAGE_BYTES + 1));
    expect(await readImageFile(big)).toEqual({ refused: 'image too large (2 MB; at most 2 MB)' });
    expect(await readImageFile(join(dir, 'none.png'))).toMatchObject({ refused: /cannot read/ });
    expect(await readImageFile(join(dir, 'page.html'))).toEqual({
      refused: 'an image is a .png, .jpg or .svg file',
    });
  });
});
