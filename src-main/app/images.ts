// Images between the app core and the renderer: an image command's object, a blob as an API event (base64), and
// which download progress is worth telling the renderer (a step of at least 2 %, or the end). Knows nothing of
// how blobs travel.
import type { ApiCommand, ApiEvent } from '../../shared/api';
import type { NewObject } from '../../shared/board';
import type { Blob } from '../session/blob-store';

/** The image object an image command places (no stroke or fill: the image is all it shows). */
export function imageObject(
  hash: string,
  c: Pick<Extract<ApiCommand, { cmd: 'image' }>, 'x' | 'y' | 'w' | 'h'>,
): NewObject {
  return {
    kind: 'image',
    x: c.x,
    y: c.y,
    w: c.w,
    h: c.h,
    rotation: 0,
    stroke: null,
    fill: null,
    strokeWidth: 0,
    text: '',
    points: [],
    blob: hash,
  };
}

export function imageEvent(b: Pick<Blob, 'hash' | 'type' | 'bytes'>): ApiEvent {
  return {
    type: 'image',
    hash: b.hash,
    imageType: b.type,
    data: Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.length).toString('base64'),
  };
}

/** Progress steps of each image under way, so a 2 MB image is a few dozen events, not two thousand. */
export class ProgressSteps {
  private readonly last = new Map<string, number>();

  /** Whether this progress is news (and forgets an image once whole). */
  worthTelling(hash: string, received: number, total: number): boolean {
    if (received >= total) {
      this.last.delete(hash);
      return true;
    }
    const step = Math.floor((received / total) * 50);
    if (this.last.get(hash) === step) return false;
    // Bounded by the images under way; a stray entry goes when the map is past any real number of them.
    if (this.last.size > 1000) this.last.clear();
    this.last.set(hash, step);
    return true;
  }
}
