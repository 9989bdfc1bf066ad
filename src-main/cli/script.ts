// The --script contract: one JSON command per stdin line, one JSON event per stdout line (flushed per line),
// nothing else on stdout. A bad line gets an `error` event and the process carries on. Knows nothing of Electron.
import type { GhostSendStats } from '../net/ghost/ghost-stats';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { BoardObject, NewObject, ObjectKind } from '../../shared/board';
import { parseColor } from '../../shared/board';
import type { Controls } from '../session/controls';
import { unsettledEvents } from '../session/controls';
import { addressKey } from '../net/address';
import { connectionFigures } from '../session/figures';
import type { SessionEvent } from '../session/session-events';
import { monotonicNow } from '../net/transport';
import { imageObject } from '../app/images';
import { readImageFile } from '../session/image-file';

export type Emit = (event: Record<string, unknown>) => void;

/** Commands a kind of process adds to the contract (a mirrored host's `mirror-stats`): true when it took one. */
export type ScriptExtension = (cmd: Record<string, unknown>, emit: Emit) => boolean;

/**
 * Every event line carries `t`: when it was emitted, in ms of CLOCK_MONOTONIC, the one clock every process on the
 * machine reads, so a driver (a bench, a load test) can time what it sees without counting its own pipe or loop.
 */
export const emitLine: Emit = (event) => {
  process.stdout.write(JSON.stringify({ ...event, t: machineClockMs() }) + '\n');
};

/** CLOCK_MONOTONIC in ms (fractional): comparable between processes on one machine, unlike performance.now(). */
export function machineClockMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

const KINDS: Record<string, ObjectKind> = {
  rect: 'rect',
  ellipse: 'ellipse',
  line: 'line',
  arrow: 'arrow',
  stroke: 'stroke',
  text: 'text',
  note: 'note',
};

export function objectEvent(o: BoardObject): Record<string, unknown> {
  return {
    ev: 'object',
    id: o.id,
    kind: o.kind,
    x: o.x,
    y: o.y,
    w: o.w,
    h: o.h,
    rotation: o.rotation,
    text: o.text,
    z: o.z,
    lockedBy: o.lockedBy,
    ...(o.kind === 'image' ? { blob: o.blob } : {}),
  };
}

/** Maps session events to the contract's events. */
export function sessionEventLine(e: SessionEvent): Record<string, unknown> | undefined {
  switch (e.type) {
    case 'ready':
      return {
        ev: 'ready',
        peer: e.you,
        address: e.address,
        port: e.port,
        ...(e.code ? { code: e.code } : {}),
      };
    case 'joined':
      return { ev: 'joined', peer: e.participant.peer, name: e.participant.name };
    case 'left':
      return { ev: 'left', peer: e.peer, reason: e.reason };
    case 'ended':
      return { ev: 'left', peer: 0, reason: e.reason };
    case 'pointer':
      return e.moved
        ? { ev: 'pointer', peer: e.pointer.peer, x: e.pointer.x, y: e.pointer.y }
        : undefined;
    case 'chat':
      return { ev: 'chat', peer: e.peer, text: e.text };
    case 'object':
      return objectEvent(e.object);
    case 'deleted':
      return { ev: 'deleted', id: e.id };
    case 'grabbed':
      return { ev: 'grabbed', id: e.id, peer: e.peer };
    case 'dropped':
      return { ev: 'dropped', id: e.id, peer: e.peer, x: e.x, y: e.y };
    case 'refused':
      return {
        ev: 'refused',
        cmd: e.cmd,
        reason: e.reason,
        ...(e.id === undefined ? {} : { id: e.id }),
      };
    case 'banned':
      return {
        ev: 'banned',
        peer: e.peer,
        name: e.name,
        address: e.address,
        suggest: 'rotate-code',
      };
    case 'code':
      return { ev: 'code', code: e.code };
    case 'code-locked':
      return { ev: 'code-locked', failures: e.failures, suggest: 'rotate-code' };
    case 'image':
      return { ev: 'image', hash: e.hash, type: e.imageType, bytes: e.bytes.length };
    case 'hosts':
      return { ev: 'hosts', hosts: e.hosts.map(addressKey) };
    case 'created':
    case 'progress':
    case 'text-splice':
    case 'image-progress':
      return undefined;
  }
}

function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

