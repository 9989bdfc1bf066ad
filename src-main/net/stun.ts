// STUN messages (RFC 8489) with the attributes a TURN client needs (RFC 8656), MESSAGE-INTEGRITY and FINGERPRINT,
// and TURN's ChannelData framing: encoders that assert on programmer errors, decoders that return typed errors on
// any hostile bytes. Pure; knows nothing of sockets, transactions or allocations.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { PeerAddress } from './address';
import { ipBytes, ipText } from './wire-address';

export const MAGIC_COOKIE = 0x2112a442;
export const STUN_HEADER_SIZE = 20;
export const TRANSACTION_ID_SIZE = 12;
/** ChannelData header (RFC 8656): 16-bit channel number, 16-bit length of the data in bytes. */
export const CHANNEL_DATA_HEADER_SIZE = 4;
/** RFC 8656 channels; RFC 5766 also allowed 0x5000–0x7FFF, which RFC 8656 reserves (and we refuse). */
export const MIN_CHANNEL = 0x4000;
export const MAX_CHANNEL = 0x4fff;
/** The protocol number REQUESTED-TRANSPORT carries for UDP. */
export const UDP_PROTOCOL = 17;

/** 12-bit methods (RFC 8489 and RFC 8656 register them). */
export const StunMethod = {
  binding: 0x001,
  allocate: 0x003,
  refresh: 0x004,
  send: 0x006,
  data: 0x007,
  createPermission: 0x008,
  channelBind: 0x009,
} as const;

export type StunClass = 'request' | 'indication' | 'success' | 'error';
const CLASS_BITS: Readonly<Record<StunClass, number>> = {
  request: 0,
  indication: 1,
  success: 2,
  error: 3,
};
const CLASSES: readonly StunClass[] = ['request', 'indication', 'success', 'error'];

/** Attribute codes; 0x0000–0x7FFF must be understood by the receiver, 0x8000–0xFFFF may be ignored. */
export const AttrCode = {
  mappedAddress: 0x0001,
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  unknownAttributes: 0x000a,
  channelNumber: 0x000c,
  lifetime: 0x000d,
  xorPeerAddress: 0x0012,
  data: 0x0013,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedTransport: 0x0019,
  xorMappedAddress: 0x0020,
  software: 0x8022,
  fingerprint: 0x8028,
} as const;

const INTEGRITY_SIZE = 20; // HMAC-SHA1
const FINGERPRINT_XOR = 0x5354554e;
/** Longest values the RFCs allow, in bytes: USERNAME 513, the 128-character texts at up to 6 bytes each. */
const MAX_USERNAME = 513;
const MAX_TEXT = 763;

export type StunAttribute =
  | { readonly type: 'mapped-address'; readonly address: PeerAddress }
  | { readonly type: 'xor-mapped-address'; readonly address: PeerAddress }
  | { readonly type: 'xor-peer-address'; readonly address: PeerAddress }
  | { readonly type: 'xor-relayed-address'; readonly address: PeerAddress }
  | { readonly type: 'username'; readonly value: string }
  | { readonly type: 'realm'; readonly value: string }
  | { readonly type: 'nonce'; readonly value: string }
  /** Decoded so a caller can log it; nothing acts on it. */
  | { readonly type: 'software'; readonly value: string }
  /** `code` is class × 100 + number, 300–699. */
  | { readonly type: 'error-code'; readonly code: number; readonly reason: string }
  | { readonly type: 'unknown-attributes'; readonly codes: readonly number[] }
  /** Seconds. */
  | { readonly type: 'lifetime'; readonly seconds: number }
  | { readonly type: 'channel-number'; readonly channel: number }
  | { readonly type: 'data'; readonly bytes: Uint8Array }
  /** An IP protocol number (17 = UDP). */
  | { readonly type: 'requested-transport'; readonly protocol: number }
  /** Any other attribute, value as is: written when encoding, kept when decoding only if the caller asked. */
  | { readonly type: 'raw'; readonly code: number; readonly value: Uint8Array };

export type AttributeType = StunAttribute['type'];

export interface StunMessage {
  /** 12 bits. */
  readonly method: number;
  readonly cls: StunClass;
  /** 96 bits, chosen at random by the requester. */
  readonly transactionId: Uint8Array;
  /** In wire order; MESSAGE-INTEGRITY and FINGERPRINT are not listed (see EncodeOptions, DecodedStun). */
  readonly attributes: readonly StunAttribute[];
}

