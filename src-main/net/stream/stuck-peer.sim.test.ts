import { describe, expect, it } from 'vitest';
import type { CloseInfo } from '../close-reason';
import { Rng } from '../rng';
import { NO_IMPAIRMENT } from '../impairment';
import { string, uint } from './params';
import { RpcRegistry } from './rpc';
import type { StreamPair } from '../testing/stream-pair';
import { makeStreamPair } from '../testing/stream-pair';

// A peer that keeps sending but never reads what it is sent holds the sender's window and, behind it, every
// event queued its way. These check that such a peer is let go (stalled, or its queue overflowed), that the
// sender's memory stays bounded meanwhile, and that slow or lossy but working paths are never mistaken for it.

function registry(): { registry: RpcRegistry; chat: ReturnType<RpcRegistry['register']> } {
  const r = new RpcRegistry();
  const chat = r.register('chat', {
    policy: 'reliableOrdered',
    channel: 0,
    priority: 1,
    params: { n: uint(20), text: string(120) },
  });
  return { registry: r, chat };
}

/** Host and client, each closing reason recorded. */
function pair(
  seed: number,
  o: { maxQueued?: number; maxQueuedBytes?: number } = {},
): {
  p: StreamPair;
  chat: ReturnType<RpcRegistry['register']>;
  closed: Map<'host' | 'client', CloseInfo>;
} {
  const { registry: reg, chat } = registry();
  const closed = new Map<'host' | 'client', CloseInfo>();
  const p = makeStreamPair({
    seed,
    registry: reg,
    stack: {
      ...o,
      onClosed: () => undefined,
    },
    setup: (side) => {
      side.s.rpc.on(chat, () => undefined);
    },
  });
  for (const side of [p.hostSide, p.clientSide]) {
    const conn = side.conn;
    const prev = conn?.handler?.onClosed?.bind(conn.handler);
    if (conn?.handler) {
      conn.handler.onClosed = (now, info) => {
        closed.set(side.role, info);
        prev?.(now, info);
      };
    }
  }
  return { p, chat, closed };
}

/** The client stops reading: it drops every datagram it is sent, but its timers keep it sending. */
function stopReading(p: StreamPair): void {
  p.client.handleDatagram = () => undefined;
}

describe('a peer that never acknowledges', () => {
  it('is closed as stalled a few seconds after its window stops moving, with the queue bounded by time', () => {
    const seed = 1;
    const { p, chat, closed } = pair(seed);
    let n = 0;
    p.sim.every(20, () => {
      if (p.hostSide.conn?.isOpen === true) p.hostSide.s.rpc.send(chat, { n: n++, text: 'a line' });
    });
    p.sim.runUntil(1000);
    stopReading(p);
    let calls = 0;
    const handle = p.host.handleTimeout.bind(p.host);
    p.host.handleTimeout = (now) => {
      calls++;
      handle(now);
    };
    p.sim.runUntil(1000 + 60_000);
    const info = closed.get('host');
    expect(info?.reason, `seed ${seed}`).toBe('stalled');
    // The stall clock starts with the first packet the peer did not ack; the peer was still heard since.
    expect(p.sim.now).toBeGreaterThan(6000);
    // The timer ran for its deadlines (probes, keepalives, ticks of 50 events a second), not in a spin.
    expect(calls, `seed ${seed}`).toBeLessThan(2000);
  });

  it('closes with overflow when more is queued for it than the stack keeps, and refuses the rest', () => {
    const seed = 2;
    const { p, chat, closed } = pair(seed, { maxQueued: 200, maxQueuedBytes: 64 * 1024 });
    p.sim.runUntil(500);
    stopReading(p);
    const results: boolean[] = [];
    p.sim.every(5, () => {
      if (p.hostSide.conn?.isOpen !== true) return;
      const rpc = p.hostSide.s.rpc;
      results.push(rpc.send(chat, { n: results.length, text: 'x'.repeat(100) }));
      expect(rpc.events.queueLength).toBeLessThanOrEqual(200);
      expect(rpc.events.queuedBits).toBeLessThanOrEqual(64 * 1024 * 8);
    });
    p.sim.runUntil(4000);
    expect(closed.get('host')?.reason, `seed ${seed}`).toBe('overflow');
    expect(closed.get('host')?.detail).toMatch(/200 events/);
    // Refused from the first overflow on, never accepted again.
    const first = results.indexOf(false);
    expect(first).toBeGreaterThan(0);
    expect(results.slice(first).every((r) => !r)).toBe(true);
  });

  it('a byte cap overflows before the count cap with large events', () => {
    const seed = 3;
    const { p, chat, closed } = pair(seed, { maxQueued: 10_000, maxQueuedBytes: 8 * 1024 });
    p.sim.runUntil(500);
    stopReading(p);
    p.sim.every(5, () => {
      if (p.hostSide.conn?.isOpen === true)
        p.hostSide.s.rpc.send(chat, { n: 1, text: 'y'.repeat(120) });
    });
    p.sim.runUntil(4000);
    expect(closed.get('host')?.reason, `seed ${seed}`).toBe('overflow');
    expect(closed.get('host')?.detail).toMatch(/bytes/);
  });
});

describe('working paths are never taken for stalled ones', () => {
  it('20 % loss both ways for 60 simulated seconds of traffic keeps every connection open', () => {
    for (const seed of [11, 12, 13, 14, 15]) {
      const { p, chat, closed } = pair(seed);
      const rng = new Rng(seed);
      p.net.setDefaults({ ...NO_IMPAIRMENT, loss: 0.2, delayMs: rng.range(5, 120), jitterMs: 10 });
      let n = 0;
      p.sim.every(25, () => {
        for (const side of [p.hostSide, p.clientSide])
          if (side.conn?.isOpen === true && rng.bool(0.5))
            side.s.rpc.send(chat, { n: n++, text: 'z' });
      });
      p.sim.runUntil(60_000);
      expect(closed.size, `seed ${seed}: ${JSON.stringify([...closed])}`).toBe(0);
    }
  });

  it('a total outage longer than the stall timeout but shorter than the silence timeout is survived', () => {
    const seed = 21;
    const { p, chat, closed } = pair(seed);
    p.sim.every(33, () => {
      if (p.hostSide.conn?.isOpen === true) p.hostSide.s.rpc.send(chat, { n: 1, text: 'during' });
    });
    p.sim.runUntil(1000);
    p.net.setDefaults({ ...NO_IMPAIRMENT, loss: 1 });
    p.sim.runUntil(9000);
    p.net.setDefaults(NO_IMPAIRMENT);
    p.sim.runUntil(12_000);
    expect(closed.size, `seed ${seed}: ${JSON.stringify([...closed])}`).toBe(0);
    expect(p.hostSide.s.rpc.events.unsettled).toBeLessThan(10);
  });
});
