// A userspace UDP impairment proxy for loopback tests (netem's job without root): owns the sockets and the one delivery timer; knows nothing of the protocol it carries.
import dgram from 'node:dgram';
import type { PeerAddress } from '../../src-main/net/address';
import { addressKey } from '../../src-main/net/address';
import { Rng } from '../../src-main/net/rng';
import type { Impairment } from '../../src-main/net/impairment';
import { UDP_IPV4_OVERHEAD } from '../../src-main/net/stats';
import { DueHeap } from '../../src-main/net/due-heap';
import { assertLoopback, closeSocket, familyOf } from './loopback';
import type { Bottleneck } from '../../src-main/net/impairment';
import { assertImpairment, shapeDatagram } from '../../src-main/net/impairment';
import type { PathStats, ProxyStats } from './stats';
import { count, newPathStats, newTally } from './stats';

export type ProxyDirection = 'up' | 'down';

export interface ProxyOptions {
  /** Where clients send; port 0 picks a free one. Loopback only. */
  readonly listen: PeerAddress;
  /** The server behind the proxy. Loopback only. */
  readonly target: PeerAddress;
  /** Client to target. */
  readonly upstream: Impairment;
  /** Target to client. */
  readonly downstream: Impairment;
  /** Seeds the up direction's RNG; the down direction's is seeded with seed + 1. */
  readonly seed: number;
  /** Live client entries at most; datagrams from further clients are dropped. Default 1024. */
  readonly maxClients?: number;
  /** A client entry with no traffic either way for this long (and nothing in flight) expires. Default 30 s. */
  readonly idleTimeoutMs?: number;
  /** Delayed bytes held at most; beyond it datagrams are dropped as queue overflow. Default 64 MiB. */
  readonly maxInFlightBytes?: number;
}

interface Client {
  readonly key: string;
  readonly peer: PeerAddress;
  /** Bound to loopback port 0, so the target sees one distinct peer per client and replies find their way back. */
  readonly socket: dgram.Socket;
  readonly stats: PathStats;
  lastActiveAt: number;
  inFlight: number;
}

interface Pending {
  readonly at: number;
  readonly order: number;
  readonly client: Client;
  readonly direction: ProxyDirection;
  readonly bytes: Buffer;
}

/** One direction's bottleneck and its own RNG. */
interface ImpairedDirection extends Bottleneck {
  readonly rng: Rng;
}

export class ImpairmentProxy {
  readonly address: PeerAddress;
  private readonly clients = new Map<string, Client>();
  private readonly directions: Record<ProxyDirection, ImpairedDirection>;
  private readonly heap = new DueHeap<Pending>();
  private order = 0;
  private inFlightBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;
  private readonly total = newPathStats();
  private readonly rejected = newTally();
  private readonly foreign = newTally();
  private clientsExpired = 0;
  private socketErrors = 0;
  private readonly maxClients: number;
  private readonly idleTimeoutMs: number;
  private readonly maxInFlightBytes: number;

  private constructor(
    private readonly socket: dgram.Socket,
    private readonly options: ProxyOptions,
  ) {
    const a = socket.address();
    this.address = { address: a.address, port: a.port };
    this.maxClients = options.maxClients ?? 1024;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.maxInFlightBytes = options.maxInFlightBytes ?? 64 * 1024 * 1024;
    this.directions = {
      up: { conditions: options.upstream, busyUntil: 0, rng: new Rng(options.seed) },
      down: { conditions: options.downstream, busyUntil: 0, rng: new Rng(options.seed + 1) },
    };
    socket.on('message', (bytes, rinfo) => {
      this.onClientDatagram(bytes, { address: rinfo.address, port: rinfo.port });
    });
    socket.on('error', () => this.socketErrors++);
    const sweepEveryMs = Math.min(1000, Math.max(10, this.idleTimeoutMs / 2));
    this.sweeper = setInterval(() => {
      this.sweep(performance.now());
    }, sweepEveryMs);
  }

