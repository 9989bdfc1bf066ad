// Participants served by another host of the session (another mirror's): the seam where a relay between hosts
// shows them to this host's joiners — in the roster, and as presence ghosted like anyone's (pointers, drags) — and
// learns of this host's own participants to carry to the others. Ids are this session's on both sides: a mirror's
// relay maps them (mirrored/mirror-executor.ts, PeerIds). Knows nothing of mirrors or of how the relay travels.
import type { PeerId } from '../../shared/board';
import type { GhostDomain, GhostSource } from '../net/ghost/ghost-source';
import type { PresenceState } from './ghost-classes';
import type { GridSlot, PresenceGrid } from './presence-grid';
import { blankPresence, copyPresence, Presence } from './ghost-classes';
import { changedPresenceMask, POINTER_MASK, presenceMaskToPointer } from './presence';
import type { LeaveReason } from './protocol';
import type { ParticipantInfo, PointerInfo } from './session-events';

/**
 * What a relay between hosts takes out of this host: its own participants as they come, move and go. Called from
 * inside the host's handling of a participant's packets: it must not throw (that participant's link would close).
 */
export interface ParticipantRelay {
  joined(p: ParticipantInfo): void;
  left(peer: PeerId, reason: LeaveReason, detail: string): void;
  /** A participant's presence changed (`mask`: the groups that did); the state is the host's, to copy. */
  presence(peer: PeerId, state: Readonly<PresenceState>, mask: number): void;
}

/**
 * What this host shows of participants served elsewhere: the relay's way in (HostSession.remote). The relay has
 * decoded what it passes (ids, presence fields within their wire ranges).
 */
export interface RemoteRoster {
  /** A participant joined elsewhere (or its name, colour or role changed). */
  joined(p: ParticipantInfo): void;
  left(peer: PeerId, reason: LeaveReason, detail: string): void;
  presence(peer: PeerId, state: Readonly<PresenceState>): void;
}

/** How the host tells its joiners and its runner. */
export interface RosterOutlet {
  joined(p: ParticipantInfo): void;
  left(peer: PeerId, reason: LeaveReason, detail: string): void;
  pointer(pointer: PointerInfo, moved: boolean): void;
  /** Every joiner's presence scope must take the new set of presences. */
  rescope(): void;
}

interface Remote {
  info: ParticipantInfo;
  readonly relay: GhostSource<PresenceState>;
  readonly place: GridSlot;
}

/** Every group of a presence but its peer id (this host's id for it, set here). */
const RELAYED = Presence.allMask & ~Presence.maskOf('peer');

/** At most this many participants served elsewhere are shown: the wire's participant ids bound them anyway. */
const MAX_REMOTE = 1024;

export class RemoteParticipants implements RemoteRoster {
  private readonly remotes = new Map<PeerId, Remote>();
  /** Relayed for being another host's: a relay naming an id this host gives out, or too many (dropped). */
  refused = 0;

  constructor(
    private readonly domain: GhostDomain,
    /** The host's relayed presences (its joiners' presence scopes walk them): remote ones are added here. */
    private readonly relays: PresenceGrid,
    /** Ids this host gives its own joiners (or its own user's 0): never another host's participant. */
    private readonly local: (peer: PeerId) => boolean,
    private readonly out: RosterOutlet,
  ) {}

  get all(): ParticipantInfo[] {
    return [...this.remotes.values()].map((r) => r.info);
  }

  nameOf(peer: PeerId): string | undefined {
    return this.remotes.get(peer)?.info.name;
  }

  has(peer: PeerId): boolean {
    return this.remotes.has(peer);
  }

  joined(p: ParticipantInfo): void {
    const known = this.remotes.get(p.peer);
    if (known === undefined) {
      if (this.local(p.peer) || this.remotes.size >= MAX_REMOTE) {
        this.refused++;
        return;
      }
      const relay = this.domain.add<PresenceState>(Presence, blankPresence(p.peer));
      this.remotes.set(p.peer, {
        info: { ...p, isHost: false },
        relay,
        place: this.relays.add(relay),
      });
      this.out.rescope();
    } else known.info = { ...p, isHost: false };
    this.out.joined({ ...p, isHost: false });
  }

  left(peer: PeerId, reason: LeaveReason, detail: string): void {
    const r = this.remotes.get(peer);
    if (r === undefined) return;
    this.remotes.delete(peer);
    this.relays.remove(r.place);
    r.relay.destroy();
    this.out.left(peer, reason, detail);
  }

  presence(peer: PeerId, state: Readonly<PresenceState>): void {
    const r = this.remotes.get(peer);
    if (r === undefined) return;
    const shown = r.relay.obj;
    const changed = changedPresenceMask(shown, state, RELAYED);
    copyPresence(shown, state);
    shown.peer = peer;
    if (changed === 0) return;
    this.relays.moved(r.place);
    r.relay.markDirty(changed);
    const pointer = presenceMaskToPointer(shown, changed);
    if (pointer) this.out.pointer(pointer, (changed & POINTER_MASK) !== 0);
  }

  /** Everyone shown is gone (the host closes). */
  dispose(): void {
    for (const r of this.remotes.values()) r.relay.destroy();
    this.remotes.clear();
  }
}
