// The host's open board file (files): which file the live board is (none: "Untitled"), whether the board changed
// since it was last saved (its content hash against the saved one's), the autosave of a named file a few seconds
// after a change, and between saves its journal (files/journal.ts), appended at most once a second. Saves are
// files/board-file.ts's (temp file, fsync, rename). A board with no file (Untitled, or uploaded to the web host)
// keeps its unsaved changes in the store the core gives it (app/unsaved-boards.ts), offered back only when asked.
// Knows nothing of sessions, the network or the UI: the core gives it the board and the clock.
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ApiEvent } from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import { saveBoardFile } from '../files/board-file';
import {
  appendJournal,
  encodeJournalRecord,
  fileDigest,
  journalChange,
  journalPath,
  resetJournal,
} from '../files/journal';

/** A named file is saved this long after its board first changed since the last save. */
export const AUTOSAVE_AFTER_MS = 3_000;
/** What the window title shows for a board with no file. */
export const UNTITLED = 'Untitled';
/** The journal gets what changed at most this often: a crash loses at most this much of the edits. */
export const JOURNAL_EVERY_MS = 1_000;

/** What the open file needs of the live board. */
export interface SavableBoard {
  /** The content's hash: equal boards hash equal. */
  hash(): string;
  /** The .ghostboard text of the board (its images' bytes included). */
  text(): string;
  /** The objects now (replaced, never changed in place, as the board core does) and the id counter. */
  objects(): { readonly objects: ReadonlyMap<ObjectId, BoardObject>; readonly nextId: number };
  /** An image's bytes, for a journal record of an image object. */
  blob(hash: string): ImageBlob | undefined;
}

export type FileEvent = Extract<ApiEvent, { type: 'file' }>;

/** Where a board with no file keeps its unsaved changes (filesleft): written whole, or removed. */
export interface UnsavedStore {
  write(text: string): Promise<void>;
  remove(): Promise<void>;
}

