// The budget of a mirror link's stream (the participants' ghosts): byte and packet buckets of its own (net's
// ByteAndPacketBuckets), each earning a fixed amount a second and saving a little while the stream is idle. The link
// lets a change leave as soon as neither is overdrawn instead of on a fixed interval, so a pointer no longer waits
// for the stream's next slot (5 ms on average at one every 10 ms), while the bytes stay what full packets every 10 ms
// took and the packets few enough that a crowd's changes gather into them (each costs both mirrors CPU). Knows
// nothing of links.
import { ByteAndPacketBuckets } from '../net/stream/buckets';

/** Most of a second's bytes the bucket saves while the stream is idle: a burst of about ten full packets. */
const SAVED_SECONDS = 0.1;
/** Packets of its own the stream may send back to back after an idle spell. */
const SAVED_PACKETS = 4;

/**
 * A stream's budget from `now`: the link charges each section's bytes, and a packet of the stream's own one packet
 * more; readyAt() says when the next may leave.
 */
export function streamBudget(
  now: number,
  bytesPerSecond: number,
  packetsPerSecond: number,
): ByteAndPacketBuckets {
  return new ByteAndPacketBuckets(now, {
    bytesPerSecond,
    packetsPerSecond,
    maxBytes: bytesPerSecond * SAVED_SECONDS,
    maxPackets: SAVED_PACKETS,
  });
}
