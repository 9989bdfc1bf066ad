// Rendezvous datagrams: what hosts and joiners exchange with a directory (the master server of Quake and TNL's
// introduced connections) and with each other to open a path through their NATs. Byte layouts only: bit-packed,
// bounded, hostile input returns a typed error. Knows no sessions, sockets or clocks.
import type { PeerAddress } from './address';
import { BitReader, BitWriter, DecodeError } from './bitstream';
import type { NatMapping } from './nat-mapping';
import { readMapping, UNKNOWN_MAPPING, writeMapping } from './nat-mapping';
import { readAddress, writeAddress } from './wire-address';

/**
 * First-byte marker: data packets start 00/01/10, handshake packets 110 (0xC0..0xDF), so a first byte ≥ 0xE0 is
 * rendezvous. The low 5 bits are the message type.
 */
export const RENDEZVOUS_MARKER = 0xe0;

export const RendezvousType = {
  Probe: 1,
  Cookie: 2,
  Register: 3,
  Registered: 4,
  Deregister: 5,
  Lookup: 6,
  Session: 7,
  List: 8,
  Listing: 9,
  Introduce: 10,
  Intro: 11,
  Peer: 12,
  Punch: 13,
  Error: 14,
  /** REGISTER as one more host (mirror) of a session registered already under the same owner key. */
  Mirror: 15,
} as const;

/** Directory cookie: proves a request's source address got an earlier reply (as the handshake's cookie does). */
export const DIRECTORY_COOKIE_SIZE = 16;
export const OWNER_KEY_SIZE = 16;
export const INTRO_NONCE_SIZE = 8;
/**
 * Every request to a directory is padded to at least this many bytes, more than any reply a directory sends to a
 * source it has not verified (COOKIE, ERROR), so a spoofed request is never amplified.
 */
export const MIN_REQUEST_SIZE = 48;
/** Nothing larger is sent or accepted. */
export const MAX_RENDEZVOUS_SIZE = 1200;
/** Session names: bytes of UTF-8. */
export const MAX_SESSION_NAME_BYTES = 48;
/** Candidate addresses a party offers (its LAN addresses; the directory adds the one it sees). */
export const MAX_CANDIDATES = 4;
/** Hosts one session may have at a directory: the first and its mirrors (a joiner probes them all). */
export const MAX_SESSION_HOSTS = 8;
/** Candidate addresses told per mirror (the first and the mirrors' fit in one datagram with a relay grant). */
export const MAX_MIRROR_CANDIDATES = 2;
/** Sessions in one LISTING. */
export const MAX_LISTING_ENTRIES = 24;
export const MAX_USERS = 65_535;

export type DirectoryError = 'not-found' | 'taken' | 'rate-limited' | 'full' | 'bad-version';

const ERROR_CODES: Readonly<Record<DirectoryError, number>> = {
  'not-found': 1,
  taken: 2,
  'rate-limited': 3,
  full: 4,
  'bad-version': 5,
};
const ERRORS_BY_CODE = new Map(
  Object.entries(ERROR_CODES).map(([k, v]) => [v, k as DirectoryError]),
);

/** TURN relay credentials a directory mints for a party (coturn's shared-secret scheme; short-lived). */
export interface RelayGrant {
  readonly server: PeerAddress;
  readonly username: string;
  readonly password: string;
}

export const MAX_RELAY_CREDENTIAL_BYTES = 128;

/** What a directory tells about a session: never a join code (it never has one). */
export interface SessionInfo {
  readonly name: string;
  readonly version: number;
  readonly users: number;
  readonly listed: boolean;
  /** The host's address as the directory sees it (its NAT's public mapping). */
  readonly host: PeerAddress;
  /** Addresses the host says it has (its LAN, for joiners behind the same NAT). */
  readonly candidates: readonly PeerAddress[];
  /** The host's address on a TURN relay, if it has one: the path when no direct one opens. */
  readonly relayed?: PeerAddress;
  /** The host's NAT mapping, as it measured it (absent: unknown). */
  readonly nat?: NatMapping;
  /** The session's other hosts (mirrors), at most MAX_SESSION_HOSTS - 1: a joiner probes them all. */
  readonly mirrors?: readonly SessionHost[];
}

