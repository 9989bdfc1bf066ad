// Test kit: how long a pointer takes between users of different sites through their mirrors (issue 22's
// between-sites path: 5 ms to the user's mirror, a crossing between mirrors, 5 ms to the other user), in the
// simulator with clean links. Every user's mouse moves at 60 Hz on its own random phase; each update is timed from
// the sender's call to the receiver's event and split at the two hosts' own pointer events: the sender's wait,
// the wait between mirrors (the participants' ghosts on the mirror link) and the last host's relay to its user,
// each less its link. Each user also drags its own rectangle now and then, and its drops (edits: a command each
// mirror executes and tells its users of) are timed from the call to the first event that shows them (the host's
// 'dropped' or the object's ghost). Also the bytes the mirrors send each other. Not product code.
import { NO_IMPAIRMENT } from '../../net/impairment';
import type { SessionRate } from '../../session/connection-stack';
import { columnOf, columnX, FRAMES, POINTER_HZ } from '../../session/testing/columns';
import type { ObjectId } from '../../../shared/board';
import type { Joiner, MirrorHostsConfig, ServedMirrors } from './mirror-hosts';
import { DEFAULT_MIRROR_HOSTS, joinMirror, serveMirrorHosts } from './mirror-hosts';

/** Each user's pointer lives in its own column this wide; x within it says which frame the update is. */
const SPACING = 1000;
/** The mirror mesh's link addresses (mirror/testing/mirror-mesh.ts). */
const LINK_NET = '10.1.0.';
/** With drags, a user grabs its rectangle every this many frames and drops it this many frames later. */
const DRAG_EVERY = 60;
const DRAG_FRAMES = 20;
/** A drop's x: this much per user, plus its frame (the drop it is). */
const DROP_SPACING = 100_000;

export interface SiteLatencyRun {
  readonly served: ServedMirrors;
  /** Per update seen by a user of another site in the window, ms: call to event, and its parts. */
  readonly total: number[];
  readonly senderWait: number[];
  readonly betweenMirrors: number[];
  readonly lastHop: number[];
  /** Per update seen by a user of the same site, call to event, ms. */
  readonly sameSite: number[];
  /** Per drop seen by a user of another site, and of the same site, call to event, ms. */
  readonly dropCrossSite: number[];
  readonly dropSameSite: number[];
  /** Bytes/s (IP/UDP included) each mirror sent the others over the window, the mirrors' mean. */
  readonly linkBytesPerSecond: number;
}

