// The renderer's one door to the core: wires bridge events into the store and the live pointers, and turns UI
// intents into (throttled) commands. Knows nothing of React or Konva.
import type {
  ApiCommand,
  ApiEvent,
  ApiReply,
  GhostboardBridge,
  Tool,
  Viewport,
} from '../../shared/api';
import type { NewObject, ObjectId, ObjectPatch } from '../../shared/board';
import { Throttle } from '../board/throttle';
import type { Style } from '../board/shapes';
import { RemoteLive } from '../interp/remote-live';
import { draftKey, isProvisional, provisionalId } from '../store/drafts';
import { canEdit, hostAway, selfId } from '../store/selectors';
import type { Store } from '../store/store';
import type { LiveGeometry } from '../board/shapes';
import { DragSession } from './drag-session';
import { EditorKeys } from './editor-keys';
import type { FrameScheduler } from './event-intake';
import { EventIntake } from './event-intake';
import { ProvisionalIds } from './provisional';
import { TextSession } from './text-session';

/** Why some of the selection was left alone: it is locked in place. */
export function lockedNotice(n: number, verb: string): string {
  return n === 1
    ? `A locked object was not ${verb}: unlock it first.`
    : `${n} locked objects were not ${verb}: unlock them first.`;
}

/** ~60 Hz for the pointer; the viewport changes less often and matters less. */
const POINTER_INTERVAL_MS = 16;
const VIEWPORT_INTERVAL_MS = 150;

export interface LocalDrag {
  readonly id: ObjectId;
  readonly x: number;
  readonly y: number;
}

export class Controller {
  readonly live = new RemoteLive();
  /** Keys for the open editor that reach the window before its box has focus. */
  readonly editorKeys = new EditorKeys();
  private readonly provisional = new ProvisionalIds();
  /** The open editor's typing session, by its opening (the store's editKey). */
  private typing: { readonly edit: number; readonly session: TextSession } | null = null;
  private nextDraftKey = 1;
  private lastPointer = { x: 0, y: 0 };
  /** Whether this user's pointer is over the board (lastPointer is where). */
  private pointerIn = false;
  private readonly drags = new Map<ObjectId, DragSession>();
  private readonly localListeners = new Set<() => void>();
  private readonly pointer = new Throttle<{ x: number; y: number }>(POINTER_INTERVAL_MS, (p) => {
    void this.invoke({ cmd: 'pointer', ...p, visible: true });
  });
  private readonly viewportThrottle = new Throttle<Viewport>(VIEWPORT_INTERVAL_MS, (viewport) => {
    void this.invoke({ cmd: 'viewport', viewport });
  });

  /** Board changes wait here for the next frame (event-intake.ts). */
  private readonly intake: EventIntake;

  constructor(
    private readonly bridge: GhostboardBridge,
    readonly store: Store,
    /** When board changes are let into the store; null (the default): as they come. */
    frame: FrameScheduler = null,
  ) {
    this.intake = new EventIntake((e) => this.toStore(e), frame);
  }

  /** Starts listening to the core and asks it for the current state; returns the stop function. */
  attach(): () => void {
    const off = this.bridge.subscribe((e) => {
      this.onEvent(e);
    });
    this.sync();
    return off;
  }

  sync(): void {
    void this.invoke({ cmd: 'sync' });
  }

  private onEvent(e: ApiEvent): void {
    // Pointers are interpolated outside the store (the store has nothing to do with them).
    if (e.type === 'pointers') {
      // Our own pointer is drawn by the OS; never show it as a remote one.
      const me = selfId(this.store.getState().status);
      const others = e.pointers.filter((p) => p.peer !== me);
      this.live.update(others, e.gone, performance.now());
      return;
    }
    // Others' typing into the open editor's text goes to its session, never through the store.
    if (e.type === 'text-splice') {
      this.typing?.session.remote(e);
      return;
    }
    this.intake.push(e);
  }

  private toStore(e: ApiEvent): void {
    if (e.type === 'objects')
      for (const o of e.upserts) if (o.lockedBy === null) this.live.release(o.id);
    this.store.dispatch({ type: 'event', event: e });
  }

  /** Runs a command; a bridge that throws becomes a refused reply (nothing escapes to the UI unhandled). */
  async invoke(command: ApiCommand): Promise<ApiReply> {
    try {
      return await this.bridge.invoke(command);
    } catch (err) {
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    } finally {
      // The core told its board changes before this reply: the store has them when the caller reads it.
      this.intake.flush();
    }
  }

