import { describe, expect, it } from 'vitest';
import type { BitWriter } from '../bitstream';
import { ranged, tableString, uint } from './params';
import { RpcRegistry } from './rpc';
import { makeStreamPair } from '../testing/stream-pair';

function defs() {
  const registry = new RpcRegistry();
  return {
    registry,
    tool: registry.register('tool', {
      policy: 'reliableUnordered',
      params: { tool: ranged(0, 5) },
    }),
    name: registry.register('name', {
      policy: 'reliableUnordered',
      params: { who: tableString(16) },
    }),
    big: registry.register('big', { policy: 'reliableOrdered', params: { id: uint(20) } }),
  };
}
// Three classes: ids take 2 bits. Window 8: ordered sequences take 4 bits. String table of 8: ids take 3 bits.

/** The delay field: a stamp, no queue report (every value of it is valid). */
function delayField(w: BitWriter): void {
  w.writeBool(true);
  w.writeUint(1234, 11);
  w.writeBool(false);
}

/** Rate field absent, the delay field, then the event section's presence bit. */
function eventSection(w: BitWriter): void {
  w.writeBool(false);
  delayField(w);
  w.writeBool(true);
}

const CASES: { name: string; detail: RegExp; write: (w: BitWriter) => void }[] = [
  {
    name: 'unknown RPC id',
    detail: /unknown event id 3/,
    write: (w) => {
      eventSection(w);
      w.writeUint(3, 2);
      w.writeBool(false);
    },
  },
  {
    name: 'out-of-range parameter',
    detail: /ranged value 7 above 5/,
    write: (w) => {
      eventSection(w);
      w.writeUint(0, 2);
      w.writeUint(7, 3);
      w.writeBool(false);
    },
  },
  {
    name: 'undefined string id',
    detail: /undefined string id 5/,
    write: (w) => {
      eventSection(w);
      w.writeUint(1, 2);
      w.writeBool(true); // tabled
      w.writeUint(5, 3);
      w.writeBool(false); // not inline: the id alone
      w.writeBool(false);
    },
  },
  {
    name: 'truncated message',
    detail: /need 20 bits/,
    write: (w) => {
      eventSection(w);
      w.writeUint(2, 2);
      w.writeUint(0, 4); // sequence
      w.writeUint(0, 3); // 3 of the id's 20 bits, then the packet ends
    },
  },
  {
    name: 'sequence beyond the window',
    detail: /sequence 8 beyond the window/,
    write: (w) => {
      eventSection(w);
      w.writeUint(2, 2);
      w.writeUint(7, 4);
      w.writeUint(0, 20);
      w.writeBool(true); // another event
      w.writeUint(2, 2);
      w.writeBool(true); // previous + 1 = 8 = next + window
      w.writeUint(0, 20);
      w.writeBool(false);
    },
  },
  {
    name: 'bad rate field',
    detail: /ranged value/,
    write: (w) => {
      w.writeBool(true);
      // Every 7-bit packet-rate code says a rate; a datagram size past 1472 B does not exist.
      w.writeUint(0, 7);
      w.writeUint(2047, 11);
      delayField(w);
      w.writeBool(false);
    },
  },
  {
    name: 'trailing data',
    detail: /bits after the last section/,
    write: (w) => {
      w.writeBool(false);
      delayField(w);
      w.writeBool(false);
      w.writeUint(0xffff, 16);
    },
  },
];

describe('hostile input through a real pair', () => {
  for (const c of CASES) {
    it(`closes the connection on ${c.name} and throws nothing`, () => {
      const d = defs();
      const pair = makeStreamPair({
        seed: 3,
        registry: d.registry,
        stack: { window: 8, strings: { size: 8, maxEntryBytes: 16 } },
      });
      const { sim } = pair;
      sim.runUntil(sim.now + 200);
      const hostile = pair.clientSide.conn;
      expect(hostile?.send(sim.now, (w) => (c.write(w), undefined))).toBe(true);
      sim.runUntil(sim.now + 500);
      const hostInfo = pair.hostSide.conn?.closeInfo;
      expect(hostInfo?.reason).toBe('protocol-error');
      expect(hostInfo?.detail).toMatch(c.detail);
      expect(pair.clientSide.conn?.closeInfo).toMatchObject({
        reason: 'protocol-error',
        byPeer: true,
      });
    });
  }

  it('a well-formed raw event is accepted (the cases above fail for their own reason only)', () => {
    const d = defs();
    const got: number[] = [];
    const pair = makeStreamPair({
      seed: 3,
      registry: d.registry,
      stack: { window: 8, strings: { size: 8, maxEntryBytes: 16 } },
      setup: (side) => {
        side.s.rpc.on(d.tool, (p) => got.push(p.tool));
      },
    });
    pair.sim.runUntil(pair.sim.now + 200);
    pair.clientSide.conn?.send(pair.sim.now, (w) => {
      eventSection(w);
      w.writeUint(0, 2);
      w.writeUint(5, 3);
      w.writeBool(false);
      return undefined;
    });
    pair.sim.runUntil(pair.sim.now + 500);
    expect(got).toEqual([5]);
    expect(pair.hostSide.conn?.isOpen).toBe(true);
  });
});
