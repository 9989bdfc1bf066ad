// Test kit: a mirror group (Mirrors over the stack's SimNetwork in virtual time, skewed clocks, impaired links)
// whose clients move their pointers at 60 Hz and drag objects of their own: the grab and the drop are commands
// (TSS), the positions in between are presence (ghosts). Each mirror's host side is a view of the other mirrors'
// participants, built only from what the mirror's presence polls out. Pointer x only grows, so a view that ever
// sees it shrink was given stale state. Not product code.
import type { NewObject, ObjectId, PeerId } from '../../../shared/board';
import type { Impairment } from '../../net/impairment';
import { NO_IMPAIRMENT } from '../../net/impairment';
import { Rng } from '../../net/rng';
import { SimHarness } from '../../net/testing/harness';
import { SimNetwork } from '../../net/testing/network';
import type { MirrorId } from '../mirror-id';
import { Mirror } from '../mirror';
import type { PresenceChange } from '../mirror-presence';
import type { ParticipantState } from '../participant';
import { blankParticipant, copyParticipantFields } from '../participant';
import { dialAddress, listenAddress, MESH_SECRET, simSides } from './mirror-mesh';

export interface PresenceGroupConfig {
  readonly seed: number;
  readonly mirrors: number;
  readonly clientsPerMirror: number;
  /** Each direction between two mirrors. */
  readonly link: Impairment;
  readonly maxOffsetMs: number;
  readonly maxDrift: number;
  /** How long the clients move (ms), at `pointerHz`. */
  readonly moveMs: number;
  readonly pointerHz: number;
  /** Chance per tick that an idle client grabs its object; a drag lasts 10 to 60 ticks. */
  readonly dragChance: number;
}

export const DEFAULT_PRESENCE_GROUP: Omit<PresenceGroupConfig, 'seed'> = {
  mirrors: 3,
  clientsPerMirror: 4,
  link: {
    ...NO_IMPAIRMENT,
    delayMs: 30,
    jitterMs: 10,
    loss: 0.05,
    reorder: 0.05,
    duplicate: 0.02,
  },
  maxOffsetMs: 500,
  maxDrift: 50e-6,
  moveMs: 3_000,
  pointerHz: 60,
  dragChance: 0.05,
};

/** One of a mirror's clients as the test drives it. */
export interface SimClient {
  readonly id: PeerId;
  /** Its own object, which only it drags (no lock races: every drop lands). */
  object: ObjectId;
  /** Ticks left in the drag in progress (0: not dragging). */
  dragLeft: number;
  /** Where it last dropped its object. */
  dropped: { x: number; y: number } | undefined;
  pointerUpdates: number;
}

export interface PresenceMirror {
  readonly id: MirrorId;
  readonly mirror: Mirror;
  readonly clients: SimClient[];
  /** The other mirrors' participants as this mirror's host was told them, by `origin:client`. */
  readonly view: Map<string, ParticipantState>;
  /** Changes polled, by type, and views given an older pointer than they had (must stay 0). */
  readonly told: { appeared: number; changed: number; gone: number; linkDown: number };
  stale: number;
  /** Commands this mirror's clients submitted. */
  commands: number;
}

export const viewKey = (origin: MirrorId, client: PeerId): string => `${origin}:${client}`;

/** A board object of one client's, somewhere near the origin. */
function objectFor(rng: Rng): NewObject {
  return {
    kind: 'rect',
    x: rng.range(-500, 500),
    y: rng.range(-500, 500),
    w: 40,
    h: 30,
    rotation: 0,
    stroke: 0,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [],
    blob: '',
  };
}

export class PresenceGroup {
  readonly rng: Rng;
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly mirrors: PresenceMirror[];
  readonly linked: boolean;

  constructor(readonly config: PresenceGroupConfig) {
    this.rng = new Rng(config.seed);
    this.net = new SimNetwork(new Rng(config.seed ^ 0x9e37), NO_IMPAIRMENT);
    this.net.logging = false;
    this.sim = new SimHarness(this.net);
    const ids = Array.from({ length: config.mirrors }, (_, i) => i);
    for (const a of ids) for (const b of ids) if (a !== b) this.setLink(a, b, config.link);
    this.mirrors = ids.map((id) => {
      const offset = (this.rng.next() * 2 - 1) * config.maxOffsetMs;
      const drift = (this.rng.next() * 2 - 1) * config.maxDrift;
      const mirror = new Mirror({
        self: id,
        members: ids,
        secret: MESH_SECRET,
        rng: new Rng(config.seed * 64 + id),
        now: 0,
        clock: (now) => offset + now * (1 + drift),
        delays: [100, 1000],
      });
      const sides = simSides(mirror);
      this.sim.add(listenAddress(id), sides.listener);
      this.sim.add(dialAddress(id), sides.dialer);
      const clients = Array.from({ length: config.clientsPerMirror }, (_, i) => ({
        id: id * config.clientsPerMirror + 1 + i,
        object: 0,
        dragLeft: 0,
        dropped: undefined,
        pointerUpdates: 0,
      }));
      return {
        id,
        mirror,
        clients,
        view: new Map(),
        told: { appeared: 0, changed: 0, gone: 0, linkDown: 0 },
        stale: 0,
        commands: 0,
      };
    });
    for (const m of this.mirrors)
      for (let to = 0; to < m.id; to++) m.mirror.node.connect(0, listenAddress(to));
    this.linked = this.sim.runUntilTrue(() => this.allLinked(), 10_000);
    // A few clock exchanges before anyone stamps a command (as mirror-group.ts waits).
    this.sim.runUntil(this.sim.now + 2_000);
    // The views are the host's: they follow the mirrors' polls as they happen.
    this.sim.every(5, () => {
      this.drain();
    });
  }

