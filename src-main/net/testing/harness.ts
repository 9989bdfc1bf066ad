// Drives endpoints over a SimNetwork in virtual time: deliveries, timers and scripted application ticks,
// in a deterministic order. Knows nothing of what the endpoints carry.
import type { PeerAddress } from '../address';
import { addressKey } from '../address';
import type { Transmit } from '../endpoint';
import type { SimNetwork } from './network';
import { DueHeap } from '../due-heap';

/** The sans-IO surface of an endpoint that the harness drives. */
export interface SimEndpoint {
  handleDatagram(now: number, from: PeerAddress, bytes: Uint8Array): void;
  handleTimeout(now: number): void;
  nextTimeout(): number;
  pollTransmit(): Transmit | undefined;
  /** Throws if a cached timeout is later than the real one (checked after every step while `audit` is on). */
  auditTimeouts?(): void;
}

export interface SimNode {
  readonly address: PeerAddress;
  readonly endpoint: SimEndpoint;
}

/** Timer calls at one instant that may each leave the endpoint due before it counts as spinning. */
const MAX_CALLS_PER_INSTANT = 100;

export class SimHarness {
  now = 0;
  /** Check every endpoint's cached timeouts after each step (tests); benchmarks of many peers turn it off. */
  audit = true;
  private readonly nodes = new Map<string, SimNode>();
  private readonly tickers: { every: number; next: number; fn: (now: number) => void }[] = [];
  private readonly timers = new DueHeap<{ at: number; order: number; fn: (now: number) => void }>();
  private timerOrder = 0;
  /** Per node, the instant its timer last ran and stayed due, and how many calls in a row did. */
  private readonly spins = new Map<SimNode, { at: number; calls: number }>();

  constructor(readonly net: SimNetwork) {}

  add(address: PeerAddress, endpoint: SimEndpoint): SimNode {
    const node = { address, endpoint };
    this.nodes.set(`${address.address}:${address.port}`, node);
    return node;
  }

  /** Takes an endpoint off the network (its process died): what is sent to its address is lost. */
  remove(address: PeerAddress): void {
    this.nodes.delete(`${address.address}:${address.port}`);
  }

  /** Calls `fn` every `everyMs` of virtual time (the application's tick). */
  every(everyMs: number, fn: (now: number) => void, startAt = this.now): void {
    this.tickers.push({ every: everyMs, next: startAt, fn });
  }

  /** Calls `fn` once, `delayMs` of virtual time from now. */
  after(delayMs: number, fn: (now: number) => void): void {
    this.timers.push({ at: this.now + Math.max(0, delayMs), order: this.timerOrder++, fn });
  }

  /** Moves every endpoint's queued datagrams onto the network. */
  flush(): void {
    for (const node of this.nodes.values()) {
      for (
        let t = node.endpoint.pollTransmit();
        t !== undefined;
        t = node.endpoint.pollTransmit()
      ) {
        this.net.send(this.now, { from: node.address, to: t.to, bytes: t.bytes });
      }
    }
  }

  /** Advances virtual time to `until`, processing every event in order. Bounded by `maxSteps`. */
  runUntil(until: number, maxSteps = 10_000_000): void {
    this.flush();
    for (let step = 0; step < maxSteps; step++) {
      const next = this.nextEventAt();
      if (next > until) {
        this.now = until;
        return;
      }
      this.now = Math.max(this.now, next);
      this.step();
    }
    throw new Error(`simulation did not reach ${until} ms within ${maxSteps} steps`);
  }

  /** Runs until `done()` holds or `until` passes; returns whether it held. */
  runUntilTrue(done: () => boolean, until: number): boolean {
    this.flush();
    while (!done()) {
      const next = this.nextEventAt();
      if (next > until) {
        this.now = until;
        return false;
      }
      this.now = Math.max(this.now, next);
      this.step();
    }
    return true;
  }

  /**
   * A timer may leave work due at the same instant (a close queues news for other peers), but one that stays
   * due call after call is a deadline the endpoint cannot act on: a real event loop would spin on it.
   */
  private checkSpin(n: SimNode, now: number): void {
    if (n.endpoint.nextTimeout() > now) {
      this.spins.delete(n);
      return;
    }
    const s = this.spins.get(n);
    const calls = s?.at === now ? s.calls + 1 : 1;
    this.spins.set(n, { at: now, calls });
    if (calls > MAX_CALLS_PER_INSTANT)
      throw new Error(
        `${addressKey(n.address)} stays due at ${now} however often its timer runs (a spin)`,
      );
  }

  private nextEventAt(): number {
    // Before trusting the endpoints' cached timeouts for the next step, check them.
    if (this.audit) for (const n of this.nodes.values()) n.endpoint.auditTimeouts?.();
    let t = this.net.nextDeliveryAt();
    for (const n of this.nodes.values()) t = Math.min(t, n.endpoint.nextTimeout());
    for (const k of this.tickers) t = Math.min(t, k.next);
    return Math.min(t, this.timers.peek()?.at ?? Infinity);
  }

  private step(): void {
    const now = this.now;
    for (let d = this.net.popDue(now); d !== undefined; d = this.net.popDue(now)) {
      this.nodes.get(`${d.to.address}:${d.to.port}`)?.endpoint.handleDatagram(now, d.from, d.bytes);
      this.flush();
    }
    for (const n of this.nodes.values()) {
      if (n.endpoint.nextTimeout() > now) continue;
      n.endpoint.handleTimeout(now);
      if (this.audit) this.checkSpin(n, now);
    }
    for (const k of this.tickers) {
      if (k.next <= now) {
        k.fn(now);
        k.next += k.every;
      }
    }
    for (let t = this.timers.peek(); t !== undefined && t.at <= now; t = this.timers.peek()) {
      this.timers.pop();
      t.fn(now);
    }
    this.flush();
  }
}
