// Turns session events into renderer API events (objects, pointers, participants, notices) and assembles the
// stats snapshot. Pure over the session's state; knows nothing of Electron or sockets.
import type {
  ApiEvent,
  ChatMessage,
  NetworkConditions,
  Participant,
  PathKind,
  StatsSnapshot,
} from '../../shared/api';
import type { PeerId } from '../../shared/board';
import type { Controls } from '../session/controls';
import { connectionFigures } from '../session/figures';
import { pathOfPeerKey } from '../session/path';
import type { LeaveReason } from '../session/protocol';
import type { SessionEvent } from '../session/session-events';
import { imageEvent, ProgressSteps } from './images';

export class EventTranslator {
  /** Board objects received of those announced (joining). */
  progress = { received: 0, total: 0 };
  private readonly activeAt = new Map<PeerId, number>();
  private readonly imageSteps = new ProgressSteps();
  /**
   * Everyone's name as last seen: a session forgets a participant before it says they left, and a toast should
   * name the person. Bounded by the session's peer ids (at most one entry per id).
   */
  private readonly names = new Map<PeerId, string>();
  private readonly joinSteps = new ProgressSteps();

  constructor(
    private readonly s: Controls,
    private readonly emit: (e: ApiEvent) => void,
    private readonly clock: () => number,
    /** The path to a connection, by its address key. */
    private readonly pathOf: (key: string) => PathKind = pathOfPeerKey,
  ) {}

  translate(e: SessionEvent): void {
    switch (e.type) {
      case 'object':
        this.emit({ type: 'objects', upserts: [e.object], deletes: [] });
        return;
      case 'deleted':
        this.emit({ type: 'objects', upserts: [], deletes: [e.id] });
        return;
      case 'joined':
        this.names.set(e.participant.peer, e.participant.name);
        this.touch(e.participant.peer);
        this.emitParticipants();
        return;
      case 'left':
        this.activeAt.delete(e.peer);
        this.emit({ type: 'pointers', pointers: [], gone: [e.peer] });
        this.emitParticipants();
        this.emit({
          type: 'notice',
          level: 'info',
          text: leftText(this.nameOf(e.peer), e.reason),
        });
        return;
      case 'pointer':
        if (e.moved) this.touch(e.pointer.peer);
        this.emit({ type: 'pointers', pointers: [e.pointer], gone: [] });
        return;
      case 'refused':
        // An image's refusal is the image command's reply: the renderer says it.
        if (e.cmd !== 'image')
          this.emit({ type: 'notice', level: 'warn', text: `Couldn't ${e.cmd}: ${e.reason}` });
        if (e.id !== undefined) this.emit({ type: 'refused', cmd: e.cmd, id: e.id });
        return;
      case 'image':
        this.emit(imageEvent({ hash: e.hash, type: e.imageType, bytes: e.bytes }));
        return;
      case 'image-progress':
        if (this.imageSteps.worthTelling(e.hash, e.received, e.total))
          this.emit({
            type: 'image-progress',
            hash: e.hash,
            received: e.received,
            total: e.total,
            upload: e.upload,
          });
        return;
      case 'progress':
        this.progress = { received: e.received, total: e.total };
        return;
      case 'grabbed':
      case 'dropped':
        this.touch(e.peer);
        return;
      case 'chat':
      case 'ready':
      case 'ended':
      case 'created':
      // The core itself turns these into status and notices (it owns the code and the chat log).
      case 'banned':
      case 'code':
      case 'code-locked':
      case 'text-splice':
      // The core keeps the session's hosts for a failover.
      case 'hosts':
        return;
    }
  }

  /** Whether join progress is a new step of the bar (or the end) worth a status. */
  progressIsNews(received: number, total: number): boolean {
    return this.joinSteps.worthTelling('board', received, total);
  }

  private touch(peer: PeerId): void {
    this.activeAt.set(peer, this.clock());
  }

  private nameOf(peer: PeerId): string {
    return (
      this.s.participants.find((p) => p.peer === peer)?.name ?? this.names.get(peer) ?? 'Someone'
    );
  }

  chatMessage(peer: PeerId, text: string, seq: number): ChatMessage {
    this.touch(peer);
    const p = this.s.participants.find((x) => x.peer === peer);
    return {
      seq,
      peer,
      name: p?.name ?? this.names.get(peer) ?? 'Someone',
      color: p?.color ?? 0x666666,
      text,
      at: Date.now(),
    };
  }

  participants(): Participant[] {
    const now = this.clock();
    const connections = this.s.connections();
    const rttOf = (peer: PeerId, isHost: boolean): number | null => {
      const c =
        this.s.role === 'host'
          ? connections.find((l) => l.peer === peer)
          : isHost
            ? connections[0]
            : undefined;
      return c ? Math.round(c.stack.conn.rtt.smoothed) : null;
    };
    return this.s.participants.map((p) => ({
      id: p.peer,
      name: p.name,
      color: p.color,
      role: p.role,
      isHost: p.isHost,
      isSelf: p.peer === this.s.you,
      rttMs: p.peer === this.s.you ? null : rttOf(p.peer, p.isHost),
      idleMs: Math.max(0, Math.round(now - (this.activeAt.get(p.peer) ?? now))),
    }));
  }

  emitParticipants(): void {
    this.emit({ type: 'participants', list: this.participants() });
  }

  stats(at: number, conditions: NetworkConditions): StatsSnapshot {
    const now = this.clock();
    const peers = this.s.connections().map(({ peer, name, stack }) => ({
      ...connectionFigures(now, peer, name, stack),
      path: this.pathOf(stack.conn.peer),
    }));
    const sum = (f: (p: (typeof peers)[number]) => number): number =>
      Math.round(peers.reduce((a, p) => a + f(p), 0) * 10) / 10;
    return {
      at,
      totalKbpsIn: sum((p) => p.kbpsIn),
      totalKbpsOut: sum((p) => p.kbpsOut),
      peers,
      conditions,
    };
  }
}

/** A person leaving, said as people would say it (the reason's code stays in the session's log). */
export function leftText(name: string, reason: LeaveReason): string {
  switch (reason) {
    case 'left':
      return `${name} left`;
    case 'timeout':
      return `${name} lost their connection`;
    case 'kicked':
      return `${name} was removed from the board`;
    case 'error':
      return `${name} was disconnected`;
  }
}
