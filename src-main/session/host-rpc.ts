// A connection on the host, and its calls: hello and viewport as they come, every other call held to the sender's
// rates and to its having said hello, then handed to the host's commands or its co-editing; each refusal is told
// to the sender and counted. Also where a connection comes from and why it left. Knows nothing of how a command is
// decided (host-commands.ts), of the session's other participants or of presence.
import type { BoardObject } from '../../shared/board';
import { parseAddress } from '../net/address';
import type { CloseInfo } from '../net/close-reason';
import type { RatePolicy } from '../net/stream/rate';
import type { RpcEndpoint } from '../net/stream/rpc';
import type { Refusal } from './board';
import { isRefusal } from './board';
import type { BoardExecutor } from './board-executor';
import type { BlobLink } from './blob-link';
import type { ConnectionStack } from './connection-stack';
import type { Actor, HostCommands, Member } from './host-commands';
import { canEdit, idOf } from './host-commands';
import type { HostImages } from './host-images';
import type { HostText } from './host-text';
import type { PeerBudget } from './peer-limits';
import { callBytes } from './peer-limits';
import type { LeaveReason, Protocol, RefusableCommand } from './protocol';
import { editPatch, REFUSABLE } from './protocol';

/** A connection as the host sees it: a participant only once it said hello. */
export interface HostPeer {
  readonly stack: ConnectionStack;
  /** Undefined until hello: until then the connection has no peer id and may do nothing but say hello. */
  member: Member | undefined;
  /** When its hello was refused (session full): it is closed a little later, once the refusal had time to go. */
  refusedAt: number | undefined;
  readonly budget: PeerBudget;
  viewport: { x: number; y: number; w: number; h: number } | undefined;
  lastActiveAt: number;
  /** Its image transfers, both ways (set up with its handlers). */
  blobs: BlobLink | undefined;
  /** The most the host sends it now (host-packet-rates.ts). */
  sendCap: RatePolicy;
}

/** What the host refused or dropped from connections, by cause. */
export interface HostCounters {
  /** RPCs other than hello from a connection that had not said hello. */
  beforeHello: number;
  /** Hellos refused because the session was full. */
  full: number;
  /** Presence updates whose drag was of an object the sender does not hold (relayed without it). */
  dragsNotHeld: number;
  /** Calls refused for the sender's call or byte rate. */
  rateLimited: number;
  /** Chat lines refused (empty, or past the chat rate). */
  chatLimited: number;
  /** Creates and edits refused because the board would pass its budget. */
  boardFull: number;
  /**
   * Restores refused: of an id the sender did not delete (someone else's, never issued, forgotten), of another
   * kind, on the board, or past the budget.
   */
  restoresRefused: number;
  /**
   * restack: restacks to an exact z (undone restacks) refused: another object has it, or the object is gone or
   * locked in place.
   */
  exactRestacksRefused: number;
}

/** What the calls are handed to, and where their refusals are counted. */
export interface HostRpcContext {
  readonly proto: Protocol;
  readonly counters: Pick<HostCounters, 'rateLimited' | 'beforeHello' | 'chatLimited'>;
  readonly commands: HostCommands;
  readonly texts: HostText;
  readonly images: Pick<HostImages, 'attach'>;
  readonly executor: Pick<BoardExecutor, 'whenSafe'>;
  /** Moves the host's time to a call's, for co-editing (which reads it when it commits). */
  setNow(now: number): void;
  hello(p: HostPeer, name: string, viewer: boolean, now: number): void;
}

/** A handler of a call that needs a participant, made into one that checks the sender first. */
type Joined = <A extends Readonly<Record<string, unknown>>>(
  cmd: RefusableCommand,
  run: (actor: Actor, a: A, now: number) => void,
) => (a: A, now: number) => void;

/** What each group of calls is wired with. */
interface Wiring {
  readonly p: HostPeer;
  readonly ctx: HostRpcContext;
  readonly rpc: RpcEndpoint;
  readonly joined: Joined;
  /** Tells the sender of a refused command (naming the object, `id`, that it shows changed already). */
  readonly guard: (
    cmd: RefusableCommand,
    r: BoardObject | Refusal | boolean | undefined,
    id?: number,
  ) => void;
}

/** Sets up every call `p` may make. */
export function registerPeer(p: HostPeer, ctx: HostRpcContext): void {
  const rpc = p.stack.events.rpc;
  rpc.on(ctx.proto.hello, (a, now) => ctx.hello(p, a.name, a.viewer, now));
  p.blobs = ctx.images.attach(rpc, () => p.member);
  // Only scopes what this connection itself is sent (nothing before hello): harmless to keep early.
  rpc.on(ctx.proto.viewport, (a) => {
    p.viewport = { x: a.x, y: a.y, w: a.w, h: a.h };
    p.stack.board.invalidateScope();
    // The pointers it now looks at come at once, not at the next periodic pass.
    p.stack.presence.invalidateScope();
  });
  const w: Wiring = { p, ctx, rpc, joined: joinedOnly(p, ctx), guard: guardFor(ctx.proto, p) };
  wireObjects(w);
  wireTexts(w);
  wireLocksAndChat(w);
}

/**
 * Every call but hello and viewport is held to the sender's rates, and needs a participant: before hello it is
 * refused, and has no effect. Each refusal is told to the sender and counted.
 */