export interface DecodedStun extends StunMessage {
  /** Present when the message carried MESSAGE-INTEGRITY; check it with `verifyIntegrity`. */
  readonly integrity:
    { readonly offset: number; readonly mac: Uint8Array; readonly message: Uint8Array } | undefined;
  /** The message carried a FINGERPRINT (always a valid one: a wrong one fails decoding). */
  readonly fingerprint: boolean;
}

export interface StunDecodeError {
  readonly error:
    | 'short'
    | 'not-stun'
    | 'bad-cookie'
    | 'bad-length'
    | 'bad-attribute'
    | 'unknown-required'
    | 'bad-fingerprint'
    | 'bad-channel';
  /** The attribute at fault, if one was. */
  readonly attribute?: number;
}

export function isStunDecodeError(
  r: DecodedStun | ChannelData | StunDecodeError,
): r is StunDecodeError {
  return 'error' in r;
}

export interface EncodeOptions {
  /** Appends MESSAGE-INTEGRITY keyed with this (a long-term key from `longTermKey`, or a short-term password). */
  readonly integrityKey?: Uint8Array;
  readonly fingerprint?: boolean;
  /** The byte padding is filled with: any value is valid (RFC 8489 §14); RFC 5769's vectors use spaces. */
  readonly padByte?: number;
}

export interface DecodeOptions {
  /** Comprehension-required codes to keep as `raw` attributes rather than refuse (ICE's, say). */
  readonly rawRequired?: readonly number[];
}

/** MD5(username ":" realm ":" password): the long-term credential key (RFC 8489 §9.2.2). No SASLprep: ours are ASCII. */
export function longTermKey(username: string, realm: string, password: string): Uint8Array {
  return new Uint8Array(
    createHash('md5').update(`${username}:${realm}:${password}`, 'utf8').digest(),
  );
}

export function stunType(method: number, cls: StunClass): number {
  if (!Number.isInteger(method) || method < 0 || method > 0xfff)
    throw new RangeError(`STUN method out of range: ${method}`);
  const c = CLASS_BITS[cls];
  return (
    ((method & 0xf80) << 2) |
    ((method & 0x70) << 1) |
    (method & 0xf) |
    ((c & 2) << 7) |
    ((c & 1) << 4)
  );
}

/** The first two bits of a datagram from a TURN server say which it is: 00 STUN, 01 ChannelData. */
export function serverDatagramKind(bytes: Uint8Array): 'stun' | 'channel-data' | 'other' {
  const top = (bytes[0] ?? 0xff) >>> 6;
  return top === 0 ? 'stun' : top === 1 ? 'channel-data' : 'other';
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Attribute type and value bytes, before padding; asserts what only a programmer could get wrong. */
function attributeValue(a: StunAttribute, transactionId: Uint8Array): [number, Uint8Array] {
  switch (a.type) {
    case 'mapped-address':
      return [AttrCode.mappedAddress, addressValue(a.address, undefined)];
    case 'xor-mapped-address':
      return [AttrCode.xorMappedAddress, addressValue(a.address, transactionId)];
    case 'xor-peer-address':
      return [AttrCode.xorPeerAddress, addressValue(a.address, transactionId)];
    case 'xor-relayed-address':
      return [AttrCode.xorRelayedAddress, addressValue(a.address, transactionId)];
    case 'username':
      return [AttrCode.username, text(a.value, MAX_USERNAME)];
    case 'realm':
      return [AttrCode.realm, text(a.value, MAX_TEXT)];
    case 'nonce':
      return [AttrCode.nonce, text(a.value, MAX_TEXT)];
    case 'software':
      return [AttrCode.software, text(a.value, MAX_TEXT)];
    case 'error-code': {
      if (!Number.isInteger(a.code) || a.code < 300 || a.code > 699)
        throw new RangeError(`STUN error code out of range: ${a.code}`);
      const reason = text(a.reason, MAX_TEXT);
      const v = new Uint8Array(4 + reason.length);
      v[2] = Math.floor(a.code / 100);
      v[3] = a.code % 100;
      v.set(reason, 4);
      return [AttrCode.errorCode, v];
    }
    case 'unknown-attributes': {
      const v = new Uint8Array(2 * a.codes.length);
      a.codes.forEach((c, i) => put16(v, 2 * i, c));
      return [AttrCode.unknownAttributes, v];
    }
    case 'lifetime':
      return [AttrCode.lifetime, u32(a.seconds)];
    case 'channel-number': {
      if (!isChannel(a.channel)) throw new RangeError(`not a TURN channel: ${a.channel}`);
      const v = new Uint8Array(4);
      put16(v, 0, a.channel);
      return [AttrCode.channelNumber, v];
    }
    case 'data':
      return [AttrCode.data, a.bytes];
    case 'requested-transport':
      return [AttrCode.requestedTransport, new Uint8Array([a.protocol & 0xff, 0, 0, 0])];
    case 'raw':
      return [a.code, a.value];
  }
}

function text(s: string, max: number): Uint8Array {
  const b = utf8.encode(s);
  if (b.length > max) throw new RangeError(`STUN text attribute longer than ${max} bytes`);
  return b;
}

function u32(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`not a uint32: ${n}`);
  const v = new Uint8Array(4);
  new DataView(v.buffer).setUint32(0, n);
  return v;
}