export function runSiteLatency(o: {
  seed: number;
  sites?: number;
  usersPerSite?: number;
  /** One way between two mirrors, and between a user and its mirror. */
  crossingMs?: number;
  accessMs?: number;
  warmupMs?: number;
  windowMs?: number;
  rate?: SessionRate;
  /** Each user drags its own rectangle once a second (a grab, a drop: edits timed beside the pointers). */
  drags?: boolean;
}): SiteLatencyRun {
  const crossingMs = o.crossingMs ?? 60;
  const accessMs = o.accessMs ?? 5;
  const perSite = o.usersPerSite ?? 4;
  const config: MirrorHostsConfig = {
    ...DEFAULT_MIRROR_HOSTS,
    seed: o.seed,
    mirrors: o.sites ?? 3,
    joinersPerMirror: perSite,
    link: { ...NO_IMPAIRMENT, delayMs: crossingMs },
    access: { ...NO_IMPAIRMENT, delayMs: accessMs },
    maxOffsetMs: 0,
    maxDrift: 0,
    relay: 'presence',
    ...(o.rate === undefined ? {} : { rate: o.rate }),
  };
  const served = serveMirrorHosts(config);
  const { sim, mirrors } = served;
  for (const m of mirrors) for (let k = 0; k < perSite; k++) joinMirror(served, config, m, k);
  const users = mirrors.flatMap((m) => m.joiners);
  const ready = sim.runUntilTrue(
    () =>
      mirrors.every((m) => m.mirror.node.links.linked().length === mirrors.length - 1) &&
      users.every((j) => j.peer.peerId !== undefined),
    10_000,
  );
  if (!ready) throw new Error(`seed ${o.seed}: the mirrors did not link or a user did not join`);
  const rects = o.drags === true ? ownRects(served, users) : undefined;
  const start = sim.now + (o.warmupMs ?? 2000);
  const end = start + (o.windowMs ?? 3000);
  const sentAt = users.map(() => new Array<number>(FRAMES).fill(NaN));
  /** [mirror][user][frame]: when that mirror's host had the update (its own pointer event). */
  const hostAt = mirrors.map(() => users.map(() => new Array<number>(FRAMES).fill(NaN)));
  const r: Omit<SiteLatencyRun, 'served' | 'linkBytesPerSecond'> = {
    total: [],
    senderWait: [],
    betweenMirrors: [],
    lastHop: [],
    sameSite: [],
    dropCrossSite: [],
    dropSameSite: [],
  };
  mirrors.forEach((m, mi) =>
    m.host.on((e) => {
      if (e.type !== 'pointer' || !e.moved) return;
      const { from, frame } = columnOf(SPACING, e.pointer.x);
      const row = hostAt[mi]?.[from];
      if (row !== undefined && frame < FRAMES) row[frame] = sim.now;
    }),
  );
  users.forEach((u, ui) =>
    u.peer.on((e) => {
      if (e.type !== 'pointer' || !e.moved) return;
      const { from, frame } = columnOf(SPACING, e.pointer.x);
      const sent = sentAt[from]?.[frame] ?? NaN;
      const sender = users[from];
      if (from === ui || sender === undefined || !(sent >= start && sent < end)) return;
      if (sender.mirror === u.mirror) {
        r.sameSite.push(sim.now - sent);
        return;
      }
      const first = hostAt[sender.mirror]?.[from]?.[frame] ?? NaN;
      const last = hostAt[u.mirror]?.[from]?.[frame] ?? NaN;
      r.total.push(sim.now - sent);
      r.senderWait.push(first - sent - accessMs);
      r.betweenMirrors.push(last - first - crossingMs);
      r.lastHop.push(sim.now - last - accessMs);
    }),
  );
  const dropSent = users.map(() => new Array<number>(FRAMES).fill(NaN));
  users.forEach((u, ui) => {
    const seen = new Set<number>();
    const saw = (x: number): void => {
      const { from, frame } = columnOf(DROP_SPACING, x);
      const sent = dropSent[from]?.[frame] ?? NaN;
      const sender = users[from];
      if (from === ui || sender === undefined || !(sent >= start && sent < end) || seen.has(x))
        return;
      seen.add(x);
      (sender.mirror === u.mirror ? r.dropSameSite : r.dropCrossSite).push(sim.now - sent);
    };
    u.peer.on((e) => {
      if (e.type === 'dropped') saw(e.x);
      else if (e.type === 'object' && e.object.x >= DROP_SPACING) saw(e.object.x);
    });
  });
  users.forEach((u, ui) => {
    let frame = 0;
    const rect = rects?.[ui];
    sim.every(
      1000 / POINTER_HZ,
      (now) => {
        frame = (frame + 1) % FRAMES;
        if (now >= end) return;
        (sentAt[ui] as number[])[frame] = now;
        u.peer.pointer(columnX(SPACING, ui, frame), 1000);
        if (rect === undefined) return;
        // Each user on its own phase of the drag cycle: drops spread over the frames.
        const phase = (frame + 5 * ui) % DRAG_EVERY;
        if (phase === 0) u.peer.grab(rect);
        else if (phase === DRAG_FRAMES) {
          (dropSent[ui] as number[])[frame] = now;
          u.peer.drop(rect, columnX(DROP_SPACING, ui, frame), 1000);
        }
      },
      sim.now + served.rng.next() * (1000 / POINTER_HZ),
    );
  });
  sim.runUntil(start);
  const before = linkBytes(served);
  sim.runUntil(end);
  const after = linkBytes(served);
  sim.runUntil(end + 2 * crossingMs + 100);
  const windowS = (end - start) / 1000;
  return {
    served,
    ...r,
    linkBytesPerSecond: (after - before) / windowS / mirrors.length,
  };
}

/** Each user creates a rectangle of its own; returns their ids, in user order, once every user has its own. */
function ownRects(served: ServedMirrors, users: readonly Joiner[]): ObjectId[] {
  const ids: ObjectId[] = [];
  users.forEach((u, ui) => {
    const req = u.peer.create({
      kind: 'rect',
      ...{ x: 0, y: 0, w: 10, h: 10, rotation: 0, stroke: 0, fill: null, strokeWidth: 1 },
      ...{ text: '', points: [], blob: '' },
    });
    u.peer.on((e) => {
      if (e.type === 'created' && e.req === req) ids[ui] = e.id;
    });
  });
  const made = served.sim.runUntilTrue(
    () => users.every((_, ui) => ids[ui] !== undefined),
    served.sim.now + 5000,
  );
  if (!made) throw new Error('a user’s rectangle was never created');
  return ids;
}

/** Bytes the mirrors' link endpoints (listenAddress, dialAddress: 10.1.0.x) offered one another so far. */
function linkBytes(served: ServedMirrors): number {
  let total = 0;
  for (const [path, b] of served.net.wireBytes) {
    const [from = '', to = ''] = path.split('>');
    if (from.startsWith(LINK_NET) && to.startsWith(LINK_NET)) total += b.offered;
  }
  return total;
}