  static async start(options: ProxyOptions): Promise<ImpairmentProxy> {
    assertLoopback('listen', options.listen.address);
    assertLoopback('target', options.target.address);
    assertImpairment(options.upstream);
    assertImpairment(options.downstream);
    const socket = dgram.createSocket(familyOf(options.listen.address));
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error): void => {
        void closeSocket(socket);
        reject(err);
      };
      socket.once('error', failed);
      socket.bind(options.listen.port, options.listen.address, () => {
        socket.off('error', failed);
        resolve();
      });
    });
    return new ImpairmentProxy(socket, options);
  }

  /** Replaces one direction's conditions; what is already queued keeps its due time. */
  setConditions(direction: ProxyDirection, c: Impairment): void {
    assertImpairment(c);
    this.directions[direction].conditions = c;
  }

  /** A deep copy of the counters, safe to keep or serialise. */
  stats(): ProxyStats {
    const snapshot: ProxyStats = {
      total: this.total,
      clients: [...this.clients.values()].map((c) => ({ client: c.key, ...c.stats })),
      rejected: this.rejected,
      foreign: this.foreign,
      clientsExpired: this.clientsExpired,
      socketErrors: this.socketErrors,
      inFlight: this.heap.size,
    };
    return structuredClone(snapshot);
  }

  /** Drops whatever is in flight, stops the timers and closes every socket. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    clearInterval(this.sweeper);
    this.heap.clear();
    const sockets = [this.socket, ...[...this.clients.values()].map((c) => c.socket)];
    this.clients.clear();
    await Promise.all(sockets.map(closeSocket));
  }

  private onClientDatagram(bytes: Buffer, from: PeerAddress): void {
    if (this.closed) return;
    const now = performance.now();
    const key = addressKey(from);
    let client = this.clients.get(key);
    if (client === undefined) {
      if (this.clients.size >= this.maxClients) {
        count(bytes.length, this.rejected);
        return;
      }
      client = this.openClient(key, from, now);
    }
    client.lastActiveAt = now;
    this.admit(client, 'up', bytes, now);
  }

  private onTargetDatagram(client: Client, bytes: Buffer, from: PeerAddress): void {
    if (this.closed) return;
    const target = this.options.target;
    if (from.port !== target.port || from.address !== target.address) {
      count(bytes.length, this.foreign);
      return;
    }
    const now = performance.now();
    client.lastActiveAt = now;
    this.admit(client, 'down', bytes, now);
  }

  private openClient(key: string, peer: PeerAddress, now: number): Client {
    const family = familyOf(this.options.target.address);
    const socket = dgram.createSocket(family);
    const client: Client = {
      key,
      peer,
      socket,
      stats: newPathStats(),
      lastActiveAt: now,
      inFlight: 0,
    };
    socket.on('message', (bytes, rinfo) => {
      this.onTargetDatagram(client, bytes, { address: rinfo.address, port: rinfo.port });
    });
    socket.on('error', () => this.socketErrors++);
    // Sends made before the bind completes are queued by node:dgram, so the first datagram need not wait.
    socket.bind(0, family === 'udp6' ? '::1' : '127.0.0.1');
    this.clients.set(key, client);
    return client;
  }

  /** Runs one datagram through its direction's impairment and queues the copies that survive. */
  private admit(client: Client, direction: ProxyDirection, bytes: Buffer, now: number): void {
    const size = bytes.length;
    const mine = client.stats[direction];
    const all = this.total[direction];
    count(size, mine.offered, all.offered);
    const wireSize = size + UDP_IPV4_OVERHEAD;
    if (this.inFlightBytes + wireSize > this.maxInFlightBytes) {
      count(size, mine.droppedQueue, all.droppedQueue);
      return;
    }
    const verdict = shapeDatagram(
      this.directions[direction],
      this.directions[direction].rng,
      now,
      wireSize,
    );
    switch (verdict.kind) {
      case 'queue-full':
        count(size, mine.droppedQueue, all.droppedQueue);
        return;
      case 'lost':
        count(size, mine.droppedLoss, all.droppedLoss);
        return;
      case 'deliver':
        count(size, mine.forwarded, all.forwarded);
        for (let i = 1; i < verdict.at.length; i++) count(size, mine.duplicates, all.duplicates);
        for (const at of verdict.at)
          this.schedule({ at, order: this.order++, client, direction, bytes }, now);
        return;
    }
  }

  private schedule(p: Pending, now: number): void {
    // Nothing earlier is waiting, so sending at once keeps order and saves a timer tick on an unimpaired link.
    if (p.at <= now && this.heap.size === 0) {
      this.transmit(p);
      return;
    }
    p.client.inFlight++;
    this.inFlightBytes += p.bytes.length + UDP_IPV4_OVERHEAD;
    this.heap.push(p);
    this.arm(now);
  }

  /** Keeps the single timer set for the earliest due datagram. */
  private arm(now: number): void {
    const head = this.heap.peek();
    if (head === undefined || this.closed) return;
    if (this.timer !== undefined && this.timerAt <= head.at) return;
    clearTimeout(this.timer);
    this.timerAt = head.at;
    this.timer = setTimeout(this.onTimer, Math.max(0, Math.ceil(head.at - now)));
  }

  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    // At most what was queued at wake-up: copies queued while sending wait for the next tick.
    for (let n = this.heap.size; n > 0; n--) {
      const head = this.heap.peek();
      if (head === undefined || head.at > now) break;
      this.heap.pop();
      head.client.inFlight--;
      this.inFlightBytes -= head.bytes.length + UDP_IPV4_OVERHEAD;
      this.transmit(head);
    }
    this.arm(performance.now());
  };

  private transmit(p: Pending): void {
    const { socket, to } =
      p.direction === 'up'
        ? { socket: p.client.socket, to: this.options.target }
        : { socket: this.socket, to: p.client.peer };
    count(p.bytes.length, p.client.stats[p.direction].sent, this.total[p.direction].sent);
    try {
      socket.send(p.bytes, to.port, to.address, (err) => {
        if (err) this.socketErrors++;
      });
    } catch {
      this.socketErrors++; // a socket closed under us; the datagram is gone like any other loss
    }
  }

  /** Expires idle clients; bounded by maxClients per call. */
  private sweep(now: number): void {
    for (const client of this.clients.values()) {
      if (client.inFlight > 0 || now - client.lastActiveAt < this.idleTimeoutMs) continue;
      this.clients.delete(client.key);
      this.clientsExpired++;
      void closeSocket(client.socket);
    }
  }
}
