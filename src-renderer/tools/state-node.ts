// The base of the tool state machines (after tldraw's StateNode): a node handles the input events it cares
// about, and a parent node has named child states, exactly one active, switched by `transition(name, input)`.
// Knows nothing of React, Konva or the store.
import type { ObjectId } from '../../shared/board';
import type { TransformResult } from '../board/shapes';
import type { DragInfo, KeyInfo, PointerInfo, ToolEvent, TransformInfo, WheelInfo } from './events';

/** One state. `Input` is what a transition into it carries (undefined: nothing). */
export abstract class StateNode<Input = undefined> {
  abstract readonly id: string;

  onEnter(_input: Input): void {
    // most states keep nothing
  }
  onExit(): void {
    // most states keep nothing
  }
  onPointerDown(_p: PointerInfo): void {
    // ignored unless a state says otherwise
  }
  onPointerMove(_p: PointerInfo): void {
    // ignored unless a state says otherwise
  }
  onPointerUp(): void {
    // ignored unless a state says otherwise
  }
  onPointerLeave(): void {
    // ignored unless a state says otherwise
  }
  onWheel(_w: WheelInfo): void {
    // ignored unless a state says otherwise
  }
  /** True when the key was used (the caller then stops the browser's default). */
  onKeyDown(_k: KeyInfo): boolean {
    return false;
  }
  onDoubleClick(_id: ObjectId): void {
    // ignored unless a state says otherwise
  }
  onDragStart(_d: DragInfo): void {
    // ignored unless a state says otherwise
  }
  onDragMove(_d: DragInfo): void {
    // ignored unless a state says otherwise
  }
  onDragEnd(_d: DragInfo): void {
    // ignored unless a state says otherwise
  }
  onTransform(_t: TransformInfo): void {
    // ignored unless a state says otherwise
  }
  onTransformEnd(_id: ObjectId, _t: TransformResult, _last: boolean): void {
    // ignored unless a state says otherwise
  }

  /** Becomes active. */
  enter(input: Input): void {
    this.onEnter(input);
  }

  /** Stops being active. */
  exit(): void {
    this.onExit();
  }

  /** The active states below and including this one, e.g. 'rect.drawing'. */
  path(): string {
    return this.id;
  }

  /** Routes one event to its handler; true when it was a key the state used. */
  handle(e: ToolEvent): boolean {
    switch (e.type) {
      case 'pointerDown':
        this.onPointerDown(e.pointer);
        return false;
      case 'pointerMove':
        this.onPointerMove(e.pointer);
        return false;
      case 'pointerUp':
        this.onPointerUp();
        return false;
      case 'pointerLeave':
        this.onPointerLeave();
        return false;
      case 'wheel':
        this.onWheel(e.wheel);
        return false;
      case 'keyDown':
        return this.onKeyDown(e.key);
      case 'doubleClick':
        this.onDoubleClick(e.id);
        return false;
      case 'dragStart':
        this.onDragStart(e.drag);
        return false;
      case 'dragMove':
        this.onDragMove(e.drag);
        return false;
      case 'dragEnd':
        this.onDragEnd(e.drag);
        return false;
      case 'transform':
        this.onTransform(e);
        return false;
      case 'transformEnd':
        this.onTransformEnd(e.id, e.result, e.last);
        return false;
    }
  }
}

type InputOf<S> = S extends StateNode<infer I> ? I : never;
/** `transition('idle')` for a state that takes nothing, `transition('drawing', from)` for one that does. */
type InputArgs<S> = [InputOf<S>] extends [undefined] ? [] : [input: InputOf<S>];

/** A state with child states; events go to the active child. */
export abstract class ParentNode<C extends Record<keyof C, StateNode<never>>> extends StateNode {
  /** The child states by name (read by tests; only transition() switches them). */
  abstract readonly children: C;
  /** Entered with the parent; it must take no input. */
  protected abstract readonly initial: keyof C & string;
  private active: (keyof C & string) | null = null;

  /** The active child's name (null while this node is not active). */
  get current(): (keyof C & string) | null {
    return this.active;
  }

  transition<K extends keyof C & string>(name: K, ...input: InputArgs<C[K]>): void {
    this.switchTo(name, input[0]);
  }

  override enter(): void {
    this.onEnter(undefined);
    this.switchTo(this.initial, undefined);
  }

  private switchTo(name: keyof C & string, input: unknown): void {
    const prev = this.active;
    // Inactive while the old state exits: what its exit sets off (a stopped drag reporting its end) is dropped.
    this.active = null;
    if (prev !== null) this.children[prev].exit();
    this.active = name;
    // transition() pins the input to the child's type; StateNode<never> cannot take it without widening.
    (this.children[name] as StateNode<unknown>).enter(input);
  }

  override exit(): void {
    const prev = this.active;
    this.active = null;
    if (prev !== null) this.children[prev].exit();
    this.onExit();
  }

  override path(): string {
    return this.active === null ? this.id : `${this.id}.${this.children[this.active].path()}`;
  }

  override handle(e: ToolEvent): boolean {
    return this.active === null ? false : this.children[this.active].handle(e);
  }
}
