import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../shared/api';
import { MAX_OBJECT_ID, MAX_PEER_ID, MAX_SIZE, WORLD_EXTENT } from '../../shared/board';
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { Rng } from '../net/rng';
import { MAX_MIRROR_ID } from './mirror-id';
import type { ParticipantState } from './participant';
import {
  blankParticipant,
  canonicalDrag,
  changedParticipantGroups,
  fieldNames,
  MAX_COLOR_INDEX,
  Participant,
  PARTICIPANT_FIELD,
  participantFieldsInvalid,
} from './participant';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function randomState(rng: Rng): ParticipantState {
  const coord = (): number =>
    rng.bool() ? rng.range(-9000, 9000) : rng.range(-WORLD_EXTENT, WORLD_EXTENT);
  const s: ParticipantState = {
    origin: rng.range(0, MAX_MIRROR_ID),
    client: rng.range(0, MAX_PEER_ID),
    name: rng.pick(['', 'Ann', 'Zoë', 'a long name of forty-eight bytes, no more......', '名前']),
    colorIndex: rng.range(0, MAX_COLOR_INDEX),
    role: rng.bool() ? 'viewer' : 'editor',
    visible: rng.bool(),
    x: coord(),
    y: coord(),
    tool: rng.int(TOOLS.length),
    dragId: rng.bool() ? 0 : rng.range(1, MAX_OBJECT_ID),
    dragX: coord(),
    dragY: coord(),
    dragShaped: rng.bool(),
    dragW: rng.bool() ? rng.range(0, 5000) : rng.range(0, MAX_SIZE),
    dragH: rng.range(0, 4095),
    dragRotation: rng.range(0, 3599),
  };
  canonicalDrag(s);
  return s;
}

/** Every group of `s`, in bit order: what a create carries. */
function packAll(s: ParticipantState): Uint8Array {
  const w = new BitWriter();
  for (const g of Participant.groups) g.pack(w, s);
  return w.finish();
}

function unpackAll(bytes: Uint8Array): ParticipantState {
  const g = Participant.createGhost();
  const r = new BitReader(bytes);
  for (const group of Participant.groups) group.unpack(r, g);
  return g;
}

describe('the participant ghost class', () => {
  it('round-trips every group exactly (seeded)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const s = randomState(new Rng(seed));
      expect(participantFieldsInvalid(s), `seed ${seed}`).toBeUndefined();
      expect(unpackAll(packAll(s)), `seed ${seed}`).toEqual(s);
    }
  });

  it('keeps its layout (golden bytes)', () => {
    const s: ParticipantState = {
      ...blankParticipant(2, 7),
      name: 'Ann',
      colorIndex: 5,
      role: 'viewer',
      visible: true,
      x: 120,
      y: -45,
      tool: 1,
      dragId: 42,
      dragX: 100,
      dragY: -60,
    };
    // origin 0010 · client 000000000111 · "Ann" as writeString puts it · colour 5 · viewer · the pointer, tool
    // and drag below.
    expect(hex(packAll(s))).toBe('20079b42a80be078bfa660000538192fe200');
    // A pointer near the origin: visible, then a near flag and 14 bits per coordinate (120 + 8192, -45 + 8192).
    const w = new BitWriter();
    Participant.groups[2]?.pack(w, s);
    expect(w.bitLength).toBe(31);
    expect(hex(w.finish())).toBe('e078bfa6');
    const far = new BitWriter();
    Participant.groups[2]?.pack(far, { ...s, x: WORLD_EXTENT, y: -WORLD_EXTENT });
    expect(far.bitLength).toBe(1 + 2 * 23);
    // Not dragging: one bit.
    const none = new BitWriter();
    Participant.groups[4]?.pack(none, blankParticipant());
    expect(none.bitLength).toBe(1);
  });

  it('refuses what is out of range when read, with a typed error, and never throws anything else (seeded fuzz)', () => {
    const long = new BitWriter();
    long.writeString('x'.repeat(49));
    expect(() =>
      Participant.groups[1]?.unpack(new BitReader(long.finish()), blankParticipant()),
    ).toThrow(DecodeError);
    const rng = new Rng(0x9a27);
    let errors = 0;
    for (let i = 0; i < 5_000; i++) {
      const g = Participant.groups[rng.int(Participant.groups.length)];
      try {
        g?.unpack(new BitReader(rng.bytes(rng.range(0, 12))), blankParticipant());
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(500);
  });

  it('says why a state cannot be packed', () => {
    const ok = blankParticipant(1, 3);
    expect(participantFieldsInvalid(ok)).toBeUndefined();
    expect(participantFieldsInvalid({ ...ok, name: 'é'.repeat(25) })).toMatch(/name/);
    expect(participantFieldsInvalid({ ...ok, colorIndex: MAX_COLOR_INDEX + 1 })).toMatch(/colour/);
    expect(participantFieldsInvalid({ ...ok, x: 0.5 })).toMatch(/pointer/);
    expect(participantFieldsInvalid({ ...ok, y: WORLD_EXTENT + 1 })).toMatch(/pointer/);
    expect(participantFieldsInvalid({ ...ok, tool: TOOLS.length })).toMatch(/tool/);
    expect(participantFieldsInvalid({ ...ok, dragId: MAX_OBJECT_ID + 1 })).toMatch(/drag/);
    // Drag coordinates mean something only while dragging, the shape only while shaped.
    expect(participantFieldsInvalid({ ...ok, dragX: WORLD_EXTENT * 2 })).toBeUndefined();
    expect(participantFieldsInvalid({ ...ok, dragId: 1, dragX: WORLD_EXTENT * 2 })).toMatch(/drag/);
    expect(participantFieldsInvalid({ ...ok, dragId: 1, dragW: -1 })).toBeUndefined();
    expect(participantFieldsInvalid({ ...ok, dragId: 1, dragShaped: true, dragW: -1 })).toMatch(
      /size/,
    );
    expect(
      participantFieldsInvalid({ ...ok, dragId: 1, dragShaped: true, dragRotation: 3600 }),
    ).toMatch(/rotation/);
  });

  it('names the groups two states differ in', () => {
    const a = blankParticipant(1, 3);
    expect(changedParticipantGroups(a, a)).toBe(0);
    expect(fieldNames(changedParticipantGroups(a, { ...a, x: 1, tool: 2 }))).toEqual([
      'pointer',
      'tool',
    ]);
    expect(changedParticipantGroups(a, { ...a, name: 'B' })).toBe(PARTICIPANT_FIELD.profile);
    expect(changedParticipantGroups(a, { ...a, dragId: 9 })).toBe(PARTICIPANT_FIELD.drag);
    // A drag's leftovers after it ended change nothing anyone sees.
    expect(changedParticipantGroups(a, { ...a, dragX: 5 })).toBe(0);
  });
});
