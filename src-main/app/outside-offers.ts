// What the shell hands the app core from outside the app (a join link, a board file the OS opened) and the recent
// board files: told to the renderer at once and again on each sync, the link and the board only until a session
// starts. Knows nothing of sessions or of the shells that hand them.
import type { ApiEvent } from '../../shared/api';
import { parseJoinLink } from '../../shared/join-link';

export class OutsideOffers {
  /** The last link opened from outside, offered again on sync until a session starts. */
  private pendingLink: string | undefined;
  /** filesleft: the last board file opened from outside, and the recent files: again on sync (as links are). */
  private pendingBoard: string | undefined;
  private recent: readonly string[] | undefined;

  constructor(private readonly emit: (e: ApiEvent) => void) {}

  openLink(text: string): boolean {
    if (parseJoinLink(text) === undefined) return false;
    // Kept until the next sync too: a window that is still loading subscribes later.
    this.pendingLink = text.trim();
    this.emit({ type: 'open-link', link: this.pendingLink });
    return true;
  }

  offerBoardFile(path: string): void {
    this.pendingBoard = path;
    this.emit({ type: 'open-board', path });
  }

  setRecentFiles(paths: readonly string[]): void {
    this.recent = [...paths];
    this.emit({ type: 'recent-files', paths: this.recent });
  }

  /** A session started: the link and the board opened from outside are no longer offered. */
  sessionStarted(): void {
    this.pendingLink = undefined;
    this.pendingBoard = undefined;
  }

  /** On a sync: all of them again, the link and the board only to the start screen (`inSession` false). */
  resend(inSession: boolean): void {
    if (this.pendingLink !== undefined && !inSession)
      this.emit({ type: 'open-link', link: this.pendingLink });
    if (this.pendingBoard !== undefined && !inSession)
      this.emit({ type: 'open-board', path: this.pendingBoard });
    if (this.recent !== undefined) this.emit({ type: 'recent-files', paths: this.recent });
  }
}
