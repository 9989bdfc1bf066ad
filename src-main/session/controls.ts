// One interface for what the local user does, whether this side hosts or joined: the CLI's script mode and the
// app core drive a session through it. Knows nothing of stdin, IPC or the UI.
import type { Tool, Viewport } from '../../shared/api';
import type { LiveGeometry } from './presence';
import { reshapedPresence } from './presence';
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import type { PeerAddress } from '../net/address';
import type { Board, Refusal } from './board';
import { isRefusal } from './board';
import type { HostSession } from './host';
import type { ConnectionStack } from './connection-stack';
import type { PeerSession } from './peer';
import type { ParticipantInfo, SessionEvent, SessionListener } from './session-events';
import type { UndoOutcome } from './undo-controls';
import type { OtSplice } from '../../shared/text-ot';
import type { ImageBlob, ImageType } from '../../shared/images';
import type { BoardState } from '../board';
import type { BlobStore } from './blob-store';
import { withHistory } from './undo-controls';

export interface Controls {
  readonly role: 'host' | 'peer';
  /** Our participant id (undefined until a peer is welcomed). */
  readonly you: PeerId | undefined;
  readonly board: Board;
  readonly participants: readonly ParticipantInfo[];
  /**
   * The session's hosts (mirrors) as joiners reach them: the host's own list (setHosts), or what the joined host
   * last told (a 'hosts' event says when it changes). Empty while nobody said.
   */
  readonly hosts: readonly PeerAddress[];
  on(listener: SessionListener): () => void;
  pointer(now: number, x: number, y: number, visible: boolean): void;
  tool(now: number, tool: Tool): void;
  viewport(now: number, v: Viewport): void;
  /**
   * Resolves with the new object's id, or a refusal (a peer waits for the host's answer). Creates given the same
   * `step` one after another are one step of the history (a paste).
   */
  create(now: number, fields: NewObject, step?: number): Promise<ObjectId | Refusal>;
  edit(now: number, id: ObjectId, patch: ObjectPatch): void;
  text(now: number, id: ObjectId, at: number, remove: number, insert: string): void;
  /**
   * textot: co-editing. This side's editor opened a text showing `base`; its splices come with how many of this
   * side's `text-splice` events for it the editor had seen (a no-op splice only acknowledges them); it closed.
   */
  textOpen(now: number, id: ObjectId, base: string): void;
  textEdit(now: number, id: ObjectId, seen: number, splice: OtSplice): void;
  textClose(now: number, id: ObjectId): void;
  remove(now: number, id: ObjectId): void;
  /** Restacks given the same `step` one after another are one step of the history (a selection's). */
  restack(now: number, id: ObjectId, front: boolean, step?: number): void;
  /** Puts an object back at an exact z (an undone restack); the host refuses while another object has it. */
  place(now: number, id: ObjectId, z: number): void;
  /** Locks the object in place (nothing changes it until unlocked) or unlocks it. */
  pin(now: number, id: ObjectId, pinned: boolean): void;
  grab(now: number, id: ObjectId): void;
  drag(now: number, id: ObjectId, x: number, y: number): void;
  /** A held object's live resize or rotate (its place, size and rotation now), seen by the others like a drag. */
  reshape(now: number, id: ObjectId, shape: LiveGeometry): void;
  drop(now: number, id: ObjectId, x: number, y: number): void;
  chat(now: number, text: string): void;
  /** Keeps an image (a peer uploads it to the host): its hash for an image object's create, or a refusal. */
  putImage(now: number, bytes: Uint8Array, type: ImageType): Promise<string | Refusal>;
  /** The images this side has (every object showing one of them can draw it). */
  readonly images: BlobStore;
  /**
   * Takes back this user's newest step that still applies, or does it again, as ordinary operations (others' steps
   * are never touched). Waits for creates still on their way to the host.
   */
  undo(now: number): Promise<UndoOutcome>;
  redo(now: number): Promise<UndoOutcome>;
  /** Whether this user has a step to undo or redo (one may turn out not to apply when tried). */
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /** Every operation `fn` records is one step of the history (a delete of a selection). */
  group<T>(fn: () => T): T;
  /** Host only: removes a peer and bans its address for the session, or changes (and remembers) its role. */
  kick?(now: number, peer: PeerId): boolean;
  setRole?(peer: PeerId, role: 'editor' | 'viewer'): boolean;
  /** Host only: a new join code for later joiners; returns it. */
  rotateCode?(now: number): string;
  /** Host only: the session's hosts (mirrors, this one included) as joiners reach them (HostSession.setHosts). */
  setHosts?(hosts: readonly PeerAddress[]): void;
  /** Host only (files): the board replaced whole by a file's (its images kept first); a refusal changes nothing. */
  readonly replaceBoard?: (
    now: number,
    state: BoardState,
    blobs: readonly ImageBlob[],
  ) => Refusal | undefined;
  /** Each connection's stack, with the participant at its other end. */
  connections(): { peer: PeerId; name: string; stack: ConnectionStack }[];
  tick(now: number): void;
  afterIo(now: number): void;
  close(now: number): void;
}

/** Events sent over every connection that the other side has not acknowledged (0: all of this side's are in). */
export function unsettledEvents(c: Pick<Controls, 'connections'>): number {
  return c.connections().reduce((n, l) => n + l.stack.events.rpc.events.unsettled, 0);
}

