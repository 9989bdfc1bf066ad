// The web host: serves the built renderer and the token-guarded WebSocket API on 127.0.0.1 only. Owns the
// HTTP server and the sockets; the core is the caller's (not closed here). Knows nothing of Electron.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { WS_PATH } from '../../shared/api';
import { pageUrl, tokenFromProtocols, WS_PROTOCOL } from '../../shared/web-auth';
import type { AppCore } from '../app/core-api';
import { resolveStaticFile } from '../app/static-files';
import { generateToken, tokenMatches } from './token';
import { MAX_MESSAGE_BYTES, serveApiClient } from './ws-api';

export const LOOPBACK = '127.0.0.1';
const MAX_CLIENTS = 16;
const CLOSE_GRACE_MS = 1000;

export const WEB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data: blob:; connect-src 'self' ws://127.0.0.1:*; frame-ancestors 'none'; " +
  "base-uri 'none'; form-action 'none'; object-src 'none'";

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': WEB_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

export interface WebHostOptions {
  readonly core: AppCore;
  /** The built renderer (dist/renderer). */
  readonly rootDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** A fixed token (tests); absent generates one per launch. */
  readonly token?: string;
  readonly log?: (line: string) => void;
}

export interface WebHost {
  readonly port: number;
  /** http://127.0.0.1:PORT — the only Origin the API accepts. */
  readonly origin: string;
  readonly token: string;
  /** The address to open, the token in its fragment (`/#token=…`: never sent to a server or logged). */
  readonly url: string;
  close(): Promise<void>;
}

export type UpgradeVerdict =
  { readonly ok: true } | { readonly ok: false; readonly status: number; readonly why: string };

/**
 * The request target as a URL on our origin. Concatenated, not resolved against a base: a target such as
 * `//evil.example/api` must stay a path, not become another host. Undefined for non-path targets.
 */
export function requestUrl(target: string | undefined, origin: string): URL | undefined {
  if (target?.startsWith('/') !== true) return undefined;
  try {
    return new URL(origin + target);
  } catch {
    return undefined;
  }
}

/**
 * Whether a WebSocket upgrade may reach the API: right path, our Host and Origin, and the launch token offered
 * as a subprotocol beside WS_PROTOCOL (a token in the query is not looked at: queries end up in logs).
 */
export function checkUpgrade(
  req: Pick<IncomingMessage, 'url' | 'headers'>,
  origin: string,
  token: string,
): UpgradeVerdict {
  const url = requestUrl(req.url, origin);
  if (url?.pathname !== WS_PATH) return { ok: false, status: 404, why: 'not found' };
  if (`http://${req.headers.host ?? ''}` !== origin)
    return { ok: false, status: 421, why: 'wrong host' };
  if (req.headers.origin !== origin) return { ok: false, status: 403, why: 'wrong origin' };
  const offered = req.headers['sec-websocket-protocol'];
  if (!tokenMatches(token, tokenFromProtocols(Array.isArray(offered) ? undefined : offered)))
    return { ok: false, status: 401, why: 'bad token' };
  return { ok: true };
}

function refuseUpgrade(socket: Duplex, status: number, why: string): void {
  socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function sendPlain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  rootDir: string,
  origin: string,
): Promise<void> {
  if (`http://${req.headers.host ?? ''}` !== origin) {
    sendPlain(res, 421, 'wrong host\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    sendPlain(res, 405, 'method not allowed\n');
    return;
  }
  const url = requestUrl(req.url, origin);
  const file = url && (await resolveStaticFile(rootDir, url.pathname));
  if (file === undefined) {
    sendPlain(res, 404, 'not found\n');
    return;
  }
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': file.contentType,
    'Content-Length': String(file.size),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** Listens on 127.0.0.1 and resolves once the port is bound. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { core, rootDir } = options;
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const token = options.token ?? generateToken();
  const server = createServer();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // Select our protocol, never echo the token (checkUpgrade already required both).
    handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${LOOPBACK}:${port}`;

  server.on('request', (req, res) => {
    serveStatic(req, res, rootDir, origin).catch((e: unknown) => {
      log(`web host: ${String(e)}`);
      res.destroy();
    });
  });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined);
    const verdict = checkUpgrade(req, origin, token);
    if (!verdict.ok) refuseUpgrade(socket, verdict.status, verdict.why);
    else if (wss.clients.size >= MAX_CLIENTS) refuseUpgrade(socket, 503, 'too many clients');
    else
      wss.handleUpgrade(req, socket, head, (ws) => {
        serveApiClient(ws, core, log);
      });
  });
  server.on('clientError', (_e, socket) => socket.destroy());

  const close = async (): Promise<void> => {
    for (const ws of wss.clients) ws.close(1001, 'server shutting down');
    // Clients get a moment to answer the close frame; then they are cut off.
    await Promise.race([
      new Promise<void>((resolve) => {
        wss.close(() => {
          resolve();
        });
      }),
      new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref()),
    ]);
    for (const ws of wss.clients) ws.terminate();
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  };
  return { port, origin, token, url: pageUrl(origin, token), close };
}
