// The one module that owns a node:dgram socket and the timer: it feeds an Endpoint datagrams and time, and sends
// what the Endpoint queues. Everything protocol lives in the sans-IO Endpoint; this file knows only sockets.
import dgram from 'node:dgram';
import type { PeerAddress } from './address';
import type { DatagramTenant } from './endpoint';
import { Rng } from './rng';
import type { Bottleneck, Impairment } from './impairment';
import { shapeDatagram } from './impairment';
import { UDP_IPV4_OVERHEAD } from './stats';

export interface UdpTransportOptions {
  readonly port: number;
  readonly bind: string;
}

/** Monotonic milliseconds; the only clock the running app gives the network core. */
export function monotonicNow(): number {
  return performance.now();
}

/** setImmediate turns in a row that may find nothing to send before the transport waits on a real timer. */
const MAX_IDLE_IMMEDIATES = 4;
/** Linux's default unicast TTL, restored after a priming datagram. */
const DEFAULT_TTL = 64;
/** Extra local ports a core may send from (a hard NAT's fan, net/nat-traversal.ts), at most. */
const MAX_EXTRA_PORTS = 256;
/** Datagrams an extra port holds while it binds (a fan primes each port twice). */
const MAX_WAITING_SENDS = 64;

/** What a transport drives: an endpoint, or any other sans-IO datagram core (a directory). */
export type DatagramCore = DatagramTenant;

export class UdpTransport<C extends DatagramCore> {
  private readonly socket: dgram.Socket;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private timerAt = Infinity;
  /** setImmediate turns in a row that sent nothing (see arm). */
  private idleImmediates = 0;
  private closed = false;
  /** Errors from the socket or from the core, counted instead of thrown out of a callback. */
  errors = 0;
  lastError: unknown;
  /** Called after every batch of work (datagram or timer), e.g. to drain endpoint events. */
  onActivity: (() => void) | undefined;
  /** Impairment added to this app's own outgoing traffic (a user-facing demo control), if any. */
  private impair: Bottleneck | undefined;
  private readonly impairRng = new Rng(Math.floor(Math.random() * 2 ** 32));
  private readonly delayed = new Set<NodeJS.Timeout>();
  /** Extra ports by number (1..MAX_EXTRA_PORTS), opened on the first datagram the core sends from one. */
  private readonly extra = new Map<number, dgram.Socket>();
  /**
   * Sends waiting for an extra port's bind: a socket's TTL can only be set once it is bound, and a priming datagram
   * sent with the default TTL would reach the other NAT and spoil the very mapping it opens (NETLAB.md).
   */
  private readonly unbound = new Map<dgram.Socket, (() => void)[]>();
  private bindAddress = '';

  private constructor(
    readonly endpoint: C,
    private readonly family: 'udp4' | 'udp6',
  ) {
    this.socket = this.createSocket(0);
  }

  /** A socket whose datagrams reach the core tagged with its port number (0 the main one). */
  private createSocket(via: number): dgram.Socket {
    const socket = dgram.createSocket({ type: this.family, reuseAddr: false });
    socket.on('message', (msg, rinfo) => {
      this.guard(() => {
        this.endpoint.handleDatagram(
          monotonicNow(),
          { address: rinfo.address, port: rinfo.port },
          msg,
          via,
        );
      });
    });
    socket.on('error', (err) => {
      this.errors++;
      this.lastError = err;
    });
    return socket;
  }

  /** The socket to send from: the main one, or extra port `via`, opened (bound like the main one) on first use. */
  private socketFor(via: number | undefined): dgram.Socket | undefined {
    if (via === undefined || via === 0) return this.socket;
    if (!Number.isInteger(via) || via < 0 || via > MAX_EXTRA_PORTS) return undefined;
    let socket = this.extra.get(via);
    if (socket === undefined) {
      const created = this.createSocket(via);
      this.unbound.set(created, []);
      created.once('listening', () => {
        const waiting = this.unbound.get(created) ?? [];
        this.unbound.delete(created);
        for (const send of waiting) send();
      });
      // A failed bind is an 'error', counted; what waits for it is dropped with the socket at close.
      created.bind(0, this.bindAddress);
      this.extra.set(via, created);
      socket = created;
    }
    return socket;
  }

  /** Runs `send` now, or once `socket` is bound (in order, bounded). */
  private whenBound(socket: dgram.Socket, send: () => void): void {
    const waiting = this.unbound.get(socket);
    if (waiting === undefined) send();
    else if (waiting.length < MAX_WAITING_SENDS) waiting.push(send);
  }

  /** Extra ports open now. */
  get extraPorts(): number {
    return this.extra.size;
  }

  /** Binds a socket (port 0 picks a free one) and starts driving the endpoint. */
  static async open<C extends DatagramCore>(
    endpoint: C,
    options: UdpTransportOptions,
  ): Promise<UdpTransport<C>> {
    const t = new UdpTransport(endpoint, options.bind.includes(':') ? 'udp6' : 'udp4');
    t.bindAddress = options.bind;
    await new Promise<void>((resolve, reject) => {
      t.socket.once('error', reject);
      t.socket.bind(options.port, options.bind, () => {
        t.socket.off('error', reject);
        resolve();
      });
    });
    t.pump();
    return t;
  }

  get address(): PeerAddress {
    const a = this.socket.address();
    return { address: a.address, port: a.port };
  }

