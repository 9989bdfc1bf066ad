// A host's replies to RTT probes (nearest mirror): from no state, smaller than the probe, at most a bucket's worth
// per source. Knows nothing of connections, bans, handshakes or sockets.
import type { EndpointCounters } from './endpoint-types';
import { decodeProbe, encodeProbeReply, isProbeDecodeError, PROBE_BYTE } from './probe-wire';
import { TokenBuckets } from './rate-limiter';

export class ProbeReplies {
  /** RTT probes answered, per source (a reply is smaller than its probe, yet nobody gets a stream of them). */
  private readonly buckets = new TokenBuckets({ burst: 32, perSecond: 16, maxKeys: 4096 });

  /** `version`: the protocol version a reply names. */
  constructor(
    private readonly version: number,
    private readonly counters: EndpointCounters,
  ) {}

  /** A PROBE's nonce, or undefined (counted) if the datagram is not a PROBE. */
  nonceOf(bytes: Uint8Array): Uint8Array | undefined {
    if (bytes[0] !== PROBE_BYTE) {
      this.counters.unexpectedHandshake++;
      return undefined;
    }
    const p = decodeProbe(bytes, 'probe');
    if (isProbeDecodeError(p)) {
      this.counters.badHandshake++;
      return undefined;
    }
    return p.nonce;
  }

  /** The reply to a probe from the source counted under `key`, or undefined (counted) past its bucket. */
  reply(now: number, key: string, nonce: Uint8Array): Uint8Array | undefined {
    if (!this.buckets.take(now, key)) {
      this.counters.probesLimited++;
      return undefined;
    }
    this.counters.probesAnswered++;
    return encodeProbeReply({ version: this.version, nonce });
  }
}
