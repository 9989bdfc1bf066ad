import { describe, expect, it } from 'vitest';
import type { BitWriter } from '../bitstream';
import { POINTER } from '../testing/ghost-classes';
import type { GhostPair } from '../testing/ghost-pair';
import { makeGhostPair } from '../testing/ghost-pair';
import { writeEntryHead, writeSectionEnd, writeSectionHeader } from './ghost-wire';

/** Connects a pair, has the client send one hand-made ghost section, and returns the pair afterwards. */
function sendCrafted(craft: (w: BitWriter) => void, maxGhosts?: number): GhostPair {
  const pair = makeGhostPair({ seed: 5, ...(maxGhosts === undefined ? {} : { maxGhosts }) });
  pair.sim.runUntil(300);
  expect(pair.host.conn?.isOpen).toBe(true);
  const sent = pair.client.conn?.send(pair.sim.now, (w) => {
    craft(w);
    return undefined;
  });
  expect(sent).toBe(true);
  pair.sim.runUntil(1_000);
  return pair;
}

function pointerCreate(w: BitWriter, idBits: number, id: number): void {
  writeEntryHead(w, idBits, { id, kind: 'create' });
  w.writeUint(1, 2); // class id 1: pointer
  for (const g of POINTER.groups) g.pack(w, { x: 1, y: 2, tool: 3 });
}

function expectProtocolError(pair: GhostPair, detail: RegExp): void {
  expect(pair.host.closed?.reason).toBe('protocol-error');
  expect(pair.host.closed?.detail).toMatch(detail);
  expect(pair.client.closed?.reason).toBe('protocol-error');
  expect(pair.client.closed?.byPeer).toBe(true);
}

describe('hostile ghost sections close the connection with a protocol error', () => {
  it('accepts a well-formed section (control)', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 4);
      pointerCreate(w, 4, 9);
      writeSectionEnd(w);
    });
    expect(pair.host.closed).toBeUndefined();
    expect([...pair.host.pointers]).toEqual([{ x: 1, y: 2, tool: 3 }]);
  });

  it('unknown class id', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 4);
      writeEntryHead(w, 4, { id: 0, kind: 'create' });
      w.writeUint(3, 2);
      writeSectionEnd(w);
    });
    expectProtocolError(pair, /unknown class id 3/);
  });

  it('update for an unknown id', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 4);
      writeEntryHead(w, 4, { id: 2, kind: 'update' });
      w.writeUint(1, 2);
      writeSectionEnd(w);
    });
    expectProtocolError(pair, /update for unknown id 2/);
  });

  it('delete for an unknown id', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 4);
      writeEntryHead(w, 4, { id: 2, kind: 'delete' });
      writeSectionEnd(w);
    });
    expectProtocolError(pair, /delete for unknown id 2/);
  });

  it('create for an id in use', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 4);
      pointerCreate(w, 4, 5);
      pointerCreate(w, 4, 5);
      writeSectionEnd(w);
    });
    expectProtocolError(pair, /id 5, already in use/);
  });

  it('refresh of a live ghost as another class', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 4);
      pointerCreate(w, 4, 5);
      writeEntryHead(w, 4, { id: 5, kind: 'refresh' });
      w.writeUint(2, 2); // marker, but id 5 is a pointer
      w.writeUint(7, 8);
      writeSectionEnd(w);
    });
    expectProtocolError(pair, /refresh of id 5 as class 2, not 1/);
  });

  it('update with an empty mask', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 4);
      pointerCreate(w, 4, 5);
      writeEntryHead(w, 4, { id: 5, kind: 'update' });
      w.writeUint(0, 2);
      writeSectionEnd(w);
    });
    expectProtocolError(pair, /no group/);
  });

  it('ids wider than the receiver allows', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 16);
      pointerCreate(w, 16, 60_000);
      writeSectionEnd(w);
    });
    expectProtocolError(pair, /id width 16 exceeds/);
  });

  it('an id past the receiver limit', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 10);
      pointerCreate(w, 10, 1_010);
      writeSectionEnd(w);
    }, 1_000);
    expectProtocolError(pair, /ghost id 1010 outside 0..999/);
  });

  it('a truncated section', () => {
    const pair = sendCrafted((w) => {
      writeSectionHeader(w, 14);
      w.writeBool(true);
      w.writeUint(5, 3); // 3 of the id's 14 bits, then the payload ends
    });
    expectProtocolError(pair, /need 14 bits/);
  });
});
