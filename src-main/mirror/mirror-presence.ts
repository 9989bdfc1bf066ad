// A mirror group's participants: this mirror's own clients' live state (identity, profile, pointer, tool, drag in
// progress) ghosted to every linked mirror with the current-state policy of net/ghost (state masks, only dirty
// groups written, a lost group resent only if no later packet carried it), and the other mirrors' participants as
// their ghosts arrive: the group's roster, polled as changes. Pointers and drags are the paper's real-time events
// (§3.2: timely, and a lost one does no harm once a newer one comes), which its event-based protocol has the
// ingress mirror send on to the others with no consistency check (§3.3.4): current state, never rolled back, so
// never through TSS (DESIGN.md §9). Sans-IO; knows nothing of sockets, links' packets, commands or sessions.
import type { PeerId } from '../../shared/board';
import { MAX_PEER_ID } from '../../shared/board';
import type { CloseInfo } from '../net/close-reason';
import type { GhostStats } from '../net/ghost/ghost-manager';
import { GhostManager } from '../net/ghost/ghost-manager';
import type { GhostSource } from '../net/ghost/ghost-source';
import { GhostDomain } from '../net/ghost/ghost-source';
import type { StreamManager } from '../net/stream/manager';
import type { MirrorId } from './mirror-id';
import type { LinkStreams } from './mirror-links';
import type { ParticipantFields, ParticipantState } from './participant';
import {
  blankParticipant,
  canonicalDrag,
  changedParticipantGroups,
  copyParticipantFields,
  Participant,
  PARTICIPANT_FIELD,
  PARTICIPANT_REGISTRY,
  participantFieldsInvalid,
} from './participant';

/** Why a remote participant went: its mirror removed it, or the link to its mirror was declared down. */
export type PresenceGoneReason = 'removed' | 'link-down';

/** What the host hears of the other mirrors' participants, coalesced since it last polled. */
export type PresenceChange =
  /** A participant of another mirror is here: its state now (live: later changes update it in place). */
  | { readonly type: 'appeared'; readonly participant: Readonly<ParticipantState> }
  /** `fields`: the groups (PARTICIPANT_FIELD bits) that differ from what the last change reported. */
  | {
      readonly type: 'changed';
      readonly participant: Readonly<ParticipantState>;
      readonly fields: number;
    }
  | {
      readonly type: 'gone';
      readonly origin: MirrorId;
      readonly client: PeerId;
      readonly reason: PresenceGoneReason;
    };

export interface PresenceCounters {
  /** Ghosts naming another mirror than the link's, or changing their identity after the create (ignored). */
  forged: number;
  /** Ghosts for a participant another live ghost of the same mirror already is (ignored). */
  duplicate: number;
}

export interface PresenceStats {
  readonly counters: Readonly<PresenceCounters>;
  readonly local: number;
  readonly remote: number;
  /** Per linked mirror: the participants' ghosts sent and received on that link. */
  readonly links: readonly { readonly id: MirrorId; readonly ghosts: GhostStats }[];
}

/** One participant of another mirror, from its ghost's arrival until the host has been told it went. */
interface RemoteEntry {
  readonly origin: MirrorId;
  readonly client: PeerId;
  /** The live ghost; undefined once deleted or its link is down. */
  state: ParticipantState | undefined;
  reason: PresenceGoneReason;
  /** Whether the host was told it appeared (and not yet that it went). */
  told: boolean;
  /**
   * Removed by its mirror and created again before the host heard: a new arrival under the same id (a client that
   * left and one that took its id), told as gone then appeared. A link's return is the same participant's.
   */
  left: boolean;
  /** What the last change reported: the next one names the groups that differ from it. */
  readonly shown: ParticipantFields;
}

interface LinkGhosts {
  readonly manager: GhostManager;
  /** The ghosts of this link the roster holds, by ghost, with their roster key. */
  readonly ghosts: Map<ParticipantState, number>;
}

/** Participants per mirror: one ghost id each, so a link's ghosts are bounded like a mirror's clients. */
const MAX_PARTICIPANTS = MAX_PEER_ID + 1;

const keyOf = (origin: MirrorId, client: PeerId): number => origin * MAX_PARTICIPANTS + client;

