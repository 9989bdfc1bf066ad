// The participant relay of a host served from a mirror: the host's own participants (its user and its joiners) are
// set on the mirror's presence (mirror/mirror-presence.ts), which ghosts them to every other mirror as current
// state; the other mirrors' participants, as that presence reports them, are shown through the host's remote
// roster (session/remote-roster.ts) — roster, pointers and drags — under the ids this host gives them (PeerIds).
// Sans-IO: whoever drives the mirror calls pump() after its datagrams and timers. Knows nothing of sockets.
import type { PeerId } from '../../shared/board';
import type { MirrorPresence, PresenceChange } from '../mirror/mirror-presence';
import type { ParticipantFields } from '../mirror/participant';
import { MAX_COLOR_INDEX, PARTICIPANT_FIELD } from '../mirror/participant';
import { participantColor } from '../session/colors';
import type { PresenceState } from '../session/ghost-classes';
import { blankPresence } from '../session/ghost-classes';
import type { ParticipantRelay, RemoteRoster } from '../session/remote-roster';
import type { ParticipantInfo } from '../session/session-events';
import type { PeerIds } from './mirror-executor';

export interface PresenceRelayCounters {
  /** A participant the mirror's presence would not take (a value out of its range): not relayed. */
  unrelayable: number;
}

/** The colour index a participant colour came from (hosts colour people by index): the first 1,024 of them. */
let indexByColor: Map<number, number> | undefined;
function colorIndexOf(color: number): number {
  if (indexByColor === undefined) {
    indexByColor = new Map();
    for (let i = MAX_COLOR_INDEX; i >= 0; i--) indexByColor.set(participantColor(i), i);
  }
  return indexByColor.get(color) ?? 0;
}

const PRESENCE_GROUPS = PARTICIPANT_FIELD.pointer | PARTICIPANT_FIELD.tool | PARTICIPANT_FIELD.drag;

/** What a participant's presence and its ghost between mirrors have alike: its pointer, tool and drag. */
type Live = Omit<PresenceState, 'peer'>;

/**
 * Copies the live fields into `to` (a scratch state: a pointer moves 60 times a second per participant, and each
 * move passes through here once on its way out and once per other mirror on its way in).
 */
function copyLive<T extends Live>(to: T, s: Readonly<Live>): T {
  to.x = s.x;
  to.y = s.y;
  to.visible = s.visible;
  to.tool = s.tool;
  to.dragId = s.dragId;
  to.dragX = s.dragX;
  to.dragY = s.dragY;
  to.dragShaped = s.dragShaped;
  to.dragW = s.dragW;
  to.dragH = s.dragH;
  to.dragRotation = s.dragRotation;
  return to;
}

/** A live state with nothing shown or dragged: a blank presence's live fields (copyLive sets every one). */
function blankLive(): Live {
  return copyLive({} as Live, blankPresence());
}

export class PresenceRelay implements ParticipantRelay {
  readonly counters: PresenceRelayCounters = { unrelayable: 0 };
  /** What presence() hands the mirror's presence, and show() the host's roster: neither keeps it. */
  private readonly live: Live = blankLive();
  private readonly shown: PresenceState = blankPresence();

  constructor(
    private readonly roster: MirrorPresence,
    private readonly ids: PeerIds,
  ) {}

  joined(p: ParticipantInfo): void {
    this.set(p.peer, { name: p.name, colorIndex: colorIndexOf(p.color), role: p.role });
  }

  left(peer: PeerId): void {
    this.roster.remove(this.ids.toGroup(peer));
  }

  presence(peer: PeerId, state: Readonly<PresenceState>): void {
    this.set(peer, copyLive(this.live, state));
  }

  /** Everything the other mirrors' participants did since the last call, shown through `remote`. */
  pump(remote: RemoteRoster): void {
    for (let c = this.roster.poll(); c !== undefined; c = this.roster.poll()) this.show(remote, c);
  }

  private show(remote: RemoteRoster, c: PresenceChange): void {
    if (c.type === 'gone') {
      const peer = this.ids.toLocal(c.client);
      if (c.reason === 'removed') remote.left(peer, 'left', '');
      else remote.left(peer, 'timeout', 'their host can no longer be reached');
      return;
    }
    const s = c.participant;
    const peer = this.ids.toLocal(s.client);
    const all = c.type === 'appeared';
    if (all || (c.fields & PARTICIPANT_FIELD.profile) !== 0)
      remote.joined({
        peer,
        name: s.name,
        color: participantColor(s.colorIndex),
        role: s.role,
        isHost: false,
      });
    if (all || (c.fields & PRESENCE_GROUPS) !== 0) {
      const shown = copyLive(this.shown, s);
      shown.peer = peer;
      remote.presence(peer, shown);
    }
  }

  /** Called from within the host's handling of a participant's packets: never throws. */
  private set(peer: PeerId, change: Partial<ParticipantFields>): void {
    try {
      this.roster.set(this.ids.toGroup(peer), change);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      this.counters.unrelayable++;
    }
  }
}