/** One more host of a session (a mirror): where the directory sees it, and its own addresses. */
export interface SessionHost {
  readonly host: PeerAddress;
  /** At most MAX_MIRROR_CANDIDATES. */
  readonly candidates: readonly PeerAddress[];
  readonly relayed?: PeerAddress;
}

export interface ListingEntry {
  readonly name: string;
  readonly version: number;
  readonly users: number;
}

/** What a host tells a directory of its session: REGISTER, and MIRROR for one more host of it. */
export interface RegisterBody {
  readonly request: number;
  readonly cookie: Uint8Array;
  readonly ownerKey: Uint8Array;
  readonly version: number;
  readonly name: string;
  readonly listed: boolean;
  readonly users: number;
  readonly candidates: readonly PeerAddress[];
  /** Our address on a TURN relay, once we have one. */
  readonly relayed?: PeerAddress;
  /** Asks for relay credentials (until we hold a working allocation). */
  readonly wantRelay?: boolean;
  readonly nat?: NatMapping;
}

export type RendezvousMessage =
  | { readonly type: 'probe'; readonly request: number }
  | {
      readonly type: 'cookie';
      readonly request: number;
      readonly cookie: Uint8Array;
      /** The requester's address as the directory sees it (what STUN answers). */
      readonly observed: PeerAddress;
      /** The directory's second port, answering probes only: where we are seen from there tells our NAT's mapping. */
      readonly reflector?: number;
    }
  | ({ readonly type: 'register' } & RegisterBody)
  /** A REGISTER as one more host (mirror) of the session registered under the same owner key. */
  | ({ readonly type: 'mirror' } & RegisterBody)
  | {
      readonly type: 'registered';
      readonly request: number;
      readonly observed: PeerAddress;
      readonly heartbeatMs: number;
      readonly ttlMs: number;
      /** Relay credentials, when asked for and the directory has a relay. */
      readonly relay?: RelayGrant;
    }
  | {
      readonly type: 'deregister';
      readonly request: number;
      readonly cookie: Uint8Array;
      readonly ownerKey: Uint8Array;
      readonly name: string;
    }
  | {
      readonly type: 'lookup';
      readonly request: number;
      readonly cookie: Uint8Array;
      readonly name: string;
    }
  | { readonly type: 'session'; readonly request: number; readonly session: SessionInfo }
  | {
      readonly type: 'list';
      readonly request: number;
      readonly cookie: Uint8Array;
      readonly cursor: number;
    }
  | {
      readonly type: 'listing';
      readonly request: number;
      readonly entries: readonly ListingEntry[];
      /** 0: the end of the list. */
      readonly next: number;
    }
  | {
      readonly type: 'introduce';
      readonly request: number;
      readonly cookie: Uint8Array;
      readonly name: string;
      readonly nonce: Uint8Array;
      readonly candidates: readonly PeerAddress[];
      readonly nat?: NatMapping;
    }
  | {
      /** To the joiner: where the host is; the host has been told to open its side. */
      readonly type: 'intro';
      readonly request: number;
      readonly nonce: Uint8Array;
      readonly session: SessionInfo;
      /** Relay credentials for the joiner, when the directory has a relay. */
      readonly relay?: RelayGrant;
    }
  | {
      /** To the host: a joiner is coming from these addresses; send towards them so its packets get in. */
      readonly type: 'peer';
      readonly nonce: Uint8Array;
      readonly name: string;
      readonly observed: PeerAddress;
      readonly candidates: readonly PeerAddress[];
      /** The joiner's NAT mapping (absent: unknown). */
      readonly nat?: NatMapping;
    }
  | { readonly type: 'punch'; readonly nonce: Uint8Array }
  | { readonly type: 'error'; readonly request: number; readonly error: DirectoryError };

export type RendezvousRequest = Extract<
  RendezvousMessage,
  { type: 'probe' | 'register' | 'mirror' | 'deregister' | 'lookup' | 'list' | 'introduce' }
>;

export interface RendezvousDecodeError {
  readonly error: 'short' | 'long' | 'unknown-type' | 'malformed';
  readonly detail: string;
}

