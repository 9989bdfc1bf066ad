// Keys for the text being edited that reach the window instead of its box: pressed after a note or text box
// opened (it opens in the click's own frame) but before its box has focus, or even before the box is on
// screen. They belong to the edit and never run a shortcut: the box takes focus and the browser types the key
// there, or, with no box yet, the characters are held for it. Knows nothing of the DOM or React.

/** The open editor's input box, as far as keys are concerned. */
export interface EditorBox {
  focus(): void;
}

/** One key press, as the window saw it. */
export interface KeyPress {
  /** DOM `key`: 'q', ' ', 'Enter', 'Backspace', 'Shift', … */
  readonly key: string;
  /** Ctrl, Cmd or Alt held: a command, never a character. */
  readonly modified: boolean;
}

/**
 * Where a key that reached the window goes:
 * - 'app': no edit is open: the tools, then the shortcuts;
 * - 'box': the open edit's box took focus: let the browser go on, it types the key there;
 * - 'held': kept for the open edit's box, which is not on screen yet: stop the browser's default.
 * Never a shortcut while an edit is open.
 */
export type KeyRoute = 'app' | 'box' | 'held';

const graphemes = (s: string): string[] =>
  Array.from(new Intl.Segmenter().segment(s), (g) => g.segment);

/** What a held key does to the text held so far: characters and Enter add, Backspace takes the last away. */
export function holdKey(held: string, k: KeyPress): string {
  if (k.modified) return held;
  if (k.key === 'Enter') return `${held}\n`;
  if (k.key === 'Backspace') return graphemes(held).slice(0, -1).join('');
  // One character (a grapheme: an emoji may be several UTF-16 units); named keys (Shift, ArrowLeft, …) add nothing.
  return graphemes(k.key).length === 1 ? held + k.key : held;
}

export class EditorKeys {
  private box: { readonly edit: number; readonly el: EditorBox } | null = null;
  private held: { readonly edit: number; readonly text: string } | null = null;

  /**
   * A key reached the window (no form field has focus) while the edit numbered `edit` (the store's editKey) is
   * open, or none (null).
   */
  route(edit: number | null, k: KeyPress): KeyRoute {
    if (edit === null) return 'app';
    if (this.box?.edit === edit) {
      this.box.el.focus();
      return 'box';
    }
    const before = this.held?.edit === edit ? this.held.text : '';
    this.held = { edit, text: holdKey(before, k) };
    return 'held';
  }

  /** What was typed for this edit before its box showed ('' if nothing): the box starts with it. */
  heldFor(edit: number): string {
    return this.held?.edit === edit ? this.held.text : '';
  }

  /** The edit's box is on screen; returns the function to call when it goes. */
  attach(edit: number, el: EditorBox): () => void {
    const box = { edit, el };
    this.box = box;
    return () => {
      if (this.box === box) this.box = null;
    };
  }
}
