// Reads one mDNS response (records as dns-packet decodes them) into sightings and goodbyes of Ghostboard
// sessions. Pure, and every field is hostile: shapes are checked, counts and lengths bounded, nothing throws.
import { isIPv4, isIPv6 } from 'node:net';
import { MAX_ADDRESSES, type Sighting } from './table';
import { decodeTxt, SERVICE_TYPE, type TxtError } from './txt';

/** A response holds a handful of records per service; past this the rest of the packet is not read. */
export const MAX_RECORDS = 128;
/** DNS names are at most 255 bytes on the wire. */
const MAX_NAME = 255;
const SUFFIX = `.${SERVICE_TYPE}`;

interface Rr {
  readonly name: string;
  readonly type: string;
  readonly ttl: number;
  readonly data: unknown;
}

export interface ResponseReading {
  readonly sightings: readonly Sighting[];
  /** Instance keys whose PTR came with TTL 0. */
  readonly goodbyes: readonly string[];
  /** Why a named instance of our type was not taken (malformed TXT, no SRV, a bad port). */
  readonly rejected: readonly (TxtError | 'no-srv' | 'no-txt' | 'bad-srv')[];
}

/**
 * `referer` is the packet's source address: on this link by construction, so it goes first among its family
 * (a host's other interfaces, a container bridge say, may not be reachable from here).
 */
export function readResponse(
  answers: unknown,
  additionals: unknown,
  referer: string,
): ResponseReading {
  const rrs = [...records(answers), ...records(additionals)].slice(0, MAX_RECORDS);
  const sightings: Sighting[] = [];
  const goodbyes: string[] = [];
  const rejected: ResponseReading['rejected'][number][] = [];
  const seen = new Set<string>();
  for (const ptr of rrs) {
    if (ptr.type !== 'PTR' || ptr.name.toLowerCase() !== SERVICE_TYPE) continue;
    if (typeof ptr.data !== 'string' || ptr.data.length > MAX_NAME) continue;
    const key = ptr.data.toLowerCase();
    if (!key.endsWith(SUFFIX) || key.length === SUFFIX.length || seen.has(key)) continue;
    seen.add(key);
    if (ptr.ttl === 0) {
      goodbyes.push(key);
      continue;
    }
    const s = sighting(rrs, key, ptr.ttl, referer);
    if (typeof s === 'string') rejected.push(s);
    else sightings.push(s);
  }
  return { sightings, goodbyes, rejected };
}

function sighting(
  rrs: readonly Rr[],
  key: string,
  ptrTtl: number,
  referer: string,
): Sighting | ResponseReading['rejected'][number] {
  const named = (type: string, name: string): Rr | undefined =>
    rrs.find((r) => r.type === type && r.ttl > 0 && r.name.toLowerCase() === name);
  const srv = named('SRV', key);
  if (srv === undefined) return 'no-srv';
  const target = srvTarget(srv.data);
  if (target === undefined) return 'bad-srv';
  const txt = named('TXT', key);
  if (txt === undefined) return 'no-txt';
  if (!Array.isArray(txt.data)) return 'not-bytes';
  const decoded = decodeTxt(txt.data);
  if (!decoded.ok) return decoded.error;
  return {
    key,
    advert: decoded.advert,
    port: target.port,
    addresses: addressesOf(rrs, target.host, referer),
    ttlS: Math.min(ptrTtl, srv.ttl, txt.ttl),
  };
}

function srvTarget(data: unknown): { port: number; host: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { port, target } = data as { port?: unknown; target?: unknown };
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    return undefined;
  if (typeof target !== 'string' || target.length > MAX_NAME) return undefined;
  return { port, host: target.toLowerCase() };
}

/** The referer, then A records of the SRV target, then AAAA: IPv4 first, no duplicates, bounded. */
function addressesOf(rrs: readonly Rr[], host: string, referer: string): string[] {
  const v4: string[] = [];
  const v6: string[] = [];
  const add = (a: string): void => {
    // A link-local IPv6 address needs a zone this side doesn't know: useless in "host:port".
    const list = isIPv4(a) ? v4 : isIPv6(a) && !/^fe[89ab]/i.test(a) ? v6 : undefined;
    if (list !== undefined && !v4.includes(a) && !v6.includes(a)) list.push(a);
  };
  add(referer);
  for (const r of rrs) {
    if (v4.length + v6.length >= MAX_ADDRESSES * 2) break;
    if ((r.type === 'A' || r.type === 'AAAA') && r.ttl > 0 && typeof r.data === 'string')
      if (r.name.toLowerCase() === host && r.data.length <= 45) add(r.data);
  }
  return [...v4, ...v6].slice(0, MAX_ADDRESSES);
}

function records(list: unknown): Rr[] {
  if (!Array.isArray(list)) return [];
  const out: Rr[] = [];
  for (const r of list.slice(0, MAX_RECORDS) as unknown[]) {
    if (typeof r !== 'object' || r === null) continue;
    const { name, type, ttl, data } = r as Partial<Record<keyof Rr, unknown>>;
    if (typeof name !== 'string' || name.length > MAX_NAME || typeof type !== 'string') continue;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) continue;
    out.push({ name, type, ttl, data });
  }
  return out;
}
