// Baseline (c)'s user, in the shape of Excalidraw's collaboration client: AES-GCM-encrypted JSON payloads over
// socket.io, the cursor throttled to 33 ms and sent volatile, every changed element sent whole on each change.
// Speaks the compare contract; knows nothing of the router or of how it is measured.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { io } from 'socket.io-client';
import type { Command } from './contract';
import { emit, exitOnSignal, readCommands } from './contract';

const [url = '', name = 'user'] = process.argv.slice(2);
const ROOM = 'bench-room';
/** Excalidraw's room key is 128-bit AES-GCM, shared in the link's fragment; a fixed one stands in. */
const KEY = Buffer.alloc(16, 7);
const CURSOR_SYNC_TIMEOUT = 33; // Excalidraw's CURSOR_SYNC_TIMEOUT, ms

/** An Excalidraw rectangle as its scene serializes it. */
interface Element {
  id: string;
  type: 'rectangle';
  x: number;
  y: number;
  width: number;
  height: number;
  angle: number;
  strokeColor: string;
  backgroundColor: string;
  fillStyle: string;
  strokeWidth: number;
  strokeStyle: string;
  roughness: number;
  opacity: number;
  groupIds: string[];
  frameId: null;
  index: string;
  roundness: { type: number };
  seed: number;
  version: number;
  versionNonce: number;
  isDeleted: boolean;
  boundElements: null;
  updated: number;
  link: null;
  locked: boolean;
}

const scene = new Map<string, Element>();
const socket = io(url, { transports: ['websocket'] });

function encrypt(data: unknown): { buf: Buffer; iv: Buffer } {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-128-gcm', KEY, iv);
  const buf = Buffer.concat([c.update(JSON.stringify(data)), c.final(), c.getAuthTag()]);
  return { buf, iv };
}

function decrypt(buf: Buffer, iv: Buffer): unknown {
  const d = createDecipheriv('aes-128-gcm', KEY, iv);
  d.setAuthTag(buf.subarray(buf.length - 16));
  return JSON.parse(
    Buffer.concat([d.update(buf.subarray(0, buf.length - 16)), d.final()]).toString(),
  );
}

function broadcast(data: unknown, volatile: boolean): void {
  const { buf, iv } = encrypt(data);
  if (volatile) socket.volatile.emit('server-volatile-broadcast', ROOM, buf, iv);
  else socket.emit('server-broadcast', ROOM, buf, iv);
}

function broadcastElements(type: 'SCENE_INIT' | 'SCENE_UPDATE', els: Element[]): void {
  if (els.length > 0) broadcast({ type, payload: { elements: els } }, false);
}

socket.on('init-room', () => socket.emit('join-room', ROOM));
socket.on('first-in-room', () => emit({ ev: 'ready', peer: socket.id }));
socket.on('room-user-change', () => emit({ ev: 'ready', peer: socket.id }));
socket.on('new-user', () => broadcastElements('SCENE_INIT', [...scene.values()]));

interface Message {
  type: string;
  payload: {
    username?: string;
    pointer?: { x: number; y: number };
    elements?: Element[];
    text?: string;
  };
}

socket.on('client-broadcast', (buf: Buffer, iv: Buffer) => {
  let m: Message;
  try {
    m = decrypt(Buffer.from(buf), Buffer.from(iv)) as Message;
  } catch {
    return;
  }
  const p = m.payload;
  if (m.type === 'MOUSE_LOCATION' && p.pointer)
    emit({ ev: 'pointer', peer: p.username, x: p.pointer.x, y: p.pointer.y });
  else if (m.type === 'CHAT') emit({ ev: 'chat', peer: p.username, text: p.text });
  else if (m.type === 'SCENE_UPDATE' || m.type === 'SCENE_INIT') {
    for (const el of p.elements ?? []) {
      const mine = scene.get(el.id);
      if (mine && mine.version >= el.version) continue; // Excalidraw's reconcile: newer version wins
      scene.set(el.id, el);
      emit({ ev: 'object', id: Number(el.id), x: el.x, y: el.y });
    }
  }
});

/** lodash.throttle(fn, 33) as Excalidraw uses it: leading and trailing calls. */
let lastCursorAt = -Infinity;
let trailing: NodeJS.Timeout | undefined;
let pendingPointer: { x: number; y: number } | undefined;
function sendCursor(): void {
  if (!pendingPointer) return;
  lastCursorAt = performance.now();
  const pointer = { ...pendingPointer, tool: 'pointer' };
  pendingPointer = undefined;
  broadcast(
    {
      type: 'MOUSE_LOCATION',
      payload: {
        socketId: socket.id,
        pointer,
        button: 'up',
        selectedElementIds: {},
        username: name,
      },
    },
    true,
  );
}
function onPointer(x: number, y: number): void {
  pendingPointer = { x, y };
  const wait = lastCursorAt + CURSOR_SYNC_TIMEOUT - performance.now();
  if (wait <= 0) sendCursor();
  else
    trailing ??= setTimeout(() => {
      trailing = undefined;
      sendCursor();
    }, wait);
}

function move(id: number, x: number, y: number): void {
  const el = scene.get(String(id));
  if (!el) return;
  const next = {
    ...el,
    x,
    y,
    version: el.version + 1,
    versionNonce: randomBytes(4).readUInt32LE(),
  };
  next.updated = Date.now();
  scene.set(next.id, next);
  broadcastElements('SCENE_UPDATE', [next]);
}

function handle(c: Command): void {
  switch (c.cmd) {
    case 'pointer':
      onPointer(c.x, c.y);
      return;
    case 'chat':
      broadcast({ type: 'CHAT', payload: { username: name, text: c.text } }, false);
      return;
    case 'create': {
      const el: Element = {
        ...{ id: String(c.id), type: 'rectangle', x: c.x, y: c.y, width: c.w, height: c.h },
        ...{ angle: 0, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid' },
        ...{ strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, groupIds: [] },
        ...{ frameId: null, index: `a${c.id}`, roundness: { type: 3 }, seed: 1_234_567 + c.id },
        ...{ version: 1, versionNonce: 1, isDeleted: false, boundElements: null },
        ...{ updated: Date.now(), link: null, locked: false },
      };
      scene.set(el.id, el);
      broadcastElements('SCENE_UPDATE', [el]);
      return;
    }
    case 'grab':
      return; // Excalidraw has no locks
    case 'drag':
    case 'drop':
      move(c.id, c.x, c.y);
      return;
    case 'quit':
      return;
  }
}

const close = (): void => {
  socket.close();
};
readCommands(handle, () => {
  close();
  setTimeout(() => process.exit(0), 100);
});
exitOnSignal(close);
