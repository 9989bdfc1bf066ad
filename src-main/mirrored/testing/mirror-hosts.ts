// Test kit: host sessions served from mirrors, in virtual time. N Mirrors (links, clock offsets, CRIMP, TSS) over
// the stack's SimNetwork with skewed, drifting clocks and lossy links between them; each backs a real HostSession
// (a MirrorExecutor) that real PeerSessions join over simulated links of their own; the joiners edit, delete,
// restack, restore and race each other's grabs across mirrors. Records every participant's events and each mirror's
// own commands (its trace). Not product code.
import type { BoardObject, NewObject, ObjectId, PeerId } from '../../../shared/board';
import type { PeerAddress } from '../../net/address';
import type { Impairment } from '../../net/impairment';
import { NO_IMPAIRMENT } from '../../net/impairment';
import { Rng } from '../../net/rng';
import { SimHarness } from '../../net/testing/harness';
import { SimNetwork } from '../../net/testing/network';
import { Mirror } from '../../mirror/mirror';
import {
  dialAddress,
  linkMirrors,
  listenAddress,
  simSides,
  skewedMirror,
} from '../../mirror/testing/mirror-mesh';
import type { TraceRecord } from '../../mirror/trace';
import { HostSession } from '../../session/host';
import { PeerSession } from '../../session/peer';
import type { SessionRate } from '../../session/connection-stack';
import type { ParticipantRelay } from '../../session/remote-roster';
import type { SessionEvent } from '../../session/session-events';
import { MirrorExecutor, peerIdsOf } from '../mirror-executor';
import { MirrorImages } from '../mirror-images';
import { PresenceRelay } from '../presence-relay';

export interface MirrorHostsConfig {
  readonly seed: number;
  readonly mirrors: number;
  readonly joinersPerMirror: number;
  /** Commands the joiners issue in all (racing grabs and the drops that end grabs come on top). */
  readonly commands: number;
  /** Mean ms between two commands of one mirror's joiners. */
  readonly interval: number;
  readonly delays: readonly number[];
  /** Each direction between two mirrors. */
  readonly link: Impairment;
  /** Each direction between a joiner and its mirror. */
  readonly access: Impairment;
  /** Chance that a grab is raced by a joiner of another mirror within `raceMs`. */
  readonly grabRace: number;
  readonly raceMs: number;
  readonly maxOffsetMs: number;
  readonly maxDrift: number;
  /**
   * Relay each host's participants (roster and presence) to the others: in-process ('loopback', ids mapped through
   * the group's), or as the product does, ghosted over the mirror links by each mirror's presence ('presence').
   */
  readonly relay?: 'loopback' | 'presence';
  /** The hosts' and joiners' session rate (default: the sessions' own, broadband). */
  readonly rate?: SessionRate;
  /** Participants each host takes (default: the host's own, 256). */
  readonly maxPeers?: number;
  /** Send each host's images to the other mirrors over the links (mirror-images.ts), as the product does. */
  readonly images?: boolean;
}

export const DEFAULT_MIRROR_HOSTS: Omit<MirrorHostsConfig, 'seed'> = {
  mirrors: 3,
  joinersPerMirror: 2,
  commands: 60,
  interval: 60,
  delays: [100, 1000],
  link: { ...NO_IMPAIRMENT, delayMs: 30, jitterMs: 10, loss: 0.05, reorder: 0.05, duplicate: 0.02 },
  access: { ...NO_IMPAIRMENT, delayMs: 5, jitterMs: 3, loss: 0.02 },
  grabRace: 0.6,
  raceMs: 30,
  maxOffsetMs: 500,
  maxDrift: 50e-6,
};

export interface Joiner {
  readonly mirror: number;
  readonly peer: PeerSession;
  readonly events: SessionEvent[];
}

export interface ServedMirror {
  readonly id: number;
  readonly mirror: Mirror;
  readonly executor: MirrorExecutor;
  readonly host: HostSession;
  /** The host's participant relay over the mirror's presence (relay 'presence'), pumped after the mirror's calls. */
  readonly presence: PresenceRelay | undefined;
  readonly hostEvents: SessionEvent[];
  readonly joiners: Joiner[];
  /** Every command this mirror received, its own at their stamp. */
  readonly trace: TraceRecord[];
  /** Its images between the mirrors (config `images`). */
  readonly images: MirrorImages | undefined;
}

