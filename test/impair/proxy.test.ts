// The impairment proxy over real UDP on 127.0.0.1 in front of an echo server: counts, routing and ordering, never timing thresholds; knows nothing of Ghostboard's protocol.
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { PeerAddress } from '../../src-main/net/address';
import type { Impairment } from '../../src-main/net/impairment';
import { NO_IMPAIRMENT } from '../../src-main/net/impairment';
import type { ProxyOptions } from './proxy';
import { ImpairmentProxy } from './proxy';

const LOOPBACK = '127.0.0.1';
const SEED = 1;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

interface Received {
  readonly tag: number;
  readonly seq: number;
  readonly at: number;
}

interface Peer {
  readonly socket: dgram.Socket;
  readonly address: PeerAddress;
  readonly received: Received[];
}

async function bound(onMessage: (socket: dgram.Socket, msg: Buffer, from: PeerAddress) => void) {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, r) => {
    onMessage(socket, msg, { address: r.address, port: r.port });
  });
  await new Promise<void>((resolve) => socket.bind(0, LOOPBACK, resolve));
  cleanups.push(
    () =>
      new Promise((resolve) =>
        socket.close(() => {
          resolve();
        }),
      ),
  );
  const a = socket.address();
  return { socket, address: { address: a.address, port: a.port } };
}

const echoServer = () =>
  bound((socket, msg, from) => {
    socket.send(msg, from.port, from.address);
  });

async function client(): Promise<Peer> {
  const received: Received[] = [];
  const s = await bound((_socket, msg) => {
    received.push({ tag: msg.readUInt32BE(0), seq: msg.readUInt32BE(4), at: performance.now() });
  });
  return { ...s, received };
}

async function proxyTo(
  target: PeerAddress,
  upstream: Impairment,
  downstream: Impairment = NO_IMPAIRMENT,
  extra: Partial<ProxyOptions> = {},
): Promise<ImpairmentProxy> {
  const proxy = await ImpairmentProxy.start({
    listen: { address: LOOPBACK, port: 0 },
    target,
    upstream,
    downstream,
    seed: SEED,
    ...extra,
  });
  cleanups.push(() => proxy.close());
  return proxy;
}

/**
 * Sends `count` datagrams (tag, seq, padding) in small batches, yielding between them so the proxy (on
 * this same event loop) drains its socket before the kernel's receive buffer could overflow.
 */
