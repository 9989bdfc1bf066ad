// What a joining mirror takes from the member that let it in, bit-packed: a final cut of that member's
// synchronizer (its last trailing state's board and every command held past it, with the seqs it has seen) and
// what its CRIMP holds of each origin, all taken at the one instant the member installed the view that admits the
// joiner; cut into chunks of a link packet each, and put together again with every bound checked. Decoding treats
// the bytes as hostile: typed errors, nothing thrown. Knows nothing of links, timers or views.
//
// Layout: clock correction float64 (ms) · final float64 (ms, group clock) · nextId varuint · topZ varint · objects varuint, each every field of
// OBJECT_FIELDS in table order (field-codec.ts) · commands varuint, each a byte array (command-codec.ts) · seen
// (count 5, each origin 4 · floor varuint · above count varuint, each varuint) · held, the same shape (upTo for
// floor) · padding to a byte.
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import type { DecodeErrorCode } from '../net/bitstream';
import type { BoardObject, FieldSpec } from '../../shared/board';
import { OBJECT_FIELDS } from '../../shared/board';
import { MAX_OBJECTS, shaped } from '../board';
import type { MirrorCommand } from './command';
import { decodeCommand, encodeCommand, isCommand, MAX_COMMAND_BYTES } from './command-codec';
import type { HeldSeqs } from './crimp';
import { readFieldValue, writeFieldValue } from './field-codec';
import { GROUP_CHUNK_BYTES, GROUP_MAX_TRANSFER_BYTES } from './group-wire';
import { MAX_MIRRORS, MIRROR_ID_BITS } from './mirror-id';
import type { FinalCut, SeenExport } from './tss';

/** Seqs listed above a prefix at most, per origin (the synchronizer's and CRIMP's own bounds are below it). */
const MAX_ABOVE = 65_536;
/** Commands a transfer carries at most (the synchronizer holds at most its maxHeld). */
const MAX_COMMANDS = 200_000;

export interface BoardTransfer {
  /** The giver's correction to its group clock's reference (ms): the joiner reads the clock the same way. */
  readonly clock: number;
  readonly cut: FinalCut;
  /** What the giving mirror's CRIMP held of each origin: the joiner's starting point there. */
  readonly held: readonly HeldSeqs[];
}

export type TransferDecodeError = { readonly error: DecodeErrorCode; readonly detail: string };

export function isTransferDecodeError(
  t: BoardTransfer | TransferDecodeError,
): t is TransferDecodeError {
  return 'error' in t;
}

export function encodeTransfer(t: BoardTransfer): Uint8Array {
  const w = new BitWriter(1024);
  writeTime(w, t.clock);
  writeTime(w, t.cut.final);
  w.writeVarUint(t.cut.board.nextId);
  w.writeVarInt(t.cut.board.topZ);
  w.writeVarUint(t.cut.board.objects.size);
  for (const o of t.cut.board.objects.values()) {
    const values = o as unknown as Readonly<Record<string, unknown>>;
    for (const f of OBJECT_FIELDS as readonly FieldSpec[])
      writeFieldValue(w, f.codec, values[f.name]);
  }
  w.writeVarUint(t.cut.commands.length);
  for (const c of t.cut.commands) w.writeByteArray(encodeCommand(c));
  writeSeqSets(
    w,
    t.cut.seen.map((s) => ({ origin: s.origin, upTo: s.floor, above: s.above })),
  );
  writeSeqSets(w, t.held);
  return w.finish();
}