function put16(b: Uint8Array, at: number, n: number): void {
  b[at] = (n >>> 8) & 0xff;
  b[at + 1] = n & 0xff;
}

function get16(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
}

function get32(b: Uint8Array, at: number): number {
  return (get16(b, at) * 0x10000 + get16(b, at + 2)) >>> 0;
}

export function isChannel(n: number): boolean {
  return Number.isInteger(n) && n >= MIN_CHANNEL && n <= MAX_CHANNEL;
}

/** The 16 bytes an address is XORed with: the magic cookie, then (for IPv6) the transaction id. */
function xorPad(transactionId: Uint8Array): Uint8Array {
  const pad = new Uint8Array(16);
  new DataView(pad.buffer).setUint32(0, MAGIC_COOKIE);
  pad.set(transactionId.subarray(0, TRANSACTION_ID_SIZE), 4);
  return pad;
}

/** Family, port and address (RFC 8489 §14.1–14.2); XORed when `transactionId` is given. */
function addressValue(a: PeerAddress, transactionId: Uint8Array | undefined): Uint8Array {
  const ip = ipBytes(a.address);
  if (ip === undefined || !Number.isInteger(a.port) || a.port < 0 || a.port > 0xffff)
    throw new RangeError(`not an address: ${a.address}:${a.port}`);
  const v = new Uint8Array(4 + ip.length);
  v[1] = ip.length === 4 ? 1 : 2;
  const pad = transactionId === undefined ? new Uint8Array(16) : xorPad(transactionId);
  put16(v, 2, a.port ^ (transactionId === undefined ? 0 : MAGIC_COOKIE >>> 16));
  for (let i = 0; i < ip.length; i++) v[4 + i] = (ip[i] ?? 0) ^ (pad[i] ?? 0);
  return v;
}

function readAddressValue(
  v: Uint8Array,
  transactionId: Uint8Array | undefined,
): PeerAddress | undefined {
  const size = v[1] === 1 ? 4 : v[1] === 2 ? 16 : 0;
  if (size === 0 || v.length !== 4 + size) return undefined;
  const pad = transactionId === undefined ? new Uint8Array(16) : xorPad(transactionId);
  const ip = new Uint8Array(size);
  for (let i = 0; i < size; i++) ip[i] = (v[4 + i] ?? 0) ^ (pad[i] ?? 0);
  const port = get16(v, 2) ^ (transactionId === undefined ? 0 : MAGIC_COOKIE >>> 16);
  return { address: ipText(ip), port };
}

export function encodeStun(m: StunMessage, options: EncodeOptions = {}): Uint8Array {
  if (m.transactionId.length !== TRANSACTION_ID_SIZE)
    throw new RangeError(`a transaction id is ${TRANSACTION_ID_SIZE} bytes`);
  const parts = m.attributes.map((a) => attributeValue(a, m.transactionId));
  let size = STUN_HEADER_SIZE;
  for (const [, v] of parts) size += 4 + padded(v.length);
  const integrityAt = size;
  if (options.integrityKey !== undefined) size += 4 + INTEGRITY_SIZE;
  const fingerprintAt = size;
  if (options.fingerprint === true) size += 8;
  if (size - STUN_HEADER_SIZE > 0xffff) throw new RangeError('STUN message too long');
  const out = new Uint8Array(size).fill(options.padByte ?? 0);
  put16(out, 0, stunType(m.method, m.cls));
  new DataView(out.buffer).setUint32(4, MAGIC_COOKIE);
  out.set(m.transactionId, 8);
  let at = STUN_HEADER_SIZE;
  for (const [code, v] of parts) {
    if (v.length > 0xffff) throw new RangeError('STUN attribute too long');
    put16(out, at, code);
    put16(out, at + 2, v.length);
    out.set(v, at + 4);
    at += 4 + padded(v.length);
  }
  if (options.integrityKey !== undefined) {
    // The length covers the message up to and including MESSAGE-INTEGRITY while the MAC is computed.
    put16(out, 2, integrityAt + 4 + INTEGRITY_SIZE - STUN_HEADER_SIZE);
    const mac = hmacSha1(options.integrityKey, out.subarray(0, integrityAt));
    put16(out, integrityAt, AttrCode.messageIntegrity);
    put16(out, integrityAt + 2, INTEGRITY_SIZE);
    out.set(mac, integrityAt + 4);
  }
  put16(out, 2, size - STUN_HEADER_SIZE);
  if (options.fingerprint === true) {
    put16(out, fingerprintAt, AttrCode.fingerprint);
    put16(out, fingerprintAt + 2, 4);
    new DataView(out.buffer).setUint32(
      fingerprintAt + 4,
      (crc32(out.subarray(0, fingerprintAt)) ^ FINGERPRINT_XOR) >>> 0,
    );
  }
  return out;
}

