// The store's images: bytes as data URLs, progress until they arrive, and this user's own upload's progress.
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import { uploadProgress } from './images';
import { reduce } from './reduce-ui';
import { type AppState, INITIAL_STATE } from './state';

const H = 'ab'.repeat(32);
const K = 'cd'.repeat(32);

const event = (s: AppState, e: ApiEvent): AppState => reduce(s, { type: 'event', event: e });

function image(id: number, blob: string): BoardObject {
  return {
    id,
    kind: 'image',
    x: 0,
    y: 0,
    w: 10,
    h: 10,
    rotation: 0,
    stroke: null,
    fill: null,
    strokeWidth: 0,
    text: '',
    points: [],
    blob,
    z: id,
    lockedBy: null,
    pinned: 0,
  };
}

describe('images in the store', () => {
  it('keeps progress until the bytes come, then a data URL that later progress leaves alone', () => {
    const progress = { type: 'image-progress', upload: false } as const;
    let s = event(INITIAL_STATE, { ...progress, hash: H, received: 10, total: 40 });
    expect(s.images.get(H)).toEqual({ received: 10, total: 40, upload: false });
    s = event(s, { type: 'image', hash: H, imageType: 'image/svg+xml', data: 'PHN2Zy8+' });
    expect(s.images.get(H)).toEqual({ url: 'data:image/svg+xml;base64,PHN2Zy8+' });
    s = event(s, { ...progress, hash: H, received: 40, total: 40 });
    expect(s.images.get(H)).toEqual({ url: 'data:image/svg+xml;base64,PHN2Zy8+' });
  });

  it("tells this user's uploads from downloads (and a host's view of a peer's upload), and forgets a refused one", () => {
    const up = { type: 'image-progress', upload: true } as const;
    let s = event(INITIAL_STATE, { ...up, hash: H, received: 30, total: 40 });
    s = event(s, { ...up, hash: K, received: 10, total: 40 });
    // Someone else's image arriving here is no upload of ours.
    s = event(s, {
      type: 'image-progress',
      upload: false,
      hash: 'ef'.repeat(32),
      received: 1,
      total: 40,
    });
    expect(uploadProgress(s)).toBe(0.25);
    // K reached the host: its object shows it now.
    s = event(s, { type: 'objects', upserts: [image(1, K)], deletes: [] });
    expect(uploadProgress(s)).toBe(0.75);
    // H was refused: said settled with a total of 0.
    s = event(s, { ...up, hash: H, received: 0, total: 0 });
    expect(uploadProgress(s)).toBeNull();
  });
});