function joinedOnly(p: HostPeer, ctx: HostRpcContext): Joined {
  return (cmd, run) => (a, now) => {
    const subject = typeof a.id === 'number' ? a.id : 0;
    const limited = p.budget.call(now, callBytes(a));
    if (limited !== undefined) {
      ctx.counters.rateLimited++;
      refuse(ctx.proto, p, cmd, limited, subject);
      return;
    }
    const member = p.member;
    if (member === undefined) {
      ctx.counters.beforeHello++;
      refuse(ctx.proto, p, cmd, 'not in the session: join (hello) first', subject);
      return;
    }
    p.lastActiveAt = now;
    run({ kind: 'peer', member }, a, now);
  };
}

function wireObjects({ p, ctx, rpc, joined, guard }: Wiring): void {
  const { commands: c, proto: pr } = ctx;
  rpc.on(
    pr.create,
    joined('create', (actor, a, now) => {
      const { req, ...fields } = a;
      const r = c.createAs(actor, fields, now);
      if (isRefusal(r)) refuse(pr, p, 'create', r.refused);
      else
        ctx.executor.whenSafe(() => {
          if (p.stack.conn.isOpen) rpc.send(pr.created, { req, id: r.id });
        });
    }),
  );
  rpc.on(
    pr.edit,
    joined('edit', (actor, a, now) =>
      guard('edit', c.editAs(actor, a.id, editPatch(a), now), a.id),
    ),
  );
  rpc.on(
    pr.remove,
    joined('delete', (actor, a, now) => guard('delete', c.removeAs(actor, a.id, now), a.id)),
  );
  rpc.on(
    pr.restack,
    joined('restack', (actor, a, now) =>
      guard('restack', c.restackAs(actor, a.id, a.front, now, a.z), a.id),
    ),
  );
  rpc.on(
    pr.restore,
    joined('restore', (actor, a, now) => guard('restore', c.restoreAs(actor, a.id, now), a.id)),
  );
  rpc.on(
    pr.pin,
    joined('pin', (actor, a, now) => guard('pin', c.pinAs(actor, a.id, a.pinned, now))),
  );
  rpc.on(
    pr.setPoints,
    joined('edit', (actor, a, now) =>
      guard('edit', c.editAs(actor, a.id, { points: a.points }, now), a.id),
    ),
  );
}

/** Splices (text) and co-editing (textot: session/host-text.ts). */
function wireTexts({ ctx, rpc, joined, guard }: Wiring): void {
  const { texts, proto: pr } = ctx;
  rpc.on(
    pr.text,
    joined('text', (actor, a, now) =>
      guard('text', ctx.commands.textAs(actor, a.id, a.at, a.remove, a.insert, now), a.id),
    ),
  );
  rpc.on(
    pr.textOpen,
    joined('text', (actor, a, now) => {
      ctx.setNow(now);
      guard('text', canEdit(actor) ?? texts.open(idOf(actor), a.id), a.id);
    }),
  );
  rpc.on(
    pr.textEdit,
    joined('text', (actor, a, now) => {
      ctx.setNow(now);
      const { id, seen, ...splice } = a;
      guard('text', texts.edit(idOf(actor), id, seen, splice), id);
    }),
  );
  rpc.on(
    pr.textAck,
    joined('text', (actor, a) => guard('text', texts.ack(idOf(actor), a.id, a.seen), a.id)),
  );
  rpc.on(
    pr.textClose,
    joined('text', (actor, a) => texts.close(idOf(actor), a.id)),
  );
}

function wireLocksAndChat({ p, ctx, rpc, joined, guard }: Wiring): void {
  const { commands: c, proto: pr } = ctx;
  rpc.on(
    pr.grab,
    joined('grab', (actor, a, now) => guard('grab', c.grabAs(actor, a.id, now), a.id)),
  );
  rpc.on(
    pr.drop,
    joined('drop', (actor, a, now) => guard('drop', c.dropAs(actor, a.id, a.x, a.y, now), a.id)),
  );
  rpc.on(
    pr.chat,
    joined('chat', (actor, a, now) => {
      const limited = p.budget.chat(now, a.text);
      if (limited === undefined) c.chatAs(actor, a.text);
      else {
        ctx.counters.chatLimited++;
        refuse(pr, p, 'chat', limited);
      }
    }),
  );
}

function guardFor(proto: Protocol, p: HostPeer): Wiring['guard'] {
  return (cmd, r, id = 0) => {
    if (typeof r === 'object' && isRefusal(r)) refuse(proto, p, cmd, r.refused, id);
  };
}

/** Tells `p` its command was refused, and why. */
export function refuse(
  proto: Protocol,
  p: HostPeer,
  cmd: RefusableCommand,
  reason: string,
  id = 0,
): void {
  p.stack.events.rpc.send(proto.refused, {
    cmd: REFUSABLE.indexOf(cmd),
    reason: reason.slice(0, 160),
    id,
  });
}

/** The IP a connection comes from (its key is "ip:port" or "[v6]:port"). */
export function sourceIp(p: HostPeer): string {
  const key = p.stack.conn.peer;
  return parseAddress(key)?.address ?? key;
}

/** Why a participant left, as its connection's close tells it. */
export function leaveReason(info: CloseInfo): LeaveReason {
  return info.reason === 'timeout'
    ? 'timeout'
    : info.reason === 'kicked'
      ? 'kicked'
      : info.reason === 'closed'
        ? 'left'
        : 'error';
}
