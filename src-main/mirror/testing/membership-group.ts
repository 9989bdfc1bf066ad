// Test kit: a mirror group whose membership changes while its clients edit — founders with agreed membership, a
// joiner (or two at once) dialling one member mid-session and taking the board, and a mirror killed without a
// goodbye (taken off the network) or stopped cleanly later — over the stack's SimNetwork in virtual time, with
// skewed, drifting clocks and lossy, jittery links. Each mirror's client replica applies what it puts out (a
// joiner's starts from the board it took). Not product code.
import type { BoardObject, ObjectId, PeerId } from '../../../shared/board';
import type { Impairment } from '../../net/impairment';
import { Rng } from '../../net/rng';
import { SimHarness } from '../../net/testing/harness';
import { SimNetwork } from '../../net/testing/network';
import type { CommandOp, MirrorCommand } from '../command';
import type { View } from '../group-wire';
import type { MembershipEvent } from '../membership';
import { Mirror } from '../mirror';
import type { TraceRecord } from '../trace';
import { DEFAULT_GROUP } from './mirror-group';
import { dialAddress, listenAddress, MESH_SECRET, simSides } from './mirror-mesh';
import { applyEffects, pickOp } from './sim';

export interface MembershipRunConfig {
  readonly seed: number;
  /** Founding mirrors (ids 0..founders-1). */
  readonly founders: number;
  /** Mirrors that join, each at `joinAt` (ms of editing) dialling a founder drawn at random. */
  readonly joiners: number;
  readonly joinAt: number;
  /** When a mirror drawn at random among the live ones stops (ms of editing), and how. */
  readonly stopAt: number | undefined;
  readonly stop: 'silent' | 'close';
  /** A second mirror killed silently this long after the first stop (a view change may be under way). */
  readonly alsoStopAfter?: number;
  readonly clientsPerMirror: number;
  /** Mean ms between two commands of one mirror's clients; and how long the clients edit (ms). */
  readonly interval: number;
  readonly editMs: number;
  readonly delays: readonly number[];
  readonly link: Impairment;
  readonly maxOffsetMs: number;
  readonly maxDrift: number;
  /** A board the founders start with (the same for each). */
  readonly board?: () => import('../../board').BoardState;
}

export const DEFAULT_MEMBERSHIP_RUN: Omit<MembershipRunConfig, 'seed'> = {
  founders: 2,
  joiners: 1,
  joinAt: 1_500,
  stopAt: 6_000,
  stop: 'silent',
  clientsPerMirror: 3,
  interval: 40,
  editMs: 12_000,
  delays: DEFAULT_GROUP.delays,
  link: DEFAULT_GROUP.link,
  maxOffsetMs: DEFAULT_GROUP.maxOffsetMs,
  maxDrift: DEFAULT_GROUP.maxDrift,
};

export interface RunMirror {
  /** Its place in the run (its addresses); its group id may differ for a joiner. */
  readonly slot: number;
  readonly mirror: Mirror;
  /** What its clients were shown; a joiner's from the board it took. */
  readonly replica: Map<ObjectId, BoardObject>;
  readonly trace: TraceRecord[];
  readonly events: MembershipEvent[];
  /** When each event came out (virtual ms, as drained). */
  readonly eventTimes: number[];
  /** When a joiner dialled. */
  joinedAt: number | undefined;
  /** Taken off the network (killed) or closed at this time. */
  stoppedAt: number | undefined;
  /** Its clients' replica was seeded from the leading state once it served. */
  seeded: boolean;
}

export interface MembershipRun {
  readonly sim: SimHarness;
  readonly mirrors: readonly RunMirror[];
  readonly commands: readonly MirrorCommand[];
  /** The mirror that stopped, if one did; and the second, if one did. */
  readonly stopped: RunMirror | undefined;
  readonly alsoStopped: RunMirror | undefined;
}

