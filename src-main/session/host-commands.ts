// The host's board commands by an actor, its own user or a participant: each checked (role, the object's holder,
// the board budget), executed through the host's executor, and told to the session (events, and lock changes
// broadcast to the peers); also how the executor's own changes and late refusals are told. Knows nothing of
// connections, of how a call reaches the host (host-rpc.ts) or of presence scoping.
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import { NEW_OBJECT_FIELDS } from '../../shared/board';
import type { GhostSource } from '../net/ghost/ghost-source';
import type { RpcEndpoint } from '../net/stream/rpc';
import type { BoardOp, BoardRefusal } from '../board';
import { heldByOther, refusalText } from '../board';
import type { Board, Refusal } from './board';
import { isRefusal } from './board';
import type { BoardExecutor, Executed, LaterCommand } from './board-executor';
import type { PresenceState } from './ghost-classes';
import { Presence } from './ghost-classes';
import type { HostImages } from './host-images';
import type { HostRules } from './host-rules';
import type { BoardBudget } from './peer-limits';
import { objectBytes } from './peer-limits';
import { presenceMaskToPointer } from './presence';
import type { GridSlot } from './presence-grid';
import type { Protocol, RefusableCommand, Role } from './protocol';
import type { SessionEvent } from './session-events';
import type { Tombstones } from './tombstones';

/** The host's participant id on the wire and in locks; no connection is ever given it. */
export const HOST_PEER_ID: PeerId = 0;

/** A presence's live drag (or resize, or rotate) of one object. */
type HeldBack = Pick<
  PresenceState,
  'dragId' | 'dragX' | 'dragY' | 'dragShaped' | 'dragW' | 'dragH' | 'dragRotation'
>;

/** A participant: a connection that said hello, with the id, colour and role the host gave it (never id 0). */
export interface Member {
  readonly peerId: PeerId;
  readonly name: string;
  readonly color: number;
  role: Role;
  readonly relay: GhostSource<PresenceState>;
  /** The relay's place among the pointers every presence scope walks (relays). */
  readonly place: GridSlot;
  /** The last drag it sent of an object it did not hold yet: shown if its grab of that object succeeds. */
  heldBack: HeldBack | undefined;
}

/**
 * Who performs an operation: the host's own user (reachable only through HostSession's public methods, never
 * from the network) or a participant (only from its connection's RPCs, after hello).
 */
export type Actor = { readonly kind: 'host' } | { readonly kind: 'peer'; readonly member: Member };
export const HOST: Actor = { kind: 'host' };

/** What the commands count (host.ts's HostCounters says what each means). */
export interface CommandCounters {
  boardFull: number;
  restoresRefused: number;
  exactRestacksRefused: number;
}

/** What the commands use of the host: its board and what decides on it, and how it tells the session. */
export interface HostCommandContext {
  readonly proto: Protocol;
  readonly board: Board;
  readonly executor: BoardExecutor;
  readonly rules: HostRules;
  /** Who deleted which object: only they may restore it. */
  readonly tombstones: Tombstones;
  readonly boardBudget: BoardBudget;
  readonly images: Pick<HostImages, 'refusal'>;
  readonly counters: CommandCounters;
  /** A participant's name, as a refusal gives it. */
  readonly nameOf: (peer: PeerId) => string;
  /** The host's time: what the board's listeners read while a command runs (admitting a new object to replicas). */
  now(): number;
  setNow(now: number): void;
  emit(e: SessionEvent): void;
  /** To every joined peer. */
  broadcast(send: (rpc: RpcEndpoint) => void): void;
  /** Tells a participant its command was refused (nothing if it is gone). */
  refuse(peer: PeerId, cmd: RefusableCommand, reason: string, id: number): void;
}

export class HostCommands {
  constructor(private readonly ctx: HostCommandContext) {}

