// What a party knows of its NAT's mapping (RFC 4787 §4.1), learnt by asking a directory's two ports where it is
// seen, and its wire form. Pure: no sockets, no clocks.
import type { PeerAddress } from './address';
import type { BitReader, BitWriter } from './bitstream';
import { DecodeError } from './bitstream';

/**
 * `independent`: one public port for every destination (a cone; plain punching opens it). `dependent`: a new
 * public port per destination ("symmetric"); `delta` is the step between the two ports seen (each new mapping
 * moves the port by it when the NAT allocates in sequence) and `last` the later of them. `unknown`: not measured
 * (no reflector answered), treated as independent.
 */
export type NatMapping =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'independent' }
  | { readonly kind: 'dependent'; readonly delta: number; readonly last: number };

export const UNKNOWN_MAPPING: NatMapping = { kind: 'unknown' };

/** A NAT stepping its ports by at most this much per new mapping is taken to allocate in sequence. */
export const MAX_PREDICTABLE_STEP = 64;

/**
 * The mapping, from where two destinations saw us (the same socket, one after the other): the same port means
 * the mapping does not depend on the destination. Two public IPs (a NAT pool) can't be predicted.
 */
export function classifyMapping(first: PeerAddress, second: PeerAddress): NatMapping {
  if (first.address === second.address && first.port === second.port)
    return { kind: 'independent' };
  const delta = first.address === second.address ? second.port - first.port : 0;
  return { kind: 'dependent', delta, last: second.port };
}

/** The ports a NAT that allocates in sequence will give its next few mappings, nearest first; none otherwise. */
export function predictedPorts(m: NatMapping, count: number): number[] {
  if (m.kind !== 'dependent' || m.delta === 0 || Math.abs(m.delta) > MAX_PREDICTABLE_STEP)
    return [];
  const out: number[] = [];
  for (let k = 1; k <= count; k++) {
    const port = m.last + m.delta * k;
    if (port < 1 || port > 65_535) break;
    out.push(port);
  }
  return out;
}

/**
 * How a party helps a direct path open towards a peer, given both mappings (Tailscale's "easy" and "hard" sides):
 * - `plain`: punch the peer's address (both independent, or nothing better to do: both dependent needs a relay);
 * - `spray`: we are easy and the peer is hard: send to many of its ports (the predicted ones first), one of them is
 *   the mapping its NAT made towards us;
 * - `fan`: we are hard and the peer is easy: open many mappings of our own towards its one address, for its spray
 *   to find.
 */
export type Traversal = 'plain' | 'spray' | 'fan';

export function traversalFor(own: NatMapping, peer: NatMapping): Traversal {
  const ownHard = own.kind === 'dependent';
  const peerHard = peer.kind === 'dependent';
  if (ownHard === peerHard) return 'plain';
  return ownHard ? 'fan' : 'spray';
}

const KIND_CODES = { unknown: 0, independent: 1, dependent: 2 } as const;

/** 2 bits of kind; a dependent mapping adds its signed 17-bit step and its 16-bit last port. */
export function writeMapping(w: BitWriter, m: NatMapping): void {
  w.writeUint(KIND_CODES[m.kind], 2);
  if (m.kind !== 'dependent') return;
  w.writeInt(m.delta, 17);
  w.writeUint(m.last, 16);
}

export function readMapping(r: BitReader): NatMapping {
  const kind = r.readUint(2);
  if (kind === KIND_CODES.unknown) return UNKNOWN_MAPPING;
  if (kind === KIND_CODES.independent) return { kind: 'independent' };
  if (kind !== KIND_CODES.dependent) throw new DecodeError('invalid', 'nat mapping kind');
  const delta = r.readInt(17);
  const last = r.readUint(16);
  if (Math.abs(delta) > 65_535) throw new DecodeError('range', 'nat mapping step');
  return { kind: 'dependent', delta, last };
}
