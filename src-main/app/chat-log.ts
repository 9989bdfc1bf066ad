// The chat of the session the app core runs, as a window that syncs later is told it again: its last CHAT_HISTORY
// messages, in order of arrival. Knows nothing of the session or of who sent them.
import type { ChatMessage } from '../../shared/api';

const CHAT_HISTORY = 500;

export class ChatLog {
  private chat: ChatMessage[] = [];
  /** Messages this session so far: each one's seq is unique in it (the chat panel keys its lines by seq). */
  private count = 0;

  /** The seq of the next message to arrive. */
  nextSeq(): number {
    return this.count + 1;
  }

  add(m: ChatMessage): void {
    this.count++;
    this.chat.push(m);
    if (this.chat.length > CHAT_HISTORY) this.chat.shift();
  }

  all(): readonly ChatMessage[] {
    return this.chat;
  }

  /** A new session: its chat starts empty. */
  clear(): void {
    this.chat = [];
    this.count = 0;
  }
}