  createAs(actor: Actor, fields: NewObject, now: number): BoardObject | Refusal {
    const { ctx } = this;
    ctx.setNow(now);
    const denied =
      canEdit(actor) ??
      ctx.images.refusal(fields) ??
      this.overBudget(actor, () => ctx.boardBudget.refuseNew(objectBytes(fields)));
    if (denied) return denied;
    const r = ctx.executor.execute(idOf(actor), { type: 'create', fields }, now);
    if (!r.ok) return { refused: refusalText(r.refusal, ctx.nameOf) };
    const made = r.effects[0];
    if (made?.type !== 'upsert') throw new Error('a create upserts its object');
    ctx.emit({ type: 'object', object: made.object });
    return made.object;
  }

  editAs(actor: Actor, id: ObjectId, patch: ObjectPatch, now: number): BoardObject | Refusal {
    this.ctx.setNow(now);
    const by = idOf(actor);
    const denied =
      canEdit(actor) ??
      this.heldByOther(id, by) ??
      this.overBudget(actor, () => this.growthRefusal(id, patch));
    if (denied) return denied;
    const o = this.run(by, { type: 'patch', id, patch, by });
    if (!isRefusal(o)) this.ctx.emit({ type: 'object', object: o });
    return o;
  }

  /**
   * Executes a command of `by` (its effects reach the replica and the budget through the board, where the executor
   * applies them).
   */
  private run(by: PeerId, op: Extract<BoardOp, { readonly id: ObjectId }>): BoardObject | Refusal {
    return this.outcome(op.id, this.ctx.executor.execute(by, op, this.ctx.now()));
  }

  /** The object as a command left it, or the refusal in words. */
  private outcome(id: ObjectId, r: Executed): BoardObject | Refusal {
    if (!r.ok) return { refused: refusalText(r.refusal, this.ctx.nameOf) };
    return this.ctx.board.get(id) ?? { refused: `no object ${id}` };
  }

  /** Another participant holds the object: theirs alone to change. */
  private heldByOther(id: ObjectId, by: PeerId): Refusal | undefined {
    const held = heldByOther(this.ctx.board.state, id, by);
    return held === undefined ? undefined : { refused: refusalText(held, this.ctx.nameOf) };
  }

  /** The board budget binds participants; the host's own user may grow its board as it likes. */
  private overBudget(actor: Actor, check: () => string | undefined): Refusal | undefined {
    if (actor.kind === 'host') return undefined;
    const why = check();
    if (why === undefined) return undefined;
    this.ctx.counters.boardFull++;
    return { refused: why };
  }

  private growthRefusal(id: ObjectId, patch: ObjectPatch): string | undefined {
    const current = this.ctx.board.get(id);
    if (current === undefined || (patch.text === undefined && patch.points === undefined))
      return undefined;
    const next = { text: patch.text ?? current.text, points: patch.points ?? current.points };
    return this.ctx.boardBudget.refuseGrowth(objectBytes(next) - objectBytes(current));
  }

  textAs(
    actor: Actor,
    id: ObjectId,
    at: number,
    remove: number,
    insert: string,
    now: number,
  ): BoardObject | Refusal {
    const current = this.ctx.board.get(id);
    if (current === undefined) return { refused: `no object ${id}` };
    // Positions are UTF-16 code units, as a textarea's selection reports them.
    const t = current.text;
    const start = Math.min(at, t.length);
    const next = t.slice(0, start) + insert + t.slice(Math.min(t.length, start + remove));
    return this.editAs(actor, id, { text: next }, now);
  }

  removeAs(actor: Actor, id: ObjectId, now: number): boolean | Refusal {
    const { ctx } = this;
    ctx.setNow(now);
    const by = idOf(actor);
    const denied = canEdit(actor) ?? this.heldByOther(id, by);
    if (denied) return denied;
    const gone = ctx.board.get(id);
    const r = ctx.executor.execute(by, { type: 'delete', id, by }, now);
    if (!r.ok) return { refused: refusalText(r.refusal, ctx.nameOf) };
    if (gone !== undefined) ctx.tombstones.deleted(id, { by, object: gone });
    ctx.emit({ type: 'deleted', id });
    return true;
  }