const padded = (n: number): number => (n + 3) & ~3;

function hmacSha1(key: Uint8Array, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha1', key).update(data).digest());
}

/** Whether a decoded message's MESSAGE-INTEGRITY is right for `key` (false when it has none). */
export function verifyIntegrity(m: DecodedStun, key: Uint8Array): boolean {
  const i = m.integrity;
  if (i === undefined) return false;
  const covered = i.message.slice(0, i.offset);
  put16(covered, 2, i.offset + 4 + INTEGRITY_SIZE - STUN_HEADER_SIZE);
  return timingSafeEqual(hmacSha1(key, covered), i.mac);
}

export function decodeStun(
  bytes: Uint8Array,
  options: DecodeOptions = {},
): DecodedStun | StunDecodeError {
  if (bytes.length < STUN_HEADER_SIZE) return { error: 'short' };
  const type = get16(bytes, 0);
  if (type >>> 14 !== 0) return { error: 'not-stun' };
  if (get32(bytes, 4) !== MAGIC_COOKIE) return { error: 'bad-cookie' };
  const length = get16(bytes, 2);
  if (length % 4 !== 0 || STUN_HEADER_SIZE + length !== bytes.length)
    return { error: 'bad-length' };
  const transactionId = bytes.slice(8, STUN_HEADER_SIZE);
  const attributes: StunAttribute[] = [];
  let integrity: DecodedStun['integrity'];
  let fingerprint = false;
  for (let at = STUN_HEADER_SIZE; at < bytes.length;) {
    if (fingerprint) return { error: 'bad-attribute', attribute: AttrCode.fingerprint }; // it must be last
    if (at + 4 > bytes.length) return { error: 'bad-length' };
    const code = get16(bytes, at);
    const size = get16(bytes, at + 2);
    const next = at + 4 + padded(size);
    if (next > bytes.length) return { error: 'bad-length', attribute: code };
    const value = bytes.subarray(at + 4, at + 4 + size);
    if (code === AttrCode.fingerprint) {
      if (size !== 4) return { error: 'bad-attribute', attribute: code };
      const want = (crc32(bytes.subarray(0, at)) ^ FINGERPRINT_XOR) >>> 0;
      if (get32(value, 0) !== want) return { error: 'bad-fingerprint' };
      fingerprint = true;
    } else if (integrity !== undefined) {
      // Whatever follows MESSAGE-INTEGRITY (but FINGERPRINT) is not covered by it: ignored (RFC 8489 §14.5).
    } else if (code === AttrCode.messageIntegrity) {
      if (size !== INTEGRITY_SIZE) return { error: 'bad-attribute', attribute: code };
      integrity = { offset: at, mac: value.slice(), message: bytes };
    } else {
      const a = readAttribute(code, value, transactionId, options);
      if (a === 'bad') return { error: 'bad-attribute', attribute: code };
      if (a === 'unknown-required') return { error: 'unknown-required', attribute: code };
      if (a !== undefined) attributes.push(a);
    }
    at = next;
  }
  const cls = CLASSES[((type >>> 7) & 2) | ((type >>> 4) & 1)] ?? 'request';
  const method = ((type >>> 2) & 0xf80) | ((type >>> 1) & 0x70) | (type & 0xf);
  return { method, cls, transactionId, attributes, integrity, fingerprint };
}

