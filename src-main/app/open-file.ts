// The host's open board file (files): which file the live board is (none: "Untitled"), whether the board changed
// since it was last saved (its content hash against the saved one's), and the autosave of a named file a few
// seconds after a change. Saves are files/board-file.ts's (temp file, fsync, rename). Never writes an Untitled
// board anywhere. Knows nothing of sessions, the network or the UI: the core gives it the board and the clock.
import { basename } from 'node:path';
import type { ApiEvent } from '../../shared/api';
import { saveBoardFile } from '../files/board-file';

/** A named file is saved this long after its board first changed since the last save. */
export const AUTOSAVE_AFTER_MS = 3_000;
/** What the window title shows for a board with no file. */
export const UNTITLED = 'Untitled';

/** What the open file needs of the live board. */
export interface SavableBoard {
  /** The content's hash: equal boards hash equal. */
  hash(): string;
  /** The .ghostboard text of the board (its images' bytes included). */
  text(): string;
}

export type FileEvent = Extract<ApiEvent, { type: 'file' }>;

export class OpenFile {
  private path: string | undefined;
  private savedHash: string;
  /** When the board first differed from the saved one (undefined: it does not). */
  private changedAt: number | undefined;
  /** Saves run one after another; `writing` while one is under way (an autosave waits for it). */
  private queue: Promise<void> = Promise.resolve();
  private writing = false;
  /** The first save over a file in this session copies the file it replaces to FILE.1 first. */
  private backedUp = false;
  private shown: string | undefined;

  constructor(
    private readonly board: SavableBoard,
    private readonly emit: (e: ApiEvent) => void,
  ) {
    this.savedHash = board.hash();
  }

  get current(): string | undefined {
    return this.path;
  }

  get dirty(): boolean {
    return this.board.hash() !== this.savedHash;
  }

  /** The `file` event for the renderer as things are now. */
  event(): FileEvent {
    const p = this.path;
    return {
      type: 'file',
      name: p === undefined ? UNTITLED : basename(p).replace(/\.ghostboard$/i, ''),
      ...(p === undefined ? {} : { path: p }),
      dirty: this.dirty,
    };
  }

  /** Tells the renderer the file event when it changed since it last did (always: `force`). */
  show(force = false): void {
    const e = this.event();
    const key = JSON.stringify(e);
    if (!force && key === this.shown) return;
    this.shown = key;
    this.emit(e);
  }

  /** Called often (the core's stats timer): notices changes, and autosaves a named file once they have aged. */
  tick(now: number): void {
    const dirty = this.dirty;
    if (!dirty) this.changedAt = undefined;
    else this.changedAt ??= now;
    this.show();
    if (
      dirty &&
      this.path !== undefined &&
      !this.writing &&
      this.changedAt !== undefined &&
      now - this.changedAt >= AUTOSAVE_AFTER_MS
    )
      void this.save().catch((e: unknown) =>
        this.emit({
          type: 'notice',
          level: 'error',
          text: `Autosave of ${this.event().name} failed: ${e instanceof Error ? e.message : String(e)}`,
        }),
      );
  }

  /** Saves the board to `to` (default the open file), which becomes the open file. Throws what the disk threw. */
  async save(to?: string): Promise<void> {
    const file = to ?? this.path;
    if (file === undefined) throw new Error('the board has no file yet: use Save As');
    const run = this.queue.then(async () => {
      this.writing = true;
      try {
        const hash = this.board.hash();
        const backup = file !== this.path || !this.backedUp;
        await saveBoardFile(file, this.board.text(), backup);
        if (file !== this.path) this.path = file;
        this.backedUp = true;
        this.savedHash = hash;
        this.changedAt = undefined;
      } finally {
        this.writing = false;
      }
    });
    this.queue = run.catch(() => undefined);
    await run;
    this.show();
  }

  /** The live board is now the file at `path` (opened), or an empty Untitled one (undefined): nothing unsaved. */
  replaced(path: string | undefined): void {
    this.path = path;
    this.backedUp = false;
    this.savedHash = this.board.hash();
    this.changedAt = undefined;
    this.show();
  }

  /** Waits for saves under way (the session is ending). */
  async settle(): Promise<void> {
    await this.queue;
  }
}