  /**
   * An object back under its own id, as it was when deleted: only by the participant who deleted it (the host
   * remembers who, and the object), within the budget; the board core checks again that the id was issued and is
   * free, and the fields. It goes back to its old z unless someone took that since. Every refusal is counted.
   */
  restoreAs(actor: Actor, id: ObjectId, now: number): BoardObject | Refusal {
    const { ctx } = this;
    ctx.setNow(now);
    const stone = ctx.tombstones.get(id);
    const mine = stone !== undefined && stone.by === idOf(actor) ? stone.object : undefined;
    const r =
      canEdit(actor) ??
      (mine === undefined
        ? { refused: `object ${id} is not yours to restore` }
        : (this.overBudget(actor, () => ctx.boardBudget.refuseNew(objectBytes(mine))) ??
          this.run(idOf(actor), { type: 'restore', id, fields: newFields(mine), z: mine.z })));
    if (isRefusal(r)) {
      ctx.counters.restoresRefused++;
      return r;
    }
    ctx.tombstones.restored(id);
    ctx.emit({ type: 'object', object: r });
    return r;
  }

  restackAs(
    actor: Actor,
    id: ObjectId,
    front: boolean,
    now: number,
    z: number | null,
  ): BoardObject | Refusal {
    this.ctx.setNow(now);
    const denied = canEdit(actor);
    if (denied) return denied;
    const to = z !== null ? { z } : front ? 'front' : 'back';
    const o = this.run(idOf(actor), { type: 'restack', id, to, by: idOf(actor) });
    if (isRefusal(o)) {
      if (z !== null) this.ctx.counters.exactRestacksRefused++;
    } else this.ctx.emit({ type: 'object', object: o });
    return o;
  }

  /** A lock in place (pinned) is anyone's to set or clear, while no one else holds the object. */
  pinAs(actor: Actor, id: ObjectId, pinned: boolean, now: number): BoardObject | Refusal {
    this.ctx.setNow(now);
    const denied = canEdit(actor);
    if (denied) return denied;
    const o = this.run(idOf(actor), { type: 'pin', id, pinned, by: idOf(actor) });
    if (!isRefusal(o)) this.ctx.emit({ type: 'object', object: o });
    return o;
  }

  grabAs(actor: Actor, id: ObjectId, now: number): BoardObject | Refusal {
    const { ctx } = this;
    ctx.setNow(now);
    const denied = canEdit(actor);
    if (denied) return denied;
    const peer = idOf(actor);
    const r = this.outcome(id, ctx.rules.grab(id, peer, now));
    if (isRefusal(r)) return r;
    ctx.emit({ type: 'object', object: r });
    ctx.emit({ type: 'grabbed', id, peer });
    ctx.broadcast((rpc) => rpc.send(ctx.proto.grabbed, { id, peer }));
    if (actor.kind === 'peer') this.showHeldBackDrag(actor.member, id);
    return r;
  }

  /** A drag that arrived just before its grab (presence is read before events in a packet) is shown now. */
  private showHeldBackDrag(m: Member, id: ObjectId): void {
    const d = m.heldBack;
    if (d?.dragId !== id) return;
    m.heldBack = undefined;
    const s = m.relay.obj;
    Object.assign(s, d);
    const drag = Presence.maskOf('drag');
    m.relay.markDirty(drag);
    const pointer = presenceMaskToPointer(s, drag);
    if (pointer) this.ctx.emit({ type: 'pointer', pointer, moved: false });
  }

