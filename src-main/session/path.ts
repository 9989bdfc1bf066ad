// The path a participant's packets take, judged from addresses: within our networks, straight across the
// internet, or through a relay. Pure.
import { parseAddress } from '../net/address';
import { addressScope } from '../net/wire-address';

/** How two participants' packets travel. */
export type PathKind = 'direct' | 'lan' | 'relayed';

/**
 * The path to a connection, judged from the address its packets come from: within our networks (private, link
 * local, loopback) or across the internet (or a carrier's network).
 */
export function pathOfPeerKey(key: string): PathKind {
  return pathKindOf(parseAddress(key)?.address ?? key, 'direct');
}

export function pathKindOf(address: string, otherwise: PathKind): PathKind {
  const scope = addressScope(address);
  return scope === 'private' || scope === 'loopback' || scope === 'link-local' ? 'lan' : otherwise;
}
