// The packet rate a host accepts from each of its peers. Every datagram a peer sends costs its host a decryption, an
// ack round and a read (52 µs each on the busiest mirror of the mirrors-scale bench at 250 peers, about a third of
// its work at 66 packets/s from each), so a host with many peers asks each for fewer, as a TRIBES server sets its
// clients' rates: their upstreams come to HOST_UPSTREAM_PACKETS a second in all, and never fewer than
// MIN_UPSTREAM_PACKETS each (a 60 Hz pointer every other frame; a peer at the usual 30..85 packets/s down receives
// no more of anyone's pointer than that). A session of up to 60 peers keeps the usual 66. Pure; knows nothing of
// connections.
import type { RatePolicy } from '../net/stream/rate';
import { packetRateAtMost } from '../net/stream/rate';

/** Packets/s a host's peers send it in all at most: 66 each up to 60 peers, 40 at 100, 30 from 134 on. */
export const HOST_UPSTREAM_PACKETS = 4000;
/** A host never asks a peer for fewer packets/s than this (nor for more than `usual`). */
export const MIN_UPSTREAM_PACKETS = 30;

/** What a host of `peers` connections accepts from each: `usual`, or fewer packets of the same size. */
export function hostAcceptRate(
  usual: RatePolicy,
  peers: number,
  total: number = HOST_UPSTREAM_PACKETS,
): RatePolicy {
  const floor = Math.min(usual.packetsPerSecond, MIN_UPSTREAM_PACKETS);
  const share = packetRateAtMost(Math.max(1, total / Math.max(1, peers)));
  const wanted = Math.max(floor, Math.min(usual.packetsPerSecond, share));
  return wanted === usual.packetsPerSecond
    ? usual
    : { packetsPerSecond: wanted, packetBytes: usual.packetBytes };
}
