// A seeded simulation of a mirror group for tests and benchmarks: N mirrors, each with its own trailing state
// synchronizer and clients that edit what their mirror's leading state shows them (creates, edits, deletes and
// undos of them, restacks, pins, chat, grabs and drops, and grab races between mirrors), with every command
// delivered to every other mirror the way CRIMP promises (exactly once, in any order, within a bounded delay: here
// a seeded one-way delay with jitter, reordering and duplicates that the synchronizer must drop). Virtual time
// only; a client replica per mirror applies what its host would pass on. Not product code.
import type { BoardObject, NewObject, ObjectId, PeerId } from '../../../shared/board';
import { Rng } from '../../net/rng';
import type { BoardEffect, BoardState } from '../../board';
import { emptyBoard, hashBoard } from '../../board';
import type { CommandOp, MirrorCommand, MirrorId } from '../command';
import { allocateObjectId } from '../command';
import type { TraceRecord } from '../trace';
import type { TssOutput } from '../tss';
import { TrailingStateSync } from '../tss';

export interface SimConfig {
  readonly seed: number;
  readonly mirrors: number;
  readonly clientsPerMirror: number;
  /** Commands issued in all (chat included). */
  readonly commands: number;
  /** Mean ms between two commands of one mirror's clients. */
  readonly interval: number;
  readonly delays: readonly number[];
  /** One-way inter-mirror delay (ms), plus a uniform jitter of up to `jitter` ms per delivery. */
  readonly oneWay: number;
  readonly jitter: number;
  /** Chance that a delivery arrives twice (the second up to `jitter` ms later). */
  readonly duplicate: number;
  /** Chance that a grab starts a race: a client of another mirror grabs the same object within `oneWay` ms. */
  readonly grabRace: number;
  /** The synchronizers' time step (ms). */
  readonly tick: number;
  /** The board every mirror starts with (a fresh one each call); empty when absent. */
  readonly board?: () => BoardState;
}

export const DEFAULT_SIM: Omit<SimConfig, 'seed'> = {
  mirrors: 3,
  clientsPerMirror: 4,
  commands: 60,
  interval: 15,
  delays: [100, 1000],
  oneWay: 30,
  jitter: 40,
  duplicate: 0.1,
  grabRace: 0.5,
  tick: 10,
};

export interface SimMirror {
  readonly id: MirrorId;
  readonly tss: TrailingStateSync;
  /** What this mirror's clients were shown: every effect output applied in order. */
  readonly replica: Map<ObjectId, BoardObject>;
  readonly outputs: TssOutput[];
  /** What this mirror received, in order (its trace). */
  readonly received: TraceRecord[];
}

export interface SimResult {
  readonly mirrors: readonly SimMirror[];
  readonly commands: readonly MirrorCommand[];
  /** Grab races: the two grabs of one object, the first issued first. */
  readonly races: readonly (readonly [MirrorCommand, MirrorCommand])[];
  /** The time every synchronizer had passed every command. */
  readonly end: number;
}

type Event =
  | {
      readonly kind: 'issue';
      readonly mirror: MirrorId;
      readonly op?: CommandOp;
      readonly client?: PeerId;
      /** The grab this one races. */
      readonly race?: MirrorCommand;
    }
  | { readonly kind: 'deliver'; readonly mirror: MirrorId; readonly command: MirrorCommand };

interface Timed {
  readonly at: number;
  readonly n: number;
  readonly event: Event;
}

/** A replica's content hash, as a client would compute it. */
export function replicaHash(replica: Map<ObjectId, BoardObject>): string {
  const s = emptyBoard();
  for (const [id, o] of replica) s.objects.set(id, o);
  return hashBoard(s);
}

export function applyEffects(
  replica: Map<ObjectId, BoardObject>,
  effects: readonly BoardEffect[],
): void {
  for (const e of effects) {
    if (e.type === 'delete') replica.delete(e.id);
    else replica.set(e.object.id, e.object);
  }
}

