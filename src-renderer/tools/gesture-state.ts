// A drawing gesture under way (a stroke, a shape being dragged out): release, or leaving the board, ends it with
// what was drawn; Escape drops it. The states that draw say only how to finish and how to go back to idle.
import type { KeyInfo } from './events';
import { StateNode } from './state-node';

export abstract class GestureState<I> extends StateNode<I> {
  /** Creates what the gesture drew (and leaves the state). */
  protected abstract finish(): void;
  /** Drops the gesture: back to the tool's idle state. */
  protected abstract cancel(): void;

  override onPointerUp(): void {
    this.finish();
  }

  override onPointerLeave(): void {
    this.finish();
  }

  override onKeyDown(k: KeyInfo): boolean {
    if (k.key !== 'Escape') return false;
    this.cancel();
    return true;
  }
}
