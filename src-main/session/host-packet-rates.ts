// The packet rates a host keeps with each of its peers, both ways. Every datagram costs its host work: one from a
// peer a decryption, an ack round and a read (52 µs each on the busiest mirror of the mirrors-scale bench at 250
// peers); one to a peer its entries, a sealing and the scheduling (149 µs there, with a full packet of pointers). At
// 250 peers a mirror exchanging 30 packets/s each way with each needed 1.75 cores. So a host with many peers asks
// each for fewer, and sends each fewer, as a TRIBES server sets its clients' rates: HOST_PACKETS a second in all
// each way, never fewer than MIN_PEER_PACKETS per peer, nor more than usual. At the floor a peer sees each pointer
// in its view move about 15 times a second, which the renderer interpolates; a lower floor saved that mirror
// nothing measurable (16 packets/s each way cost what 20 did: what is left does not shrink with the packets). A
// session of up to 60 peers keeps the usual 66 up; a peer fetching the board keeps its faster download (see
// fetchingBoard). Pure; knows nothing of connections.
import type { RatePolicy } from '../net/stream/rate';
import { packetRateAtMost } from '../net/stream/rate';

/** Packets/s a host exchanges with its peers in all, each way: 40 each at 100 peers, 20 from 200 on. */
export const HOST_PACKETS = 4000;
/** A host never asks a peer for, nor sends it, fewer packets/s than this (nor more than the usual). */
export const MIN_PEER_PACKETS = 20;

/**
 * A host of `peers` connections, each way: `usual` (what it accepts from each, or the most it sends each), or fewer
 * packets of the same size, each peer's share of `total` packets/s. On the way down the peer's own accepted rate
 * binds too.
 */
export function peerShare(
  usual: RatePolicy,
  peers: number,
  total: number = HOST_PACKETS,
): RatePolicy {
  const floor = Math.min(usual.packetsPerSecond, MIN_PEER_PACKETS);
  const share = packetRateAtMost(Math.max(1, total / Math.max(1, peers)));
  const wanted = Math.max(floor, Math.min(usual.packetsPerSecond, share));
  return wanted === usual.packetsPerSecond
    ? usual
    : { packetsPerSecond: wanted, packetBytes: usual.packetBytes };
}

/**
 * Whether a peer asking for `asks` is fetching the board: more than the session's `usual` rate is what a joiner
 * asks for only then (join-rate.ts). It keeps the host's full cap meanwhile, so a late joiner's download is not held
 * to a pointer's share. (A near peer's faster rate, near-rate.ts, ends before sessions grow to where shares bind.)
 */
export function fetchingBoard(asks: RatePolicy, usual: RatePolicy): boolean {
  return asks.packetsPerSecond > usual.packetsPerSecond;
}

/**
 * How a host's budget follows its own load. HOST_PACKETS suits the 2-core machine it was measured on; a host on a
 * faster one can afford more, a slower one less, and past a core (one event loop) the host falls behind: every
 * peer's packets come late. So each second a host is told the share of a core its process used and how busy its
 * event loop was, and scales its budget as TCP's congestion control scales a window: down at once, in proportion,
 * when its own CPU is past BUSY_HIGH (towards BUSY_TARGET); up a little while both are under BUSY_LOW and the budget
 * holds some peer under its usual rate. The loop counts too for growing, as its own CPU does not, the time other
 * processes held the core: a host sharing a full core with busy neighbours uses little of it, and more packets are
 * no help there. It does not count for cutting, as it reads busy then too: fewer packets would not give the host
 * the core back (neither first version gained anything there, 2026-11-28, BENCHMARKS.md). Within
 * [MIN_BUDGET_SCALE, MAX_BUDGET_SCALE] of the budget given, and never under MIN_PEER_PACKETS a peer (peerShare).
 */
export const BUSY_HIGH = 0.9;
export const BUSY_LOW = 0.6;
const BUSY_TARGET = 0.75;
/** The most one second's cut takes off the budget, and what a calm second adds back. */
const MOST_CUT = 0.7;
const GROWTH = 1.15;
export const MIN_BUDGET_SCALE = 0.25;
export const MAX_BUDGET_SCALE = 4;

/** A host's last second: the share of a core its process used, and of the time its event loop was busy (0..1). */
export interface HostLoad {
  readonly cpu: number;
  readonly loop: number;
}

/**
 * The budget's next scale from `scale`, after a second of `load`. `inUse` is the scale its peers' rates come to
 * now, at most `scale` (a small session uses less than its budget: a cut starts from what it uses, so that it bites
 * at once); `binds`, whether the budget holds some peer under its usual rate (else more budget changes nothing, and
 * is not taken).
 */
export function adaptBudget(scale: number, load: HostLoad, inUse: number, binds: boolean): number {
  const { cpu, loop } = load;
  if (!Number.isFinite(cpu) || !Number.isFinite(loop)) return scale;
  if (cpu > BUSY_HIGH) {
    const from = Math.min(scale, inUse);
    return Math.max(MIN_BUDGET_SCALE, from * Math.max(MOST_CUT, BUSY_TARGET / cpu));
  }
  if (Math.max(cpu, loop) < BUSY_LOW && binds) return Math.min(MAX_BUDGET_SCALE, scale * GROWTH);
  return scale;
}