export function isRendezvousDecodeError(
  m: RendezvousMessage | RendezvousDecodeError,
): m is RendezvousDecodeError {
  return 'error' in m && !('type' in m);
}

export function isRendezvous(bytes: Uint8Array): boolean {
  return (bytes[0] ?? 0) >= RENDEZVOUS_MARKER;
}

const TYPE_NAMES = new Map<number, RendezvousMessage['type']>([
  [RendezvousType.Probe, 'probe'],
  [RendezvousType.Cookie, 'cookie'],
  [RendezvousType.Register, 'register'],
  [RendezvousType.Registered, 'registered'],
  [RendezvousType.Deregister, 'deregister'],
  [RendezvousType.Lookup, 'lookup'],
  [RendezvousType.Session, 'session'],
  [RendezvousType.List, 'list'],
  [RendezvousType.Listing, 'listing'],
  [RendezvousType.Introduce, 'introduce'],
  [RendezvousType.Intro, 'intro'],
  [RendezvousType.Peer, 'peer'],
  [RendezvousType.Punch, 'punch'],
  [RendezvousType.Error, 'error'],
  [RendezvousType.Mirror, 'mirror'],
]);
const TYPE_CODES = new Map([...TYPE_NAMES].map(([k, v]) => [v, k]));

const REQUEST_TYPES: ReadonlySet<RendezvousMessage['type']> = new Set([
  'probe',
  'register',
  'mirror',
  'deregister',
  'lookup',
  'list',
  'introduce',
]);

function writeCandidates(w: BitWriter, list: readonly PeerAddress[]): void {
  if (list.length > MAX_CANDIDATES) throw new RangeError(`${list.length} candidates`);
  w.writeUint(list.length, 3);
  for (const a of list) writeAddress(w, a);
}

function readCandidates(r: BitReader): PeerAddress[] {
  const n = r.readUint(3);
  if (n > MAX_CANDIDATES) throw new DecodeError('range', `${n} candidates`);
  const out: PeerAddress[] = [];
  for (let i = 0; i < n; i++) out.push(readAddress(r));
  return out;
}

function writeName(w: BitWriter, name: string): void {
  if (new TextEncoder().encode(name).length > MAX_SESSION_NAME_BYTES)
    throw new RangeError('session name too long');
  w.writeString(name);
}

function readName(r: BitReader): string {
  const name = r.readString(MAX_SESSION_NAME_BYTES);
  if (!isSessionName(name)) throw new DecodeError('invalid', 'session name');
  return name;
}

/** A name is 1..48 bytes of printable text with no leading or trailing space. */
export function isSessionName(name: string): boolean {
  return (
    name.length > 0 &&
    new TextEncoder().encode(name).length <= MAX_SESSION_NAME_BYTES &&
    name.trim() === name &&
    // No control characters (C0, DEL, C1): names are shown in lists and logs.
    !/[\u0000-\u001f\u007f-\u009f]/.test(name)
  );
}

/** The key a directory keeps a name under: case and width of spelling do not make a new session. */
export function sessionNameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

function writeOptionalAddress(w: BitWriter, a: PeerAddress | undefined): void {
  w.writeBool(a !== undefined);
  if (a !== undefined) writeAddress(w, a);
}

/** A mapping read off the wire, or undefined for an unknown one (which messages leave out). */
function readKnownMapping(r: BitReader): NatMapping | undefined {
  const m = readMapping(r);
  return m.kind === 'unknown' ? undefined : m;
}

function readOptionalAddress(r: BitReader): PeerAddress | undefined {
  return r.readBool() ? readAddress(r) : undefined;
}

function writeGrant(w: BitWriter, g: RelayGrant | undefined): void {
  w.writeBool(g !== undefined);
  if (g === undefined) return;
  writeAddress(w, g.server);
  for (const text of [g.username, g.password]) {
    if (new TextEncoder().encode(text).length > MAX_RELAY_CREDENTIAL_BYTES)
      throw new RangeError('relay credential too long');
    w.writeString(text);
  }
}

