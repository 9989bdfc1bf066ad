// The few STUN and TURN messages (RFC 8489, RFC 8656) the lab's probe needs to ask a server where it sees a client and to send through a coturn relay: writing requests (with long-term-credential MESSAGE-INTEGRITY) and reading responses; untrusted bytes never throw. Knows nothing of sockets.
import { createHash, createHmac, randomBytes } from 'node:crypto';

const HEADER_BYTES = 20;
const MAGIC_COOKIE = 0x2112a442;
const FAMILY_IPV4 = 0x01;
const INTEGRITY_BYTES = 20; // HMAC-SHA1

/** Message types: method and class in one 16-bit field. */
export const StunType = {
  bindingRequest: 0x0001,
  bindingSuccess: 0x0101,
  allocateRequest: 0x0003,
  allocateSuccess: 0x0103,
  allocateError: 0x0113,
  createPermissionRequest: 0x0008,
  createPermissionSuccess: 0x0108,
  sendIndication: 0x0016,
  dataIndication: 0x0017,
} as const;

export const StunAttr = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  xorPeerAddress: 0x0012,
  data: 0x0013,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedTransport: 0x0019,
  xorMappedAddress: 0x0020,
} as const;

export interface MappedAddress {
  readonly address: string;
  readonly port: number;
}

export interface StunMessage {
  readonly type: number;
  /** 96 bits. */
  readonly transaction: Buffer;
  /** The first value of each attribute type. */
  readonly attrs: ReadonlyMap<number, Buffer>;
}

export const newTransaction = (): Buffer => randomBytes(12);

/**
 * A message with these attributes; with `key` (the long-term credential key) a MESSAGE-INTEGRITY last, its HMAC
 * taken over the message with the header length already counting it (RFC 8489 §14.5).
 */
export function writeStun(
  type: number,
  transaction: Buffer,
  attrs: readonly (readonly [number, Buffer])[],
  key?: Buffer,
): Buffer {
  const parts: Buffer[] = [];
  for (const [t, value] of attrs) {
    const head = Buffer.alloc(4);
    head.writeUInt16BE(t, 0);
    head.writeUInt16BE(value.length, 2);
    parts.push(head, value, Buffer.alloc((4 - (value.length % 4)) % 4));
  }
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(body.length + (key === undefined ? 0 : 4 + INTEGRITY_BYTES), 2);
  header.writeUInt32BE(MAGIC_COOKIE, 4);
  transaction.copy(header, 8, 0, 12);
  const message = Buffer.concat([header, body]);
  if (key === undefined) return message;
  const head = Buffer.alloc(4);
  head.writeUInt16BE(StunAttr.messageIntegrity, 0);
  head.writeUInt16BE(INTEGRITY_BYTES, 2);
  return Buffer.concat([message, head, createHmac('sha1', key).update(message).digest()]);
}

/** A STUN message's type, transaction and attributes, or undefined when the bytes are not one. */
export function readStun(b: Buffer): StunMessage | undefined {
  if (
    b.length < HEADER_BYTES ||
    b.readUInt32BE(4) !== MAGIC_COOKIE ||
    (b.readUInt8(0) & 0xc0) !== 0
  )
    return undefined;
  const end = HEADER_BYTES + b.readUInt16BE(2);
  if (end > b.length) return undefined;
  const attrs = new Map<number, Buffer>();
  // Attributes: type (16 bits), value length in bytes (16 bits), value padded to a multiple of 4 bytes.
  for (let at = HEADER_BYTES; at + 4 <= end;) {
    const type = b.readUInt16BE(at);
    const length = b.readUInt16BE(at + 2);
    const value = at + 4;
    if (value + length > end) return undefined;
    if (!attrs.has(type)) attrs.set(type, b.subarray(value, value + length));
    at = value + Math.ceil(length / 4) * 4;
  }
  return { type: b.readUInt16BE(0), transaction: b.subarray(8, HEADER_BYTES), attrs };
}

/** An XOR-*-ADDRESS value for an IPv4 address. */
export function writeXorAddress(a: MappedAddress): Buffer {
  const v = Buffer.alloc(8);
  v.writeUInt8(FAMILY_IPV4, 1);
  v.writeUInt16BE(a.port ^ (MAGIC_COOKIE >>> 16), 2);
  const ip = a.address.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
  v.writeUInt32BE((ip ^ MAGIC_COOKIE) >>> 0, 4);
  return v;
}

/** The IPv4 address in an XOR-*-ADDRESS value, or undefined (IPv6, malformed). */
export function readXorAddress(v: Buffer | undefined): MappedAddress | undefined {
  if (v?.length !== 8 || v.readUInt8(1) !== FAMILY_IPV4) return undefined;
  const port = v.readUInt16BE(2) ^ (MAGIC_COOKIE >>> 16);
  const ip = (v.readUInt32BE(4) ^ MAGIC_COOKIE) >>> 0;
  return { address: [24, 16, 8, 0].map((s) => (ip >>> s) & 0xff).join('.'), port };
}

/** The ERROR-CODE attribute's number (e.g. 401), or undefined. */
export function readErrorCode(v: Buffer | undefined): number | undefined {
  if (v === undefined || v.length < 4) return undefined;
  return (v.readUInt8(2) & 0x07) * 100 + v.readUInt8(3);
}

/**
 * coturn's `--use-auth-secret` credentials: the username carries its expiry (Unix seconds), the password is the
 * base64 HMAC-SHA1 of the username under the shared secret; the message key is MD5(username:realm:password).
 */
export function timeLimitedCredentials(
  secret: string,
  name: string,
  realm: string,
  expiry: number,
): { readonly username: string; readonly key: Buffer } {
  const username = `${expiry}:${name}`;
  const password = createHmac('sha1', secret).update(username).digest('base64');
  return { username, key: createHash('md5').update(`${username}:${realm}:${password}`).digest() };
}

/** A Binding request with no attributes and a fresh transaction (retransmit it as is: one transaction). */
export function writeBindingRequest(): Buffer {
  return writeStun(StunType.bindingRequest, newTransaction(), []);
}

/** The IPv4 XOR-MAPPED-ADDRESS of the success response to `request`, or undefined for anything else. */
export function readBindingSuccess(b: Buffer, request: Buffer): MappedAddress | undefined {
  const m = readStun(b);
  if (
    m?.type !== StunType.bindingSuccess ||
    !m.transaction.equals(request.subarray(8, HEADER_BYTES))
  )
    return undefined;
  return readXorAddress(m.attrs.get(StunAttr.xorMappedAddress));
}