  allLinked(): boolean {
    return this.mirrors.every(
      (m) => m.mirror.node.links.linked().length === this.mirrors.length - 1,
    );
  }

  /** Both directions between mirrors a and b, every address pair. */
  setLink(a: MirrorId, b: MirrorId, c: Impairment): void {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const)
      for (const from of [listenAddress(x), dialAddress(x)])
        for (const to of [listenAddress(y), dialAddress(y)]) this.net.setConditions(from, to, c);
  }

  /** Every mirror's clients join with a profile and create their object; returns once the group has them all. */
  join(): void {
    for (const m of this.mirrors)
      for (const c of m.clients) {
        m.mirror.presence.set(c.id, {
          name: `m${m.id} client ${c.id}`,
          colorIndex: c.id % 12,
          role: c.id % 5 === 0 ? 'viewer' : 'editor',
          visible: true,
        });
        const id = m.mirror.newObjectId();
        if (id === undefined) throw new Error('no object id');
        this.submit(m, c, { type: 'create', id, fields: objectFor(this.rng) });
        c.object = id;
      }
    this.sim.runUntil(this.sim.now + 2_000);
  }

  /** The clients move for `moveMs` at `pointerHz`: pointers every tick, drags now and then. */
  move(): void {
    const tick = 1000 / this.config.pointerHz;
    const end = this.sim.now + this.config.moveMs;
    const base = this.sim.now;
    for (const m of this.mirrors)
      for (const c of m.clients) {
        // Each client on its own phase, as real ones are.
        const start = base + this.rng.next() * tick;
        const ticks = Math.floor((end - start) / tick);
        for (let i = 0; i < ticks; i++)
          this.sim.after(start + i * tick - this.sim.now, () => {
            this.step(m, c, i === ticks - 1);
          });
      }
    this.sim.runUntil(end);
  }

  /** Runs `ms` more with nobody moving. */
  settle(ms: number): void {
    this.sim.runUntil(this.sim.now + ms);
    this.drain();
  }

  /** Everything each mirror's presence and TSS put out since the last drain, into its host-side view. */
  drain(): void {
    for (const m of this.mirrors) {
      while (m.mirror.poll() !== undefined);
      for (let c = m.mirror.presence.poll(); c !== undefined; c = m.mirror.presence.poll())
        this.tell(m, c);
    }
  }

  private tell(m: PresenceMirror, c: PresenceChange): void {
    if (c.type === 'gone') {
      m.told.gone++;
      if (c.reason === 'link-down') m.told.linkDown++;
      m.view.delete(viewKey(c.origin, c.client));
      return;
    }
    const p = c.participant;
    const key = viewKey(p.origin, p.client);
    let v = m.view.get(key);
    if (c.type === 'appeared') {
      m.told.appeared++;
      if (v !== undefined) throw new Error(`mirror ${m.id} told ${key} appeared twice`);
      v = blankParticipant(p.origin, p.client);
      m.view.set(key, v);
    } else {
      m.told.changed++;
      if (v === undefined)
        throw new Error(`mirror ${m.id} told of a change to ${key} before it appeared`);
      if (p.x < v.x) m.stale++;
    }
    copyParticipantFields(v, p);
  }

  private submit(m: PresenceMirror, c: SimClient, op: Parameters<Mirror['submit']>[2]): void {
    const r = m.mirror.submit(this.sim.now, c.id, op);
    if (!r.ok) throw new Error(`mirror ${m.id} refused a ${op.type}: ${r.reason}`);
    m.commands++;
  }

  /** One tick of one client: its pointer moves right; a drag starts, moves, or ends with a drop where it is. */
  private step(m: PresenceMirror, c: SimClient, last: boolean): void {
    c.pointerUpdates++;
    const x = 1_000 + c.pointerUpdates;
    const y = this.rng.range(-3_000, 3_000);
    const p = m.mirror.presence;
    p.set(c.id, { x, y, visible: true });
    if (this.rng.bool(0.01)) p.set(c.id, { tool: this.rng.int(8) });
    if (c.dragLeft === 0 && !last && this.rng.bool(this.config.dragChance)) {
      this.submit(m, c, { type: 'grab', id: c.object });
      c.dragLeft = 10 + this.rng.int(51);
    }
    if (c.dragLeft === 0) return;
    c.dragLeft = last ? 0 : c.dragLeft - 1;
    const drag = { dragId: c.object, dragX: x - 20, dragY: y - 15 };
    p.set(c.id, drag);
    if (c.dragLeft > 0) return;
    this.submit(m, c, { type: 'drop', id: c.object, x: drag.dragX, y: drag.dragY });
    c.dropped = { x: drag.dragX, y: drag.dragY };
    p.set(c.id, { dragId: 0 });
  }
}