  /** Sends what the endpoint has queued and re-arms the timer. Call after using a connection directly. */
  pump(): void {
    if (this.closed) return;
    for (let t = this.endpoint.pollTransmit(); t !== undefined; t = this.endpoint.pollTransmit()) {
      this.idleImmediates = 0;
      const socket = this.socketFor(t.via);
      if (socket === undefined) continue;
      const { bytes, to, ttl } = t;
      if (ttl === undefined) this.whenBound(socket, () => this.impaired(bytes, to, socket));
      else this.whenBound(socket, () => this.sendWithTtl(bytes, to, ttl, socket));
    }
    this.onActivity?.();
    this.arm();
  }

  /**
   * Adds loss, delay and a bandwidth cap to what this app sends, with the simulator's semantics, so a user can
   * watch pointers, drags and chat degrade; undefined removes them.
   */
  setConditions(c: Impairment | undefined): void {
    this.impair = c === undefined ? undefined : { conditions: c, busyUntil: 0 };
  }

  private impaired(bytes: Uint8Array, to: PeerAddress, socket: dgram.Socket): void {
    const impair = this.impair;
    if (impair === undefined) {
      this.sendNow(bytes, to, socket);
      return;
    }
    const now = monotonicNow();
    const verdict = shapeDatagram(impair, this.impairRng, now, bytes.length + UDP_IPV4_OVERHEAD);
    if (verdict.kind !== 'deliver') return;
    for (const at of verdict.at) {
      if (at <= now) {
        this.sendNow(bytes, to, socket);
        continue;
      }
      const timer = setTimeout(() => {
        this.delayed.delete(timer);
        if (!this.closed) this.sendNow(bytes, to, socket);
      }, at - now);
      this.delayed.add(timer);
    }
  }

  /**
   * A datagram that must die a few hops out (NAT priming: it opens our own NAT's mapping and expires before the
   * other side's NAT, which would otherwise take it as unsolicited and spoil the mapping the real punch needs).
   * node:dgram resolves even an IP literal on a later tick (in order) before it sends, so the socket's TTL is set
   * and restored on ticks queued around this one send, not around the call. The self-impairment is not applied.
   */
  private sendWithTtl(bytes: Uint8Array, to: PeerAddress, ttl: number, socket: dgram.Socket): void {
    const set = (value: number) => () => {
      try {
        if (!this.closed) socket.setTTL(value);
      } catch (e) {
        this.errors++;
        this.lastError = e;
      }
    };
    process.nextTick(set(ttl));
    socket.send(bytes, to.port, to.address);
    process.nextTick(set(DEFAULT_TTL));
  }

  private sendNow(bytes: Uint8Array, to: PeerAddress, socket: dgram.Socket): void {
    // No callback: a failed send is emitted as the socket's 'error' event, counted there (a callback per
    // datagram costs a closure and a completion call on a host sending thousands a second).
    socket.send(bytes, to.port, to.address);
  }

  /** The timer's callback: made once, since arm() runs after every pump (a closure each time showed in profiles). */
  private readonly fire = (): void => {
    this.timer = undefined;
    this.immediate = undefined;
    this.timerAt = Infinity;
    this.guard(this.timeout);
  };

  private readonly timeout = (): void => {
    this.endpoint.handleTimeout(monotonicNow());
  };

  private arm(): void {
    const at = this.endpoint.nextTimeout();
    if (at === this.timerAt && (this.timer !== undefined || this.immediate !== undefined)) return;
    this.disarm();
    this.timerAt = at;
    if (!Number.isFinite(at)) return;
    const fire = this.fire;
    const wait = at - monotonicNow();
    // Work due now (a packet the app just queued, data relayed from the datagram just read) goes out right
    // after this batch of I/O callbacks, not a timer tick later (setTimeout(0) waits ~1 ms). A deadline that
    // stays due without anything leaving would spin the loop: after a few such turns, fall back to a timer.
    // (The core never leaves a deadline due that it cannot act on, and the simulator fails any that does;
    // this is the safety net for a bug, so that it costs a millisecond timer, not a busy CPU.)
    if (wait <= 0 && this.idleImmediates < MAX_IDLE_IMMEDIATES) {
      this.idleImmediates++;
      this.immediate = setImmediate(fire);
      return;
    }
    this.timer = setTimeout(fire, Math.max(0, Math.ceil(wait)));
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  /** No exception escapes a socket or timer callback: it is counted and the work goes on. */
  private guard(work: () => void): void {
    try {
      work();
    } catch (e) {
      this.errors++;
      this.lastError = e;
    }
    try {
      this.pump();
    } catch (e) {
      this.errors++;
      this.lastError = e;
    }
  }

  /** Sends what is queued (e.g. CLOSE packets) and closes the socket. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (let t = this.endpoint.pollTransmit(); t !== undefined; t = this.endpoint.pollTransmit()) {
      const { bytes, to } = t;
      const socket = this.socketFor(t.via);
      if (socket === undefined) continue;
      await new Promise<void>((resolve) => {
        socket.send(bytes, to.port, to.address, () => {
          resolve();
        });
      });
    }
    // Datagrams sent just before (a CLOSE, a directory's deregistration) are still resolving their address on a
    // later tick: let them leave before the socket goes.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.closed = true;
    this.disarm();
    for (const t of this.delayed) clearTimeout(t);
    this.delayed.clear();
    const sockets = [this.socket, ...this.extra.values()];
    this.extra.clear();
    this.unbound.clear();
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            try {
              socket.close(() => {
                resolve();
              });
            } catch {
              // An extra port whose bind failed is already closed.
              resolve();
            }
          }),
      ),
    );
  }
}