/** A joiner's grab of an object: the how-many-th of its grabs of that object, and how many events it had then. */
export interface SentGrab {
  readonly joiner: Joiner;
  readonly index: number;
  readonly eventsBefore: number;
}

/** A grab a joiner sent, and the one of another mirror's joiner that raced it. */
export interface Race {
  readonly id: ObjectId;
  readonly first: SentGrab;
  readonly second: SentGrab;
}

export interface MirrorHostsRun {
  readonly sim: SimHarness;
  readonly mirrors: readonly ServedMirror[];
  readonly races: readonly Race[];
  /** Whether the mirrors linked and every joiner joined before the edits began. */
  readonly ready: boolean;
}

const hostAddress = (m: number): PeerAddress => ({ address: `10.2.0.${m + 1}`, port: 7350 });
const joinerAddress = (m: number, j: number): PeerAddress => ({
  address: `10.3.${m + 1}.${j + 1}`,
  port: 9000,
});
const CODE = 'MIRRO-RHOST1';

/** The mirrors and their hosts on one simulated network, linked (or linking), before anyone joined. */
export interface ServedMirrors {
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly rng: Rng;
  readonly mirrors: readonly ServedMirror[];
}

/**
 * Builds `config.mirrors` mirror-backed hosts on a new simulated network and starts linking them; their sessions'
 * afterIo and tick run on the harness, the joiners' too as joinMirror adds them.
 */
export function serveMirrorHosts(config: MirrorHostsConfig): ServedMirrors {
  const rng = new Rng(config.seed);
  const net = new SimNetwork(new Rng(config.seed ^ 0x6d1f), NO_IMPAIRMENT);
  net.logging = false;
  const sim = new SimHarness(net);
  const ids = Array.from({ length: config.mirrors }, (_, i) => i);
  linkMirrors(net, ids, config.link);
  const mirrors: ServedMirror[] = [];
  for (const id of ids) mirrors.push(serve(config, rng, sim, id, ids, mirrors));
  // Each host's own user, announced before the others were there to hear it.
  if (config.relay === 'loopback')
    for (const m of mirrors) {
      const me = m.host.participants[0];
      if (me !== undefined)
        relayTo(mirrors, m, (to, peer) => to.host.remote.joined({ ...me, peer }), 0);
    }
  for (const m of mirrors)
    for (let to = 0; to < m.id; to++) m.mirror.node.connect(0, listenAddress(to));
  sim.every(5, (now) => {
    for (const m of mirrors) {
      m.host.afterIo(now);
      for (const j of m.joiners) j.peer.afterIo(now);
    }
  });
  sim.every(100, (now) => {
    for (const m of mirrors) {
      m.images?.tick(now);
      m.host.tick(now);
      for (const j of m.joiners) j.peer.tick(now);
    }
  });
  return { net, sim, rng, mirrors };
}

/** A joiner of mirror `m` (its k-th: k picks its address), over an access link of `config.access`, joining now. */
export function joinMirror(
  served: ServedMirrors,
  config: Pick<MirrorHostsConfig, 'access' | 'rate'>,
  m: ServedMirror,
  k: number,
): Joiner {
  const { sim, net } = served;
  const peer = new PeerSession(
    {
      name: `J${m.id}.${k}`,
      joinCode: CODE,
      ...(config.rate === undefined ? {} : { rate: config.rate }),
    },
    sim.now,
  );
  const events: SessionEvent[] = [];
  peer.on((e) => events.push(e));
  const at = joinerAddress(m.id, k);
  sim.add(at, peer.endpoint);
  net.setConditions(at, hostAddress(m.id), config.access);
  net.setConditions(hostAddress(m.id), at, config.access);
  peer.connect(sim.now, hostAddress(m.id));
  const j = { mirror: m.id, peer, events };
  m.joiners.push(j);
  return j;
}

export function runMirrorHosts(config: MirrorHostsConfig): MirrorHostsRun {
  const served = serveMirrorHosts(config);
  const { sim, rng, mirrors } = served;
  for (const m of mirrors)
    for (let k = 0; k < config.joinersPerMirror; k++) joinMirror(served, config, m, k);
  const joiners = mirrors.flatMap((m) => m.joiners);
  const ready = sim.runUntilTrue(
    () =>
      mirrors.every((m) => m.mirror.node.links.linked().length === config.mirrors - 1) &&
      joiners.every((j) => j.peer.peerId !== undefined),
    10_000,
  );
  // A few clock exchanges before anyone stamps a command.
  sim.runUntil(sim.now + 2_000);
  const races = edit(config, rng, sim, mirrors);
  // Quiet until every trailing state is past every command and every ghost has arrived.
  sim.runUntil(sim.now + Math.max(...config.delays) + 4_000);
  return { sim, mirrors, races, ready };
}

