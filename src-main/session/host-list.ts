// The session's hosts (its mirrors) as the `hosts` message carries them to joiners, so a joiner whose host dies
// knows where else the session is served: the list's codec and its comparison. Knows nothing of connections or of
// what a joiner does with the list.
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import type { BitReader, BitWriter } from '../net/bitstream';
import { DecodeError } from '../net/bitstream';
import type { Field } from '../net/stream/params';
import { canonicalAddress, readAddress, writeAddress } from '../net/wire-address';

/** Hosts one list names at most: a session's mirrors, one a site, with room to spare. */
export const MAX_SESSION_HOSTS = 16;
/** Bits of the count (0..MAX_SESSION_HOSTS). */
const COUNT_BITS = 5;

/**
 * A list of host addresses: a 5-bit count (at most MAX_SESSION_HOSTS, more is a DecodeError('range') before any
 * address is read), then each address as net/wire-address.ts writes it (a family bit, 4 or 16 bytes of IP, a 16-bit
 * port; port 0 is a DecodeError). So a list is at most 5 + 16 × 145 bits (295 bytes).
 */
export const hostList = (): Field<readonly PeerAddress[]> => ({
  write: (w, v) => writeHostList(w, v),
  read: (r) => readHostList(r),
});

function writeHostList(w: BitWriter, hosts: readonly PeerAddress[]): void {
  if (hosts.length > MAX_SESSION_HOSTS)
    throw new RangeError(`${hosts.length} hosts exceed ${MAX_SESSION_HOSTS}`);
  w.writeUint(hosts.length, COUNT_BITS);
  for (const h of hosts) writeAddress(w, h);
}

function readHostList(r: BitReader): PeerAddress[] {
  const n = r.readUint(COUNT_BITS);
  if (n > MAX_SESSION_HOSTS) throw new DecodeError('range', `${n} hosts`);
  const out: PeerAddress[] = [];
  for (let i = 0; i < n; i++) out.push(readAddress(r));
  return out;
}

/**
 * The list as it is sent: each address in its canonical form, once, in the order given; those that are no IP
 * address (a name a caller should have resolved) are left out rather than fail the send. At most
 * MAX_SESSION_HOSTS (the first ones).
 */
export function normalHostList(hosts: readonly PeerAddress[]): PeerAddress[] {
  const out: PeerAddress[] = [];
  const seen = new Set<string>();
  for (const h of hosts) {
    const c = canonicalAddress(h);
    if (c === undefined || c.port === 0) continue;
    const key = addressKey(c);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
    if (out.length === MAX_SESSION_HOSTS) break;
  }
  return out;
}

/** Whether two lists name the same hosts in the same order. */
export function sameHostList(a: readonly PeerAddress[], b: readonly PeerAddress[]): boolean {
  return a.length === b.length && a.every((h, i) => addressKey(h) === addressKey(b[i] ?? h));
}
