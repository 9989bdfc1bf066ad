// Test kit: a mirror group whole — N Mirrors (links, clock offsets, CRIMP, TSS) over the stack's SimNetwork in
// virtual time, each with skewed, drifting clocks and its own clients, who edit what their mirror's leading state
// shows them (the random commands of sim.ts, with grab races between mirrors). Each mirror's client replica
// applies what the mirror puts out, as its host would pass it on, rollbacks included. Not product code.
import type { BoardObject, ObjectId, PeerId } from '../../../shared/board';
import type { Impairment } from '../../net/impairment';
import { NO_IMPAIRMENT } from '../../net/impairment';
import { Rng } from '../../net/rng';
import { SimHarness } from '../../net/testing/harness';
import { SimNetwork } from '../../net/testing/network';
import type { CommandOp, MirrorCommand } from '../command';
import type { MirrorId } from '../mirror-id';
import { Mirror } from '../mirror';
import type { TraceRecord } from '../trace';
import type { TssOutput } from '../tss';
import { dialAddress, linkMirrors, listenAddress, simSides, skewedMirror } from './mirror-mesh';
import { applyEffects, pickOp } from './sim';

export interface GroupConfig {
  readonly seed: number;
  readonly mirrors: number;
  readonly clientsPerMirror: number;
  /** Commands the clients issue in all (drops that end grabs and racing grabs come on top). */
  readonly commands: number;
  /** Mean ms between two commands of one mirror's clients. */
  readonly interval: number;
  readonly delays: readonly number[];
  /** Each direction between two mirrors. */
  readonly link: Impairment;
  /** Chance that a grab is raced by a client of another mirror within `raceMs`. */
  readonly grabRace: number;
  readonly raceMs: number;
  readonly maxOffsetMs: number;
  readonly maxDrift: number;
}

export const DEFAULT_GROUP: Omit<GroupConfig, 'seed'> = {
  mirrors: 3,
  clientsPerMirror: 4,
  commands: 80,
  interval: 20,
  delays: [100, 1000],
  link: {
    ...NO_IMPAIRMENT,
    delayMs: 30,
    jitterMs: 10,
    loss: 0.05,
    reorder: 0.05,
    duplicate: 0.02,
  },
  grabRace: 0.5,
  raceMs: 30,
  maxOffsetMs: 500,
  maxDrift: 50e-6,
};

export interface GroupMirror {
  readonly id: MirrorId;
  readonly mirror: Mirror;
  /** What this mirror's clients were shown: every effect it put out, applied in order. */
  readonly replica: Map<ObjectId, BoardObject>;
  readonly outputs: TssOutput[];
  readonly trace: TraceRecord[];
}

export interface GroupRun {
  readonly sim: SimHarness;
  readonly mirrors: readonly GroupMirror[];
  /** Every command the mirrors took from their clients. */
  readonly commands: readonly MirrorCommand[];
  /** Grab races: the two grabs of one object (the first issued first). */
  readonly races: readonly (readonly [MirrorCommand, MirrorCommand])[];
  /** Whether every mirror linked to every other before the clients began. */
  readonly linked: boolean;
}

/** Runs the group: links up, the clients' commands, then quiet until every trailing state is past them all. */
export function runGroup(config: GroupConfig): GroupRun {
  const rng = new Rng(config.seed);
  const net = new SimNetwork(new Rng(config.seed ^ 0x5a17), NO_IMPAIRMENT);
  const sim = new SimHarness(net);
  const ids = Array.from({ length: config.mirrors }, (_, i) => i);
  linkMirrors(net, ids, config.link);
  const mirrors: GroupMirror[] = ids.map((id) => {
    const trace: TraceRecord[] = [];
    const mirror = skewedMirror(config, rng, id, ids, trace);
    const sides = simSides(mirror);
    sim.add(listenAddress(id), sides.listener);
    sim.add(dialAddress(id), sides.dialer);
    return { id, mirror, replica: new Map(), outputs: [], trace };
  });
  for (const m of mirrors)
    for (let to = 0; to < m.id; to++) m.mirror.node.connect(0, listenAddress(to));
  const linked = sim.runUntilTrue(
    () => mirrors.every((m) => m.mirror.node.links.linked().length === ids.length - 1),
    10_000,
  );
  // A few clock exchanges before anyone stamps a command.
  sim.runUntil(sim.now + 2_000);

  const drain = (m: GroupMirror): void => {
    for (let o = m.mirror.poll(); o !== undefined; o = m.mirror.poll()) {
      m.outputs.push(o);
      if (o.type === 'effects') applyEffects(m.replica, o.effects);
    }
  };
  const commands: MirrorCommand[] = [];
  const races: [MirrorCommand, MirrorCommand][] = [];
  const deleted = new Map<ObjectId, BoardObject>();
  const clientOf = (m: MirrorId): PeerId =>
    m * config.clientsPerMirror + 1 + rng.int(config.clientsPerMirror);

  const submit = (m: GroupMirror, client: PeerId, op: CommandOp): MirrorCommand | undefined => {
    if (op.type === 'delete') {
      const o = m.mirror.tss.leading.objects.get(op.id);
      if (o !== undefined) deleted.set(o.id, o);
    }
    const r = m.mirror.submit(sim.now, client, op);
    drain(m);
    if (!r.ok) return undefined;
    commands.push(r.command);
    return r.command;
  };

  type Due = { at: number; run: () => void };
  const due: Due[] = [];
  const later = (at: number, run: () => void): void => {
    due.push({ at, run });
  };
  let issued = 0;
  const issue = (m: GroupMirror): void => {
    if (issued >= config.commands) return;
    issued++;
    const client = clientOf(m.id);
    const op = pickOp(rng, m.mirror, client, deleted, () => m.mirror.newObjectId());
    const command = op === undefined ? undefined : submit(m, client, op);
    if (command?.op.type === 'grab') {
      const id = command.op.id;
      later(sim.now + 20 + rng.int(200), () => {
        submit(m, client, { type: 'drop', id, x: rng.range(-500, 500), y: rng.range(-500, 500) });
      });
      if (config.mirrors > 1 && rng.bool(config.grabRace)) {
        const other = mirrors[(m.id + 1 + rng.int(config.mirrors - 1)) % config.mirrors];
        if (other !== undefined) {
          const rival = clientOf(other.id);
          later(sim.now + rng.int(config.raceMs + 1), () => {
            const raced = submit(other, rival, { type: 'grab', id });
            if (raced !== undefined) races.push([command, raced]);
            later(sim.now + 20 + rng.int(200), () => {
              submit(other, rival, { type: 'drop', id, x: rng.range(-500, 500), y: 0 });
            });
          });
        }
      }
    }
    later(sim.now + 1 + rng.int(config.interval * 2), () => {
      issue(m);
    });
  };
  for (const m of mirrors) later(sim.now + rng.int(config.interval * 2), () => issue(m));

  // The clients act between the network's events, in time order; the mirrors' outputs are drained as they come.
  for (let step = 0; step < 1_000_000 && due.length > 0; step++) {
    due.sort((a, b) => a.at - b.at);
    const next = due.shift();
    if (next === undefined) break;
    sim.runUntil(next.at);
    for (const m of mirrors) drain(m);
    next.run();
  }
  const last = Math.max(...config.delays);
  for (let t = 0; t < last + 3_000; t += 100) {
    sim.runUntil(sim.now + 100);
    for (const m of mirrors) drain(m);
  }
  return { sim, mirrors, commands, races, linked };
}