export function decodeTransfer(bytes: Uint8Array): BoardTransfer | TransferDecodeError {
  try {
    const r = new BitReader(bytes);
    const clock = readTime(r);
    const final = readTime(r);
    const nextId = r.readVarUint();
    const topZ = r.readVarInt();
    const count = r.readVarUint();
    if (count > MAX_OBJECTS) throw new DecodeError('length', 'too many objects');
    const objects = new Map<number, BoardObject>();
    for (let i = 0; i < count; i++) {
      const values: Record<string, unknown> = {};
      for (const f of OBJECT_FIELDS as readonly FieldSpec[])
        values[f.name] = readFieldValue(r, f.codec);
      const o = shaped(values as unknown as BoardObject);
      if (objects.has(o.id)) throw new DecodeError('invalid', 'object id twice');
      objects.set(o.id, o);
    }
    const n = r.readVarUint();
    if (n > MAX_COMMANDS) throw new DecodeError('length', 'too many commands');
    const commands: MirrorCommand[] = [];
    for (let i = 0; i < n; i++) {
      const c = decodeCommand(r.readByteArray(MAX_COMMAND_BYTES));
      if (!isCommand(c)) throw new DecodeError('invalid', `command: ${c.type}`);
      commands.push(c);
    }
    const seen: SeenExport[] = readSeqSets(r).map((s) => ({
      origin: s.origin,
      floor: s.upTo,
      above: s.above,
    }));
    const held = readSeqSets(r);
    if (r.bitsLeft >= 8) throw new DecodeError('invalid', 'bytes after the transfer');
    return { clock, cut: { board: { objects, nextId, topZ }, final, commands, seen }, held };
  } catch (e) {
    if (e instanceof DecodeError) return { error: e.code, detail: e.message };
    throw e;
  }
}

function writeTime(w: BitWriter, t: number): void {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, t);
  w.writeBytes(b);
}

function readTime(r: BitReader): number {
  const t = new DataView(r.readBytes(8).buffer).getFloat64(0);
  if (!Number.isFinite(t)) throw new DecodeError('range', 'time is not finite');
  return t;
}

function writeSeqSets(w: BitWriter, sets: readonly HeldSeqs[]): void {
  w.writeRanged(sets.length, 0, MAX_MIRRORS);
  for (const s of sets) {
    w.writeUint(s.origin, MIRROR_ID_BITS);
    w.writeVarUint(s.upTo);
    w.writeVarUint(s.above.length);
    for (const seq of s.above) w.writeVarUint(seq);
  }
}

function readSeqSets(r: BitReader): HeldSeqs[] {
  const out: HeldSeqs[] = [];
  for (let n = r.readRanged(0, MAX_MIRRORS); n > 0; n--) {
    const origin = r.readUint(MIRROR_ID_BITS);
    if (out.some((s) => s.origin === origin)) throw new DecodeError('invalid', 'origin twice');
    const upTo = r.readVarUint();
    const count = r.readVarUint();
    if (count > MAX_ABOVE) throw new DecodeError('length', 'too many seqs above');
    // Each seq takes at least 5 bits: a hostile count costs nothing when the bits are not there.
    r.requireBits(count * 5);
    const above: number[] = [];
    for (let i = 0; i < count; i++) above.push(r.readVarUint());
    out.push({ origin, upTo, above });
  }
  return out;
}

/** The transfer's chunks, each at most GROUP_CHUNK_BYTES. */
export function chunkTransfer(bytes: Uint8Array): Uint8Array[] {
  if (bytes.length > GROUP_MAX_TRANSFER_BYTES) throw new RangeError('board transfer too large');
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += GROUP_CHUNK_BYTES)
    out.push(bytes.subarray(at, at + GROUP_CHUNK_BYTES));
  return out;
}

/**
 * A transfer coming in: its size was announced (welcome, bounded by the wire), chunks come in any order and
 * repeats; one of the wrong size or past the end is refused (false). Memory is the announced size, once.
 */
export class TransferIn {
  private readonly buffer: Uint8Array;
  private readonly have: Uint8Array;
  private missing: number;

  constructor(
    readonly bytes: number,
    readonly chunks: number,
  ) {
    if (bytes > GROUP_MAX_TRANSFER_BYTES || chunks !== Math.ceil(bytes / GROUP_CHUNK_BYTES))
      throw new RangeError('transfer size');
    this.buffer = new Uint8Array(bytes);
    this.have = new Uint8Array(chunks);
    this.missing = chunks;
  }

  add(index: number, chunk: Uint8Array): boolean {
    if (index >= this.chunks) return false;
    const at = index * GROUP_CHUNK_BYTES;
    if (chunk.length !== Math.min(GROUP_CHUNK_BYTES, this.bytes - at)) return false;
    if (this.have[index] === 1) return true;
    this.have[index] = 1;
    this.missing--;
    this.buffer.set(chunk, at);
    return true;
  }

  get complete(): boolean {
    return this.missing === 0;
  }

  get received(): number {
    return this.chunks - this.missing;
  }

  result(): Uint8Array {
    return this.buffer;
  }
}
