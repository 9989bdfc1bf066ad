// Seeded random mirror commands of every kind, at the edges of their fields' ranges, for codec and trace tests.
// Not product code.
import type { NewObject } from '../../../shared/board';
import {
  MAX_OBJECT_ID,
  MAX_PEER_ID,
  MAX_POINTS,
  MAX_TEXT_BYTES,
  OBJECT_KINDS,
  POINT_EXTENT,
  WORLD_EXTENT,
} from '../../../shared/board';
import type { Rng } from '../../net/rng';
import type { CommandOp, MirrorCommand } from '../command';
import { MAX_MIRROR_ID } from '../command';
import { MAX_COMMAND_SEQ, MAX_COMMAND_STAMP } from '../command-codec';

const TEXTS = ['', 'hi', 'é🙂 naïve', 'x'.repeat(MAX_TEXT_BYTES), '🙂'.repeat(MAX_TEXT_BYTES / 4)];

function edge(rng: Rng, min: number, max: number): number {
  const roll = rng.int(4);
  return roll === 0 ? min : roll === 1 ? max : rng.range(min, max);
}

export function randomFields(rng: Rng): NewObject {
  const kind = rng.pick(OBJECT_KINDS);
  const n = rng.bool(0.2) ? MAX_POINTS : rng.int(5);
  return {
    kind,
    x: edge(rng, -WORLD_EXTENT, WORLD_EXTENT),
    y: edge(rng, -WORLD_EXTENT, WORLD_EXTENT),
    w: edge(rng, 0, 1_000_000),
    h: edge(rng, 0, 1_000_000),
    rotation: edge(rng, 0, 3599),
    stroke: rng.bool(0.2) ? null : rng.int(0x1000000),
    fill: rng.bool(0.5) ? null : rng.int(0x1000000),
    strokeWidth: edge(rng, 0, 64),
    text: rng.pick(TEXTS),
    points: Array.from({ length: n * 2 }, () => edge(rng, -POINT_EXTENT, POINT_EXTENT)),
    blob:
      kind === 'image'
        ? [...rng.bytes(32)].map((b) => b.toString(16).padStart(2, '0')).join('')
        : '',
  };
}

export function randomOp(rng: Rng): CommandOp {
  const id = edge(rng, 1, MAX_OBJECT_ID);
  switch (rng.int(10)) {
    case 0:
      return { type: 'create', id, fields: randomFields(rng) };
    case 1: {
      const f = randomFields(rng);
      const patch = rng.bool()
        ? { x: f.x, fill: f.fill }
        : rng.bool()
          ? { text: f.text, points: f.points, rotation: f.rotation }
          : {};
      return { type: 'patch', id, patch };
    }
    case 2:
      return { type: 'delete', id };
    case 3:
      return {
        type: 'restack',
        id,
        to: rng.pick(['front', 'back', { z: edge(rng, -(2 ** 52), 2 ** 52 - 1) }] as const),
      };
    case 4:
      return { type: 'pin', id, pinned: rng.bool() };
    case 5:
      return { type: 'grab', id };
    case 6:
      return {
        type: 'drop',
        id,
        x: edge(rng, -WORLD_EXTENT, WORLD_EXTENT),
        y: edge(rng, -WORLD_EXTENT, WORLD_EXTENT),
      };
    case 7:
      return { type: 'release' };
    case 8:
      return { type: 'restore', id, fields: randomFields(rng), z: edge(rng, -1000, 1000) };
    default:
      return { type: 'chat', text: rng.pick(TEXTS) };
  }
}

export function randomCommand(rng: Rng): MirrorCommand {
  return {
    origin: edge(rng, 0, MAX_MIRROR_ID),
    seq: edge(rng, 0, MAX_COMMAND_SEQ),
    stamp: edge(rng, 0, MAX_COMMAND_STAMP),
    client: edge(rng, 0, MAX_PEER_ID),
    op: randomOp(rng),
  };
}
