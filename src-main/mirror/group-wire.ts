// Mirror group membership on the wire, bit-packed: a joiner's request, suspicions, the coordinator's view change
// (propose, flush, target, flushed, install) and the board transfer to a joiner (welcome, chunks). Every read is
// bounded and a bad message is a typed error, never a throw. Knows nothing of links, timers or what a view change
// does.
//
// Layout (widths in bits): kind ranged 0..9 (4) · the kind's fields:
//   join      nonce 32 · listen port 16
//   ask       nonce 32 · address string (≤ 64 bytes) · port 16 · via 4          (a member forwards a join)
//   suspect   id 4 · reason ranged 0..4 (3)
//   propose   ballot · view · removed (count 4, each id 4 · reason 3) · joined (count 4, each id 4 · nonce 32 · via 4)
//   flush     ballot · held · view number varuint (the one the member has installed)
//   target    ballot · held
//   flushed   ballot
//   install   ballot · view · removed · joined
//   welcome   nonce 32 · id 4 · view · chunks varuint · bytes varuint
//   chunk     nonce 32 · index varuint · bytes (≤ GROUP_CHUNK_BYTES)
//   ballot  = view varuint · attempt varuint · coordinator 4
//   view    = number varuint · next id ranged 0..16 (5) · members (count 5, each id 4 · address string · port 16)
//   held    = count 5, each origin 4 · upTo varuint · above (count varuint ≤ GROUP_MAX_ABOVE, each varuint)
import type { PeerAddress } from '../net/address';
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import type { DecodeErrorCode } from '../net/bitstream';
import type { MirrorId } from './mirror-id';
import { MAX_MIRRORS, MIRROR_ID_BITS } from './mirror-id';

/** Bytes of board transfer one chunk carries: with its header it fits one link packet. */
export const GROUP_CHUNK_BYTES = 1000;
/** Largest group message read at all, bytes. */
export const GROUP_MAX_MESSAGE_BYTES = 1200;
/** Out-of-order seqs one held-set lists at most (CRIMP's window bounds what a mirror holds above its prefix). */
export const GROUP_MAX_ABOVE = 1024;
/** A board transfer's size at most: 64 MiB (a 20,000-object board is well under 1 MiB). */
export const GROUP_MAX_TRANSFER_BYTES = 64 * 1024 * 1024;
const MAX_ADDRESS_BYTES = 64;

/** Why a member left the group. */
export const LEAVE_REASONS = ['closed', 'silent', 'behind', 'buffer', 'excluded'] as const;
export type LeaveReason = (typeof LEAVE_REASONS)[number];

export interface ViewMember {
  readonly id: MirrorId;
  /** Where it listens for mirror links (a joiner dials every member there). */
  readonly address: PeerAddress;
}

/** One agreed membership of the group: numbered from 0 (the founding members), one more per view change. */
export interface View {
  readonly number: number;
  /** Ascending by id; the first is the coordinator and the group clock's reference. */
  readonly members: readonly ViewMember[];
  /** The id the next joiner takes: ids only grow, so none is reused within a session (MAX_MIRRORS at most). */
  readonly nextId: number;
}

/** A view change attempt: the view it would install, the coordinator's attempt number and the coordinator. */
export interface Ballot {
  readonly view: number;
  readonly attempt: number;
  readonly coordinator: MirrorId;
}

/** What a mirror holds of one origin's CRIMP stream: every seq 1..upTo, and those listed above it. */
export interface HeldSeqs {
  readonly origin: MirrorId;
  readonly upTo: number;
  readonly above: readonly number[];
}

export interface Removal {
  readonly id: MirrorId;
  readonly reason: LeaveReason;
}

export interface Admission {
  readonly id: MirrorId;
  /** The joiner's request, as the member it dialled (via) knows it. */
  readonly nonce: number;
  readonly via: MirrorId;
}

export type GroupMessage =
  | { readonly kind: 'join'; readonly nonce: number; readonly port: number }
  | {
      readonly kind: 'ask';
      readonly nonce: number;
      readonly address: PeerAddress;
      readonly via: MirrorId;
    }
  | { readonly kind: 'suspect'; readonly id: MirrorId; readonly reason: LeaveReason }
  | {
      readonly kind: 'propose';
      readonly ballot: Ballot;
      readonly view: View;
      readonly removed: readonly Removal[];
      readonly joined: readonly Admission[];
    }
  | {
      readonly kind: 'flush';
      readonly ballot: Ballot;
      readonly held: readonly HeldSeqs[];
      readonly installed: number;
    }
  | { readonly kind: 'target'; readonly ballot: Ballot; readonly held: readonly HeldSeqs[] }
  | { readonly kind: 'flushed'; readonly ballot: Ballot }
  | {
      readonly kind: 'install';
      readonly ballot: Ballot;
      readonly view: View;
      readonly removed: readonly Removal[];
      readonly joined: readonly Admission[];
    }
  | {
      readonly kind: 'welcome';
      readonly nonce: number;
      readonly id: MirrorId;
      readonly view: View;
      readonly chunks: number;
      readonly bytes: number;
    }
  | {
      readonly kind: 'chunk';
      readonly nonce: number;
      readonly index: number;
      readonly bytes: Uint8Array;
    };