/**
 * A participant's share of a link's packets when they can't carry every change (TRIBES' priorities): a drag in
 * progress is what others watch most closely, then a pointer on the board; a hidden pointer least.
 */
export function participantPriority(s: Readonly<ParticipantState>): number {
  if (s.dragId !== 0) return 4;
  return s.visible ? 2 : 1;
}

export class MirrorPresence implements LinkStreams {
  readonly counters: PresenceCounters = { forged: 0, duplicate: 0 };
  private readonly domain = new GhostDomain(PARTICIPANT_REGISTRY);
  private readonly locals = new Map<PeerId, GhostSource<ParticipantState>>();
  private readonly links = new Map<MirrorId, LinkGhosts>();
  private readonly roster = new Map<number, RemoteEntry>();
  /** Roster keys with something to tell the host, in the order it happened. */
  private readonly dirty = new Set<number>();
  /** Where set() works out an existing participant's next state (see there). */
  private readonly scratch: ParticipantState = blankParticipant();

  /** A joiner's mirror has no id until the group gives it one (assignSelf); it serves no client before. */
  constructor(private id: MirrorId | undefined) {}

  get self(): MirrorId {
    if (this.id === undefined) throw new Error('this mirror has no id in its group yet');
    return this.id;
  }

  assignSelf(id: MirrorId): void {
    if (this.id !== undefined && this.id !== id) throw new Error(`mirror id ${this.id} already`);
    this.id = id;
  }

  /**
   * Sets what changed of one of this mirror's clients (creating it with blank fields first if it is new); every
   * linked mirror gets the changed groups. A value out of its range is a programmer error (RangeError): the host
   * checks its clients' input first.
   */
  set(client: PeerId, change: Partial<ParticipantFields>): void {
    if (!Number.isInteger(client) || client < 0 || client > MAX_PEER_ID)
      throw new RangeError(`participant id ${client} outside 0..${MAX_PEER_ID}`);
    const source = this.locals.get(client);
    // Called for every pointer move of every client (60 a second each): an update is worked out in a scratch
    // state, and only a new participant's is a new object.
    const next = source === undefined ? blankParticipant(this.self, client) : this.scratch;
    if (source !== undefined) copyParticipantFields(next, source.obj);
    Object.assign(next, change);
    next.origin = this.self;
    next.client = client;
    const invalid = participantFieldsInvalid(next);
    if (invalid !== undefined) throw new RangeError(`participant ${client}: ${invalid}`);
    canonicalDrag(next);
    if (source === undefined) {
      // Every mirror ghosts every participant of ours: "ghost always", whatever the link.
      this.locals.set(client, this.domain.add(Participant, next, { always: true }));
      return;
    }
    const mask = changedParticipantGroups(source.obj, next);
    if (mask === 0) return;
    copyParticipantFields(source.obj, next);
    source.markDirty(mask);
  }

  /** One of this mirror's clients left: its ghost is deleted on every linked mirror. */
  remove(client: PeerId): boolean {
    const source = this.locals.get(client);
    if (source === undefined) return false;
    this.locals.delete(client);
    source.destroy();
    return true;
  }

  /** One of this mirror's clients as the other mirrors are given it. */
  local(client: PeerId): Readonly<ParticipantState> | undefined {
    return this.locals.get(client)?.obj;
  }

  /** The other mirrors' participants here now (their live states). */
  *remote(): IterableIterator<Readonly<ParticipantState>> {
    for (const e of this.roster.values()) if (e.state !== undefined) yield e.state;
  }

  /** One participant of another mirror, if here now. */
  participant(origin: MirrorId, client: PeerId): Readonly<ParticipantState> | undefined {
    return this.roster.get(keyOf(origin, client))?.state;
  }