function toNewObject(c: Record<string, unknown>): NewObject | string {
  const kind = typeof c.kind === 'string' ? KINDS[c.kind] : undefined;
  if (kind === undefined) {
    const known = Object.keys(KINDS).join(', ');
    return typeof c.kind === 'string' && c.kind !== 'image'
      ? `unknown kind '${c.kind.slice(0, 40)}': the kinds are ${known}`
      : c.kind === 'image'
        ? `an image is made with the image command ({cmd:'image',file,x,y,w,h}); create takes ${known}`
        : `create needs a kind: ${known}`;
  }
  const [x, y, w, h] = [int(c.x), int(c.y), int(c.w), int(c.h)];
  if (x === undefined || y === undefined || w === undefined || h === undefined) {
    return 'create needs x, y, w and h (integers, board coordinates)';
  }
  const color = typeof c.color === 'string' ? parseColor(c.color) : 0x1e1e1e;
  if (color === undefined) return "bad color: give '#rrggbb', '#rgb' or 'none'";
  const pts: number[] = [];
  if (Array.isArray(c.points)) {
    for (const p of c.points as unknown[]) {
      const px = Array.isArray(p) ? int(p[0]) : undefined;
      const py = Array.isArray(p) ? int(p[1]) : undefined;
      if (px === undefined || py === undefined) return 'points are [[x, y], ...]';
      pts.push(px - x, py - y); // script points are board coordinates; objects keep them relative
    }
  }
  return {
    kind,
    x,
    y,
    w,
    h,
    rotation: 0,
    stroke: color,
    fill: kind === 'note' ? 0xfff3a3 : null,
    strokeWidth: 2,
    text: typeof c.text === 'string' ? c.text : '',
    points: pts,
    blob: '',
  };
}

/** Runs one command line. Returns 'quit' for the quit command. */
export async function runCommand(
  line: string,
  s: Controls,
  emit: Emit,
  more?: ScriptExtension,
): Promise<'quit' | 'error' | undefined> {
  let c: unknown;
  try {
    c = JSON.parse(line);
  } catch {
    emit({ ev: 'error', message: 'not JSON' });
    return undefined;
  }
  if (typeof c !== 'object' || c === null || Array.isArray(c)) {
    emit({ ev: 'error', message: 'a command is a JSON object' });
    return undefined;
  }
  const cmd = c as Record<string, unknown>;
  if (more?.(cmd, emit) === true) return undefined;
  const now = monotonicNow();
  const id = int(cmd.id);
  const x = int(cmd.x);
  const y = int(cmd.y);
  const bad = (m: string): 'error' => {
    emit({ ev: 'error', message: m });
    return 'error';
  };
  switch (cmd.cmd) {
    case 'pointer':
      if (x === undefined || y === undefined) return bad('pointer needs integer x, y');
      s.pointer(now, x, y, true);
      return undefined;
    case 'chat':
      if (typeof cmd.text !== 'string' || cmd.text === '') return bad('chat needs text');
      s.chat(now, cmd.text);
      return undefined;
    case 'create': {
      const o = toNewObject(cmd);
      if (typeof o === 'string') return bad(o);
      // Not awaited: the next line runs at once, so a paste's creates share packets instead of taking a round
      // trip each. The object arrives as an `object` event, a refusal as the session's own `refused` event; the
      // host's answer to a tagged create (it holds the object: with mirrors, another mirror does too) as `created`.
      const tag = typeof cmd.tag === 'string' ? cmd.tag.slice(0, 64) : undefined;
      const made = s.create(now, o);
      if (tag !== undefined)
        void made.then((r) => {
          if (typeof r === 'number') emit({ ev: 'created', id: r, tag });
        });
      return undefined;
    }
    case 'image': {
      // A PNG, JPEG or SVG file, sent as it is (no downscaling here); the host's refusal is a `refused` event.
      const w = int(cmd.w);
      const h = int(cmd.h);
      if (typeof cmd.file !== 'string') return bad('image needs a file');
      if (
        x === undefined ||
        y === undefined ||
        w === undefined ||
        h === undefined ||
        w < 1 ||
        h < 1
      )
        return bad('image needs integer x, y, w, h');
      const f = await readImageFile(cmd.file);
      if ('refused' in f) return bad(f.refused);
      const hash = await s.putImage(now, f.bytes, f.type);
      if (typeof hash === 'string')
        await s.create(monotonicNow(), imageObject(hash, { x, y, w, h }));
      return undefined;
    }
    case 'grab':
    case 'delete':
      if (id === undefined) return bad(`${cmd.cmd} needs an id`);
      if (cmd.cmd === 'grab') s.grab(now, id);
      else s.remove(now, id);
      return undefined;
    case 'pin':
      if (id === undefined || typeof cmd.pinned !== 'boolean')
        return bad('pin needs an id and pinned (true or false)');
      s.pin(now, id, cmd.pinned);
      return undefined;
    case 'drag':
    case 'drop':
      if (id === undefined || x === undefined || y === undefined)
        return bad(`${cmd.cmd} needs id, x, y`);
      if (cmd.cmd === 'drag') s.drag(now, id, x, y);
      else s.drop(now, id, x, y);
      return undefined;
    case 'undo':
    case 'redo': {
      // This peer's own steps only; what changes arrives as the usual object and deleted events.
      const way = cmd.cmd;
      const done = way === 'undo' ? await s.undo(now) : await s.redo(now);
      if (done === 'nothing') emit({ ev: 'refused', cmd: way, reason: `nothing to ${way}` });
      return undefined;
    }
    case 'kick': {
      const peer = int(cmd.peer);
      if (peer === undefined) return bad('kick needs a peer');
      if (s.kick === undefined) return bad('only the host can kick');
      if (!s.kick(now, peer)) return bad(`no participant ${peer}`);
      return undefined;
    }
    case 'role': {
      const peer = int(cmd.peer);
      if (peer === undefined || (cmd.role !== 'editor' && cmd.role !== 'viewer'))
        return bad('role needs a peer and a role (editor or viewer)');
      if (s.setRole === undefined) return bad('only the host can change roles');
      if (!s.setRole(peer, cmd.role)) return bad(`no participant ${peer}`);
      return undefined;
    }
    case 'rotate-code':
      // The new code arrives as the session's own `code` event.
      if (s.rotateCode === undefined) return bad('only the host can change the code');
      s.rotateCode(now);
      return undefined;
    case 'stats':
      emit(statsEvent(s, now));
      return undefined;
    case 'hash':
      emit({
        ev: 'hash',
        hash: s.board.hash(),
        objects: s.board.size,
        // Events sent over every link that the other side may still need (0: all this side's edits are in).
        unsettled: unsettledEvents(s),
      });
      return undefined;
    case 'quit':
      return 'quit';
    default:
      return bad(`unknown command ${JSON.stringify(cmd.cmd)}`);
  }
}