const KINDS = [
  'join',
  'ask',
  'suspect',
  'propose',
  'flush',
  'target',
  'flushed',
  'install',
  'welcome',
  'chunk',
] as const satisfies readonly GroupMessage['kind'][];

export type GroupDecodeError = { readonly error: DecodeErrorCode; readonly detail: string };

export function isGroupDecodeError(m: GroupMessage | GroupDecodeError): m is GroupDecodeError {
  return 'error' in m;
}

export function encodeGroupMessage(m: GroupMessage): Uint8Array {
  const w = new BitWriter(64);
  w.writeRanged(KINDS.indexOf(m.kind), 0, KINDS.length - 1);
  switch (m.kind) {
    case 'join':
      w.writeUint(m.nonce, 32);
      w.writeUint(m.port, 16);
      break;
    case 'ask':
      w.writeUint(m.nonce, 32);
      writeAddress(w, m.address);
      w.writeUint(m.via, MIRROR_ID_BITS);
      break;
    case 'suspect':
      w.writeUint(m.id, MIRROR_ID_BITS);
      w.writeRanged(LEAVE_REASONS.indexOf(m.reason), 0, LEAVE_REASONS.length - 1);
      break;
    case 'propose':
    case 'install':
      writeBallot(w, m.ballot);
      writeView(w, m.view);
      writeChanges(w, m.removed, m.joined);
      break;
    case 'flush':
      writeBallot(w, m.ballot);
      writeHeld(w, m.held);
      w.writeVarUint(m.installed);
      break;
    case 'target':
      writeBallot(w, m.ballot);
      writeHeld(w, m.held);
      break;
    case 'flushed':
      writeBallot(w, m.ballot);
      break;
    case 'welcome':
      w.writeUint(m.nonce, 32);
      w.writeUint(m.id, MIRROR_ID_BITS);
      writeView(w, m.view);
      w.writeVarUint(m.chunks);
      w.writeVarUint(m.bytes);
      break;
    case 'chunk':
      w.writeUint(m.nonce, 32);
      w.writeVarUint(m.index);
      w.writeByteArray(m.bytes);
      break;
  }
  return w.finish();
}

export function decodeGroupMessage(bytes: Uint8Array): GroupMessage | GroupDecodeError {
  try {
    if (bytes.length > GROUP_MAX_MESSAGE_BYTES)
      throw new DecodeError('length', 'message too large');
    const r = new BitReader(bytes);
    const kind = KINDS[r.readRanged(0, KINDS.length - 1)];
    if (kind === undefined) throw new DecodeError('invalid', 'unknown group message');
    return readBody(r, kind);
  } catch (e) {
    if (e instanceof DecodeError) return { error: e.code, detail: e.message };
    throw e;
  }
}

function readBody(r: BitReader, kind: GroupMessage['kind']): GroupMessage {
  switch (kind) {
    case 'join':
      return { kind, nonce: r.readUint(32), port: r.readUint(16) };
    case 'ask':
      return {
        kind,
        nonce: r.readUint(32),
        address: readAddress(r),
        via: r.readUint(MIRROR_ID_BITS),
      };
    case 'suspect': {
      const id = r.readUint(MIRROR_ID_BITS);
      return { kind, id, reason: readReason(r) };
    }
    case 'propose':
    case 'install': {
      const ballot = readBallot(r);
      const view = readView(r);
      const { removed, joined } = readChanges(r);
      return { kind, ballot, view, removed, joined };
    }
    case 'flush': {
      const ballot = readBallot(r);
      const held = readHeld(r);
      return { kind, ballot, held, installed: r.readVarUint() };
    }
    case 'target': {
      const ballot = readBallot(r);
      return { kind, ballot, held: readHeld(r) };
    }
    case 'flushed':
      return { kind, ballot: readBallot(r) };
    case 'welcome': {
      const nonce = r.readUint(32);
      const id = r.readUint(MIRROR_ID_BITS);
      const view = readView(r);
      const chunks = r.readVarUint();
      const bytes = r.readVarUint();
      if (bytes > GROUP_MAX_TRANSFER_BYTES || chunks !== Math.ceil(bytes / GROUP_CHUNK_BYTES))
        throw new DecodeError('range', 'transfer size');
      return { kind, nonce, id, view, chunks, bytes };
    }
    case 'chunk': {
      const nonce = r.readUint(32);
      const index = r.readVarUint();
      return { kind, nonce, index, bytes: r.readByteArray(GROUP_CHUNK_BYTES) };
    }
  }
}

