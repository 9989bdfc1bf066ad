// Bit layout of the ghost section: header, entry heads (id and create / update / delete), class ids and update
// masks, each write with its read twin. Knows nothing of records, scoping, priorities or what a group holds.
import type { BitReader, BitWriter } from '../bitstream';
import { ProtocolError } from '../stream/manager';
import { GHOST_ID_BITS_MAX } from './ghost-ids';

/**
 * Section layout (MSB first):
 *
 *   section := idBits-1 : 4          -- width W of every id in this section, 1..16 bits
 *              entry*
 *              0 : 1                 -- end of section
 *   entry   := 1 : 1                 -- another entry follows
 *              id : W
 *              0 : 1                 -- update: mask : maskBits (none for one-group classes), dirty groups
 *            | 1 0 0 : 3             -- create: classId : classIdBits, then every group
 *            | 1 0 1 : 3             -- refresh: as create; a create repeated while the first is unacknowledged
 *            | 1 1 : 2               -- delete: nothing more
 *
 * Groups are packed by the object in ascending bit order. The id width rides in every packet (4 bits) rather
 * than being negotiated, so it can shrink and grow with the live count and a lost packet never desynchronizes
 * it. A refresh creates the ghost if the first create was lost, or else is a full update of it: it lets a new
 * object's changes flow (and acks come back) during its first round trip, while a plain create for an id in
 * use stays a protocol error.
 */
export const ID_WIDTH_FIELD_BITS = 4;
/** Header plus end bit: the section's own cost. */
export const SECTION_OVERHEAD_BITS = ID_WIDTH_FIELD_BITS + 1;

export type EntryKind = 'create' | 'refresh' | 'update' | 'delete';

export interface EntryHead {
  readonly id: number;
  readonly kind: EntryKind;
}

export function writeSectionHeader(w: BitWriter, idBits: number): void {
  if (!Number.isInteger(idBits) || idBits < 1 || idBits > GHOST_ID_BITS_MAX) {
    throw new RangeError(`ghost id width ${idBits} outside 1..${GHOST_ID_BITS_MAX}`);
  }
  w.writeUint(idBits - 1, ID_WIDTH_FIELD_BITS);
}

/** Reads the id width; wider than this receiver's ids (`maxIdBits`) is a protocol error. */
export function readSectionHeader(r: BitReader, maxIdBits: number): number {
  const idBits = r.readUint(ID_WIDTH_FIELD_BITS) + 1;
  if (idBits > maxIdBits) {
    throw new ProtocolError(`ghost id width ${idBits} exceeds this receiver's ${maxIdBits}`);
  }
  return idBits;
}

export function writeEntryHead(w: BitWriter, idBits: number, head: EntryHead): void {
  w.writeBool(true);
  w.writeUint(head.id, idBits);
  switch (head.kind) {
    case 'update':
      w.writeBool(false);
      return;
    case 'create':
      w.writeUint(0b100, 3);
      return;
    case 'refresh':
      w.writeUint(0b101, 3);
      return;
    case 'delete':
      w.writeUint(0b11, 2);
      return;
  }
}

export function writeSectionEnd(w: BitWriter): void {
  w.writeBool(false);
}

/** The next entry's head, or undefined at the end of the section. An id at or above `limit` is a protocol error. */
export function readEntryHead(r: BitReader, idBits: number, limit: number): EntryHead | undefined {
  if (!r.readBool()) return undefined;
  const id = r.readUint(idBits);
  if (id >= limit) throw new ProtocolError(`ghost id ${id} outside 0..${limit - 1}`);
  if (!r.readBool()) return { id, kind: 'update' };
  if (r.readBool()) return { id, kind: 'delete' };
  return { id, kind: r.readBool() ? 'refresh' : 'create' };
}

export function writeUpdateMask(w: BitWriter, maskBits: number, mask: number): void {
  if (maskBits > 0) w.writeUint(mask, maskBits);
}

/** An update's mask; a one-group class has none on the wire (its only group). Empty is a protocol error. */
export function readUpdateMask(r: BitReader, maskBits: number): number {
  if (maskBits === 0) return 1;
  const mask = r.readUint(maskBits);
  if (mask === 0) throw new ProtocolError('ghost update with no group');
  return mask;
}