/** A mirror and the host session it backs, on the harness. */
function serve(
  config: MirrorHostsConfig,
  rng: Rng,
  sim: SimHarness,
  id: number,
  ids: readonly number[],
  among: readonly ServedMirror[],
): ServedMirror {
  const trace: TraceRecord[] = [];
  const images = config.images === true ? new MirrorImages() : undefined;
  const mirror = skewedMirror(config, rng, id, ids, trace, images === undefined ? [] : [images]);
  let executor: MirrorExecutor | undefined;
  // The host announces its own user as it is made, before there is anything to relay it from: the caller does.
  const made: { served?: ServedMirror } = {};
  const presence =
    config.relay === 'presence' ? new PresenceRelay(mirror.presence, peerIdsOf(id)) : undefined;
  const relay = config.relay === 'loopback' ? loopbackRelay(among, () => made.served) : presence;
  const host = new HostSession(
    {
      name: `Mirror ${id}`,
      joinCode: CODE,
      executor: (board) => (executor = new MirrorExecutor(mirror, board)),
      ...(relay === undefined ? {} : { relay }),
      ...(config.rate === undefined ? {} : { rate: config.rate }),
      ...(config.maxPeers === undefined ? {} : { maxPeers: config.maxPeers }),
    },
    0,
  );
  if (executor === undefined) throw new Error('the host made no executor');
  const exec = executor;
  const me = host.participants[0];
  if (presence !== undefined && me !== undefined) presence.joined(me);
  const pump = (): void => {
    exec.pump();
    presence?.pump(host.remote);
  };
  const hostEvents: SessionEvent[] = [];
  host.on((e) => hostEvents.push(e));
  images?.serve(host.images, 0);
  sim.add(hostAddress(id), host.endpoint);
  // What the mirror hears from the group reaches the host as soon as it is heard.
  const sides = simSides({
    handleDatagram: (now, side, from, bytes) => {
      mirror.handleDatagram(now, side, from, bytes);
      pump();
    },
    handleTimeout: (now) => {
      mirror.handleTimeout(now);
      pump();
    },
    nextTimeout: () => mirror.nextTimeout(),
    pollTransmit: (side) => mirror.pollTransmit(side),
  });
  sim.add(listenAddress(id), sides.listener);
  sim.add(dialAddress(id), sides.dialer);
  const served: ServedMirror = {
    id,
    mirror,
    executor: exec,
    host,
    presence,
    hostEvents,
    joiners: [],
    trace,
    images,
  };
  made.served = served;
  return served;
}

/** Calls `show` on every other mirror with the participant's id there (its id here is `peer`). */
function relayTo(
  mirrors: readonly ServedMirror[],
  from: ServedMirror | undefined,
  show: (to: ServedMirror, peer: PeerId) => void,
  peer: PeerId,
): void {
  if (from === undefined) return;
  const group = from.executor.ids.toGroup(peer);
  for (const to of mirrors) if (to !== from) show(to, to.executor.ids.toLocal(group));
}

/** A participant relay that hands one host's participants straight to the other hosts' remote rosters. */
function loopbackRelay(
  mirrors: readonly ServedMirror[],
  self: () => ServedMirror | undefined,
): ParticipantRelay {
  return {
    joined: (p) =>
      relayTo(mirrors, self(), (to, peer) => to.host.remote.joined({ ...p, peer }), p.peer),
    left: (peer, reason, detail) =>
      relayTo(mirrors, self(), (to, there) => to.host.remote.left(there, reason, detail), peer),
    presence: (peer, state) =>
      relayTo(
        mirrors,
        self(),
        (to, there) => to.host.remote.presence(there, { ...state, peer: there }),
        peer,
      ),
  };
}