function writeAddress(w: BitWriter, a: PeerAddress): void {
  w.writeString(a.address);
  w.writeUint(a.port, 16);
}

function readAddress(r: BitReader): PeerAddress {
  const address = r.readString(MAX_ADDRESS_BYTES);
  return { address, port: r.readUint(16) };
}

function readReason(r: BitReader): LeaveReason {
  const reason = LEAVE_REASONS[r.readRanged(0, LEAVE_REASONS.length - 1)];
  if (reason === undefined) throw new DecodeError('range', 'leave reason');
  return reason;
}

function writeBallot(w: BitWriter, b: Ballot): void {
  w.writeVarUint(b.view);
  w.writeVarUint(b.attempt);
  w.writeUint(b.coordinator, MIRROR_ID_BITS);
}

function readBallot(r: BitReader): Ballot {
  return {
    view: r.readVarUint(),
    attempt: r.readVarUint(),
    coordinator: r.readUint(MIRROR_ID_BITS),
  };
}

function writeView(w: BitWriter, v: View): void {
  w.writeVarUint(v.number);
  w.writeRanged(v.nextId, 0, MAX_MIRRORS);
  w.writeRanged(v.members.length, 0, MAX_MIRRORS);
  for (const m of v.members) {
    w.writeUint(m.id, MIRROR_ID_BITS);
    writeAddress(w, m.address);
  }
}

function readView(r: BitReader): View {
  const number = r.readVarUint();
  const nextId = r.readRanged(0, MAX_MIRRORS);
  const n = r.readRanged(0, MAX_MIRRORS);
  const members: ViewMember[] = [];
  for (let i = 0; i < n; i++) {
    const id = r.readUint(MIRROR_ID_BITS);
    if (members.some((m) => m.id >= id)) throw new DecodeError('invalid', 'view not ascending');
    if (id >= nextId) throw new DecodeError('invalid', 'member id past the next id');
    members.push({ id, address: readAddress(r) });
  }
  return { number, members, nextId };
}

function writeChanges(
  w: BitWriter,
  removed: readonly Removal[],
  joined: readonly Admission[],
): void {
  w.writeRanged(removed.length, 0, MAX_MIRRORS - 1);
  for (const x of removed) {
    w.writeUint(x.id, MIRROR_ID_BITS);
    w.writeRanged(LEAVE_REASONS.indexOf(x.reason), 0, LEAVE_REASONS.length - 1);
  }
  w.writeRanged(joined.length, 0, MAX_MIRRORS - 1);
  for (const x of joined) {
    w.writeUint(x.id, MIRROR_ID_BITS);
    w.writeUint(x.nonce, 32);
    w.writeUint(x.via, MIRROR_ID_BITS);
  }
}

function readChanges(r: BitReader): { removed: Removal[]; joined: Admission[] } {
  const removed: Removal[] = [];
  for (let n = r.readRanged(0, MAX_MIRRORS - 1); n > 0; n--) {
    const id = r.readUint(MIRROR_ID_BITS);
    removed.push({ id, reason: readReason(r) });
  }
  const joined: Admission[] = [];
  for (let n = r.readRanged(0, MAX_MIRRORS - 1); n > 0; n--)
    joined.push({
      id: r.readUint(MIRROR_ID_BITS),
      nonce: r.readUint(32),
      via: r.readUint(MIRROR_ID_BITS),
    });
  return { removed, joined };
}

function writeHeld(w: BitWriter, held: readonly HeldSeqs[]): void {
  w.writeRanged(held.length, 0, MAX_MIRRORS);
  for (const h of held) {
    w.writeUint(h.origin, MIRROR_ID_BITS);
    w.writeVarUint(h.upTo);
    w.writeVarUint(h.above.length);
    for (const s of h.above) w.writeVarUint(s);
  }
}

function readHeld(r: BitReader): HeldSeqs[] {
  const out: HeldSeqs[] = [];
  for (let n = r.readRanged(0, MAX_MIRRORS); n > 0; n--) {
    const origin = r.readUint(MIRROR_ID_BITS);
    const upTo = r.readVarUint();
    const count = r.readVarUint();
    if (count > GROUP_MAX_ABOVE) throw new DecodeError('length', 'too many seqs above');
    const above: number[] = [];
    for (let i = 0; i < count; i++) {
      const s = r.readVarUint();
      if (s <= upTo) throw new DecodeError('invalid', 'seq above not above');
      above.push(s);
    }
    out.push({ origin, upTo, above });
  }
  return out;
}