  /** filesleft: desktop: the native open dialog for a board file; undefined where there is none (the web host). */
  get chooseBoardFile(): (() => Promise<string | undefined>) | undefined {
    const b = this.bridge;
    return b.chooseBoardFile === undefined
      ? undefined
      : () => b.chooseBoardFile?.() ?? Promise.resolve(undefined);
  }

  toast(level: 'info' | 'warn' | 'error', text: string): void {
    this.store.dispatch({ type: 'toast', level, text });
  }

  pointerMoved(x: number, y: number): void {
    this.lastPointer = { x: Math.round(x), y: Math.round(y) };
    this.pointerIn = true;
    this.pointer.push(this.lastPointer);
    this.notifyLocal();
  }

  pointerLeft(): void {
    this.pointer.cancel();
    this.pointerIn = false;
    void this.invoke({ cmd: 'pointer', ...this.lastPointer, visible: false });
    this.notifyLocal();
  }

  /** This user's pointer on the board (world, as sent to the others), or null while it is off the board. */
  localPointer(): { x: number; y: number } | null {
    return this.pointerIn ? this.lastPointer : null;
  }

  /** Where this user's own drags hold objects right now. */
  localDrags(): LocalDrag[] {
    const out: LocalDrag[] = [];
    for (const [id, d] of this.drags) if (d.position) out.push({ id, ...d.position });
    return out;
  }

  /** Called synchronously after this user's pointer or drag moved (between animation frames). */
  onLocal(listener: () => void): () => void {
    this.localListeners.add(listener);
    return () => this.localListeners.delete(listener);
  }

  private notifyLocal(): void {
    for (const l of this.localListeners) l();
  }

  viewport(v: Viewport): void {
    this.viewportThrottle.push(v);
  }

  setTool(tool: Tool): void {
    const s = this.store.getState();
    if (tool !== 'select' && !canEdit(s)) {
      this.toast(
        'info',
        hostAway(s)
          ? 'The board is read-only until the host is back.'
          : 'You can look but not draw: the host made you a viewer.',
      );
      return;
    }
    this.store.dispatch({ type: 'tool', tool });
    void this.invoke({ cmd: 'tool', tool });
  }

  /** Creates an object, drawn at once as a draft; resolves to its id, or null if the host refused it. */
  create(object: NewObject): Promise<ObjectId | null> {
    return this.createProvisional(object).confirmed;
  }

  /**
   * Creates an object under a provisional id, returned at once: drawn as a draft, and open to edits and typing
   * (which reach the host once it has the real id) until the host's reply confirms it, or refuses it (the draft
   * goes, with a notice). The create itself goes out now, so the others see the object while this user types.
   */
  createProvisional(
    object: NewObject,
    step?: number,
  ): { id: ObjectId; confirmed: Promise<ObjectId | null> } {
    const key = this.nextDraftKey++;
    const id = provisionalId(key);
    this.provisional.open(id);
    this.store.dispatch({ type: 'draft', key, object });
    const create: ApiCommand =
      step === undefined ? { cmd: 'create', object } : { cmd: 'create', object, step };
    const confirmed = this.invoke(create).then((reply) => {
      if (reply.ok && reply.id !== undefined) {
        // The store first (the open editor moves to the real id), then what waited for it (typed text).
        this.store.dispatch({ type: 'created', key, id: reply.id });
        this.provisional.confirm(id, reply.id);
        return reply.id;
      }
      this.provisional.refuse(id);
      this.store.dispatch({ type: 'draftFailed', key });
      this.toast('error', `Could not create it: ${reply.ok ? 'no id in the reply' : reply.reason}`);
      return null;
    });
    return { id, confirmed };
  }

  /**
   * The typing session of the editor's opening numbered `edit` (the store's editKey; asked again, the same one),
   * starting with what was typed before its box showed. On a draft, the text typed before the host's id is
   * known goes as one splice once it is, whether or not the editor is still open; nothing if the host refuses.
   */
  textSession(edit: number, id: ObjectId, initial: string): TextSession {
    if (this.typing?.edit === edit) return this.typing.session;
    this.typing?.session.close();
    const real = this.provisional.real(id);
    const session = new TextSession(real, initial, (c) => this.invoke(c));
    const held = this.editorKeys.heldFor(edit);
    if (held !== '') session.change(initial + held);
    if (real === null)
      this.provisional.whenReal(id, (r) => {
        session.setId(r);
      });
    this.typing = { edit, session };
    return session;
  }

