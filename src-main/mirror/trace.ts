// Command traces: the commands a mirror (or a single host) received, each with the time it arrived, as a file that
// `ghostboard replay` re-executes deterministically (the paper's trace feature, §3.5.4). A pure codec: a writer
// of the header and records, and a bounded parser that treats the bytes as hostile. Knows nothing of files,
// clocks or how the commands were delivered.
//
// Layout (integers little-endian):
//   header  "GBTR" · u8 version (1) · u8 the recording mirror's id
//   record  u32 length · u32 crc32 of the payload · payload (`length` bytes):
//           bit-packed: arrival varuint (ms on the group clock) · the command (command-codec.ts) · zero padding
// A last record cut short (a crash mid-append) is ignored and reported as torn; any other damage refuses the
// trace with the record's index and offset.
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { crc32 } from '../net/stun';
import type { MirrorCommand, MirrorId } from './command';
import { MAX_MIRROR_ID } from './command';
import { MAX_COMMAND_BYTES, MAX_COMMAND_STAMP, readCommand, writeCommand } from './command-codec';

const MAGIC = [0x47, 0x42, 0x54, 0x52]; // "GBTR"
export const TRACE_VERSION = 1;
const HEADER_BYTES = 6;
const RECORD_HEAD = 8;
/** A payload at most: a command at its longest and its arrival time. */
const MAX_PAYLOAD = MAX_COMMAND_BYTES + 16;
/** A trace longer than this is refused unread (a million commands fit several times over). */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024;

export interface TraceRecord {
  /** When the recording mirror received it (ms on the group clock); its own commands arrive at their stamp. */
  readonly arrival: number;
  readonly command: MirrorCommand;
}

export interface Trace {
  readonly mirror: MirrorId;
  readonly records: readonly TraceRecord[];
  /** The last record was cut short and left out. */
  readonly torn: boolean;
}

export type TraceError =
  | { readonly type: 'too-big'; readonly bytes: number }
  | { readonly type: 'not-a-trace' }
  | { readonly type: 'version'; readonly version: number }
  | { readonly type: 'bad-mirror'; readonly mirror: number }
  | {
      readonly type: 'record';
      readonly index: number;
      readonly offset: number;
      readonly why: string;
    };

export function encodeTraceHeader(mirror: MirrorId): Uint8Array {
  if (!Number.isInteger(mirror) || mirror < 0 || mirror > MAX_MIRROR_ID)
    throw new RangeError(`mirror id ${mirror}`);
  return Uint8Array.from([...MAGIC, TRACE_VERSION, mirror]);
}

export function encodeTraceRecord(r: TraceRecord): Uint8Array {
  if (!Number.isSafeInteger(r.arrival) || r.arrival < 0 || r.arrival > MAX_COMMAND_STAMP)
    throw new RangeError(`arrival ${r.arrival}`);
  const w = new BitWriter(64);
  w.writeVarUint(r.arrival);
  writeCommand(w, r.command);
  const payload = w.finish();
  const out = new Uint8Array(RECORD_HEAD + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, payload.length, true);
  view.setUint32(4, crc32(payload), true);
  out.set(payload, RECORD_HEAD);
  return out;
}

/** A whole trace in memory (tests, the generator, a recorder that writes at the end). */
export function encodeTrace(trace: Pick<Trace, 'mirror' | 'records'>): Uint8Array {
  const parts = [encodeTraceHeader(trace.mirror), ...trace.records.map(encodeTraceRecord)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function decodeTrace(bytes: Uint8Array): Trace | TraceError {
  if (bytes.length > MAX_TRACE_BYTES) return { type: 'too-big', bytes: bytes.length };
  if (bytes.length < HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b))
    return { type: 'not-a-trace' };
  const version = bytes[4] ?? 0;
  if (version !== TRACE_VERSION) return { type: 'version', version };
  const mirror = bytes[5] ?? 0;
  if (mirror > MAX_MIRROR_ID) return { type: 'bad-mirror', mirror };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: TraceRecord[] = [];
  let at = HEADER_BYTES;
  while (at < bytes.length) {
    const index = records.length;
    const fail = (why: string): TraceError => ({ type: 'record', index, offset: at, why });
    if (bytes.length - at < RECORD_HEAD) return { mirror, records, torn: true };
    const length = view.getUint32(at, true);
    if (length === 0 || length > MAX_PAYLOAD) return fail(`record of ${length} bytes`);
    if (bytes.length - at - RECORD_HEAD < length) return { mirror, records, torn: true };
    const payload = bytes.subarray(at + RECORD_HEAD, at + RECORD_HEAD + length);
    if (crc32(payload) !== view.getUint32(at + 4, true)) return fail('checksum mismatch');
    const r = readRecord(payload);
    if (typeof r === 'string') return fail(r);
    records.push(r);
    at += RECORD_HEAD + length;
  }
  return { mirror, records, torn: false };
}

export function isTrace(t: Trace | TraceError): t is Trace {
  return 'records' in t;
}

/** A record's payload, or why it is not one. */
function readRecord(payload: Uint8Array): TraceRecord | string {
  const r = new BitReader(payload);
  try {
    const arrival = r.readVarUint();
    if (arrival > MAX_COMMAND_STAMP) return 'arrival out of range';
    const command = readCommand(r);
    if (r.bitsLeft >= 8 || (r.bitsLeft > 0 && r.readUint(r.bitsLeft) !== 0))
      return 'bytes after the command';
    return { arrival, command };
  } catch (e) {
    if (e instanceof DecodeError) return e.message;
    throw e;
  }
}

/** A trace error as a person reads it. */
export function traceErrorText(e: TraceError): string {
  switch (e.type) {
    case 'too-big':
      return `a trace of ${e.bytes} bytes is more than ${MAX_TRACE_BYTES}`;
    case 'not-a-trace':
      return 'not a Ghostboard command trace';
    case 'version':
      return `trace version ${e.version} (this reads ${TRACE_VERSION})`;
    case 'bad-mirror':
      return `recording mirror ${e.mirror} is out of range`;
    case 'record':
      return `record ${e.index} at byte ${e.offset}: ${e.why}`;
  }
}
