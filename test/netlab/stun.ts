// The few STUN messages (RFC 8489) the lab's probe needs to ask a TURN server where it sees a client: a Binding request (retransmitted as is, so one transaction id) and the XOR-MAPPED-ADDRESS of its success response; untrusted bytes never throw. Knows nothing of sockets.
import { randomBytes } from 'node:crypto';

const HEADER_BYTES = 20;
const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const XOR_MAPPED_ADDRESS = 0x0020;
const FAMILY_IPV4 = 0x01;

export interface MappedAddress {
  readonly address: string;
  readonly port: number;
}

/** A Binding request with no attributes and a fresh random 96-bit transaction id. */
export function writeBindingRequest(): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.writeUInt16BE(BINDING_REQUEST, 0);
  b.writeUInt16BE(0, 2); // attribute bytes after the header
  b.writeUInt32BE(MAGIC_COOKIE, 4);
  randomBytes(12).copy(b, 8);
  return b;
}

/** The IPv4 XOR-MAPPED-ADDRESS of the success response to `request`, or undefined for anything else. */
export function readBindingSuccess(b: Buffer, request: Buffer): MappedAddress | undefined {
  if (
    b.length < HEADER_BYTES ||
    b.readUInt16BE(0) !== BINDING_SUCCESS ||
    b.readUInt32BE(4) !== MAGIC_COOKIE
  ) {
    return undefined;
  }
  if (!b.subarray(8, HEADER_BYTES).equals(request.subarray(8, HEADER_BYTES))) return undefined;
  const end = HEADER_BYTES + b.readUInt16BE(2);
  if (end > b.length) return undefined;
  // Attributes: type (16 bits), value length in bytes (16 bits), value padded to a multiple of 4 bytes.
  for (let at = HEADER_BYTES; at + 4 <= end;) {
    const type = b.readUInt16BE(at);
    const length = b.readUInt16BE(at + 2);
    const value = at + 4;
    if (value + length > end) return undefined;
    if (type === XOR_MAPPED_ADDRESS && length === 8 && b.readUInt8(value + 1) === FAMILY_IPV4) {
      const port = b.readUInt16BE(value + 2) ^ (MAGIC_COOKIE >>> 16);
      const ip = (b.readUInt32BE(value + 4) ^ MAGIC_COOKIE) >>> 0;
      return { address: [24, 16, 8, 0].map((s) => (ip >>> s) & 0xff).join('.'), port };
    }
    at = value + Math.ceil(length / 4) * 4;
  }
  return undefined;
}