function readAttribute(
  code: number,
  v: Uint8Array,
  transactionId: Uint8Array,
  options: DecodeOptions,
): StunAttribute | 'bad' | 'unknown-required' | undefined {
  const address = (
    type: 'mapped-address' | 'xor-mapped-address' | 'xor-peer-address' | 'xor-relayed-address',
    xor: boolean,
  ): StunAttribute | 'bad' => {
    const a = readAddressValue(v, xor ? transactionId : undefined);
    return a === undefined ? 'bad' : { type, address: a };
  };
  const str = (
    type: 'username' | 'realm' | 'nonce' | 'software',
    max: number,
  ): StunAttribute | 'bad' => {
    const value = strictText(v, max);
    return value === undefined ? 'bad' : { type, value };
  };
  switch (code) {
    case AttrCode.mappedAddress:
      return address('mapped-address', false);
    case AttrCode.xorMappedAddress:
      return address('xor-mapped-address', true);
    case AttrCode.xorPeerAddress:
      return address('xor-peer-address', true);
    case AttrCode.xorRelayedAddress:
      return address('xor-relayed-address', true);
    case AttrCode.username:
      return str('username', MAX_USERNAME);
    case AttrCode.realm:
      return str('realm', MAX_TEXT);
    case AttrCode.nonce:
      return str('nonce', MAX_TEXT);
    case AttrCode.software:
      return str('software', MAX_TEXT);
    case AttrCode.errorCode: {
      if (v.length < 4) return 'bad';
      const cls = (v[2] ?? 0) & 7;
      const number = v[3] ?? 0;
      const reason = strictText(v.subarray(4), MAX_TEXT);
      if (cls < 3 || cls > 6 || number > 99 || reason === undefined) return 'bad';
      return { type: 'error-code', code: cls * 100 + number, reason };
    }
    case AttrCode.unknownAttributes: {
      if (v.length % 2 !== 0) return 'bad';
      const codes: number[] = [];
      for (let i = 0; i < v.length; i += 2) codes.push(get16(v, i));
      return { type: 'unknown-attributes', codes };
    }
    case AttrCode.lifetime:
      return v.length === 4 ? { type: 'lifetime', seconds: get32(v, 0) } : 'bad';
    case AttrCode.channelNumber: {
      if (v.length !== 4) return 'bad';
      const channel = get16(v, 0);
      return isChannel(channel) ? { type: 'channel-number', channel } : 'bad';
    }
    case AttrCode.data:
      return { type: 'data', bytes: v.slice() };
    case AttrCode.requestedTransport:
      return v.length === 4 ? { type: 'requested-transport', protocol: v[0] ?? 0 } : 'bad';
    default:
      if (code >= 0x8000) return undefined; // comprehension-optional: ignored
      if (options.rawRequired?.includes(code) === true)
        return { type: 'raw', code, value: v.slice() };
      return 'unknown-required';
  }
}

function strictText(v: Uint8Array, max: number): string | undefined {
  if (v.length > max) return undefined;
  try {
    return strictUtf8.decode(v);
  } catch {
    return undefined;
  }
}

/** The first attribute of a kind (later duplicates are ignored, RFC 8489 §14). */
export function findAttribute<T extends AttributeType>(
  m: StunMessage,
  type: T,
): Extract<StunAttribute, { type: T }> | undefined {
  return m.attributes.find((a): a is Extract<StunAttribute, { type: T }> => a.type === type);
}

export interface ChannelData {
  readonly channel: number;
  readonly data: Uint8Array;
}

/** Over UDP padding is optional (RFC 8656): off by default, it only costs bytes. */
export function encodeChannelData(channel: number, data: Uint8Array, pad = false): Uint8Array {
  if (!isChannel(channel)) throw new RangeError(`not a TURN channel: ${channel}`);
  if (data.length > 0xffff) throw new RangeError('ChannelData longer than 65535 bytes');
  const out = new Uint8Array(CHANNEL_DATA_HEADER_SIZE + (pad ? padded(data.length) : data.length));
  put16(out, 0, channel);
  put16(out, 2, data.length);
  out.set(data, CHANNEL_DATA_HEADER_SIZE);
  return out;
}

/** Accepts up to 3 trailing padding bytes, nothing more. `data` is a view into `bytes`. */
export function decodeChannelData(bytes: Uint8Array): ChannelData | StunDecodeError {
  if (bytes.length < CHANNEL_DATA_HEADER_SIZE) return { error: 'short' };
  const channel = get16(bytes, 0);
  if (!isChannel(channel)) return { error: 'bad-channel' };
  const length = get16(bytes, 2);
  const extra = bytes.length - CHANNEL_DATA_HEADER_SIZE - length;
  if (extra < 0 || extra > 3) return { error: 'bad-length' };
  return {
    channel,
    data: bytes.subarray(CHANNEL_DATA_HEADER_SIZE, CHANNEL_DATA_HEADER_SIZE + length),
  };
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO 3309 / zlib's), as FINGERPRINT needs. */
export function crc32(bytes: Uint8Array): number {
  const table = (crcTable ??= makeCrcTable());
  let c = 0xffffffff;
  for (const b of bytes) c = (table[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function makeCrcTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}
