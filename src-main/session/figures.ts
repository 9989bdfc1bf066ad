// A connection's traffic figures in the shape the UI and the CLI report: totals, rate in force, and kbit/s by
// kind (headers + crypto, presence ghosts, events, board ghosts). Pure; knows nothing of the UI.
import type { KindTraffic, ConnectionStats } from '../../shared/api';
import type { PeerId } from '../../shared/board';
import type { ConnectionStack } from './connection-stack';

const r1 = (x: number): number => Math.round(x * 10) / 10;

export function connectionFigures(
  now: number,
  peer: PeerId,
  name: string,
  stack: ConnectionStack,
): ConnectionStats {
  const c = stack.conn.stats(now);
  const s = stack.events.scheduler.stats(now);
  const kinds = new Set([...Object.keys(s.sent), ...Object.keys(s.received)]);
  const byKind: KindTraffic[] = [...kinds].map((kind) => ({
    kind: kind === 'scheduler' ? 'stream overhead' : kind,
    kbpsIn: r1((s.received[kind]?.bitsPerSecond ?? 0) / 1000),
    kbpsOut: r1((s.sent[kind]?.bitsPerSecond ?? 0) / 1000),
  }));
  // What the wire carries beyond the payload: notify header, AEAD tag, IPv4/UDP.
  byKind.unshift({
    kind: 'headers + crypto',
    kbpsIn: r1(Math.max(0, c.wireKbpsIn - c.payloadKbpsIn)),
    kbpsOut: r1(Math.max(0, c.wireKbpsOut - c.payloadKbpsOut)),
  });
  return {
    peer,
    name,
    rttMs: r1(c.rttMs),
    lossPct: r1(c.lossPct),
    kbpsIn: r1(c.wireKbpsIn),
    kbpsOut: r1(c.wireKbpsOut),
    packetsPerSecondIn: c.packetsPerSecondIn,
    packetsPerSecondOut: c.packetsPerSecondOut,
    inFlight: c.inFlight,
    windowSize: c.windowSize,
    packetsPerSecond: s.effectiveRate.packetsPerSecond,
    packetBytes: s.effectiveRate.packetBytes,
    allowedKbps:
      s.adaptiveBytesPerSecond === undefined ? null : r1((s.adaptiveBytesPerSecond * 8) / 1000),
    estimatedKbps:
      s.estimatedBytesPerSecond === undefined ? null : r1((s.estimatedBytesPerSecond * 8) / 1000),
    byKind,
  };
}
