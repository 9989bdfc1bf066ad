import { describe, expect, it } from 'vitest';
import type { PeerAddress } from './address';
import { addressKey } from './address';
import { Rng } from './rng';
import { makePair, SIM_CLIENT, SIM_HOST } from './testing/pair';

const DATAGRAMS = Number(process.env.GB_FUZZ_DATAGRAMS ?? 100_000);

/** Mutations of a genuine datagram: bit flips, byte overwrites, truncation, extension, splicing. */
function mutate(rng: Rng, src: Uint8Array): Uint8Array {
  const b = src.slice();
  switch (rng.int(5)) {
    case 0: {
      for (let k = rng.range(1, 4); k > 0 && b.length > 0; k--) {
        const i = rng.int(b.length * 8);
        b[i >> 3] = (b[i >> 3] ?? 0) ^ (0x80 >> (i & 7));
      }
      return b;
    }
    case 1:
      if (b.length > 0) b[rng.int(b.length)] = rng.int(256);
      return b;
    case 2:
      return b.slice(0, rng.int(b.length + 1));
    case 3: {
      const out = new Uint8Array(b.length + rng.range(1, 64));
      out.set(b);
      out.set(rng.bytes(out.length - b.length), b.length);
      return out;
    }
    default: {
      const cut = rng.int(b.length + 1);
      const tail = rng.bytes(rng.int(80));
      const out = new Uint8Array(cut + tail.length);
      out.set(b.subarray(0, cut));
      out.set(tail, cut);
      return out;
    }
  }
}

describe('fuzz: hostile datagrams at a host holding a live connection', () => {
  it(`survives ${DATAGRAMS} random and mutated datagrams with bounded tables`, () => {
    const seed = 0xf022;
    const rng = new Rng(seed);
    const pair = makePair({ seed });
    const { sim, host } = pair;
    // Capture genuine traffic to mutate: handshake packets and sealed data packets of the live client.
    const captured: Uint8Array[] = [];
    const origSend = pair.net.send.bind(pair.net);
    pair.net.send = (now, d) => {
      if (captured.length < 400 && addressKey(d.from) === addressKey(SIM_CLIENT))
        captured.push(d.bytes.slice());
      origSend(now, d);
    };
    sim.every(33, (now) => {
      pair.hostSide.sendOne(now, 3);
      pair.clientSide.sendOne(now, 3);
    });
    sim.runUntil(2000);
    expect(captured.length).toBeGreaterThan(50);
    const receivedBefore = pair.hostSide.received.size;

    const randomSource = (): PeerAddress =>
      rng.bool(0.3)
        ? SIM_CLIENT
        : {
            address: `127.${rng.int(256)}.${rng.int(256)}.${rng.range(1, 254)}`,
            port: rng.range(1024, 65535),
          };
    let replies = 0;
    for (let i = 0; i < DATAGRAMS; i++) {
      const from = randomSource();
      let bytes: Uint8Array;
      const kind = rng.int(4);
      if (kind === 0) bytes = rng.bytes(rng.int(1300));
      else if (kind === 1) {
        bytes = rng.bytes(rng.range(1, 200));
        bytes[0] = 0xc0 | rng.int(8);
      } else bytes = mutate(rng, rng.pick(captured));
      // Now and then on an extra local port (a fan's), where only routed peers may speak: this host has none.
      host.handleDatagram(sim.now, from, bytes, rng.bool(0.1) ? rng.range(1, 256) : 0);
      // Anything the host says to a source without a connection is never larger than what it got.
      for (let t = host.pollTransmit(); t !== undefined; t = host.pollTransmit()) {
        if (addressKey(t.to) !== addressKey(SIM_CLIENT)) {
          replies++;
          expect(t.bytes.length, `seed ${seed} datagram ${i}`).toBeLessThanOrEqual(bytes.length);
        } else {
          pair.net.send(sim.now, { from: SIM_HOST, to: t.to, bytes: t.bytes });
        }
      }
      if (i % 1000 === 999) {
        sim.runUntil(sim.now + 10);
        const sizes = host.tableSizes();
        expect(sizes.connections, `seed ${seed}`).toBeLessThanOrEqual(host.options.maxConnections);
        expect(sizes.failures, `seed ${seed}`).toBeLessThanOrEqual(4096);
        expect(sizes.outbox, `seed ${seed}`).toBe(0);
      }
    }
    expect(replies).toBeGreaterThan(0);
    // The live connection kept working throughout and still does.
    sim.runUntil(sim.now + 2000);
    expect(pair.hostSide.conn?.isOpen, `seed ${seed}`).toBe(true);
    expect(pair.clientSide.conn?.isOpen, `seed ${seed}`).toBe(true);
    expect(pair.hostSide.received.size).toBeGreaterThan(receivedBefore + 50);
    const last = pair.clientSide.notified.at(-1);
    expect(last?.delivered).toBe(true);
  });
});
