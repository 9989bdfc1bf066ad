// The mirrors-scale bench's users as each mirror's host knows them: which user a host's participant id is (every
// host names the others' participants by ids of its own), and what each host's connection to its users carried.
// Knows nothing of the workload.
import type { PeerId } from '../../shared/board';
import type { Joiner, ServedMirror } from '../../src-main/mirrored/testing/mirror-hosts';

export interface Traffic {
  readonly down: number[];
  readonly up: number[];
  readonly downPackets: number[];
  readonly upPackets: number[];
}

export interface UserIds {
  /** The user that mirror `m`'s session calls `peer`, if any. */
  userOf(m: number, peer: PeerId): number | undefined;
  /**
   * Bytes on the wire (with `overhead` a datagram) each user's host sent it (down) and received from it (up), and
   * the packets.
   */
  traffic(now: number, overhead: number): Traffic;
}

export function userIds(mirrors: readonly ServedMirror[], users: readonly Joiner[]): UserIds {
  const byMirror = mirrors.map(() => new Map<PeerId, number>());
  users.forEach((j, u) => {
    const own = j.peer.peerId;
    const home = mirrors[j.mirror];
    if (own === undefined || home === undefined) return;
    const group = home.executor.ids.toGroup(own);
    for (const m of mirrors) byMirror[m.id]?.set(m.executor.ids.toLocal(group), u);
  });
  const userByOwnId = mirrors.map((m) => {
    const ids = new Map<PeerId, number>();
    users.forEach((j, u) => {
      if (j.mirror === m.id && j.peer.peerId !== undefined) ids.set(j.peer.peerId, u);
    });
    return ids;
  });
  return {
    userOf: (m, peer) => byMirror[m]?.get(peer),
    traffic: (now, overhead) => {
      const zeros = (): number[] => new Array<number>(users.length).fill(0);
      const [down, up, downPackets, upPackets] = [zeros(), zeros(), zeros(), zeros()];
      for (const m of mirrors)
        for (const { peer, stack } of m.host.peerConnections()) {
          const u = userByOwnId[m.id]?.get(peer);
          if (u === undefined) continue;
          const c = stack.conn.stats(now);
          down[u] = c.bytesSent + overhead * c.packetsSent;
          up[u] = c.bytesReceived + overhead * c.packetsReceived;
          downPackets[u] = c.packetsSent;
          upPackets[u] = c.packetsReceived;
        }
      return { down, up, downPackets, upPackets };
    },
  };
}