export function simulate(config: SimConfig): SimResult {
  const rng = new Rng(config.seed);
  const mirrors: SimMirror[] = [];
  for (let id = 0; id < config.mirrors; id++)
    mirrors.push({
      id,
      tss: new TrailingStateSync(
        { self: id, delays: config.delays },
        (config.board ?? emptyBoard)(),
      ),
      replica: new Map((config.board ?? emptyBoard)().objects),
      outputs: [],
      received: [],
    });
  const queue: Timed[] = [];
  let n = 0;
  const schedule = (at: number, event: Event): void => {
    const t: Timed = { at, n: n++, event };
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = queue[mid];
      if (m !== undefined && (m.at < at || (m.at === at && m.n < t.n))) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, t);
  };
  const seqs = mirrors.map(() => 0);
  const lastIds = mirrors.map(() => 0);
  const lastStamps = mirrors.map(() => 0);
  const deleted = new Map<ObjectId, BoardObject>();
  const commands: MirrorCommand[] = [];
  const races: [MirrorCommand, MirrorCommand][] = [];
  let issued = 0;
  for (let m = 0; m < config.mirrors; m++)
    schedule(rng.int(config.interval * 2), { kind: 'issue', mirror: m });

  const clientOf = (m: MirrorId): PeerId =>
    m * config.clientsPerMirror + 1 + rng.int(config.clientsPerMirror);
  const drain = (m: SimMirror): void => {
    for (let o = m.tss.poll(); o !== undefined; o = m.tss.poll()) {
      m.outputs.push(o);
      if (o.type === 'effects') applyEffects(m.replica, o.effects);
    }
  };

  const issue = (at: number, m: SimMirror, op: CommandOp, client: PeerId): MirrorCommand => {
    const stamp = Math.max(at, lastStamps[m.id] ?? 0);
    lastStamps[m.id] = stamp;
    const command: MirrorCommand = { origin: m.id, seq: seqs[m.id] ?? 0, stamp, client, op };
    seqs[m.id] = command.seq + 1;
    commands.push(command);
    m.received.push({ arrival: at, command });
    m.tss.receive(at, command);
    drain(m);
    for (const other of mirrors) {
      if (other === m) continue;
      const when = at + config.oneWay + rng.int(config.jitter + 1);
      schedule(when, { kind: 'deliver', mirror: other.id, command });
      if (rng.bool(config.duplicate))
        schedule(when + rng.int(config.jitter + 1), { kind: 'deliver', mirror: other.id, command });
    }
    return command;
  };

  let t = 0;
  const step = (at: number): void => {
    for (; t < at; t += config.tick) for (const m of mirrors) m.tss.advance(t);
  };
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    step(next.at);
    const e = next.event;
    const m = mirrors[e.mirror];
    if (m === undefined) continue;
    if (e.kind === 'deliver') {
      if (m.tss.receive(next.at, e.command))
        m.received.push({ arrival: next.at, command: e.command });
      drain(m);
      continue;
    }
    const client = e.client ?? clientOf(m.id);
    const op =
      e.op ??
      pickOp(rng, m, client, deleted, () => {
        const id = allocateObjectId(m.id, m.tss.leading.nextId, lastIds[m.id] ?? 0);
        if (id !== undefined) lastIds[m.id] = id;
        return id;
      });
    if (op === undefined) continue;
    const command = issue(next.at, m, op, client);
    if (e.op === undefined) issued++;
    if (op.type === 'grab') {
      // The holder lets go a little later, somewhere near.
      schedule(next.at + 20 + rng.int(200), {
        kind: 'issue',
        mirror: m.id,
        client,
        op: { type: 'drop', id: op.id, x: rng.range(-500, 500), y: rng.range(-500, 500) },
      });
      if (e.race !== undefined) races.push([e.race, command]);
      if (e.client === undefined && config.mirrors > 1 && rng.bool(config.grabRace)) {
        const other = (m.id + 1 + rng.int(config.mirrors - 1)) % config.mirrors;
        schedule(next.at + rng.int(config.oneWay + 1), {
          kind: 'issue',
          mirror: other,
          client: clientOf(other),
          op: { type: 'grab', id: op.id },
          race: command,
        });
      }
    }
    if (op.type === 'delete') {
      const o = m.tss.leading.objects.get(op.id) ?? m.replica.get(op.id);
      if (o !== undefined) deleted.set(o.id, o);
    }
    if (issued < config.commands && e.op === undefined)
      schedule(next.at + 1 + rng.int(config.interval * 2), { kind: 'issue', mirror: m.id });
  }
  const end = t + Math.max(...config.delays) + config.oneWay * 2 + config.jitter * 2 + config.tick;
  step(end);
  for (const m of mirrors) {
    m.tss.advance(end);
    drain(m);
  }
  return { mirrors, commands, races, end };
}