export function hostControls(h: HostSession): Controls {
  const refuse = (
    cmd: Extract<SessionEvent, { type: 'refused' }>['cmd'],
    r: BoardObject | Refusal | boolean,
    id?: ObjectId,
  ): void => {
    if (typeof r === 'object' && isRefusal(r))
      emitLocal({ type: 'refused', cmd, reason: r.refused, ...(id === undefined ? {} : { id }) });
  };
  const local = new Set<SessionListener>();
  const emitLocal = (e: SessionEvent): void => {
    for (const l of local) l(e);
  };
  return withHistory(
    {
      role: 'host',
      you: 0,
      board: h.board,
      get participants() {
        return h.participants;
      },
      get hosts() {
        return h.hosts;
      },
      on(listener) {
        local.add(listener);
        const off = h.on(listener);
        return () => {
          local.delete(listener);
          off();
        };
      },
      pointer: (now, x, y, visible) => h.setPresence(now, { x, y, visible }),
      tool: (now, tool) => h.setPresence(now, {}, tool),
      viewport: () => undefined,
      create: (now, fields) => {
        const r = h.create(fields, now);
        refuse('create', r);
        return Promise.resolve(isRefusal(r) ? r : r.id);
      },
      edit: (now, id, patch) => refuse('edit', h.edit(id, patch, now), id),
      text: (now, id, at, remove, insert) =>
        refuse('text', h.text(id, at, remove, insert, now), id),
      textOpen: (now, id, base) => refuse('text', h.textOpen(id, base, now) ?? false, id),
      textEdit: (now, id, seen, splice) =>
        refuse('text', h.textEdit(id, seen, splice, now) ?? false, id),
      textClose: (_now, id) => h.textClose(id),
      remove: (now, id) => refuse('delete', h.remove(id, now), id),
      restack: (now, id, front) => refuse('restack', h.restack(id, front, now), id),
      place: (now, id, z) => refuse('restack', h.restack(id, false, now, z), id),
      pin: (now, id, pinned) => refuse('pin', h.pin(id, pinned, now), id),
      grab: (now, id) => refuse('grab', h.grab(id, now), id),
      drag: (now, id, x, y) =>
        h.setPresence(now, { dragId: id, dragX: x, dragY: y, dragShaped: false }),
      reshape: (now, id, g) => h.setPresence(now, reshapedPresence(id, g)),
      drop: (now, id, x, y) => {
        h.setPresence(now, { dragId: 0 });
        refuse('drop', h.drop(id, x, y, now), id);
      },
      chat: (_now, text) => h.chat(text),
      putImage: (_now, bytes, type) => {
        const r = h.putImage(bytes, type);
        if (typeof r !== 'string') emitLocal({ type: 'refused', cmd: 'image', reason: r.refused });
        return Promise.resolve(r);
      },
      images: h.images.store,
      kick: (now, peer) => h.kick(now, peer),
      setRole: (peer, role) => h.setRole(peer, role),
      rotateCode: () => h.rotateCode(),
      setHosts: (hosts) => h.setHosts(hosts),
      replaceBoard: (now, state, blobs) => {
        for (const b of blobs) h.images.load(b);
        return h.replaceBoard(state, now);
      },
      connections: () => h.peerConnections(),
      tick: (now) => h.tick(now),
      afterIo: (now) => h.afterIo(now),
      close: (now) => h.close(now),
    },
    (now, id) => refuse('restore', h.restore(id, now), id),
  );
}

export function peerControls(p: PeerSession): Controls {
  const pending = new Map<number, (r: ObjectId | Refusal) => void>();
  p.on((e) => {
    if (e.type === 'created') {
      pending.get(e.req)?.(e.id);
      pending.delete(e.req);
    } else if (e.type === 'refused' && e.cmd === 'create') {
      // Refusals come back in order on the same channel: the oldest pending create is the one refused.
      const first = pending.keys().next();
      if (first.done !== true) {
        pending.get(first.value)?.({ refused: e.reason });
        pending.delete(first.value);
      }
    }
  });
  return withHistory(
    {
      role: 'peer',
      get you() {
        return p.peerId;
      },
      board: p.board,
      get participants() {
        return p.participants;
      },
      get hosts() {
        return p.hosts;
      },
      on: (listener) => p.on(listener),
      pointer: (_now, x, y, visible) => p.pointer(x, y, visible),
      tool: (_now, tool) => p.tool(tool),
      viewport: (_now, v) => p.viewport(v.x, v.y, v.w, v.h),
      create: (_now, fields) =>
        new Promise((resolve) => {
          pending.set(p.create(fields), resolve);
        }),
      edit: (_now, id, patch) => p.edit(id, patch),
      text: (_now, id, at, remove, insert) => p.text(id, at, remove, insert),
      textOpen: (_now, id, base) => p.textOpen(id, base),
      textEdit: (_now, id, seen, splice) => {
        p.textEdit(id, seen, splice);
      },
      textClose: (_now, id) => p.textClose(id),
      remove: (_now, id) => p.remove(id),
      restack: (_now, id, front) => p.restack(id, front),
      place: (_now, id, z) => p.restack(id, false, z),
      pin: (_now, id, pinned) => p.pin(id, pinned),
      grab: (_now, id) => p.grab(id),
      drag: (_now, id, x, y) => p.drag(id, x, y),
      reshape: (_now, id, g) => p.reshape(id, g),
      drop: (_now, id, x, y) => p.drop(id, x, y),
      chat: (_now, text) => p.chat(text),
      putImage: (now, bytes, type) => p.putImage(now, bytes, type),
      images: p.images.store,
      connections: () => {
        const stack = p.connection;
        return stack ? [{ peer: 0, name: p.host, stack }] : [];
      },
      tick: (now) => p.tick(now),
      afterIo: (now) => p.afterIo(now),
      close: (now) => p.leave(now),
    },
    (_now, id) => p.restore(id),
  );
}