async function sendMany(peer: Peer, to: PeerAddress, tag: number, count: number, size = 32) {
  const sentAt: number[] = [];
  for (let seq = 0; seq < count;) {
    const batch: Promise<void>[] = [];
    for (const end = Math.min(count, seq + 16); seq < end; seq++) {
      const msg = Buffer.alloc(size);
      msg.writeUInt32BE(tag, 0);
      msg.writeUInt32BE(seq, 4);
      sentAt.push(performance.now());
      batch.push(
        new Promise((resolve) => {
          peer.socket.send(msg, to.port, to.address, () => {
            resolve();
          });
        }),
      );
    }
    await Promise.all(batch);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return sentAt;
}

/** Waits (bounded) until `cond` holds. */
async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`condition not met in time (seed ${SEED})`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const seqs = (p: Peer) => p.received.map((r) => r.seq).sort((a, b) => a - b);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('ImpairmentProxy on 127.0.0.1', () => {
  it('with no impairment, echoes every datagram back to the client that sent it', async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.address, NO_IMPAIRMENT);
    const [a, b] = [await client(), await client()];
    const n = 300;
    await Promise.all([sendMany(a, proxy.address, 1, n), sendMany(b, proxy.address, 2, n)]);
    await until(() => a.received.length === n && b.received.length === n);
    expect(a.received.every((r) => r.tag === 1)).toBe(true);
    expect(b.received.every((r) => r.tag === 2)).toBe(true);
    expect(seqs(a)).toEqual(range(n));
    expect(seqs(b)).toEqual(range(n));
    const s = proxy.stats();
    expect(s.clients.map((c) => c.client).sort()).toEqual(
      [a, b].map((p) => `${LOOPBACK}:${p.address.port}`).sort(),
    );
    expect(s.total.up.offered.datagrams).toBe(2 * n);
    expect(s.total.down.sent.datagrams).toBe(2 * n);
    expect(s.total.up.offered.wireBytes).toBe(2 * n * (32 + 28));
  });

  it('loss 0.3 drops about 30 % and forwards exactly what it does not drop', async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.address, { ...NO_IMPAIRMENT, loss: 0.3 });
    const a = await client();
    const n = 2000;
    await sendMany(a, proxy.address, 1, n);
    await until(() => proxy.stats().total.up.offered.datagrams === n);
    const up = proxy.stats().total.up;
    await until(() => a.received.length === up.forwarded.datagrams);
    expect(up.forwarded.datagrams).toBe(n - up.droppedLoss.datagrams);
    expect(up.droppedQueue.datagrams).toBe(0);
    const fraction = up.droppedLoss.datagrams / n;
    expect(fraction, `seed ${SEED}`).toBeGreaterThan(0.2);
    expect(fraction, `seed ${SEED}`).toBeLessThan(0.4);
    expect(new Set(a.received.map((r) => r.seq)).size).toBe(up.forwarded.datagrams);
  });

  it('delay 30 ms each way holds every echo at least 60 ms', async () => {
    const echo = await echoServer();
    const delayed = { ...NO_IMPAIRMENT, delayMs: 30 };
    const proxy = await proxyTo(echo.address, delayed, delayed);
    const a = await client();
    const n = 20;
    const sentAt = await sendMany(a, proxy.address, 1, n);
    await until(() => a.received.length === n);
    expect(seqs(a)).toEqual(range(n));
    for (const r of a.received)
      expect(r.at - (sentAt[r.seq] ?? Infinity)).toBeGreaterThanOrEqual(58);
    expect(proxy.stats().inFlight).toBe(0);
  });

  it('duplication 1.0 delivers every datagram twice', async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.address, { ...NO_IMPAIRMENT, duplicate: 1 });
    const a = await client();
    const n = 100;
    await sendMany(a, proxy.address, 1, n);
    await until(() => a.received.length === 2 * n);
    expect(seqs(a)).toEqual(range(n).flatMap((i) => [i, i]));
    const up = proxy.stats().total.up;
    expect(up.duplicates.datagrams).toBe(n);
    expect(up.sent.datagrams).toBe(2 * n);
  });

  it('a 200 kbit/s bottleneck with a 100 ms queue tail-drops a burst it cannot hold', async () => {
    const echo = await echoServer();
    const narrow = { ...NO_IMPAIRMENT, bandwidthBps: 200_000, maxQueueMs: 100 };
    const proxy = await proxyTo(echo.address, narrow);
    const a = await client();
    const n = 200;
    await sendMany(a, proxy.address, 1, n, 1000);
    await until(() => proxy.stats().total.up.offered.datagrams === n);
    const up = proxy.stats().total.up;
    // 1028 B takes 41 ms at 200 kbit/s, so waits of 0, 41 and 82 ms fit: at least three get through.
    expect(up.forwarded.datagrams).toBeGreaterThanOrEqual(3);
    expect(up.forwarded.datagrams).toBeLessThan(n);
    expect(up.droppedQueue.datagrams).toBe(n - up.forwarded.datagrams);
    expect(up.droppedLoss.datagrams).toBe(0);
    await until(() => a.received.length === up.forwarded.datagrams);
    // One bottleneck, one FIFO: what survives arrives in the order it was sent.
    const got = a.received.map((r) => r.seq);
    expect(got).toEqual([...got].sort((x, y) => x - y));
  });

  it('turns away clients past maxClients', async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.address, NO_IMPAIRMENT, NO_IMPAIRMENT, { maxClients: 1 });
    const [a, b] = [await client(), await client()];
    await sendMany(a, proxy.address, 1, 5);
    await until(() => a.received.length === 5);
    await sendMany(b, proxy.address, 2, 5);
    await until(() => proxy.stats().rejected.datagrams === 5);
    expect(b.received).toHaveLength(0);
    expect(proxy.stats().clients.map((c) => c.client)).toEqual([`${LOOPBACK}:${a.address.port}`]);
  });

  it('expires an idle client entry, freeing its slot for a new client', async () => {
    const echo = await echoServer();
    const proxy = await proxyTo(echo.address, NO_IMPAIRMENT, NO_IMPAIRMENT, {
      maxClients: 1,
      idleTimeoutMs: 300,
    });
    const [a, b] = [await client(), await client()];
    await sendMany(a, proxy.address, 1, 5);
    await until(() => a.received.length === 5);
    await until(() => proxy.stats().clientsExpired === 1);
    expect(proxy.stats().clients).toHaveLength(0);
    await sendMany(b, proxy.address, 2, 5);
    await until(() => b.received.length === 5);
    expect(proxy.stats().clients.map((c) => c.client)).toEqual([`${LOOPBACK}:${b.address.port}`]);
    expect(proxy.stats().total.up.offered.datagrams).toBe(10);
  });

  it('close() with datagrams still in flight leaves no socket or timer behind', async () => {
    const echo = await echoServer();
    const a = await client();
    const handles = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'UDPWRAP' || r === 'Timeout').length;
    const before = handles();
    const proxy = await ImpairmentProxy.start({
      listen: { address: LOOPBACK, port: 0 },
      target: echo.address,
      upstream: { ...NO_IMPAIRMENT, delayMs: 10_000 },
      downstream: NO_IMPAIRMENT,
      seed: SEED,
    });
    await sendMany(a, proxy.address, 1, 10);
    await until(() => proxy.stats().inFlight === 10);
    expect(handles()).toBeGreaterThan(before);
    await proxy.close();
    expect(handles()).toBe(before);
  });
});
