// A host served from a mirror: the session's board operations executed through a Mirror (stamped, multicast to the
// group, executed on its leading state at once) and the session's Board driven from what the mirror puts out — its
// own commands' effects when submitted, and later the leading state's changes (other mirrors' commands, rollbacks),
// the group's revised decisions and everyone's chat. Participant ids are split among the mirrors (peerIdsOf).
// Sans-IO like both sides: whoever drives the mirror's datagrams and timers calls pump() after them. Knows nothing
// of sockets or connections.
import type { BoardObject, PeerId } from '../../shared/board';
import type { BoardEffect, BoardOp, BoardRefusal, BoardState } from '../board';
import type { Board } from '../session/board';
import type {
  BoardExecutor,
  Executed,
  ExecutorSink,
  LaterCommand,
} from '../session/board-executor';
import type { CommandOp } from '../mirror/command';
import type { Mirror } from '../mirror/mirror';
import { MAX_MIRRORS } from '../mirror/mirror-id';
import type { TssOutput } from '../mirror/tss';

/**
 * Participant ids of a mirror group, one 12-bit space (the wire's, and every lock holder's) split among the mirrors
 * as object ids are: the ids of mirror m's participants are those ≡ m (mod 16), so two mirrors never give out the
 * same one. Its joiners get m + 16k (k ≥ 1: 255 per mirror); its host's own user is m itself in the group. Each
 * session still calls its own user 0 (the wire's "the host"), so mirror m's session and the group swap 0 and m: in
 * m's session, id m stands for mirror 0's host user. One transposition, its own inverse.
 */
export interface PeerIds {
  readonly self: number;
  /** The group's id of one of this session's participants. */
  toGroup(local: PeerId): PeerId;
  /** This session's id of one of the group's participants. */
  toLocal(group: PeerId): PeerId;
  /** Whether this session may give the id to a joiner. */
  owns(local: PeerId): boolean;
}

export function peerIdsOf(self: number): PeerIds {
  const swap = (id: PeerId): PeerId => (id === 0 ? self : id === self ? 0 : id);
  return {
    self,
    toGroup: swap,
    toLocal: swap,
    owns: (id) => id >= MAX_MIRRORS && id % MAX_MIRRORS === self,
  };
}

/** One of this mirror's commands whose outcome the group may still revise. */
interface Pending {
  readonly by: PeerId;
  readonly stamp: number;
  readonly command: LaterCommand;
}

export interface MirrorExecutorCounters {
  /** Operations no mirror command expresses (a board replaced whole): refused. */
  inexpressible: number;
  /** Commands the mirror would not take (its multicast window or buffer full): refused. */
  unsent: number;
  /** The group's changes applied to the session's board: effects, and those a rollback made. */
  effects: number;
  rollbackEffects: number;
}

export class MirrorExecutor implements BoardExecutor {
  readonly ids: PeerIds;
  readonly counters: MirrorExecutorCounters = {
    inexpressible: 0,
    unsent: 0,
    effects: 0,
    rollbackEffects: 0,
  };
  private sink: ExecutorSink | undefined;
  /** This mirror's commands by seq, oldest first, until every trailing state has passed them. */
  private readonly pending = new Map<number, Pending>();
  /** The CRIMP seq of this mirror's last command, and acknowledgements waiting for another mirror to hold theirs. */
  private lastSent = 0;
  private readonly unsafe: { readonly through: number; readonly acknowledge: () => void }[] = [];
  /**
   * Called after a command went to the group: its datagrams wait in the mirror's links, whose sockets the driver
   * pumps (inside the host's turn they would wait for the mirror's next datagram or poll).
   */
  onSubmitted: (() => void) | undefined;

  constructor(
    readonly mirror: Mirror,
    private readonly board: Board,
  ) {
    // A joining mirror serves no one before the group has given it its id and its board.
    if (mirror.self === undefined || !mirror.ready)
      throw new Error('a host is served from a mirror that has joined its group');
    this.ids = peerIdsOf(mirror.self);
  }

  attach(sink: ExecutorSink): void {
    this.sink = sink;
  }