/** The joiners' random edits, in virtual time; returns the grab races. */
function edit(
  config: MirrorHostsConfig,
  rng: Rng,
  sim: SimHarness,
  mirrors: readonly ServedMirror[],
): Race[] {
  const races: Race[] = [];
  /** What each joiner deleted (only the deleter may restore). */
  const deleted = new Map<Joiner, ObjectId[]>();
  const grabs = new Map<string, number>();
  let issued = 0;
  const grab = (j: Joiner, id: ObjectId): SentGrab => {
    const key = `${j.mirror}/${j.peer.options.name}/${id}`;
    const index = grabs.get(key) ?? 0;
    grabs.set(key, index + 1);
    const sent = { joiner: j, index, eventsBefore: j.events.length };
    j.peer.grab(id);
    sim.after(20 + rng.int(200), () => {
      j.peer.drop(id, rng.range(-500, 500), rng.range(-500, 500));
    });
    return sent;
  };
  const act = (j: Joiner): void => {
    const op = pick(rng, j, deleted.get(j) ?? []);
    switch (op.type) {
      case 'create':
        j.peer.create(op.fields);
        break;
      case 'edit':
        j.peer.edit(op.id, op.patch);
        break;
      case 'delete':
        j.peer.remove(op.id);
        deleted.set(j, [...(deleted.get(j) ?? []), op.id]);
        break;
      case 'restore':
        j.peer.restore(op.id);
        break;
      case 'restack':
        j.peer.restack(op.id, op.front);
        break;
      case 'grab': {
        const first = grab(j, op.id);
        const others = mirrors.filter((m) => m.id !== j.mirror);
        if (others.length > 0 && rng.bool(config.grabRace)) {
          const rival = rng.pick(rng.pick(others).joiners);
          sim.after(rng.int(config.raceMs + 1), () => {
            races.push({ id: op.id, first, second: grab(rival, op.id) });
          });
        }
        break;
      }
    }
  };
  for (const m of mirrors) {
    const next = (): void => {
      if (issued >= config.commands) return;
      issued++;
      act(rng.pick(m.joiners));
      sim.after(1 + rng.int(config.interval * 2), next);
    };
    sim.after(rng.int(config.interval * 2), next);
  }
  // Every command issued and every grab's drop sent.
  sim.runUntilTrue(
    () => issued >= config.commands,
    sim.now + config.commands * config.interval * 4,
  );
  sim.runUntil(sim.now + config.raceMs + 400);
  return races;
}

type Op =
  | { readonly type: 'create'; readonly fields: NewObject }
  | {
      readonly type: 'edit';
      readonly id: ObjectId;
      readonly patch: Partial<Pick<BoardObject, 'x' | 'fill' | 'w'>>;
    }
  | { readonly type: 'delete' | 'restore' | 'grab'; readonly id: ObjectId }
  | { readonly type: 'restack'; readonly id: ObjectId; readonly front: boolean };

/** A joiner's next command on what its board shows. */
function pick(rng: Rng, j: Joiner, gone: readonly ObjectId[]): Op {
  const objects = j.peer.board.all();
  const roll = rng.next();
  if (objects.length < 3 || roll < 0.2) return { type: 'create', fields: newObject(rng) };
  const o: BoardObject = rng.pick(objects);
  if (roll < 0.45)
    return rng.bool()
      ? { type: 'edit', id: o.id, patch: { x: rng.range(-900, 900) } }
      : { type: 'edit', id: o.id, patch: { fill: rng.int(0x1000000), w: rng.range(1, 400) } };
  if (roll < 0.55) return { type: 'delete', id: o.id };
  if (roll < 0.6 && gone.length > 0) return { type: 'restore', id: rng.pick(gone) };
  if (roll < 0.7) return { type: 'restack', id: o.id, front: rng.bool() };
  return { type: 'grab', id: o.id };
}

function newObject(rng: Rng): NewObject {
  return {
    kind: rng.pick(['rect', 'ellipse', 'note'] as const),
    x: rng.range(-1000, 1000),
    y: rng.range(-1000, 1000),
    w: rng.range(10, 300),
    h: rng.range(10, 300),
    rotation: 0,
    stroke: rng.int(0x1000000),
    fill: rng.bool() ? null : rng.int(0x1000000),
    strokeWidth: rng.range(1, 8),
    text: '',
    points: [],
    blob: '',
  };
}

/** The joiner's participant id (it joined). */
export function peerIdOf(j: Joiner): PeerId {
  const id = j.peer.peerId;
  if (id === undefined) throw new Error('the joiner never joined');
  return id;
}
