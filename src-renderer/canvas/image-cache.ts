// Decoded images by content hash: one <img> per image, loaded once from its data URL, and who to tell when one
// is ready to draw. Drawing from an <img> means an SVG is only ever a picture (a document loaded as an image runs
// no script and fetches nothing). Knows nothing of the store or of Konva.

interface Entry {
  readonly el: HTMLImageElement;
  ready: boolean;
  failed: boolean;
}

export class ImageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();
  /** Grows whenever an image becomes ready (or fails): what a mirror compares to know it has news. */
  version = 0;

  /** The image ready to draw, or undefined while it decodes (the decode starts on the first ask). */
  get(hash: string, url: string): HTMLImageElement | undefined {
    let e = this.entries.get(hash);
    if (e === undefined) {
      const el = new Image();
      const entry: Entry = { el, ready: false, failed: false };
      el.onload = () => this.settle(entry, true);
      el.onerror = () => this.settle(entry, false);
      el.src = url;
      this.entries.set(hash, entry);
      e = entry;
    }
    return e.ready ? e.el : undefined;
  }

  /** Natural size of a ready image ('failed' for bytes that are no image), or undefined. */
  natural(hash: string): { w: number; h: number } | 'failed' | undefined {
    const e = this.entries.get(hash);
    if (e?.failed) return 'failed';
    return e?.ready ? { w: e.el.naturalWidth, h: e.el.naturalHeight } : undefined;
  }

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Forgets every image (a new session). */
  clear(): void {
    this.entries.clear();
  }

  private settle(e: Entry, ok: boolean): void {
    e.ready = ok;
    e.failed = !ok;
    this.version++;
    for (const l of this.listeners) l();
  }
}

/** The renderer's one cache (images are shared by every object and layer that shows them). */
export const imageCache = new ImageCache();