export function runMembership(config: MembershipRunConfig): MembershipRun {
  const rng = new Rng(config.seed);
  const net = new SimNetwork(new Rng(config.seed ^ 0x5a17), config.link);
  const sim = new SimHarness(net);
  const founders = Array.from({ length: config.founders }, (_, i) => i);
  const view: View = {
    number: 0,
    members: founders.map((id) => ({ id, address: listenAddress(id) })),
    nextId: config.founders,
  };
  const mirrors: RunMirror[] = [];
  const make = (slot: number, founder: boolean): RunMirror => {
    const offset = (rng.next() * 2 - 1) * config.maxOffsetMs;
    const drift = (rng.next() * 2 - 1) * config.maxDrift;
    const trace: TraceRecord[] = [];
    const mirror = new Mirror({
      self: founder ? slot : undefined,
      members: [],
      secret: MESH_SECRET,
      rng: new Rng(config.seed * 64 + slot),
      now: sim.now,
      clock: (now) => offset + now * (1 + drift),
      delays: config.delays,
      record: (r) => trace.push(r),
      group: founder ? { view } : { join: { listenPort: listenAddress(slot).port } },
      ...(founder && config.board !== undefined ? { board: config.board() } : {}),
    });
    const sides = simSides(mirror);
    sim.add(listenAddress(slot), sides.listener);
    sim.add(dialAddress(slot), sides.dialer);
    const m: RunMirror = {
      slot,
      mirror,
      replica: new Map(founder && config.board !== undefined ? config.board().objects : []),
      trace,
      events: [],
      eventTimes: [],
      joinedAt: undefined,
      stoppedAt: undefined,
      seeded: founder,
    };
    mirrors.push(m);
    return m;
  };
  for (const id of founders) make(id, true);
  for (const m of mirrors)
    for (let to = 0; to < m.slot; to++) m.mirror.node.connect(sim.now, listenAddress(to));
  sim.runUntilTrue(
    () => mirrors.every((m) => m.mirror.node.links.linked().length === founders.length - 1),
    10_000,
  );
  // A few clock exchanges before anyone stamps a command.
  sim.runUntil(sim.now + 2_000);
  const start = sim.now;

  const live = (m: RunMirror): boolean => m.stoppedAt === undefined;
  const drain = (m: RunMirror): void => {
    for (let e = m.mirror.pollGroupEvent(); e !== undefined; e = m.mirror.pollGroupEvent()) {
      m.events.push(e);
      m.eventTimes.push(sim.now);
    }
    if (!m.seeded && m.mirror.ready) {
      m.seeded = true;
      for (const [id, o] of m.mirror.tss.leading.objects) m.replica.set(id, o);
    }
    for (let o = m.mirror.poll(); o !== undefined; o = m.mirror.poll())
      if (o.type === 'effects') applyEffects(m.replica, o.effects);
  };
  const commands: MirrorCommand[] = [];
  const deleted = new Map<ObjectId, BoardObject>();
  const submit = (m: RunMirror, client: PeerId, op: CommandOp): void => {
    const r = m.mirror.submit(sim.now, client, op);
    drain(m);
    if (r.ok) commands.push(r.command);
  };

  type Due = { at: number; run: () => void };
  const due: Due[] = [];
  const later = (at: number, run: () => void): void => {
    due.push({ at, run });
  };
  const issue = (m: RunMirror): void => {
    if (sim.now >= start + config.editMs || !live(m)) return;
    const self = m.mirror.self;
    if (m.mirror.ready && self !== undefined) {
      const client = self * config.clientsPerMirror + 1 + rng.int(config.clientsPerMirror);
      const op = pickOp(rng, m.mirror, client, deleted, () => m.mirror.newObjectId());
      if (op?.type === 'delete') {
        const o = m.mirror.tss.leading.objects.get(op.id);
        if (o !== undefined) deleted.set(o.id, o);
      }
      if (op !== undefined) submit(m, client, op);
      if (op?.type === 'grab') {
        const id = op.id;
        later(sim.now + 20 + rng.int(200), () => {
          if (live(m)) submit(m, client, { type: 'drop', id, x: rng.range(-500, 500), y: 0 });
        });
      }
    }
    later(sim.now + 1 + rng.int(config.interval * 2), () => {
      issue(m);
    });
  };
  for (const m of mirrors) later(start + rng.int(config.interval * 2), () => issue(m));
  later(start + config.joinAt, () => {
    for (let j = 0; j < config.joiners; j++) {
      const m = make(config.founders + j, false);
      m.mirror.join(sim.now, listenAddress(rng.int(config.founders)));
      m.joinedAt = sim.now;
      later(sim.now + 1, () => issue(m));
    }
  });
  let stopped: RunMirror | undefined;
  let alsoStopped: RunMirror | undefined;
  const kill = (how: 'silent' | 'close'): RunMirror | undefined => {
    const candidates = mirrors.filter((m) => live(m) && m.mirror.ready);
    const m = candidates[rng.int(candidates.length)];
    if (m === undefined) return undefined;
    m.stoppedAt = sim.now;
    if (how === 'close') {
      m.mirror.close(sim.now);
      sim.flush();
    }
    sim.remove(listenAddress(m.slot));
    sim.remove(dialAddress(m.slot));
    return m;
  };
  const stopAt = config.stopAt;
  const alsoAfter = config.alsoStopAfter;
  if (stopAt !== undefined) {
    later(start + stopAt, () => {
      stopped = kill(config.stop);
    });
    if (alsoAfter !== undefined)
      later(start + stopAt + alsoAfter, () => {
        alsoStopped = kill('silent');
      });
  }

  // The clients act between the network's events, in time order; the mirrors' outputs are drained as they come.
  for (let step = 0; step < 1_000_000 && due.length > 0; step++) {
    due.sort((a, b) => a.at - b.at);
    const next = due.shift();
    if (next === undefined) break;
    sim.runUntil(next.at);
    for (const m of mirrors) if (live(m)) drain(m);
    next.run();
  }
  // Quiet: past CRIMP's silence timeout, a view change, and the last trailing state.
  const quiet = 5_000 + 3_000 + Math.max(...config.delays) + 2_000;
  for (let t = 0; t < quiet; t += 100) {
    sim.runUntil(sim.now + 100);
    for (const m of mirrors) if (live(m)) drain(m);
  }
  return { sim, mirrors, commands, stopped, alsoStopped };
}
