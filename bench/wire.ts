// Wire benchmark: a steady two-way 30 Hz exchange over the simulated link; reports what the connection layer
// adds to each packet (notify header, sealing) and what an empty packet costs on the wire.
import { SEAL_OVERHEAD } from '../src-main/net/crypto';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { makePair } from '../src-main/net/testing/pair';
import type { Pair } from '../src-main/net/testing/pair';
import { UDP_IPV4_OVERHEAD } from '../src-main/net/stats';

const SECONDS = 120;
const PAYLOAD_WORDS = 2; // 4-byte id + 8 bytes: a small game-like update

interface Scenario {
  headerBitsAvg: number;
  dataPackets: number;
  ackOnlyPackets: number;
  lossMeasuredPct: number;
  wireKbpsEachWay: number;
  rttMs: number;
}

function scenario(loss: number, delayMs: number): { pair: Pair; figures: Scenario } {
  const pair = makePair({ seed: 42, conditions: { ...NO_IMPAIRMENT, loss, delayMs, jitterMs: 5 } });
  pair.net.logging = false;
  pair.sim.runUntil(1000);
  // Each side ticks at 30 Hz with its own phase, as two independent apps would.
  pair.sim.every(1000 / 30, (now) => pair.clientSide.sendOne(now, PAYLOAD_WORDS), 1000);
  pair.sim.every(1000 / 30, (now) => pair.hostSide.sendOne(now, PAYLOAD_WORDS), 1000 + 11);
  pair.sim.runUntil(1000 + SECONDS * 1000);
  const c = pair.clientSide.conn;
  const h = pair.hostSide.conn;
  if (!c || !h) throw new Error('not connected');
  const headerBits = c.headerBitsTotal + h.headerBitsTotal;
  const dataPackets = c.dataPacketsSent + h.dataPacketsSent;
  const cs = c.stats(pair.sim.now);
  const hs = h.stats(pair.sim.now);
  const ackOnly = cs.packetsSent + hs.packetsSent - dataPackets;
  const wireBytes =
    cs.bytesSent + hs.bytesSent + UDP_IPV4_OVERHEAD * (cs.packetsSent + hs.packetsSent);
  return {
    pair,
    figures: {
      headerBitsAvg: round(headerBits / dataPackets),
      dataPackets,
      ackOnlyPackets: ackOnly,
      lossMeasuredPct: round((cs.lossPct + hs.lossPct) / 2),
      wireKbpsEachWay: round((wireBytes * 8) / 1000 / SECONDS / 2),
      rttMs: round(cs.rttMs),
    },
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** The size of one empty (keepalive) packet, measured by sending one. */
function emptyPacketBytes(pair: Pair): number {
  const conn = pair.clientSide.conn;
  if (!conn) throw new Error('not connected');
  while (pair.client.pollTransmit() !== undefined);
  conn.ping(pair.sim.now);
  const t = pair.client.pollTransmit();
  if (!t) throw new Error('no packet');
  return t.bytes.length;
}

export function run(): Promise<Record<string, unknown>> {
  const lossy = scenario(0.05, 40);
  const clean = scenario(0, 40);
  const empty = emptyPacketBytes(clean.pair);
  return Promise.resolve({
    headerBitsAvg: lossy.figures.headerBitsAvg,
    sealBytes: SEAL_OVERHEAD,
    emptyPacketOnWireBytes: empty + UDP_IPV4_OVERHEAD,
    emptyPacketDatagramBytes: empty,
    loss5: lossy.figures,
    loss0: clean.figures,
    setup: { seconds: SECONDS, rateHz: 30, payloadBytes: 4 + 4 * PAYLOAD_WORDS, oneWayDelayMs: 40 },
  });
}
