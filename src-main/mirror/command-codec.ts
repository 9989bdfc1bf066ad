// Mirror commands on the wire: bit-packed with net/'s bitstream, what CRIMP carries between mirrors and a trace
// records. Decoding treats the bytes as hostile: bounded, typed errors, nothing thrown. Knows nothing of how the
// bytes travel or what executing a command does.
//
// Layout (widths in bits):
//   origin 4 · seq varuint · stamp varuint (ms on the group clock) · client ranged 0..MAX_PEER_ID (12)
//   op ranged 0..9 (4) · the op's fields:
//     create  id ranged 1..MAX_OBJECT_ID (24) · the new object's fields (field-codec.ts)
//     patch   id 24 · a presence bit per patchable field · the values present
//     delete  id 24
//     restack id 24 · to ranged 0..2 (front, back, exact) · exact: z varint
//     pin     id 24 · pinned 1
//     grab    id 24
//     drop    id 24 · x, y ranged ±WORLD_EXTENT (22 each)
//     release —
//     restore id 24 · the new object's fields · z varint
//     chat    text (Huffman when shorter, at most MAX_COMMAND_CHAT_BYTES)
//   padding to a byte: fewer than 8 zero bits, nothing after them.
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { MAX_OBJECT_ID, MAX_PEER_ID, WORLD_EXTENT } from '../../shared/board';
import type { CommandOp, CommandOpType, MirrorCommand } from './command';
import { MAX_COMMAND_CHAT_BYTES, MAX_MIRROR_ID } from './command';
import { readNewObject, readPatch, writeNewObject, writePatch } from './field-codec';

const OPS = [
  'create',
  'patch',
  'delete',
  'restack',
  'pin',
  'grab',
  'drop',
  'release',
  'restore',
  'chat',
] as const satisfies readonly CommandOpType[];

/** The largest seq and stamp a command carries: far beyond any session, small enough to stay exact. */
export const MAX_COMMAND_SEQ = 2 ** 48;
export const MAX_COMMAND_STAMP = 2 ** 48;
/**
 * The longest encoded command: a restore with full text (1000 bytes), 256 points at 16 bits each and every other
 * field at its widest stays well under this; a decoder refuses longer input unread.
 */
export const MAX_COMMAND_BYTES = 4096;

export type CommandDecodeError =
  | { readonly type: 'too-long'; readonly bytes: number }
  | { readonly type: 'malformed'; readonly code: DecodeError['code']; readonly why: string }
  | { readonly type: 'trailing'; readonly bits: number };

export function writeCommand(w: BitWriter, c: MirrorCommand): void {
  w.writeRanged(c.origin, 0, MAX_MIRROR_ID);
  w.writeVarUint(c.seq);
  w.writeVarUint(c.stamp);
  w.writeRanged(c.client, 0, MAX_PEER_ID);
  writeOp(w, c.op);
}

export function encodeCommand(c: MirrorCommand): Uint8Array {
  if (c.seq > MAX_COMMAND_SEQ || c.stamp > MAX_COMMAND_STAMP)
    throw new RangeError('command seq or stamp out of range');
  const w = new BitWriter(64);
  writeCommand(w, c);
  return w.finish();
}

function writeId(w: BitWriter, id: number): void {
  w.writeRanged(id, 1, MAX_OBJECT_ID);
}

function writeOp(w: BitWriter, op: CommandOp): void {
  w.writeRanged(OPS.indexOf(op.type), 0, OPS.length - 1);
  switch (op.type) {
    case 'create':
      writeId(w, op.id);
      writeNewObject(w, op.fields);
      return;
    case 'patch':
      writeId(w, op.id);
      writePatch(w, op.patch);
      return;
    case 'delete':
    case 'grab':
      writeId(w, op.id);
      return;
    case 'restack':
      writeId(w, op.id);
      w.writeRanged(op.to === 'front' ? 0 : op.to === 'back' ? 1 : 2, 0, 2);
      if (typeof op.to === 'object') w.writeVarInt(op.to.z);
      return;
    case 'pin':
      writeId(w, op.id);
      w.writeBool(op.pinned);
      return;
    case 'drop':
      writeId(w, op.id);
      w.writeRanged(op.x, -WORLD_EXTENT, WORLD_EXTENT);
      w.writeRanged(op.y, -WORLD_EXTENT, WORLD_EXTENT);
      return;
    case 'release':
      return;
    case 'restore':
      writeId(w, op.id);
      writeNewObject(w, op.fields);
      w.writeVarInt(op.z);
      return;
    case 'chat':
      if (new TextEncoder().encode(op.text).length > MAX_COMMAND_CHAT_BYTES)
        throw new RangeError('chat text too long');
      w.writeString(op.text);
      return;
  }
}

/** Reads one command where the reader stands (a trace record, a CRIMP payload); throws DecodeError. */
export function readCommand(r: BitReader): MirrorCommand {
  const origin = r.readRanged(0, MAX_MIRROR_ID);
  const seq = r.readVarUint();
  const stamp = r.readVarUint();
  if (seq > MAX_COMMAND_SEQ || stamp > MAX_COMMAND_STAMP)
    throw new DecodeError('range', 'command seq or stamp out of range');
  const client = r.readRanged(0, MAX_PEER_ID);
  return { origin, seq, stamp, client, op: readOp(r) };
}

function readOp(r: BitReader): CommandOp {
  const type = OPS[r.readRanged(0, OPS.length - 1)];
  const id = (): number => r.readRanged(1, MAX_OBJECT_ID);
  if (type === undefined) throw new DecodeError('range', 'unknown command op');
  switch (type) {
    case 'create':
      return { type, id: id(), fields: readNewObject(r) };
    case 'patch':
      return { type, id: id(), patch: readPatch(r) };
    case 'delete':
    case 'grab':
      return { type, id: id() };
    case 'restack': {
      const target = id();
      const to = r.readRanged(0, 2);
      return {
        type,
        id: target,
        to: to === 0 ? 'front' : to === 1 ? 'back' : { z: r.readVarInt() },
      };
    }
    case 'pin':
      return { type, id: id(), pinned: r.readBool() };
    case 'drop':
      return {
        type,
        id: id(),
        x: r.readRanged(-WORLD_EXTENT, WORLD_EXTENT),
        y: r.readRanged(-WORLD_EXTENT, WORLD_EXTENT),
      };
    case 'release':
      return { type };
    case 'restore':
      return { type, id: id(), fields: readNewObject(r), z: r.readVarInt() };
    case 'chat':
      return { type, text: r.readString(MAX_COMMAND_CHAT_BYTES) };
  }
}

/** One whole payload as one command, or why not (never throws). */
export function decodeCommand(bytes: Uint8Array): MirrorCommand | CommandDecodeError {
  if (bytes.length > MAX_COMMAND_BYTES) return { type: 'too-long', bytes: bytes.length };
  const r = new BitReader(bytes);
  try {
    const c = readCommand(r);
    if (r.bitsLeft >= 8 || (r.bitsLeft > 0 && r.readUint(r.bitsLeft) !== 0))
      return { type: 'trailing', bits: r.bitsLeft };
    return c;
  } catch (e) {
    if (e instanceof DecodeError) return { type: 'malformed', code: e.code, why: e.message };
    throw e;
  }
}

export function isCommand(d: MirrorCommand | CommandDecodeError): d is MirrorCommand {
  return 'op' in d;
}
