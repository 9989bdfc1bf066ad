// The packet rate a peer accepts from a host a short round trip away. A relayed pointer waits for the host's next
// packet to this peer: half a packet interval on average (5.9 ms at 85 packets/s), which is more than the whole
// path to a host at the same site (5 ms one way, issue 22's mirrors) and most of what a pointer from a neighbour
// costs beyond it. So a near peer accepts packets at least every half round trip: the pacing then adds at most a
// quarter of the round trip on average, and a host across the internet (80 ms and more) sees the usual rate. More
// packets cost the host CPU for each of its peers, so the session's size bounds it too: a host with every participant
// as its peer sends them NEAR_SESSION_PACKETS a second in all at most (a 96-user mirrors bench, its users at 195
// packets/s each, starved its machine). Pure; knows nothing of connections.
import type { RatePolicy } from '../net/stream/rate';
import { packetRateAtMost } from '../net/stream/rate';

/** A near peer accepts a packet at least every this many round trips. */
export const NEAR_INTERVAL_PER_RTT = 0.5;
/**
 * Packets/s the near rates of a session's participants come to at most: 195 each with 15 participants (12 users
 * and 3 hosts), 150 at 20, 100 at 30, the usual rate from 36 on.
 */
export const NEAR_SESSION_PACKETS = 3000;

/**
 * What a peer accepts from its host once it knows the path's smallest round trip (`minRttMs`, Infinity before a
 * sample): `usual`, or more packets of the same size, up to `nearMax` packets/s, on a short path and in a session
 * of `participants` (this one counted) small enough. Never less than `usual`; `nearMax` undefined (a rate set by
 * hand, or a byte budget) leaves it as it is.
 */
export function nearPeerRate(
  usual: RatePolicy,
  nearMax: number | undefined,
  minRttMs: number,
  participants: number,
): RatePolicy {
  if (nearMax === undefined || !(minRttMs > 0) || !Number.isFinite(minRttMs)) return usual;
  const bySession = NEAR_SESSION_PACKETS / Math.max(1, participants);
  const wanted = packetRateAtMost(
    Math.min(nearMax, bySession, 1000 / (minRttMs * NEAR_INTERVAL_PER_RTT)),
  );
  if (wanted <= usual.packetsPerSecond) return usual;
  return { packetsPerSecond: wanted, packetBytes: usual.packetBytes };
}
