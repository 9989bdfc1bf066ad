// The packet rate a joiner accepts while the board comes down: two and a half times its usual rate, up to the most
// the rate field can say (85 packets/s of broadband becomes 210). TRIBES lets the receiver
// set the rate: the host allows every peer this much, and a peer asks for it only from its welcome to a board
// until the board is whole, so pointers and edits go at the usual rate before and after. Pure; knows nothing of
// connections.
import type { RatePolicy } from '../net/stream/rate';
import { packetRateAtMost } from '../net/stream/rate';

/** How much faster than usual a board comes down (the adaptive rate still holds it to what the path carries). */
export const DOWNLOAD_RATE_FACTOR = 2.5;

export function boardDownloadRate(usual: RatePolicy): RatePolicy {
  return {
    packetsPerSecond: packetRateAtMost(usual.packetsPerSecond * DOWNLOAD_RATE_FACTOR),
    packetBytes: usual.packetBytes,
  };
}

/** Welcomed, nothing decided yet; receiving the board at the faster rate; whole (or there was none). */
export type DownloadStep = 'welcome' | 'fast' | 'done';

/**
 * No new object for this long ends a download short of its count: objects deleted on the host before they were
 * sent here never come (the welcome counted them). A download brings several a second even at a modem's rate.
 */
export const DOWNLOAD_QUIET_MS = 3000;

/**
 * The step after `step`, given what the welcome announced, what has come of it, and how long since the welcome
 * or the last new object (`quietMs`).
 */
export function nextDownloadStep(
  step: DownloadStep,
  received: number,
  total: number,
  quietMs: number,
): DownloadStep {
  if (step === 'done' || received >= total || quietMs >= DOWNLOAD_QUIET_MS) return 'done';
  return 'fast';
}