function readGrant(r: BitReader): RelayGrant | undefined {
  if (!r.readBool()) return undefined;
  const server = readAddress(r);
  const username = r.readString(MAX_RELAY_CREDENTIAL_BYTES);
  const password = r.readString(MAX_RELAY_CREDENTIAL_BYTES);
  return { server, username, password };
}

/**
 * A session's mirrors, written after everything else in SESSION and INTRO: a reader of an older version stops
 * before them, and one reading an older message finds none (no bits left, or the zero padding of the last byte).
 */
function writeMirrors(w: BitWriter, mirrors: readonly SessionHost[]): void {
  if (mirrors.length > MAX_SESSION_HOSTS - 1) throw new RangeError(`${mirrors.length} mirrors`);
  w.writeUint(mirrors.length, 3);
  for (const m of mirrors) {
    writeAddress(w, m.host);
    if (m.candidates.length > MAX_MIRROR_CANDIDATES) throw new RangeError('mirror candidates');
    writeCandidates(w, m.candidates);
    writeOptionalAddress(w, m.relayed);
  }
}

function readMirrors(r: BitReader): SessionHost[] {
  if (r.bitsLeft < 3) return [];
  const n = r.readUint(3);
  const out: SessionHost[] = [];
  for (let i = 0; i < n; i++) {
    const host = readAddress(r);
    const candidates = readCandidates(r);
    if (candidates.length > MAX_MIRROR_CANDIDATES)
      throw new DecodeError('range', 'mirror candidates');
    const relayed = readOptionalAddress(r);
    out.push({ host, candidates, ...(relayed ? { relayed } : {}) });
  }
  return out;
}

/** The session as read, with the mirrors that followed the message. */
function withMirrors(s: SessionInfo, mirrors: readonly SessionHost[]): SessionInfo {
  return mirrors.length === 0 ? s : { ...s, mirrors };
}

function writeSession(w: BitWriter, s: SessionInfo): void {
  writeName(w, s.name);
  w.writeUint(s.version, 16);
  w.writeVarUint(s.users);
  w.writeBool(s.listed);
  writeAddress(w, s.host);
  writeCandidates(w, s.candidates);
  writeOptionalAddress(w, s.relayed);
  writeMapping(w, s.nat ?? UNKNOWN_MAPPING);
}

function readSession(r: BitReader): SessionInfo {
  const name = readName(r);
  const version = r.readUint(16);
  const users = r.readVarUint();
  if (users > MAX_USERS) throw new DecodeError('range', 'users');
  const listed = r.readBool();
  const host = readAddress(r);
  const candidates = readCandidates(r);
  const relayed = readOptionalAddress(r);
  const nat = readKnownMapping(r);
  return {
    name,
    version,
    users,
    listed,
    host,
    candidates,
    ...(relayed ? { relayed } : {}),
    ...(nat ? { nat } : {}),
  };
}