  /** Sends an edit, shown at once (prediction) and undone if the host refuses it; a draft's waits for its id. */
  edit(id: ObjectId, patch: ObjectPatch): void {
    this.store.dispatch({ type: 'edited', id, patch });
    if (isProvisional(id)) {
      this.provisional.whenReal(id, (real) => {
        this.edit(real, patch);
      });
      return;
    }
    void this.invoke({ cmd: 'edit', id, patch }).then((r) => {
      if (r.ok) return;
      this.store.dispatch({ type: 'editUndone', id });
      this.toast('warn', r.reason);
    });
  }

  /** Deletes one object quietly (an emptied text box); a draft goes at once, and from the host once it has its id. */
  remove(id: ObjectId): void {
    if (isProvisional(id)) {
      this.store.dispatch({ type: 'draftFailed', key: draftKey(id) });
      this.provisional.whenReal(id, (real) => {
        this.remove(real);
      });
      return;
    }
    this.delete([id], false);
  }

  /** Deletes the selection but what is locked in place (it stays selected, with a notice). */
  deleteSelection(): void {
    const s = this.store.getState();
    const kept = s.selection.filter((id) => s.board.get(id)?.pinned === 1);
    if (kept.length > 0) this.toast('info', lockedNotice(kept.length, 'deleted'));
    this.delete(
      s.selection.filter((id) => !kept.includes(id)),
      true,
    );
  }

  /**
   * Deletes objects, gone from this screen at once (prediction): the host's delete confirms it, and its refusal
   * of one (someone holds it) puts that one back with a notice, as does a core that could not send it.
   */
  private delete(ids: readonly ObjectId[], tell: boolean): void {
    if (ids.length === 0) return;
    this.store.dispatch({ type: 'removed', ids });
    void this.invoke({ cmd: 'delete', ids }).then((r) => {
      if (r.ok) return;
      for (const id of ids)
        this.store.dispatch({ type: 'event', event: { type: 'refused', cmd: 'delete', id } });
      if (tell) this.toast('warn', r.reason);
    });
  }

  /** Sets the style for new objects and applies it to the selection. */
  applyStyle(style: Partial<Style>): void {
    this.store.dispatch({ type: 'style', style });
    const s = this.store.getState();
    for (const id of s.selection) if (s.board.get(id)?.pinned !== 1) this.edit(id, style);
  }

  /** Restacks sent under one `step` one after another are one undo step (a selection's). */
  restack(id: ObjectId, front: boolean, step?: number): void {
    void this.invoke(
      step === undefined ? { cmd: 'restack', id, front } : { cmd: 'restack', id, front, step },
    );
  }

  /**
   * Grabs an object for a local drag; `refused` runs if the host says no (put it back). A quiet drag (an object
   * following the selection's dragged one) sends its grab and drop but no live drags.
   */
  startDrag(id: ObjectId, refused: (reason: string) => void, quiet = false): void {
    const session = new DragSession(id, (c) => this.invoke(c), { refused, quiet });
    this.drags.set(id, session);
    void session.start();
  }

  moveDrag(id: ObjectId, x: number, y: number): void {
    this.drags.get(id)?.move(x, y);
    this.notifyLocal();
  }

  /** A held object's live resize or rotate: the others see its place, size and rotation like a drag. */
  reshapeDrag(id: ObjectId, g: LiveGeometry): void {
    this.drags.get(id)?.reshape(g);
    this.notifyLocal();
  }

  /**
   * Drops at (x, y), shown at once (prediction: the host's upsert confirms or corrects it); a resize or rotate's
   * `patch` is sent as one edit just before the drop, and shown at once too.
   */
  endDrag(id: ObjectId, x: number, y: number, patch?: ObjectPatch): void {
    const session = this.drags.get(id);
    this.drags.delete(id);
    if (session?.end(x, y, patch)) {
      if (patch) this.store.dispatch({ type: 'edited', id, patch });
      else this.store.dispatch({ type: 'moved', id, x, y });
    }
    this.notifyLocal();
  }

  async chat(text: string): Promise<boolean> {
    const r = await this.invoke({ cmd: 'chat', text });
    if (!r.ok) this.toast('warn', `Message not sent: ${r.reason}`);
    return r.ok;
  }
}
