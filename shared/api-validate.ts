// Validates commands arriving from a renderer (untrusted: a compromised page must not reach the core with
// malformed input). Pure functions; no Node, no DOM.
import type {
  ApiCommand,
  ExportFormat,
  NetworkConditions,
  StartBoard,
  Tool,
  Viewport,
} from './api';
import { EXPORT_FORMATS, MAX_IMPORT_CHARS, MAX_PATH_CHARS, TOOLS } from './api';
import type { FieldSpec, FieldType, NewObject, ObjectPatch } from './board';
import {
  MAX_OBJECT_ID,
  MAX_SIZE,
  MAX_TEXT_BYTES,
  NEW_OBJECT_FIELDS,
  OBJECT_FIELDS,
  PATCH_FIELDS,
  ROTATION_STEPS,
  validateObjectFields,
  WORLD_EXTENT,
} from './board';
import { isImageType, MAX_IMAGE_BYTES } from './images';

export interface CommandError {
  readonly error: string;
}

type Rec = Record<string, unknown>;

const MAX_NAME_CHARS = 40;
const MAX_CHAT_CHARS = 1000;
const MAX_CODE_CHARS = 64;
const MAX_ADDRESS_CHARS = 600;
const MAX_LIST_NAME_CHARS = 48;
const MAX_DIRECTORIES = 4;
const MAX_DELETE_IDS = 10_000;
const MAX_FILE_NAME_CHARS = 255;
/** filesleft: an unsaved board's id (app/unsaved-boards.ts names them so): never a path. */
export const UNSAVED_ID = /^untitled-\d{1,16}$/;
/** Base64 of the largest image (the core refuses bytes past MAX_IMAGE_BYTES by their decoded count). */
export const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function int(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function str(v: unknown, maxChars: number): v is string {
  return typeof v === 'string' && v.length <= maxChars;
}

function onlyKeys(o: Rec, keys: readonly string[]): boolean {
  return Object.keys(o).every((k) => keys.includes(k));
}

const objectId = (v: unknown): v is number => int(v, 1, MAX_OBJECT_ID);
const coord = (v: unknown): v is number => int(v, -WORLD_EXTENT, WORLD_EXTENT);

/** A field's JSON shape by its type (validateObjectFields then checks its range). */
function shapeOk(t: FieldType['type'], v: unknown): boolean {
  switch (t) {
    case 'int':
    case 'z':
      return typeof v === 'number';
    case 'kind':
    case 'text':
    case 'hash':
      return typeof v === 'string';
    case 'color':
    case 'holder':
      return v === null || typeof v === 'number';
    case 'points':
      return Array.isArray(v);
  }
}

const FIELDS: readonly FieldSpec[] = OBJECT_FIELDS;
const NEW_FIELDS = FIELDS.filter((f) => (NEW_OBJECT_FIELDS as readonly string[]).includes(f.name));
const PATCHABLE = FIELDS.filter((f) => (PATCH_FIELDS as readonly string[]).includes(f.name));

/** A new object: every field an editor sets (NEW_OBJECT_FIELDS), no other. */
function newObject(v: unknown): NewObject | undefined {
  if (!isRec(v) || !onlyKeys(v, NEW_OBJECT_FIELDS)) return undefined;
  if (!NEW_FIELDS.every((f) => f.name in v && shapeOk(f.codec.type, v[f.name]))) return undefined;
  const o = { ...v, points: [...(v.points as unknown[])] } as unknown as NewObject;
  return validateObjectFields(o) === undefined ? o : undefined;
}

/** A patch: some of PATCH_FIELDS, no other. */
function patch(v: unknown): ObjectPatch | undefined {
  if (!isRec(v) || !onlyKeys(v, PATCH_FIELDS)) return undefined;
  if (!PATCHABLE.every((f) => !(f.name in v) || shapeOk(f.codec.type, v[f.name]))) return undefined;
  const p = v as ObjectPatch;
  return validateObjectFields(p) === undefined ? p : undefined;
}

function viewport(v: unknown): Viewport | undefined {
  if (!isRec(v) || !onlyKeys(v, ['x', 'y', 'w', 'h'])) return undefined;
  const { x, y, w, h } = v;
  return coord(x) && coord(y) && int(w, 0, 2 * WORLD_EXTENT) && int(h, 0, 2 * WORLD_EXTENT)
    ? { x, y, w, h }
    : undefined;
}

function conditions(v: unknown): NetworkConditions | undefined {
  if (!isRec(v) || !onlyKeys(v, ['lossPct', 'delayMs', 'kbps'])) return undefined;
  const { lossPct, delayMs, kbps } = v;
  const ok =
    typeof lossPct === 'number' &&
    lossPct >= 0 &&
    lossPct <= 100 &&
    int(delayMs, 0, 2000) &&
    int(kbps, 0, 1_000_000);
  return ok ? { lossPct, delayMs, kbps } : undefined;
}

/** Each command's fields besides `cmd`; any other field refuses the command. */
const COMMAND_FIELDS: { readonly [C in ApiCommand['cmd']]: readonly string[] } = {
  host: ['options'],
  join: ['options'],
  leave: [],
  create: ['object', 'step'],
  edit: ['id', 'patch'],
  text: ['id', 'at', 'remove', 'insert'],
  delete: ['ids'],
  restack: ['id', 'front', 'step'],
  undo: [],
  redo: [],
  grab: ['id'],
  drag: ['id', 'x', 'y'],
  drop: ['id', 'x', 'y'],
  pointer: ['x', 'y', 'visible'],
  tool: ['tool'],
  viewport: ['viewport'],
  chat: ['text'],
  conditions: ['conditions'],
  kick: ['peer'],
  role: ['peer', 'role'],
  'rotate-code': [],
  settings: ['settings'],
  sync: [],
  export: ['format', 'ids', 'transparent'],
  reshape: ['id', 'x', 'y', 'w', 'h', 'rotation'],
  pin: ['ids', 'pinned'],
  'text-open': ['id', 'base'],
  'text-edit': ['id', 'seen', 'at', 'remove', 'insert'],
  'text-close': ['id'],
  image: ['type', 'data', 'x', 'y', 'w', 'h'],
  import: ['format', 'text'],
  save: [],
  'save-as': ['path'],
  open: ['path'],
  new: [],
  'open-text': ['name', 'text'],
  download: [],
};

/** Commands that name a path on the host's disk: only the desktop app takes them (the web host refuses them). */
export const PATH_COMMANDS: readonly ApiCommand['cmd'][] = ['open', 'save-as'];

/** Whether a command names a path on the host's disk: a path command, or hosting a board file by its path. */
export function namesAPath(c: ApiCommand): boolean {
  return PATH_COMMANDS.includes(c.cmd) || (c.cmd === 'host' && c.options.board?.kind === 'file');
}

/** A file path: non-empty, bounded, no NUL. */
function filePath(v: unknown): v is string {
  return str(v, MAX_PATH_CHARS) && v.trim() !== '' && !v.includes('\0');
}

/** An uploaded file's name (the board's name): non-empty, bounded, no NUL. */
const fileName = (v: unknown): v is string =>
  str(v, MAX_FILE_NAME_CHARS) && v.trim() !== '' && !v.includes('\0');

/** filesleft: the board a host command starts with; undefined when it is malformed. */
function startBoard(v: unknown): StartBoard | undefined {
  if (!isRec(v)) return undefined;
  switch (v.kind) {
    case 'new':
      return onlyKeys(v, ['kind']) ? { kind: 'new' } : undefined;
    case 'file':
      return onlyKeys(v, ['kind', 'path']) && filePath(v.path)
        ? { kind: 'file', path: v.path }
        : undefined;
    case 'upload':
      return onlyKeys(v, ['kind', 'name', 'text']) &&
        fileName(v.name) &&
        str(v.text, MAX_IMPORT_CHARS)
        ? { kind: 'upload', name: v.name, text: v.text }
        : undefined;
    case 'recovered':
      return onlyKeys(v, ['kind', 'id']) && typeof v.id === 'string' && UNSAVED_ID.test(v.id)
        ? { kind: 'recovered', id: v.id }
        : undefined;
    default:
      return undefined;
  }
}

/** The command, or why it is refused. Extra or missing fields, wrong types and out-of-range values are refused. */
export function parseCommand(input: unknown): ApiCommand | CommandError {
  const bad = (why: string): CommandError => ({ error: why });
  if (!isRec(input) || typeof input.cmd !== 'string') return bad('not a command');
  const c = input;
  const name = input.cmd;
  if (!Object.hasOwn(COMMAND_FIELDS, name)) return bad('unknown command');
  const fields = COMMAND_FIELDS[name as ApiCommand['cmd']];
  if (!onlyKeys(c, ['cmd', ...fields])) return bad(`unknown field in ${name}`);
  switch (c.cmd) {
    case 'host': {
      const o = c.options;
      if (
        !isRec(o) ||
        !onlyKeys(o, ['name', 'port', 'code', 'reach', 'listName', 'board']) ||
        !str(o.name, MAX_NAME_CHARS) ||
        o.name.trim() === ''
      )
        return bad('host needs a name');
      if (o.port !== undefined && !int(o.port, 0, 65535)) return bad('bad port');
      if (o.code !== undefined && (!str(o.code, MAX_CODE_CHARS) || o.code.trim().length < 4))
        return bad('bad code');
      if (o.reach !== undefined && o.reach !== 'lan' && o.reach !== 'directory')
        return bad('bad reach');
      if (
        o.listName !== undefined &&
        (!str(o.listName, MAX_LIST_NAME_CHARS) || o.listName.trim() === '')
      )
        return bad('bad list name');
      const board = o.board === undefined ? undefined : startBoard(o.board);
      if (o.board !== undefined && board === undefined) return bad('bad board to host');
      return {
        cmd: 'host',
        options: {
          name: o.name.trim(),
          ...(o.port === undefined ? {} : { port: o.port }),
          ...(o.code === undefined ? {} : { code: o.code }),
          ...(o.reach === undefined ? {} : { reach: o.reach }),
          ...(o.listName === undefined ? {} : { listName: o.listName.trim() }),
          ...(board === undefined ? {} : { board }),
        },
      };
    }
    case 'join': {
      const o = c.options;
      if (!isRec(o) || !onlyKeys(o, ['name', 'address', 'code'])) return bad('bad join');
      if (!str(o.name, MAX_NAME_CHARS) || o.name.trim() === '') return bad('join needs a name');
      if (!str(o.address, MAX_ADDRESS_CHARS) || !str(o.code, MAX_CODE_CHARS))
        return bad('bad address or code');
      return {
        cmd: 'join',
        options: { name: o.name.trim(), address: o.address.trim(), code: o.code },
      };
    }
    case 'export': {
      const ids = c.ids;
      const idsOk =
        ids === undefined ||
        (Array.isArray(ids) && ids.length <= MAX_DELETE_IDS && ids.every(objectId));
      return (EXPORT_FORMATS as readonly unknown[]).includes(c.format) &&
        idsOk &&
        (c.transparent === undefined || typeof c.transparent === 'boolean')
        ? {
            cmd: 'export',
            format: c.format as ExportFormat,
            ...(ids === undefined ? {} : { ids: [...ids] }),
            ...(c.transparent === undefined ? {} : { transparent: c.transparent }),
          }
        : bad('bad export');
    }
    case 'save':
    case 'new':
    case 'download':
      return { cmd: c.cmd };
    case 'open-text':
      return fileName(c.name) && str(c.text, MAX_IMPORT_CHARS)
        ? { cmd: 'open-text', name: c.name, text: c.text }
        : bad('bad open-text (a .ghostboard file, at most 2 MB)');
    case 'save-as':
    case 'open':
      return filePath(c.path) ? { cmd: c.cmd, path: c.path } : bad(`bad ${c.cmd} (a file path)`);
    case 'leave':
    case 'sync':
    case 'rotate-code':
    case 'undo':
    case 'redo':
      return { cmd: c.cmd };
    case 'settings': {
      const o = c.settings;
      if (
        !isRec(o) ||
        !onlyKeys(o, ['directories', 'imageMaxSide', 'imageSpaceMb']) ||
        !Array.isArray(o.directories)
      )
        return bad('bad settings');
      if (o.imageMaxSide !== undefined && !int(o.imageMaxSide, 64, 8192))
        return bad('an image size limit is 64 to 8192 pixels');
      if (o.imageSpaceMb !== undefined && !int(o.imageSpaceMb, 1, 4096))
        return bad("the board's image space is 1 to 4096 MB");
      const list: unknown[] = o.directories;
      if (list.length > MAX_DIRECTORIES) return bad(`at most ${MAX_DIRECTORIES} directories`);
      const directories: string[] = [];
      for (const d of list) {
        if (
          !str(d, MAX_ADDRESS_CHARS) ||
          !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(d.trim())
        )
          return bad('a directory is HOST:PORT');
        directories.push(d.trim());
      }
      const { imageMaxSide, imageSpaceMb } = o;
      return {
        cmd: 'settings',
        settings: {
          directories,
          ...(imageMaxSide === undefined ? {} : { imageMaxSide }),
          ...(imageSpaceMb === undefined ? {} : { imageSpaceMb }),
        },
      };
    }
    case 'create': {
      const o = newObject(c.object);
      if (c.step !== undefined && !int(c.step, 0, Number.MAX_SAFE_INTEGER)) return bad('bad step');
      if (!o) return bad('bad object');
      return c.step === undefined
        ? { cmd: 'create', object: o }
        : { cmd: 'create', object: o, step: c.step };
    }
    case 'edit': {
      const p = patch(c.patch);
      return objectId(c.id) && p ? { cmd: 'edit', id: c.id, patch: p } : bad('bad edit');
    }
    case 'text':
      return objectId(c.id) &&
        int(c.at, 0, MAX_TEXT_BYTES) &&
        int(c.remove, 0, MAX_TEXT_BYTES) &&
        str(c.insert, MAX_TEXT_BYTES)
        ? { cmd: 'text', id: c.id, at: c.at, remove: c.remove, insert: c.insert }
        : bad('bad text edit');
    case 'text-open':
      return objectId(c.id) && str(c.base, MAX_TEXT_BYTES)
        ? { cmd: 'text-open', id: c.id, base: c.base }
        : bad('bad text open');
    case 'text-edit':
      return objectId(c.id) &&
        int(c.seen, 0, Number.MAX_SAFE_INTEGER) &&
        int(c.at, 0, MAX_TEXT_BYTES) &&
        int(c.remove, 0, MAX_TEXT_BYTES) &&
        str(c.insert, MAX_TEXT_BYTES)
        ? { cmd: 'text-edit', id: c.id, seen: c.seen, at: c.at, remove: c.remove, insert: c.insert }
        : bad('bad text edit');
    case 'text-close':
      return objectId(c.id) ? { cmd: 'text-close', id: c.id } : bad('bad text close');
    case 'delete': {
      const ids = c.ids;
      return Array.isArray(ids) && ids.length <= MAX_DELETE_IDS && ids.every(objectId)
        ? { cmd: 'delete', ids: [...ids] as number[] }
        : bad('bad ids');
    }
    case 'pin': {
      const ids = c.ids;
      return Array.isArray(ids) &&
        ids.length <= MAX_DELETE_IDS &&
        ids.every(objectId) &&
        typeof c.pinned === 'boolean'
        ? { cmd: 'pin', ids: [...ids] as number[], pinned: c.pinned }
        : bad('bad pin');
    }
    case 'restack':
      if (c.step !== undefined && !int(c.step, 0, Number.MAX_SAFE_INTEGER)) return bad('bad step');
      if (!objectId(c.id) || typeof c.front !== 'boolean') return bad('bad restack');
      return c.step === undefined
        ? { cmd: 'restack', id: c.id, front: c.front }
        : { cmd: 'restack', id: c.id, front: c.front, step: c.step };
    case 'grab':
      return objectId(c.id) ? { cmd: 'grab', id: c.id } : bad('bad id');
    case 'drag':
    case 'drop':
      return objectId(c.id) && coord(c.x) && coord(c.y)
        ? { cmd: c.cmd, id: c.id, x: c.x, y: c.y }
        : bad(`bad ${c.cmd}`);
    case 'pointer':
      return coord(c.x) && coord(c.y) && typeof c.visible === 'boolean'
        ? { cmd: 'pointer', x: c.x, y: c.y, visible: c.visible }
        : bad('bad pointer');
    case 'tool':
      return typeof c.tool === 'string' && (TOOLS as readonly string[]).includes(c.tool)
        ? { cmd: 'tool', tool: c.tool as Tool }
        : bad('bad tool');
    case 'viewport': {
      const v = viewport(c.viewport);
      return v ? { cmd: 'viewport', viewport: v } : bad('bad viewport');
    }
    case 'chat':
      return str(c.text, MAX_CHAT_CHARS) && c.text.trim() !== ''
        ? { cmd: 'chat', text: c.text }
        : bad('bad chat');
    case 'conditions': {
      const v = conditions(c.conditions);
      return v ? { cmd: 'conditions', conditions: v } : bad('bad conditions');
    }
    case 'kick':
      return int(c.peer, 0, 1023) ? { cmd: 'kick', peer: c.peer } : bad('bad peer');
    case 'role':
      return int(c.peer, 0, 1023) && (c.role === 'editor' || c.role === 'viewer')
        ? { cmd: 'role', peer: c.peer, role: c.role }
        : bad('bad role');
    case 'reshape':
      return objectId(c.id) &&
        coord(c.x) &&
        coord(c.y) &&
        int(c.w, 0, MAX_SIZE) &&
        int(c.h, 0, MAX_SIZE) &&
        int(c.rotation, 0, ROTATION_STEPS - 1)
        ? { cmd: 'reshape', id: c.id, x: c.x, y: c.y, w: c.w, h: c.h, rotation: c.rotation }
        : bad('bad reshape');
    case 'import':
      return (c.format === 'ghostboard' || c.format === 'excalidraw') &&
        str(c.text, MAX_IMPORT_CHARS)
        ? { cmd: 'import', format: c.format, text: c.text }
        : bad('bad import (a .ghostboard or .excalidraw file, at most 2 MB)');
    case 'image':
      if (!isImageType(c.type)) return bad('an image is PNG, JPEG or SVG');
      if (!str(c.data, MAX_IMAGE_BASE64) || !/^[A-Za-z0-9+/]*={0,2}$/.test(c.data))
        return bad('bad image data');
      return coord(c.x) && coord(c.y) && int(c.w, 1, MAX_SIZE) && int(c.h, 1, MAX_SIZE)
        ? { cmd: 'image', type: c.type, data: c.data, x: c.x, y: c.y, w: c.w, h: c.h }
        : bad('bad image place');
    default:
      return bad('unknown command');
  }
}