  dropAs(actor: Actor, id: ObjectId, x: number, y: number, now: number): BoardObject | Refusal {
    this.ctx.setNow(now);
    const peer = idOf(actor);
    const r = this.outcome(id, this.ctx.rules.drop(id, peer, x, y, now));
    if (isRefusal(r)) return r;
    this.ctx.emit({ type: 'object', object: r });
    this.announceDrop(id, peer, now);
    return r;
  }

  /** Shown and passed on when the executor gives it back (the sink's chat): at once, or once the group has it. */
  chatAs(actor: Actor, text: string): void {
    this.ctx.executor.chat(idOf(actor), text, this.ctx.now());
  }

  /** The executor changed an object on its own (another host's command, a rollback): told like any change. */
  changedElsewhere(before: BoardObject | undefined, after: BoardObject | undefined): void {
    const { ctx } = this;
    if (after === undefined) {
      if (before !== undefined) ctx.emit({ type: 'deleted', id: before.id });
      return;
    }
    ctx.emit({ type: 'object', object: after });
    const was = before?.lockedBy ?? null;
    const id = after.id;
    if (was === after.lockedBy) return;
    if (was !== null) {
      const { x, y } = after;
      ctx.emit({ type: 'dropped', id, peer: was, x, y });
      ctx.broadcast((rpc) => rpc.send(ctx.proto.dropped, { id, peer: was, x, y }));
    }
    const peer = after.lockedBy;
    if (peer === null) return;
    ctx.emit({ type: 'grabbed', id, peer });
    ctx.broadcast((rpc) => rpc.send(ctx.proto.grabbed, { id, peer }));
  }

  /** A command the executor had reported done is refused after all: its sender is told as of any refusal. */
  refusedLater(by: PeerId, c: LaterCommand, refusal: BoardRefusal): void {
    const cmd = REFUSED_AS[c.type];
    if (cmd === undefined) return;
    const reason = refusalText(refusal, this.ctx.nameOf);
    if (by === HOST_PEER_ID) {
      this.ctx.emit({ type: 'refused', cmd, reason, ...(c.id === 0 ? {} : { id: c.id }) });
      return;
    }
    this.ctx.refuse(by, cmd, reason, c.id);
  }

  /** A lock the host released (holder gone or quiet): the object changed too. */
  announceRelease(id: ObjectId, peer: PeerId, now: number): void {
    const o = this.ctx.board.get(id);
    if (o !== undefined) this.ctx.emit({ type: 'object', object: o });
    this.announceDrop(id, peer, now);
  }

  private announceDrop(id: ObjectId, peer: PeerId, now: number): void {
    const { ctx } = this;
    ctx.setNow(now);
    const o = ctx.board.get(id);
    if (o === undefined) return;
    ctx.emit({ type: 'dropped', id, peer, x: o.x, y: o.y });
    ctx.broadcast((rpc) => rpc.send(ctx.proto.dropped, { id, peer, x: o.x, y: o.y }));
  }
}

/** Viewers may look, not change. */
export function canEdit(actor: Actor): Refusal | undefined {
  if (actor.kind === 'host') return undefined;
  return actor.member.role === 'viewer' ? { refused: 'viewers cannot edit the board' } : undefined;
}

export function idOf(actor: Actor): PeerId {
  return actor.kind === 'host' ? HOST_PEER_ID : actor.member.peerId;
}

/** How a command the executor decided later is named to its sender (none: nothing the sender was told of). */
const REFUSED_AS: Partial<Record<LaterCommand['type'], RefusableCommand>> = {
  create: 'create',
  patch: 'edit',
  delete: 'delete',
  restack: 'restack',
  pin: 'pin',
  grab: 'grab',
  drop: 'drop',
  restore: 'restore',
};

/** The fields a participant sets of an object (what a restore gives back; id, z and lock are the host's). */
function newFields(o: BoardObject): NewObject {
  const out: Record<string, unknown> = {};
  for (const k of NEW_OBJECT_FIELDS) out[k] = o[k];
  return out as NewObject;
}
