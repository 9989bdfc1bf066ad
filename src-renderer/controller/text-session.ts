// Typing into one text or note: each change becomes one `{cmd:'text'}` splice; typing before the object has an
// id (just created) is sent as one splice once it has. Knows nothing of the DOM, React or the store.
import type { ObjectId } from '../../shared/board';
import { MAX_TEXT_BYTES } from '../../shared/board';
import { diffSplice, utf8Length } from '../board/text-splice';
import type { Invoke } from './drag-session';

export class TextSession {
  /** The text the core has (or will have, once our splices land). */
  private sent: string;
  private value: string;

  constructor(
    private id: ObjectId | null,
    initial: string,
    private readonly invoke: Invoke,
  ) {
    this.sent = initial;
    this.value = initial;
  }

  get text(): string {
    return this.value;
  }

  /** The user changed the text; false (and nothing sent) when it would be longer than the board allows. */
  change(next: string): boolean {
    if (utf8Length(next) > MAX_TEXT_BYTES) return false;
    this.value = next;
    this.flush();
    return true;
  }

  /** The object now has its id: send what was typed meanwhile. */
  setId(id: ObjectId): void {
    this.id = id;
    this.flush();
  }

  private flush(): void {
    if (this.id === null) return;
    const s = diffSplice(this.sent, this.value);
    if (s === null) return;
    this.sent = this.value;
    void this.invoke({ cmd: 'text', id: this.id, ...s });
  }
}
