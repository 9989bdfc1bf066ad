// Serves the renderer API to one WebSocket client: validates each request, runs it on the core, sends the
// reply, and forwards every core event. Knows nothing of HTTP, tokens or Electron.
import type { RawData, WebSocket } from 'ws';
import type { ApiCommand, ApiEvent, ApiReply } from '../../shared/api';
import { MAX_IMAGE_BASE64, namesAPath, parseCommand } from '../../shared/api-validate';
import type { AppCore } from '../app/core-api';

/**
 * Largest text frame a client may send; bigger ones close that client's socket (ws's maxPayload, 1009). Room for
 * the largest image's base64 (the image command) and its framing.
 */
export const MAX_MESSAGE_BYTES = MAX_IMAGE_BASE64 + 64 * 1024;
/** A client that lets this much pile up unsent is too slow for live events: it is closed (1013). */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const MAX_REQUEST_ID = Number.MAX_SAFE_INTEGER;

export type Request =
  | { readonly id: number; readonly command: ApiCommand }
  | { readonly id: number; readonly error: string };

export type ServerMessage =
  { readonly id: number; readonly reply: ApiReply } | { readonly event: ApiEvent };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * One client frame as a request. Undefined when it can't be answered at all (not JSON, no usable id): such
 * frames are dropped. A frame with an id but an invalid command gets a refusal naming why.
 */
export function parseRequest(text: string): Request | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(msg)) return undefined;
  const { id } = msg;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > MAX_REQUEST_ID)
    return undefined;
  if (Object.keys(msg).some((k) => k !== 'id' && k !== 'command'))
    return { id, error: 'unexpected fields' };
  const command = parseCommand(msg.command);
  if ('error' in command) return { id, error: command.error };
  // A browser names no path on the host's disk: the web host uploads and downloads the board file instead.
  if (namesAPath(command))
    return { id, error: 'the web host cannot open or save files by path: use Upload or Download' };
  return { id, command };
}

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** Wires one accepted socket to the core until it closes. Never throws out of a socket callback. */
export function serveApiClient(
  ws: WebSocket,
  core: AppCore,
  log: (line: string) => void = () => undefined,
): void {
  const send = (message: ServerMessage): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'client too slow');
      return;
    }
    ws.send(JSON.stringify(message));
  };
  const unsubscribe = core.subscribe((event) => {
    send({ event });
  });
  ws.on('close', unsubscribe);
  // ws reports protocol violations (oversized or invalid frames) here and then closes the socket.
  ws.on('error', (e) => {
    log(`web host: client socket error: ${e.message}`);
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const request = parseRequest(frameText(data));
    if (request === undefined) return;
    if ('error' in request) {
      send({ id: request.id, reply: { ok: false, reason: request.error } });
      return;
    }
    core.invoke(request.command).then(
      (reply) => {
        send({ id: request.id, reply });
      },
      (e: unknown) => {
        log(`web host: command ${request.command.cmd} failed: ${String(e)}`);
        send({ id: request.id, reply: { ok: false, reason: 'internal error' } });
      },
    );
  });
}