  /**
   * The next change of the roster since the last poll, in the order they happened; one per participant, changes
   * folded together (a participant that came and went unpolled is never told; one whose link went down and came
   * back is a change, if anything changed).
   */
  poll(): PresenceChange | undefined {
    for (const key of this.dirty) {
      this.dirty.delete(key);
      const e = this.roster.get(key);
      if (e === undefined) continue;
      const s = e.state;
      if (e.left) {
        e.left = false;
        e.told = false;
        this.dirty.add(key);
        return { type: 'gone', origin: e.origin, client: e.client, reason: 'removed' };
      }
      if (s === undefined) {
        this.roster.delete(key);
        if (!e.told) continue;
        return { type: 'gone', origin: e.origin, client: e.client, reason: e.reason };
      }
      if (!e.told) {
        e.told = true;
        copyParticipantFields(e.shown, s);
        return { type: 'appeared', participant: s };
      }
      const fields = changedParticipantGroups(e.shown, s);
      if (fields === 0) continue;
      copyParticipantFields(e.shown, s);
      return { type: 'changed', participant: s, fields };
    }
    return undefined;
  }

  stats(): PresenceStats {
    let remote = 0;
    for (const e of this.roster.values()) if (e.state !== undefined) remote++;
    return {
      counters: { ...this.counters },
      local: this.locals.size,
      remote,
      links: [...this.links].map(([id, l]) => ({ id, ghosts: l.manager.stats() })),
    };
  }

  /** LinkStreams: the link to `id` is named; its manager ghosts our participants and reads theirs. */
  open(now: number, id: MirrorId): StreamManager<unknown> {
    this.close(now, id);
    const ghosts = new Map<ParticipantState, number>();
    const manager = new GhostManager({
      name: 'participants',
      registry: PARTICIPANT_REGISTRY,
      domain: this.domain,
      scope: (_now, scope) => {
        for (const source of this.locals.values())
          scope.add(source, participantPriority(source.obj));
      },
      maxGhosts: MAX_PARTICIPANTS,
      events: {
        created: (_now, g) => {
          this.onCreated(id, ghosts, g as ParticipantState);
        },
        updated: (_now, g, mask) => {
          this.onUpdated(ghosts, g as ParticipantState, mask);
        },
        deleted: (_now, g) => {
          this.onGone(ghosts, g as ParticipantState, 'removed');
        },
      },
    });
    this.links.set(id, { manager, ghosts });
    return manager;
  }

  /** LinkStreams: the link to `id` closed: its mirror's participants go (they come back with the link). */
  close(_now: number, id: MirrorId, _info?: CloseInfo): void {
    const link = this.links.get(id);
    if (link === undefined) return;
    this.links.delete(id);
    link.manager.dispose();
    for (const g of [...link.ghosts.keys()]) this.onGone(link.ghosts, g, 'link-down');
  }

  private onCreated(
    link: MirrorId,
    ghosts: Map<ParticipantState, number>,
    g: ParticipantState,
  ): void {
    // A mirror speaks for its own clients only.
    if (g.origin !== link) {
      this.counters.forged++;
      return;
    }
    const key = keyOf(g.origin, g.client);
    const e = this.roster.get(key);
    if (e?.state !== undefined) {
      this.counters.duplicate++;
      return;
    }
    if (e === undefined)
      this.roster.set(key, {
        origin: g.origin,
        client: g.client,
        state: g,
        reason: 'removed',
        told: false,
        left: false,
        shown: blankParticipant(g.origin, g.client),
      });
    else {
      if (e.told && e.reason === 'removed') e.left = true;
      e.state = g;
    }
    ghosts.set(g, key);
    this.dirty.add(key);
  }

  private onUpdated(
    ghosts: Map<ParticipantState, number>,
    g: ParticipantState,
    mask: number,
  ): void {
    const key = ghosts.get(g);
    if (key === undefined) return;
    const e = this.roster.get(key);
    if (e === undefined) return;
    if (
      (mask & PARTICIPANT_FIELD.identity) !== 0 &&
      (g.origin !== e.origin || g.client !== e.client)
    ) {
      // Our sender never updates an identity; a ghost that does keeps the one it was created with.
      this.counters.forged++;
      g.origin = e.origin;
      g.client = e.client;
    }
    this.dirty.add(key);
  }

  private onGone(
    ghosts: Map<ParticipantState, number>,
    g: ParticipantState,
    reason: PresenceGoneReason,
  ): void {
    const key = ghosts.get(g);
    if (key === undefined) return;
    ghosts.delete(g);
    const e = this.roster.get(key);
    if (e === undefined) return;
    e.state = undefined;
    e.reason = reason;
    this.dirty.add(key);
  }
}
