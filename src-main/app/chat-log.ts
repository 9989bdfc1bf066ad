// The chat of the session the app core runs, as a window that syncs later is told it again: its last CHAT_HISTORY
// messages, in order of arrival. Knows nothing of the session or of who sent them.
import type { ChatMessage } from '../../shared/api';

const CHAT_HISTORY = 500;

export class ChatLog {
  private chat: ChatMessage[] = [];

  /** The seq of the next message to arrive. */
  nextSeq(): number {
    return this.chat.length + 1;
  }

  add(m: ChatMessage): void {
    this.chat.push(m);
    if (this.chat.length > CHAT_HISTORY) this.chat.shift();
  }

  all(): readonly ChatMessage[] {
    return this.chat;
  }

  /** A new session: its chat starts empty. */
  clear(): void {
    this.chat = [];
  }
}