export function encodeRendezvous(m: RendezvousMessage): Uint8Array {
  const w = new BitWriter(64);
  w.writeUint(RENDEZVOUS_MARKER | (TYPE_CODES.get(m.type) ?? 0), 8);
  switch (m.type) {
    case 'probe':
      w.writeUint(m.request, 32);
      break;
    case 'cookie':
      w.writeUint(m.request, 32);
      w.writeBytes(m.cookie);
      writeAddress(w, m.observed);
      w.writeBool(m.reflector !== undefined);
      if (m.reflector !== undefined) w.writeUint(m.reflector, 16);
      break;
    case 'register':
    case 'mirror':
      w.writeUint(m.request, 32);
      w.writeBytes(m.cookie);
      w.writeBytes(m.ownerKey);
      w.writeUint(m.version, 16);
      writeName(w, m.name);
      w.writeBool(m.listed);
      w.writeVarUint(Math.min(m.users, MAX_USERS));
      writeCandidates(w, m.candidates);
      writeOptionalAddress(w, m.relayed);
      w.writeBool(m.wantRelay === true);
      writeMapping(w, m.nat ?? UNKNOWN_MAPPING);
      break;
    case 'registered':
      w.writeUint(m.request, 32);
      writeAddress(w, m.observed);
      w.writeVarUint(m.heartbeatMs);
      w.writeVarUint(m.ttlMs);
      writeGrant(w, m.relay);
      break;
    case 'deregister':
      w.writeUint(m.request, 32);
      w.writeBytes(m.cookie);
      w.writeBytes(m.ownerKey);
      writeName(w, m.name);
      break;
    case 'lookup':
      w.writeUint(m.request, 32);
      w.writeBytes(m.cookie);
      writeName(w, m.name);
      break;
    case 'session':
      w.writeUint(m.request, 32);
      writeSession(w, m.session);
      writeMirrors(w, m.session.mirrors ?? []);
      break;
    case 'list':
      w.writeUint(m.request, 32);
      w.writeBytes(m.cookie);
      w.writeVarUint(m.cursor);
      break;
    case 'listing':
      w.writeUint(m.request, 32);
      if (m.entries.length > MAX_LISTING_ENTRIES) throw new RangeError('listing too long');
      w.writeUint(m.entries.length, 5);
      for (const e of m.entries) {
        writeName(w, e.name);
        w.writeUint(e.version, 16);
        w.writeVarUint(Math.min(e.users, MAX_USERS));
      }
      w.writeVarUint(m.next);
      break;
    case 'introduce':
      w.writeUint(m.request, 32);
      w.writeBytes(m.cookie);
      writeName(w, m.name);
      w.writeBytes(m.nonce);
      writeCandidates(w, m.candidates);
      writeMapping(w, m.nat ?? UNKNOWN_MAPPING);
      break;
    case 'intro':
      w.writeUint(m.request, 32);
      w.writeBytes(m.nonce);
      writeSession(w, m.session);
      writeGrant(w, m.relay);
      writeMirrors(w, m.session.mirrors ?? []);
      break;
    case 'peer':
      w.writeBytes(m.nonce);
      writeName(w, m.name);
      writeAddress(w, m.observed);
      writeCandidates(w, m.candidates);
      writeMapping(w, m.nat ?? UNKNOWN_MAPPING);
      break;
    case 'punch':
      w.writeBytes(m.nonce);
      break;
    case 'error':
      w.writeUint(m.request, 32);
      w.writeUint(ERROR_CODES[m.error], 4);
      break;
  }
  const bytes = w.finish();
  if (bytes.length > MAX_RENDEZVOUS_SIZE) throw new RangeError('rendezvous message too large');
  if (!REQUEST_TYPES.has(m.type) || bytes.length >= MIN_REQUEST_SIZE) return bytes;
  const padded = new Uint8Array(MIN_REQUEST_SIZE);
  padded.set(bytes);
  return padded;
}

function fixed(r: BitReader, n: number): Uint8Array {
  return r.readBytes(n);
}

/** Hostile input returns a typed error and never throws. */
export function decodeRendezvous(bytes: Uint8Array): RendezvousMessage | RendezvousDecodeError {
  const first = bytes[0];
  if (first === undefined) return { error: 'short', detail: 'empty' };
  if (bytes.length > MAX_RENDEZVOUS_SIZE) return { error: 'long', detail: `${bytes.length} B` };
  const type = first >= RENDEZVOUS_MARKER ? TYPE_NAMES.get(first & 0x1f) : undefined;
  if (type === undefined) return { error: 'unknown-type', detail: `0x${first.toString(16)}` };
  if (REQUEST_TYPES.has(type) && bytes.length < MIN_REQUEST_SIZE)
    return { error: 'short', detail: `${type} of ${bytes.length} B` };
  const r = new BitReader(bytes, 8);
  try {
    return read(r, type);
  } catch (e) {
    if (e instanceof DecodeError) return { error: 'malformed', detail: `${type}: ${e.message}` };
    throw e;
  }
}

