// The board and session commands of the renderer API, run against the session's controls: each to its call, with
// the reply the renderer waits for. What they need of the app core (its network conditions, its events, its clock)
// comes in as a CommandContext. Knows nothing of hosting, joining or files.
import type { ApiCommand, ApiEvent, ApiReply, NetworkConditions } from '../../shared/api';
import type { BoardObject } from '../../shared/board';
import type { ImageBlob } from '../../shared/images';
import { exportBoard, importableObjects } from '../files/convert';
import type { SessionHandle } from './core-io';
import { imageObject } from './images';

/** What a command needs of the app core. */
export interface CommandContext {
  setConditions(c: NetworkConditions): void;
  emit(e: ApiEvent): void;
  /** The core's clock (ms). */
  now(): number;
}

/** Runs a command of the board or the session (one needing a session: the caller has one). */
export async function sessionCommand(
  c: ApiCommand,
  s: SessionHandle['controls'],
  now: number,
  app: CommandContext,
): Promise<ApiReply> {
  switch (c.cmd) {
    case 'create': {
      const r = await s.create(now, c.object, c.step);
      return typeof r === 'number' ? { ok: true, id: r } : { ok: false, reason: r.refused };
    }
    case 'edit':
      s.edit(now, c.id, c.patch);
      break;
    case 'text':
      s.text(now, c.id, c.at, c.remove, c.insert);
      break;
    case 'text-open':
      s.textOpen(now, c.id, c.base);
      break;
    case 'text-edit':
      s.textEdit(now, c.id, c.seen, { at: c.at, remove: c.remove, insert: c.insert });
      break;
    case 'text-close':
      s.textClose(now, c.id);
      break;
    case 'delete':
      // A selection deleted at once is undone at once.
      s.group(() => {
        for (const id of c.ids) s.remove(now, id);
      });
      break;
    case 'pin':
      // A selection locked at once is unlocked by one undo.
      s.group(() => {
        for (const id of c.ids) s.pin(now, id, c.pinned);
      });
      break;
    case 'undo':
    case 'redo': {
      const done = c.cmd === 'undo' ? await s.undo(now) : await s.redo(now);
      return done === 'done' ? { ok: true } : { ok: false, reason: `nothing to ${c.cmd}` };
    }
    case 'restack':
      s.restack(now, c.id, c.front, c.step);
      break;
    case 'grab': {
      const o = s.board.get(c.id);
      if (o?.lockedBy !== null && o?.lockedBy !== undefined && o.lockedBy !== s.you) {
        const holder = s.participants.find((p) => p.peer === o.lockedBy)?.name ?? 'someone';
        return { ok: false, reason: `held by ${holder}` };
      }
      s.grab(now, c.id);
      break;
    }
    case 'drag':
      s.drag(now, c.id, c.x, c.y);
      break;
    case 'drop':
      s.drop(now, c.id, c.x, c.y);
      break;
    case 'reshape':
      s.reshape(now, c.id, { x: c.x, y: c.y, w: c.w, h: c.h, rotation: c.rotation });
      break;
    case 'pointer':
      s.pointer(now, c.x, c.y, c.visible);
      break;
    case 'tool':
      s.tool(now, c.tool);
      break;
    case 'viewport':
      s.viewport(now, c.viewport);
      break;
    case 'chat':
      s.chat(now, c.text);
      break;
    case 'conditions':
      app.setConditions(c.conditions);
      break;
    case 'kick':
      if (s.kick?.(now, c.peer) !== true)
        return { ok: false, reason: 'only the host can remove participants' };
      break;
    case 'role':
      if (s.setRole?.(c.peer, c.role) !== true)
        return { ok: false, reason: 'only the host can change roles' };
      break;
    case 'rotate-code':
      if (s.rotateCode === undefined)
        return { ok: false, reason: 'only the host can change the code' };
      s.rotateCode(now);
      break;
    case 'export':
      return exportReply(s.board.all(), c, s.images);
    case 'import':
      return importBoard(c, s, now, app);
    case 'image':
      return putImage(c, s, now, app);
    case 'host':
    case 'join':
    case 'leave':
    case 'sync':
    case 'settings':
    case 'save':
    case 'save-as':
    case 'open':
    case 'new':
    case 'open-text':
    case 'download':
      break;
  }
  return { ok: true };
}

/**
 * A board file's objects added to this board as new ones (bottom to top, one undo step): a notice says how many
 * came and what did not (images, whose bytes would have to be uploaded first; what the host refused).
 */
async function importBoard(
  c: Extract<ApiCommand, { cmd: 'import' }>,
  s: SessionHandle['controls'],
  now: number,
  app: CommandContext,
): Promise<ApiReply> {
  const r = importableObjects(c.text, c.format);
  if ('refused' in r) return { ok: false, reason: `not imported: ${r.refused}` };
  const { objects: fields, lost } = r;
  if (fields.length === 0) return { ok: false, reason: 'nothing to import' };
  const made = await Promise.all(s.group(() => fields.map((f) => s.create(now, f))));
  const refused = made.filter((m) => typeof m !== 'number').length;
  if (refused > 0) lost.push(`${refused} refused by the host`);
  const n = made.length - refused;
  app.emit({
    type: 'notice',
    level: lost.length > 0 ? 'warn' : 'info',
    text: `Imported ${n} object${n === 1 ? '' : 's'}${lost.length > 0 ? `; ${lost.join(', ')}` : ''}.`,
  });
  return n > 0 ? { ok: true } : { ok: false, reason: 'the host refused every object' };
}

/** An image's bytes to the host, then its object (a peer waits for the host's answer to each). */
async function putImage(
  c: Extract<ApiCommand, { cmd: 'image' }>,
  s: SessionHandle['controls'],
  now: number,
  app: CommandContext,
): Promise<ApiReply> {
  const bytes = new Uint8Array(Buffer.from(c.data, 'base64'));
  const hash = await s.putImage(now, bytes, c.type);
  if (typeof hash !== 'string') return { ok: false, reason: hash.refused };
  const r = await s.create(app.now(), imageObject(hash, c));
  return typeof r === 'number' ? { ok: true, id: r } : { ok: false, reason: r.refused };
}

/** The export command's reply: the objects it names (all when it names none) as the file's text. */
export function exportReply(
  all: readonly BoardObject[],
  c: Extract<ApiCommand, { cmd: 'export' }>,
  images: { get(hash: string): ImageBlob | undefined },
): ApiReply {
  const wanted = c.ids === undefined ? undefined : new Set(c.ids);
  const objects = all.filter((o) => wanted === undefined || wanted.has(o.id));
  if (objects.length === 0) return { ok: false, reason: 'nothing to export' };
  return {
    ok: true,
    text: exportBoard(objects, c.format, c.transparent === true, (h) => images.get(h)),
  };
}
