// What the canvas tells the tool machines: pointer, key, wheel and object-node events as plain data, in world
// and screen units. Knows nothing of Konva or the DOM: the canvas translates its events into these.
import type { ObjectId } from '../../shared/board';
import type { TransformResult } from '../board/shapes';
import type { Pt } from '../board/simplify';

/** What a press landed on. */
export type Target =
  | { readonly kind: 'canvas' }
  | { readonly kind: 'object'; readonly id: ObjectId }
  /** A selection handle or someone's ghost: drawn on the board, but not one of its objects. */
  | { readonly kind: 'chrome' };

export interface PointerInfo {
  /** Board coordinates (world units). */
  readonly world: Pt;
  /** CSS px from the stage's top-left corner. */
  readonly screen: Pt;
  /** DOM `button`: 0 main, 1 middle, 2 secondary. */
  readonly button: number;
  readonly shift: boolean;
  /** Space is held (space-drag pans). */
  readonly space: boolean;
  readonly target: Target;
}

export interface KeyInfo {
  /** DOM `key` ('Escape', 'Enter', 'ArrowLeft', …). */
  readonly key: string;
  /** Ctrl (Cmd on a Mac) is held; of the modified keys only Ctrl/Cmd+A reaches the tools (select all). */
  readonly mod?: boolean;
  readonly shift?: boolean;
}

export interface WheelInfo {
  /** Where the pointer is (CSS px on the stage), if known. */
  readonly screen: Pt | null;
  readonly deltaX: number;
  readonly deltaY: number;
  /** The deltas count lines, not pixels (DOM deltaMode 1). */
  readonly lines: boolean;
  /** Ctrl or meta held: zoom (trackpad pinches arrive as ctrl + wheel in Chromium). */
  readonly zoom: boolean;
}

/** The node of an object the user drags: the canvas moves it while the drag lasts, the tools only place it. */
export interface DragHandle {
  /** Shows the node at `at` (world); `stop` first ends the canvas's drag of it, which reports a dragEnd at once. */
  put(at: Pt, stop: boolean): void;
}

export interface DragInfo {
  readonly id: ObjectId;
  /** Where the node is now (world, unrounded). */
  readonly at: Pt;
  /** Where the pointer is (world), if known: no pointer events arrive while a node is dragged. */
  readonly pointer: Pt | null;
  readonly node: DragHandle;
}

/** A node under the selection's handles (resize, rotate): the canvas transforms it; the tools only undo that. */
export interface TransformHandle {
  /** Ends the handles' gesture now: the canvas reports a transformEnd for each of its nodes at once. */
  stop(): void;
  /** Shows the node at the board's place and rotation, unscaled (a refused resize or rotate rolls back). */
  put(o: { readonly x: number; readonly y: number; readonly rotation: number }): void;
}

/** One node's transform so far under the selection's handles. */
export interface TransformInfo {
  readonly id: ObjectId;
  /** Where the pointer is (world), if known. */
  readonly pointer: Pt | null;
  readonly result: TransformResult;
  readonly node: TransformHandle;
}

export type ToolEvent =
  | { readonly type: 'pointerDown'; readonly pointer: PointerInfo }
  | { readonly type: 'pointerMove'; readonly pointer: PointerInfo }
  | { readonly type: 'pointerUp' }
  /** The pointer left the board: a gesture under way ends as if released there. */
  | { readonly type: 'pointerLeave' }
  | { readonly type: 'wheel'; readonly wheel: WheelInfo }
  | { readonly type: 'keyDown'; readonly key: KeyInfo }
  | { readonly type: 'doubleClick'; readonly id: ObjectId }
  | { readonly type: 'dragStart'; readonly drag: DragInfo }
  | { readonly type: 'dragMove'; readonly drag: DragInfo }
  | { readonly type: 'dragEnd'; readonly drag: DragInfo }
  /**
   * A selection handle is being dragged (resize, rotate): one node's transform so far (one event per node per
   * move); no pointer events arrive meanwhile either.
   */
  | ({ readonly type: 'transform' } & TransformInfo)
  /** `last`: the gesture's last node (the canvas reports every node's end at once, in the same order). */
  | {
      readonly type: 'transformEnd';
      readonly id: ObjectId;
      readonly result: TransformResult;
      readonly last: boolean;
    };
