// Test fixture: a bare client connection to a host that sends only the RPCs a test tells it to (hello or not)
// and records what the host answers — what a broken or hostile client can do. Knows nothing of the peer
// session's rules, which is the point.
import type { CloseInfo } from '../net/close-reason';
import { Endpoint } from '../net/endpoint';
import type { GhostSource } from '../net/ghost/ghost-source';
import { GhostDomain } from '../net/ghost/ghost-source';
import type { PacketRecord } from '../net/stream/scheduler';
import { PROTOCOL_VERSION } from '../../shared/version';
import type { PresenceState } from './ghost-classes';
import { blankPresence, Presence, PRESENCE_REGISTRY } from './ghost-classes';
import type { ConnectionStack } from './connection-stack';
import { buildConnectionStack, SESSION_RATES } from './connection-stack';
import type { Protocol, RefusableCommand } from './protocol';
import { buildRegistry, REFUSABLE } from './protocol';

export class RawPeer {
  readonly proto: Protocol = buildRegistry();
  readonly endpoint: Endpoint<PacketRecord>;
  /** Its own presence, written as the test likes (a drag of anything, any claimed peer id). */
  readonly presence: GhostSource<PresenceState>;
  readonly refusals: { cmd: RefusableCommand; reason: string }[] = [];
  /** The id a welcome gave it, if any. */
  welcomedAs: number | undefined;
  closed: CloseInfo | undefined;
  stack: ConnectionStack | undefined;
  private readonly domain = new GhostDomain(PRESENCE_REGISTRY);

  constructor(now: number, joinCode: string) {
    this.presence = this.domain.add(Presence, blankPresence(0), {
      always: true,
      alwaysPriority: 10,
    });
    this.endpoint = new Endpoint<PacketRecord>(
      'client',
      { joinCode, protocolVersion: PROTOCOL_VERSION },
      (conn) => {
        const stack = buildConnectionStack(conn, {
          proto: this.proto,
          rate: SESSION_RATES.broadband.toPeers,
          sendRate: SESSION_RATES.broadband.toHost,
          presenceDomain: this.domain,
          presenceEvents: {},
          boardEvents: {},
          onClosed: (_now, info) => {
            this.closed = info;
          },
        });
        stack.events.rpc.on(this.proto.refused, (a) => {
          this.refusals.push({ cmd: REFUSABLE[a.cmd] ?? 'create', reason: a.reason });
        });
        stack.events.rpc.on(this.proto.welcome, (a) => {
          this.welcomedAs = a.you;
        });
        this.stack = stack;
        return stack.events.scheduler;
      },
      now,
    );
  }

  /** The connection's RPCs once the handshake is done (throws before: a test's mistake). */
  get rpc(): ConnectionStack['events']['rpc'] {
    if (this.stack === undefined) throw new Error('raw peer not connected yet');
    return this.stack.events.rpc;
  }

  /** Sets its presence fields and marks them changed. */
  setPresence(change: Partial<PresenceState>): void {
    Object.assign(this.presence.obj, change);
    this.presence.markDirty(Presence.allMask);
  }

  tick(now: number): void {
    this.stack?.events.scheduler.touch(now);
    while (this.endpoint.pollEvent() !== undefined) {
      // Nothing to do with endpoint events; drained so they do not pile up.
    }
  }
}
