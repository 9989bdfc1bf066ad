// The board model: objects by id with z-order and locks, validated edits, a content hash and the save-file
// format. Pure data; knows nothing of the network, peers' connections or Electron.
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import { MAX_OBJECT_ID, OBJECT_KINDS, validateObjectFields } from '../../shared/board';

export type BoardChange =
  | { readonly type: 'upsert'; readonly object: BoardObject }
  | { readonly type: 'delete'; readonly id: ObjectId };

/** A refused operation, with a reason a person can read. */
export interface Refusal {
  readonly refused: string;
}

export function isRefusal(r: object): r is Refusal {
  return 'refused' in r;
}

const FILE_FORMAT = 'ghostboard-board';
const FILE_VERSION = 1;
/**
 * A board file larger than this is refused before it is read: 100,000 objects of typical size take well under
 * it, and a file past it would take the host's memory several times over while parsed.
 */
export const MAX_BOARD_FILE_BYTES = 64 * 1024 * 1024;
/**
 * Stacking order a file may hold, ±2^40: every z then fits the wire (a varint, ±2^52) with room for 2^52 − 2^40
 * more restacks in the session, each one step past the top or the bottom.
 */
export const MAX_Z = 2 ** 40;
export const MAX_OBJECTS = 100_000;

export class Board {
  private readonly objects = new Map<ObjectId, BoardObject>();
  private nextId = 1;
  private topZ = 0;
  private readonly listeners = new Set<(c: BoardChange) => void>();

  get size(): number {
    return this.objects.size;
  }

  get(id: ObjectId): BoardObject | undefined {
    return this.objects.get(id);
  }

  /** Every object, bottom to top. */
  all(): BoardObject[] {
    return [...this.objects.values()].sort((a, b) => a.z - b.z);
  }

  subscribe(fn: (c: BoardChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Host: adds an object on top, with a fresh id. */
  create(fields: NewObject): BoardObject | Refusal {
    const why = validateObjectFields(fields);
    if (why !== undefined) return { refused: why };
    if (this.objects.size >= MAX_OBJECTS) return { refused: 'the board is full' };
    if (this.nextId > MAX_OBJECT_ID) return { refused: 'out of object ids' };
    const object: BoardObject = {
      ...fields,
      points: [...fields.points],
      id: this.nextId++,
      z: ++this.topZ,
      lockedBy: null,
    };
    this.put(object);
    return object;
  }

  /** Host: changes fields of an existing object. */
  update(id: ObjectId, patch: ObjectPatch): BoardObject | Refusal {
    const current = this.objects.get(id);
    if (current === undefined) return { refused: `no object ${id}` };
    const why = validateObjectFields(patch);
    if (why !== undefined) return { refused: why };
    const next: BoardObject = { ...current, ...patch };
    this.put(next);
    return next;
  }

  delete(id: ObjectId): boolean {
    if (!this.objects.delete(id)) return false;
    this.emit({ type: 'delete', id });
    return true;
  }

  /** Host: moves an object to the top or the bottom of the stack. */
  restack(id: ObjectId, to: 'front' | 'back'): BoardObject | Refusal {
    const current = this.objects.get(id);
    if (current === undefined) return { refused: `no object ${id}` };
    const z =
      to === 'front' ? ++this.topZ : Math.min(0, ...[...this.objects.values()].map((o) => o.z)) - 1;
    const next = { ...current, z };
    this.put(next);
    return next;
  }

  setLock(id: ObjectId, holder: PeerId | null): BoardObject | Refusal {
    const current = this.objects.get(id);
    if (current === undefined) return { refused: `no object ${id}` };
    if (current.lockedBy === holder) return current;
    const next = { ...current, lockedBy: holder };
    this.put(next);
    return next;
  }

  /** Replica: takes an object as the host has it (id, z and lock included). */
  mirror(object: BoardObject): void {
    this.put(object);
  }

  /** A hash of the content (order-independent): equal boards hash equal. */
  hash(): string {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (const o of [...this.objects.values()].sort((a, b) => a.id - b.id)) {
      const s = canonical(o);
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
        h2 = Math.imul(h2 ^ c, 0x85ebca6b) >>> 0;
      }
    }
    return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
  }

  /** The save-file text (locks are not saved: they belong to a live session). */
  toFile(): string {
    const objects = this.all().map((o) => ({ ...o, lockedBy: null }));
    return JSON.stringify({
      format: FILE_FORMAT,
      version: FILE_VERSION,
      nextId: this.nextId,
      objects,
    });
  }

  /** Reads a save file, validating every field; a damaged or hostile file is refused whole. */
  static fromFile(text: string): Board | Refusal {
    if (text.length > MAX_BOARD_FILE_BYTES) return { refused: 'board file too large' };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { refused: 'board file is not valid JSON' };
    }
    if (!isRecord(data) || data.format !== FILE_FORMAT || data.version !== FILE_VERSION) {
      return { refused: 'not a Ghostboard board file (or a newer version)' };
    }
    if (!Array.isArray(data.objects) || data.objects.length > MAX_OBJECTS)
      return { refused: 'bad object list' };
    const board = new Board();
    for (const raw of data.objects as unknown[]) {
      const o = readObject(raw);
      if (isRefusal(o)) return o;
      if (board.objects.has(o.id)) return { refused: `duplicate object id ${o.id}` };
      board.objects.set(o.id, o);
      board.nextId = Math.max(board.nextId, o.id + 1);
      board.topZ = Math.max(board.topZ, o.z);
    }
    if (
      typeof data.nextId === 'number' &&
      Number.isInteger(data.nextId) &&
      data.nextId <= MAX_OBJECT_ID + 1
    ) {
      board.nextId = Math.max(board.nextId, data.nextId);
    }
    return board;
  }

