// IP addresses and ports on the wire (rendezvous messages carry them): a family bit, 4 or 16 bytes, a 16-bit
// port, and the text forms the transport uses. Pure; every parse of untrusted input is bounded and typed.
import type { PeerAddress } from './address';
import type { BitReader, BitWriter } from './bitstream';
import { DecodeError } from './bitstream';

/** Bits an address takes on the wire: a family flag, the address, the port. */
export function wireAddressBits(a: PeerAddress): number {
  return 1 + (ipBytes(a.address)?.length ?? 4) * 8 + 16;
}

/** Text IPv4 or IPv6 (an IPv4-mapped IPv6 address counts as IPv4) to bytes; undefined if it is neither. */
export function ipBytes(text: string): Uint8Array | undefined {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  if (mapped?.[1] !== undefined) return ipv4Bytes(mapped[1]);
  return text.includes(':') ? ipv6Bytes(text) : ipv4Bytes(text);
}

function ipv4Bytes(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i] ?? '';
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p.startsWith('0'))) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out[i] = n;
  }
  return out;
}

function ipv6Bytes(text: string): Uint8Array | undefined {
  // A zone (fe80::1%eth0) names a local interface: it means nothing to another machine.
  if (text.includes('%') || text.length > 45) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string | undefined): string[] | undefined =>
    s === undefined || s === '' ? [] : s.split(':');
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (left === undefined || right === undefined) return undefined;
  // An embedded IPv4 tail (::ffff:1.2.3.4 handled above; 64:ff9b::1.2.3.4 here) fills two groups.
  const tail = halves.length === 2 ? right : left;
  const last = tail[tail.length - 1];
  let v4: Uint8Array | undefined;
  if (last?.includes('.') === true) {
    v4 = ipv4Bytes(last);
    if (v4 === undefined) return undefined;
    tail.pop();
  }
  const v4Groups = v4 === undefined ? 0 : 2;
  const have = left.length + right.length + v4Groups;
  if (halves.length === 1 ? have !== 8 : have > 7) return undefined;
  const all = [...left, ...new Array<string>(8 - have).fill('0'), ...right];
  const out = new Uint8Array(16);
  for (let i = 0; i < all.length; i++) {
    const g = all[i] ?? '';
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
    const n = parseInt(g, 16);
    out[2 * i] = n >> 8;
    out[2 * i + 1] = n & 0xff;
  }
  if (v4 !== undefined) out.set(v4, 12);
  return out;
}

/** Bytes to text: dotted IPv4, or IPv6 with the longest run of zero groups compressed (RFC 5952). */
export function ipText(bytes: Uint8Array): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}

/** The address in a canonical text form (what `addressKey` of two spellings of one address agrees on). */
export function canonicalAddress(a: PeerAddress): PeerAddress | undefined {
  const bytes = ipBytes(a.address);
  if (bytes === undefined || !Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
    return undefined;
  return { address: ipText(bytes), port: a.port };
}

export function writeAddress(w: BitWriter, a: PeerAddress): void {
  const bytes = ipBytes(a.address);
  if (bytes === undefined) throw new RangeError(`not an IP address: ${a.address}`);
  w.writeBool(bytes.length === 16);
  w.writeBytes(bytes);
  w.writeUint(a.port, 16);
}

export function readAddress(r: BitReader): PeerAddress {
  const v6 = r.readBool();
  const address = ipText(r.readBytes(v6 ? 16 : 4));
  const port = r.readUint(16);
  if (port === 0) throw new DecodeError('invalid', 'port 0');
  return { address, port };
}

/** Where an address sits, for choosing which candidates to offer and to try first. */
export type AddressScope =
  | 'loopback'
  | 'private'
  | 'link-local'
  /** The shared address space of carrier NATs (RFC 6598): no LAN of ours, not the internet either. */
  | 'carrier'
  | 'public'
  | 'unspecified';

export function addressScope(address: string): AddressScope {
  const b = ipBytes(address);
  if (b === undefined) return 'unspecified';
  if (b.length === 4) {
    const [a = 0, c = 0] = b;
    if (a === 0) return 'unspecified';
    if (a === 127) return 'loopback';
    if (a === 169 && c === 254) return 'link-local';
    if (a === 10 || (a === 172 && c >= 16 && c < 32) || (a === 192 && c === 168)) return 'private';
    if (a === 100 && c >= 64 && c < 128) return 'carrier';
    return 'public';
  }
  if (b.every((x) => x === 0)) return 'unspecified';
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
  if (b[0] === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80) return 'link-local';
  if (((b[0] ?? 0) & 0xfe) === 0xfc) return 'private';
  return 'public';
}
