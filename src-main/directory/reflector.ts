// A directory's second port: it answers a PROBE with where it sees the sender and nothing else. A party that
// asks both the directory and its reflector learns whether its NAT gives each destination a new port (RFC 4787
// §4.1; RFC 5780 uses a second address the same way). Sans-IO; knows no sessions.
import type { PeerAddress } from '../net/address';
import type { Transmit } from '../net/endpoint';
import { sourcePrefix, TokenBuckets } from '../net/rate-limiter';
import { DIRECTORY_COOKIE_SIZE, decodeRendezvous, encodeRendezvous } from '../net/rendezvous';
import { isRendezvousDecodeError } from '../net/rendezvous';

export interface ReflectorOptions {
  /** Probes per source (an IPv4 address or IPv6 /64): at once, and per second after that. */
  readonly burst: number;
  readonly perSecond: number;
  readonly maxSources: number;
}

export const DEFAULT_REFLECTOR_OPTIONS: ReflectorOptions = {
  burst: 20,
  perSecond: 5,
  maxSources: 100_000,
};

export class Reflector {
  readonly counters = { probes: 0, malformed: 0, unexpected: 0, rateLimited: 0 };
  private readonly outbox: Transmit[] = [];
  private readonly buckets: TokenBuckets;

  constructor(options: Partial<ReflectorOptions> = {}) {
    const o = { ...DEFAULT_REFLECTOR_OPTIONS, ...options };
    this.buckets = new TokenBuckets({
      burst: o.burst,
      perSecond: o.perSecond,
      maxKeys: o.maxSources,
    });
  }

  handleDatagram(now: number, from: PeerAddress, bytes: Uint8Array): void {
    const m = decodeRendezvous(bytes);
    if (isRendezvousDecodeError(m)) {
      this.counters.malformed++;
      return;
    }
    if (m.type !== 'probe') {
      this.counters.unexpected++;
      return;
    }
    if (!this.buckets.take(now, sourcePrefix(from.address))) {
      this.counters.rateLimited++;
      return;
    }
    this.counters.probes++;
    // No cookie (the directory's own port hands those out): zeros keep the reply the shape of a COOKIE, which is
    // never larger than the padded PROBE it answers.
    const reply = encodeRendezvous({
      type: 'cookie',
      request: m.request,
      cookie: new Uint8Array(DIRECTORY_COOKIE_SIZE),
      observed: from,
    });
    if (this.outbox.length < 8192) this.outbox.push({ to: from, bytes: reply });
  }

  handleTimeout(_now: number): void {
    // Nothing is timed: the buckets refill on use.
  }

  nextTimeout(): number {
    return Infinity;
  }

  pollTransmit(): Transmit | undefined {
    return this.outbox.shift();
  }
}