/** A name as the title shows it: a file's base name without .ghostboard. */
export const boardName = (file: string): string =>
  basename(file.replaceAll('\\', '/')).replace(/\.ghostboard$/i, '');

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
  /** The objects as the journal (or the last save) has them, and when it last got a record. */
  private journaled: ReadonlyMap<ObjectId, BoardObject>;
  private journaledAt = -Infinity;
  /** Board changes so far (touch), and how many the dirty flag and the journal have looked at. */
  private changes = 0;
  private dirtyAt = -1;
  private dirtyNow = false;
  private journalSeen = 0;
  /** A board with no file: its name (Untitled, or an uploaded file's). */
  private name = UNTITLED;
  /**
   * A board with no file: the board changes its unsaved store last got (undefined: the store holds nothing of
   * this board), and when.
   */
  private kept: number | undefined;
  private keptAt = -Infinity;

  constructor(
    private readonly board: SavableBoard,
    private readonly emit: (e: ApiEvent) => void,
    private readonly unsaved?: UnsavedStore,
  ) {
    this.savedHash = board.hash();
    this.journaled = new Map(board.objects().objects);
  }

  get current(): string | undefined {
    return this.path;
  }

  /**
   * The board changed (the core calls this on each of its changes): only then is its hash taken again and the
   * journal looked at, so a quiet large board costs nothing per tick.
   */
  touch(): void {
    this.changes++;
  }

  get dirty(): boolean {
    if (this.dirtyAt !== this.changes) {
      this.dirtyAt = this.changes;
      this.dirtyNow = this.board.hash() !== this.savedHash;
    }
    return this.dirtyNow;
  }

  /** The `file` event for the renderer as things are now. */
  event(): FileEvent {
    const p = this.path;
    return {
      type: 'file',
      name: p === undefined ? this.name : boardName(p),
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
    this.journal(now);
    const dirty = this.dirty;
    if (!dirty) this.changedAt = undefined;
    else this.changedAt ??= now;
    this.show();
    this.keepUnsaved(now, dirty);
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
        const text = this.board.text();
        const objects = new Map(this.board.objects().objects);
        const backup = file !== this.path || !this.backedUp;
        await saveBoardFile(file, text, backup);
        // Saved: the journal starts afresh for this save (a crash before this leaves one for an older save,
        // which opening ignores).
        await resetJournal(file, fileDigest(text));
        this.journaled = objects;
        const before = this.path;
        if (file !== before) {
          this.path = file;
          // Saved as another file: the old file's journal holds edits that file never got (they are in this
          // one now), and the unsaved store's board is saved.
          if (before !== undefined) await rm(journalPath(before), { force: true });
          await this.dropUnsaved();
        }
        this.backedUp = true;
        this.savedHash = hash;
        this.dirtyAt = -1;
        this.changedAt = undefined;
      } finally {
        this.writing = false;
      }
    });
    this.queue = run.catch(() => undefined);
    await run;
    this.show();
  }

  /**
   * The live board is now the file at `path` (opened; its journal already started afresh for it), or an empty
   * Untitled one (undefined). `savedHash`: the file's board's hash, when the live one holds edits its journal
   * brought back (unsaved as yet).
   */
  replaced(
    path: string | undefined,
    savedHash = this.board.hash(),
    o: { readonly name?: string; readonly kept?: boolean } = {},
  ): void {
    // The board replaced was discarded (the user confirmed it), so is what its unsaved store held; a recovered
    // board (`kept`) is the one the store holds.
    if (o.kept === true) {
      this.kept = this.changes;
      this.keptAt = -Infinity;
    } else if (this.kept !== undefined) this.queueDrop();
    // So is what the old file's journal held: opening that file again must not bring the discarded edits back.
    const before = this.path;
    if (before !== undefined && before !== path)
      this.queue = this.queue
        .then(() => rm(journalPath(before), { force: true }))
        .catch(() => undefined);
    this.name = o.name === undefined ? UNTITLED : boardName(o.name);
    this.path = path;
    this.backedUp = false;
    this.savedHash = savedHash;
    this.dirtyAt = -1;
    this.changedAt = undefined;
    this.journaled = new Map(this.board.objects().objects);
    this.show();
  }

  /** Appends what changed since the last record to the open file's journal, at most once a JOURNAL_EVERY_MS. */
  private journal(now: number): void {
    const file = this.path;
    if (file === undefined || now - this.journaledAt < JOURNAL_EVERY_MS) return;
    if (this.journalSeen === this.changes) return;
    this.journalSeen = this.changes;
    if (journalChange(this.journaled, this.board.objects()) === undefined) return;
    this.journaledAt = now;
    // Taken when its turn comes, after any save queued before it: a record never holds objects older than the
    // save it follows.
    const append = async (): Promise<void> => {
      const change = journalChange(this.journaled, this.board.objects());
      if (change === undefined || file !== this.path) return;
      this.journaled = new Map(this.board.objects().objects);
      await appendJournal(
        file,
        encodeJournalRecord(change, (h) => this.board.blob(h)),
      );
    };
    this.queue = this.queue.then(append).catch((e: unknown) =>
      this.emit({
        type: 'notice',
        level: 'error',
        text: `The journal of ${this.event().name} could not be written: ${e instanceof Error ? e.message : String(e)}`,
      }),
    );
  }

  /**
   * The board went out as a file's text (the web host's Download): a board with no file is saved by it (no
   * unsaved changes, its unsaved store emptied); a named one keeps its own file's state.
   */
  downloaded(hash: string): void {
    if (this.path !== undefined) return;
    this.savedHash = hash;
    this.dirtyAt = -1;
    this.changedAt = undefined;
    if (this.kept !== undefined) this.queueDrop();
    this.show();
  }

  /** A board with no file: its unsaved changes to its store, at most once an AUTOSAVE_AFTER_MS, once aged. */
  private keepUnsaved(now: number, dirty: boolean): void {
    const store = this.unsaved;
    if (store === undefined || this.path !== undefined) return;
    if (!dirty) {
      if (this.kept !== undefined) this.queueDrop();
      return;
    }
    if (
      this.kept === this.changes ||
      this.changedAt === undefined ||
      now - this.changedAt < AUTOSAVE_AFTER_MS ||
      now - this.keptAt < AUTOSAVE_AFTER_MS
    )
      return;
    this.kept = this.changes;
    this.keptAt = now;
    this.queueKeep(store);
  }

  private queueKeep(store: UnsavedStore): void {
    // Taken at its turn: what the board is then.
    this.queue = this.queue
      .then(async () => {
        if (this.path === undefined && this.kept !== undefined)
          await store.write(this.board.text());
      })
      .catch((e: unknown) => {
        this.emit({
          type: 'notice',
          level: 'error',
          text: `The unsaved board could not be kept for recovery: ${e instanceof Error ? e.message : String(e)}`,
        });
      });
  }

  private queueDrop(): void {
    this.kept = undefined;
    this.queue = this.queue.then(() => this.dropUnsaved()).catch(() => undefined);
  }

  private async dropUnsaved(): Promise<void> {
    this.kept = undefined;
    await this.unsaved?.remove();
  }

  /**
   * The session is ending: a named file gets what changed since its last save; a board with no file and unsaved
   * changes is kept in its store (the start screen offers it back), else its store is emptied. Then waits for
   * every write under way.
   */
  async finish(): Promise<void> {
    const store = this.unsaved;
    if (this.path !== undefined) {
      if (this.dirty) await this.save().catch(() => undefined);
    } else if (store !== undefined) {
      if (this.dirty && this.board.objects().objects.size > 0) {
        if (this.kept !== this.changes) {
          this.kept = this.changes;
          this.queueKeep(store);
        }
      } else this.queueDrop();
    }
    await this.settle();
  }

  /** Waits for saves under way (the session is ending). */
  async settle(): Promise<void> {
    await this.queue;
  }
}