  private put(object: BoardObject): void {
    this.objects.set(object.id, object);
    this.emit({ type: 'upsert', object });
  }

  private emit(c: BoardChange): void {
    for (const fn of this.listeners) fn(c);
  }
}

function canonical(o: BoardObject): string {
  return [
    o.id,
    o.kind,
    o.x,
    o.y,
    o.w,
    o.h,
    o.rotation,
    o.stroke,
    o.fill,
    o.strokeWidth,
    o.z,
    o.lockedBy,
    o.points.join(','),
    o.text,
  ].join('|');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readObject(raw: unknown): BoardObject | Refusal {
  if (!isRecord(raw)) return { refused: 'bad object' };
  const { id, kind, x, y, w, h, rotation, stroke, fill, strokeWidth, text, points, z } = raw;
  const nums = [id, x, y, w, h, rotation, strokeWidth, z];
  if (!nums.every((n) => typeof n === 'number' && Number.isInteger(n)))
    return { refused: 'bad number in object' };
  if (typeof kind !== 'string' || !(OBJECT_KINDS as readonly string[]).includes(kind))
    return { refused: 'bad kind' };
  if (typeof text !== 'string' || !Array.isArray(points)) return { refused: 'bad text or points' };
  if (
    !(stroke === null || typeof stroke === 'number') ||
    !(fill === null || typeof fill === 'number')
  ) {
    return { refused: 'bad colour' };
  }
  const o = {
    id: id as number,
    kind: kind as BoardObject['kind'],
    x: x as number,
    y: y as number,
    w: w as number,
    h: h as number,
    rotation: rotation as number,
    stroke,
    fill,
    strokeWidth: strokeWidth as number,
    text,
    points: points as number[],
    z: z as number,
    lockedBy: null,
  } satisfies BoardObject;
  if (o.id < 1 || o.id > MAX_OBJECT_ID) return { refused: 'object id out of range' };
  if (Math.abs(o.z) > MAX_Z) return { refused: 'stacking order (z) out of range' };
  const why = validateObjectFields(o);
  return why === undefined ? o : { refused: why };
}