  execute(by: PeerId, op: BoardOp, now: number): Executed {
    // What the group did before comes first, so the command runs on the board the host validated it on.
    this.pump();
    if (op.type === 'batch') return this.replaceAlone(op);
    const c = this.commandOf(op);
    if (c === undefined) {
      this.counters.inexpressible++;
      return refused({ type: 'invalid', why: 'a mirrored session does not take this operation' });
    }
    if (c.type === 'create' && c.id === 0) return refused({ type: 'out-of-ids' });
    const sent = this.mirror.submit(now, this.ids.toGroup(by), c);
    if (!sent.ok) {
      this.counters.unsent++;
      return refused({ type: 'invalid', why: `the mirror group is busy (${sent.reason})` });
    }
    const { seq, stamp } = sent.command;
    this.lastSent = sent.sent;
    this.onSubmitted?.();
    // The leading state ran it at once: its effects are the one output not made by a rollback (tss.ts), and a
    // refusal of it comes as 'refused' unrevised. Anything else is news for the sink, in order.
    let result: Executed = { ok: true, effects: [] };
    for (let o = this.mirror.poll(); o !== undefined; o = this.mirror.poll()) {
      if (o.type === 'effects' && !o.rollback) result = { ok: true, effects: this.apply(o, false) };
      else if (o.type === 'refused' && o.seq === seq && !o.revised)
        result = refused(this.localRefusal(o.refusal));
      else this.take(o);
    }
    if (c.type !== 'chat') this.pending.set(seq, { by, stamp, command: laterOf(c) });
    return result;
  }

  /**
   * A whole board put in place (a file opened into the session): only while this mirror is alone in its group, when
   * its states can start over from the result; with another host serving the session, refused.
   */
  private replaceAlone(op: Extract<BoardOp, { type: 'batch' }>): Executed {
    if (!this.mirror.alone) {
      this.counters.inexpressible++;
      return refused({
        type: 'invalid',
        why: 'another host serves this session: its board is changed only object by object',
      });
    }
    const r = this.board.apply(op);
    if (!r.ok) return r;
    const s = this.board.state;
    this.mirror.restartAlone({ objects: new Map(s.objects), nextId: s.nextId, topZ: s.topZ });
    this.pending.clear();
    return r;
  }

  chat(peer: PeerId, text: string, now: number): void {
    this.pump();
    const sent = this.mirror.submit(now, this.ids.toGroup(peer), { type: 'chat', text });
    if (sent.ok) {
      this.lastSent = sent.sent;
      this.onSubmitted?.();
    } else this.counters.unsent++;
    this.pump();
  }

  ownsPeerId(id: PeerId): boolean {
    return this.ids.owns(id);
  }

  /** The mirror's timers run with its datagrams; the host's tick only brings its trailing states on. */
  tick(now: number): void {
    this.mirror.handleTimeout(now);
    this.pump();
  }

  /** Acknowledged in order, each once another mirror holds every command before it (mirror.heldElsewhere). */
  whenSafe(acknowledge: () => void): void {
    this.unsafe.push({ through: this.lastSent, acknowledge });
    this.release();
  }

  /** Acknowledgements waiting for another mirror to hold their commands. */
  get unacknowledged(): number {
    return this.unsafe.length;
  }

  private release(): void {
    if (this.unsafe.length === 0) return;
    const held = this.mirror.heldElsewhere();
    let n = 0;
    while (n < this.unsafe.length && (this.unsafe[n]?.through ?? Infinity) <= held) n++;
    for (const u of this.unsafe.splice(0, n)) u.acknowledge();
  }

  /** Takes everything the mirror has put out: call after each of its datagrams and timeouts. */
  pump(): void {
    for (let o = this.mirror.poll(); o !== undefined; o = this.mirror.poll()) this.take(o);
    this.release();
    // Past the last trailing state nothing is revised: forget it (seqs run in stamp order).
    const final = this.mirror.tss.finalThrough;
    for (const [seq, p] of this.pending) {
      if (p.stamp >= final) break;
      this.pending.delete(seq);
    }
  }