/** An object's fields as a create or restore gives them. */
export function newFields(o: BoardObject): NewObject {
  const { kind, x, y, w, h, rotation, stroke, fill, strokeWidth, text, points, blob } = o;
  return { kind, x, y, w, h, rotation, stroke, fill, strokeWidth, text, points, blob };
}

const KINDS = ['rect', 'ellipse', 'note', 'text'] as const;

function newObject(rng: Rng): NewObject {
  return {
    kind: rng.pick(KINDS),
    x: rng.range(-1000, 1000),
    y: rng.range(-1000, 1000),
    w: rng.range(10, 300),
    h: rng.range(10, 300),
    rotation: 0,
    stroke: rng.int(0x1000000),
    fill: rng.bool() ? null : rng.int(0x1000000),
    strokeWidth: rng.range(1, 8),
    text: rng.bool(0.3) ? 'hi' : '',
    points: [],
    blob: '',
  };
}

/** An object of the board: a few probes of ids below the counter, else a pick of all (a large board is dense). */
function anyObject(rng: Rng, board: Readonly<BoardState>): BoardObject | undefined {
  for (let i = 0; i < 8; i++) {
    const o = board.objects.get(rng.range(1, Math.max(1, board.nextId - 1)));
    if (o !== undefined) return o;
  }
  return rng.pick([...board.objects.values()]);
}

/** A client's next command on what its mirror shows (its leading state), or undefined for nothing to do. */
export function pickOp(
  rng: Rng,
  m: { readonly tss: TrailingStateSync },
  client: PeerId,
  deleted: Map<ObjectId, BoardObject>,
  newId: () => ObjectId | undefined,
): CommandOp | undefined {
  const board = m.tss.leading;
  const roll = rng.next();
  const o = board.objects.size === 0 || roll < 0.25 ? undefined : anyObject(rng, board);
  if (o === undefined) {
    const id = newId();
    return id === undefined ? undefined : { type: 'create', id, fields: newObject(rng) };
  }
  if (roll < 0.45)
    return rng.bool()
      ? { type: 'patch', id: o.id, patch: { x: rng.range(-900, 900) } }
      : { type: 'patch', id: o.id, patch: { fill: rng.int(0x1000000), w: rng.range(1, 400) } };
  if (roll < 0.53) return { type: 'delete', id: o.id };
  if (roll < 0.6) {
    const gone = [...deleted.values()];
    if (gone.length === 0) return { type: 'restack', id: o.id, to: 'back' };
    const d = rng.pick(gone);
    return { type: 'restore', id: d.id, fields: newFields(d), z: d.z };
  }
  if (roll < 0.68) return { type: 'restack', id: o.id, to: rng.bool() ? 'front' : 'back' };
  if (roll < 0.72) return { type: 'pin', id: o.id, pinned: rng.bool(0.3) };
  if (roll < 0.76) return { type: 'chat', text: `line ${client}` };
  if (roll < 0.78) return { type: 'release' };
  return { type: 'grab', id: o.id };
}
