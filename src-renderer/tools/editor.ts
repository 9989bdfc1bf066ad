// What the tool machines may do to the app: read and change the store, and ask the controller for commands.
// An interface, so tools are tested with a recording fake and never see the bridge, React or Konva.
import type { Tool } from '../../shared/api';
import type { NewObject, ObjectId, ObjectPatch } from '../../shared/board';
import type { Controller } from '../controller/controller';
import type { LiveGeometry } from '../board/shapes';
import type { Action, AppState, ToastLevel } from '../store/state';

export interface ToolEditor {
  state(): AppState;
  dispatch(action: Action): void;
  /** Runs `listener` after every store change; returns the stop function. */
  subscribe(listener: () => void): () => void;
  setTool(tool: Tool): void;
  /** Creates an object (drawn at once as a draft); resolves to its id, or null if the host refused it. */
  create(object: NewObject): Promise<ObjectId | null>;
  /**
   * Creates an object and returns its provisional id at once (controller/provisional.ts): it can be opened for
   * typing in the same frame; the host's id replaces it, or a refusal removes it with a notice.
   */
  place(object: NewObject): ObjectId;
  edit(id: ObjectId, patch: ObjectPatch): void;
  toast(level: ToastLevel, text: string): void;
  /** This user's pointer is at a world point (the others see it). */
  pointerMoved(x: number, y: number): void;
  pointerLeft(): void;
  /**
   * Grabs an object; `refused` runs if the host says no to the grab or the drop (put it back). `quiet`: it
   * follows another object's drag (a selection), so only that one's moves go out live.
   */
  startDrag(id: ObjectId, refused: (reason: string) => void, quiet?: boolean): void;
  moveDrag(id: ObjectId, x: number, y: number): void;
  /** A held object's live resize or rotate (its place, size and rotation now). */
  reshapeDrag(id: ObjectId, g: LiveGeometry): void;
  /** Lets go at (x, y); a resize or rotate's `patch` lands as one edit first. */
  endDrag(id: ObjectId, x: number, y: number, patch?: ObjectPatch): void;
}

export function controllerEditor(c: Controller): ToolEditor {
  return {
    state: c.store.getState,
    dispatch: c.store.dispatch,
    subscribe: c.store.subscribe,
    setTool: (tool) => {
      c.setTool(tool);
    },
    create: (object) => c.create(object),
    place: (object) => c.createProvisional(object).id,
    edit: (id, patch) => {
      c.edit(id, patch);
    },
    toast: (level, text) => {
      c.toast(level, text);
    },
    pointerMoved: (x, y) => {
      c.pointerMoved(x, y);
    },
    pointerLeft: () => {
      c.pointerLeft();
    },
    startDrag: (id, refused, quiet) => {
      c.startDrag(id, refused, quiet);
    },
    moveDrag: (id, x, y) => {
      c.moveDrag(id, x, y);
    },
    reshapeDrag: (id, g) => {
      c.reshapeDrag(id, g);
    },
    endDrag: (id, x, y, patch) => {
      c.endDrag(id, x, y, patch);
    },
  };
}