function read(r: BitReader, type: RendezvousMessage['type']): RendezvousMessage {
  switch (type) {
    case 'probe':
      return { type, request: r.readUint(32) };
    case 'cookie': {
      const request = r.readUint(32);
      const cookie = fixed(r, DIRECTORY_COOKIE_SIZE);
      const observed = readAddress(r);
      const reflector = r.readBool() ? r.readUint(16) : undefined;
      if (reflector === 0) throw new DecodeError('range', 'reflector port');
      return { type, request, cookie, observed, ...(reflector ? { reflector } : {}) };
    }
    case 'register':
    case 'mirror': {
      const request = r.readUint(32);
      const cookie = fixed(r, DIRECTORY_COOKIE_SIZE);
      const ownerKey = fixed(r, OWNER_KEY_SIZE);
      const version = r.readUint(16);
      const name = readName(r);
      const listed = r.readBool();
      const users = r.readVarUint();
      if (users > MAX_USERS) throw new DecodeError('range', 'users');
      const candidates = readCandidates(r);
      const relayed = readOptionalAddress(r);
      const wantRelay = r.readBool();
      const nat = readKnownMapping(r);
      return {
        type,
        request,
        cookie,
        ownerKey,
        version,
        name,
        listed,
        users,
        candidates,
        ...(relayed ? { relayed } : {}),
        ...(wantRelay ? { wantRelay } : {}),
        ...(nat ? { nat } : {}),
      };
    }
    case 'registered': {
      const request = r.readUint(32);
      const observed = readAddress(r);
      const heartbeatMs = r.readVarUint();
      const ttlMs = r.readVarUint();
      const relay = readGrant(r);
      return { type, request, observed, heartbeatMs, ttlMs, ...(relay ? { relay } : {}) };
    }
    case 'deregister':
      return {
        type,
        request: r.readUint(32),
        cookie: fixed(r, DIRECTORY_COOKIE_SIZE),
        ownerKey: fixed(r, OWNER_KEY_SIZE),
        name: readName(r),
      };
    case 'lookup':
      return {
        type,
        request: r.readUint(32),
        cookie: fixed(r, DIRECTORY_COOKIE_SIZE),
        name: readName(r),
      };
    case 'session': {
      const request = r.readUint(32);
      const session = readSession(r);
      return { type, request, session: withMirrors(session, readMirrors(r)) };
    }
    case 'list':
      return {
        type,
        request: r.readUint(32),
        cookie: fixed(r, DIRECTORY_COOKIE_SIZE),
        cursor: r.readVarUint(),
      };
    case 'listing': {
      const request = r.readUint(32);
      const n = r.readUint(5);
      if (n > MAX_LISTING_ENTRIES) throw new DecodeError('range', `${n} entries`);
      const entries: ListingEntry[] = [];
      for (let i = 0; i < n; i++) {
        const name = readName(r);
        const version = r.readUint(16);
        const users = r.readVarUint();
        if (users > MAX_USERS) throw new DecodeError('range', 'users');
        entries.push({ name, version, users });
      }
      return { type, request, entries, next: r.readVarUint() };
    }
    case 'introduce': {
      const request = r.readUint(32);
      const cookie = fixed(r, DIRECTORY_COOKIE_SIZE);
      const name = readName(r);
      const nonce = fixed(r, INTRO_NONCE_SIZE);
      const candidates = readCandidates(r);
      const nat = readKnownMapping(r);
      return { type, request, cookie, name, nonce, candidates, ...(nat ? { nat } : {}) };
    }
    case 'intro': {
      const request = r.readUint(32);
      const nonce = fixed(r, INTRO_NONCE_SIZE);
      const session = readSession(r);
      const relay = readGrant(r);
      const mirrors = readMirrors(r);
      return {
        type,
        request,
        nonce,
        session: withMirrors(session, mirrors),
        ...(relay ? { relay } : {}),
      };
    }
    case 'peer': {
      const nonce = fixed(r, INTRO_NONCE_SIZE);
      const name = readName(r);
      const observed = readAddress(r);
      const candidates = readCandidates(r);
      const nat = readKnownMapping(r);
      return { type, nonce, name, observed, candidates, ...(nat ? { nat } : {}) };
    }
    case 'punch':
      return { type, nonce: fixed(r, INTRO_NONCE_SIZE) };
    case 'error': {
      const request = r.readUint(32);
      const error = ERRORS_BY_CODE.get(r.readUint(4));
      if (error === undefined) throw new DecodeError('invalid', 'error code');
      return { type, request, error };
    }
  }
}