  /** Commands this mirror's participants sent that the group may still revise. */
  get undecided(): number {
    return this.pending.size;
  }

  private take(o: TssOutput): void {
    switch (o.type) {
      case 'effects':
        this.apply(o, true);
        return;
      case 'refused': {
        const p = this.pending.get(o.seq);
        if (p !== undefined) this.sink?.refused(p.by, p.command, this.localRefusal(o.refusal));
        return;
      }
      case 'granted': {
        const p = this.pending.get(o.seq);
        if (p !== undefined) this.sink?.granted(p.by, p.command);
        return;
      }
      case 'chat':
        this.sink?.chat(this.ids.toLocal(o.client), o.text);
        return;
    }
  }

  /**
   * The leading state's effects onto the session's board, lock holders in this session's ids; `tell` when they
   * were not the answer to a call of the host's (a rollback, another mirror's command), so the sink hears of each.
   */
  private apply(o: Extract<TssOutput, { type: 'effects' }>, tell: boolean): BoardEffect[] {
    if (o.rollback) this.counters.rollbackEffects += o.effects.length;
    else this.counters.effects += o.effects.length;
    const out: BoardEffect[] = [];
    for (const e of o.effects) {
      const id = e.type === 'delete' ? e.id : e.object.id;
      const before = this.board.get(id);
      if (e.type === 'delete') {
        this.board.apply({ type: 'remove', id });
        out.push(e);
      } else {
        const object = this.localObject(e.object);
        this.board.apply({ type: 'put', object });
        out.push({ type: 'upsert', object });
      }
      if (tell) this.sink?.changed(before, this.board.get(id));
    }
    this.syncCounters(this.mirror.tss.leading);
    return out;
  }

  /** The board's counters follow the leading state's (puts leave them alone): a later file save keeps them. */
  private syncCounters(leading: Readonly<BoardState>): void {
    const s = this.board.state;
    if (s.nextId !== leading.nextId || s.topZ !== leading.topZ)
      this.board.apply({ type: 'counters', nextId: leading.nextId, topZ: leading.topZ });
  }

  private localObject(o: BoardObject): BoardObject {
    const holder = o.lockedBy;
    if (holder === null) return o;
    const local = this.ids.toLocal(holder);
    return local === holder ? o : { ...o, lockedBy: local };
  }

  private localRefusal(r: BoardRefusal): BoardRefusal {
    return r.type === 'held' ? { type: 'held', by: this.ids.toLocal(r.by) } : r;
  }

  /** The operation as a mirror command (the issuing participant travels beside it); undefined when none is. */
  private commandOf(op: BoardOp): CommandOp | undefined {
    switch (op.type) {
      case 'create':
        return { type: 'create', id: this.mirror.newObjectId() ?? 0, fields: op.fields };
      case 'patch':
        return { type: 'patch', id: op.id, patch: op.patch };
      case 'delete':
        return { type: 'delete', id: op.id };
      case 'restack':
        return { type: 'restack', id: op.id, to: op.to };
      case 'pin':
        return { type: 'pin', id: op.id, pinned: op.pinned };
      case 'restore':
        return { type: 'restore', id: op.id, fields: op.fields, z: op.z };
      case 'grab':
        return { type: 'grab', id: op.id };
      case 'drop':
        return { type: 'drop', id: op.id, x: op.x, y: op.y };
      case 'release':
        return { type: 'release' };
      case 'put':
      case 'remove':
      case 'place':
      case 'lock':
      case 'counters':
      case 'batch':
        return undefined;
    }
  }
}

function refused(refusal: BoardRefusal): Executed {
  return { ok: false, refusal };
}

function laterOf(c: Exclude<CommandOp, { type: 'chat' }>): LaterCommand {
  return { type: c.type, id: 'id' in c ? c.id : 0 };
}

/** A mirror-backed executor for a host session's board (HostSessionOptions.executor). */
export function mirrorExecutor(mirror: Mirror): (board: Board) => MirrorExecutor {
  return (board) => new MirrorExecutor(mirror, board);
}