function presenceCounts(s: GhostSendStats | undefined): Record<string, number> | undefined {
  if (s === undefined) return undefined;
  const { creates, refreshes, updates, deletes, recreates, misfits, liveIds } = s;
  return { creates, refreshes, updates, deletes, recreates, misfits, liveIds };
}

/**
 * How late this process's event loop ran (every datagram, timer and command waits on it), while a script runs;
 * read and reset by each stats event.
 */
let loopDelay: IntervalHistogram | undefined;

function loopDelayFigures(): { p50: number; p99: number; max: number } | undefined {
  const h = loopDelay;
  if (h === undefined || h.count === 0) return undefined;
  const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
  const figures = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
  h.reset();
  return figures;
}

export function statsEvent(s: Controls, now: number): Record<string, unknown> {
  return {
    ev: 'stats',
    loopDelayMs: loopDelayFigures(),
    connections: s.connections().map(({ peer, name, stack }) => {
      const f = connectionFigures(now, peer, name, stack);
      const c = stack.conn.stats(now);
      return {
        peer,
        rttMs: f.rttMs,
        lossPct: f.lossPct,
        sendKbps: f.kbpsOut,
        recvKbps: f.kbpsIn,
        allowedKbps: f.allowedKbps,
        estimatedKbps: f.estimatedKbps,
        packetsPerSecond: f.packetsPerSecond,
        inFlight: f.inFlight,
        presenceSent: presenceCounts(stack.presence.stats().sent),
        packetsSent: c.packetsSent,
        packetsReceived: c.packetsReceived,
        bytesSent: c.bytesSent,
        bytesReceived: c.bytesReceived,
        byKind: Object.fromEntries(
          f.byKind.map((k) => [k.kind, { sendKbps: k.kbpsOut, recvKbps: k.kbpsIn }]),
        ),
      };
    }),
  };
}

/**
 * Reads commands until stdin ends or `quit`; `flush` runs after each command so urgent data leaves at once. `s`:
 * the controls, or what gives the ones in use now; `more`: commands of this kind of process (a mirrored host's).
 */
export async function runScript(
  s: Controls | (() => Controls),
  emit: Emit,
  flush: () => void,
  more?: ScriptExtension,
): Promise<void> {
  // A join that moved to another host (failover) has other controls: each command goes to those in use.
  const controls = typeof s === 'function' ? s : () => s;
  loopDelay ??= monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === '') continue;
    if (line.length > 100_000) {
      emit({ ev: 'error', message: 'line too long' });
      continue;
    }
    try {
      const r = await runCommand(line, controls(), emit, more);
      flush();
      if (r === 'quit') break;
    } catch (e) {
      emit({ ev: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  }
  rl.close();
}
