// A test kit for the tool machines' unit tests (product code never imports it): a recording ToolEditor over a
// real Store. Commands are kept as data, creates resolve with ids in order (a placed object is a draft under
// its provisional id until then), grabs keep their refusal callbacks for the test to call. No timers.
import type { Participant, Tool } from '../../../shared/api';
import type { BoardObject, NewObject, ObjectId, ObjectPatch } from '../../../shared/board';
import type { Action, AppState, ToastLevel } from '../../store/state';
import { provisionalId } from '../../store/drafts';
import { INITIAL_STATE } from '../../store/state';
import { Store } from '../../store/store';
import type { ToolEditor } from '../editor';
import type { LiveGeometry } from '../../board/shapes';
import type { DragHandle, PointerInfo, Target, TransformHandle } from '../events';

export type Call =
  | { readonly kind: 'setTool'; readonly tool: Tool }
  | { readonly kind: 'create'; readonly object: NewObject }
  | { readonly kind: 'edit'; readonly id: ObjectId; readonly patch: ObjectPatch }
  | { readonly kind: 'toast'; readonly level: ToastLevel; readonly text: string }
  | { readonly kind: 'pointerMoved'; readonly x: number; readonly y: number }
  | { readonly kind: 'pointerLeft' }
  /** `quiet` only on an object following the selection's dragged one. */
  | { readonly kind: 'startDrag'; readonly id: ObjectId; readonly quiet?: true }
  | { readonly kind: 'moveDrag'; readonly id: ObjectId; readonly x: number; readonly y: number }
  | { readonly kind: 'reshapeDrag'; readonly id: ObjectId; readonly g: LiveGeometry }
  /** `patch` only on a resize or rotate's release. */
  | {
      readonly kind: 'endDrag';
      readonly id: ObjectId;
      readonly x: number;
      readonly y: number;
      readonly patch?: ObjectPatch;
    };

export const ME = 1;
export const OTHER = 2;

export class FakeEditor implements ToolEditor {
  readonly store: Store;
  readonly calls: Call[] = [];
  /** The latest grab's refusal callback per object. */
  readonly refusals = new Map<ObjectId, (reason: string) => void>();
  /** The id the next create resolves to. */
  nextId = 100;
  private nextDraftKey = 1;

  constructor(initial: AppState = INITIAL_STATE) {
    this.store = new Store(initial);
  }

  /** The calls of one kind, in order. */
  of<K extends Call['kind']>(kind: K): Extract<Call, { kind: K }>[] {
    return this.calls.filter((c): c is Extract<Call, { kind: K }> => c.kind === kind);
  }

  readonly state = (): AppState => this.store.getState();
  readonly dispatch = (action: Action): void => {
    this.store.dispatch(action);
  };
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  setTool(tool: Tool): void {
    this.calls.push({ kind: 'setTool', tool });
    this.store.dispatch({ type: 'tool', tool });
  }
  create(object: NewObject): Promise<ObjectId | null> {
    this.calls.push({ kind: 'create', object });
    return Promise.resolve(this.nextId++);
  }
  /** As the controller: a draft under its provisional id, given the id `create` resolves to (or dropped on null). */
  place(object: NewObject): ObjectId {
    const key = this.nextDraftKey++;
    this.store.dispatch({ type: 'draft', key, object });
    void this.create(object).then((id) => {
      this.store.dispatch(
        id === null ? { type: 'draftFailed', key } : { type: 'created', key, id },
      );
    });
    return provisionalId(key);
  }
  edit(id: ObjectId, patch: ObjectPatch): void {
    this.calls.push({ kind: 'edit', id, patch });
  }
  toast(level: ToastLevel, text: string): void {
    this.calls.push({ kind: 'toast', level, text });
  }
  pointerMoved(x: number, y: number): void {
    this.calls.push({ kind: 'pointerMoved', x, y });
  }
  pointerLeft(): void {
    this.calls.push({ kind: 'pointerLeft' });
  }
  startDrag(id: ObjectId, refused: (reason: string) => void, quiet?: boolean): void {
    this.calls.push(quiet === true ? { kind: 'startDrag', id, quiet } : { kind: 'startDrag', id });
    this.refusals.set(id, refused);
  }
  moveDrag(id: ObjectId, x: number, y: number): void {
    this.calls.push({ kind: 'moveDrag', id, x, y });
  }
  reshapeDrag(id: ObjectId, g: LiveGeometry): void {
    this.calls.push({ kind: 'reshapeDrag', id, g });
  }
  endDrag(id: ObjectId, x: number, y: number, patch?: ObjectPatch): void {
    this.calls.push(
      patch === undefined ? { kind: 'endDrag', id, x, y } : { kind: 'endDrag', id, x, y, patch },
    );
  }
}

export function boardObject(id: ObjectId, more: Partial<BoardObject> = {}): BoardObject {
  return {
    id,
    kind: 'rect',
    x: 0,
    y: 0,
    w: 100,
    h: 50,
    rotation: 0,
    stroke: 0,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [],
    blob: '',
    z: id,
    lockedBy: null,
    pinned: 0,
    ...more,
  };
}

function participant(id: number, name: string, isSelf: boolean): Participant {
  return { id, name, color: 0, role: 'editor', isHost: isSelf, isSelf, rttMs: null, idleMs: 0 };
}

/** An editor hosting a session (as ME, with OTHER joined) whose board holds `objects`. */
export function editorWith(...objects: BoardObject[]): FakeEditor {
  const e = new FakeEditor();
  e.dispatch({
    type: 'event',
    event: {
      type: 'status',
      status: { phase: 'hosting', name: 'Me', addresses: [], port: 1, code: 'c', you: ME },
    },
  });
  e.dispatch({
    type: 'event',
    event: {
      type: 'participants',
      list: [participant(ME, 'Me', true), participant(OTHER, 'Olga', false)],
    },
  });
  e.dispatch({ type: 'event', event: { type: 'objects', upserts: objects, deletes: [] } });
  return e;
}

/** A pointer at world (x, y) (camera at rest: screen the same), main button, on the bare canvas. */
export function at(x: number, y: number, more: Partial<PointerInfo> = {}): PointerInfo {
  return {
    world: { x, y },
    screen: { x, y },
    button: 0,
    shift: false,
    space: false,
    target: { kind: 'canvas' },
    ...more,
  };
}

export const onObject = (id: ObjectId): Target => ({ kind: 'object', id });

/** A node handle that records where the tools put it. */
export function fakeNode(): { node: DragHandle; puts: { x: number; y: number; stop: boolean }[] } {
  const puts: { x: number; y: number; stop: boolean }[] = [];
  return { node: { put: (p, stop) => puts.push({ x: p.x, y: p.y, stop }) }, puts };
}

/** A selection-handle node that records what the tools did to it: stops of the gesture and geometries put back. */
export function fakeTransformNode(): {
  node: TransformHandle;
  stops: number[];
  puts: { x: number; y: number; rotation: number }[];
} {
  const stops: number[] = [];
  const puts: { x: number; y: number; rotation: number }[] = [];
  let n = 0;
  return {
    node: {
      stop: () => stops.push(++n),
      put: (o) => puts.push({ x: o.x, y: o.y, rotation: o.rotation }),
    },
    stops,
    puts,
  };
}
