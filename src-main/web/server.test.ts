// The web host end to end over real loopback sockets, with a fake core: token and Origin checks, static
// files and headers, hostile WebSocket input, command validation, event fan-out.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { ApiCommand, ApiEvent, ApiReply } from '../../shared/api';
import type { AppCore } from '../app/core-api';
import type { WebHost } from './server';
import { requestUrl, startWebHost, WEB_CSP } from './server';
import type { ServerMessage } from './ws-api';
import { MAX_MESSAGE_BYTES } from './ws-api';
import { tokenProtocols, WS_PROTOCOL } from '../../shared/web-auth';

function fakeCore() {
  const listeners = new Set<(e: ApiEvent) => void>();
  const invoked: ApiCommand[] = [];
  const core: AppCore = {
    invoke(command): Promise<ApiReply> {
      invoked.push(command);
      if (command.cmd === 'leave') return Promise.reject(new Error('boom'));
      return Promise.resolve(command.cmd === 'create' ? { ok: true, id: 42 } : { ok: true });
    },
    openLink: () => false,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => Promise.resolve(),
  };
  const emit = (e: ApiEvent): void => {
    for (const l of listeners) l(e);
  };
  return { core, invoked, emit, listenerCount: () => listeners.size };
}

/** A test client that queues what the server sends. */
class Client {
  readonly messages: ServerMessage[] = [];
  private waiters: (() => void)[] = [];
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as ServerMessage);
      for (const w of this.waiters.splice(0)) w();
    });
  }
  async next(): Promise<ServerMessage> {
    while (this.messages.length === 0) await new Promise<void>((r) => this.waiters.push(r));
    return this.messages.shift() as ServerMessage;
  }
  closed(): Promise<number> {
    return new Promise((r) =>
      this.ws.once('close', (code) => {
        r(code);
      }),
    );
  }
}

function open(
  url: string,
  origin: string,
  protocols: string[] = tokenProtocols(host.token),
): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { origin });
    ws.once('open', () => {
      resolve(new Client(ws));
    });
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`HTTP ${res.statusCode}`));
    });
    ws.once('error', reject);
  });
}

/** One raw HTTP/1.1 exchange, so paths and Host reach the server exactly as written. */
function raw(port: number, path: string, host = `127.0.0.1:${port}`): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    let out = '';
    s.on('data', (d) => (out += String(d)));
    s.on('end', () => {
      resolve(out);
    });
    s.on('error', reject);
  });
}

let dir: string;
let fake: ReturnType<typeof fakeCore>;
let host: WebHost;
let wsUrl: string;
const clients: Client[] = [];

async function client(url = wsUrl, origin = host.origin): Promise<Client> {
  const c = await open(url, origin, tokenProtocols(host.token));
  clients.push(c);
  return c;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gb-web-'));
  mkdirSync(join(dir, 'root', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'root', 'index.html'), '<!doctype html><title>gb</title>');
  writeFileSync(join(dir, 'root', 'assets', 'app.js'), 'export {};');
  writeFileSync(join(dir, 'secret.txt'), 'TOP SECRET');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  fake = fakeCore();
  host = await startWebHost({
    core: fake.core,
    rootDir: join(dir, 'root'),
    port: 0,
    log: () => {},
  });
  wsUrl = `ws://127.0.0.1:${host.port}/api`;
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  await host.close();
});

describe('WebSocket upgrade guard', () => {
  it('prints a URL with a 43-character base64url token in its fragment, fresh per launch', async () => {
    // A fragment is never sent to a server: the token stays out of request lines, logs and Referer.
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await startWebHost({ core: fake.core, rootDir: dir, port: 0 });
    expect(other.token).not.toBe(host.token);
    await other.close();
  });

  it('accepts the right token and Origin, selecting our protocol and never echoing the token', async () => {
    const c = await client();
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    expect(c.ws.protocol).toBe(WS_PROTOCOL);
  });

  it.each([
    ['no subprotocol', '/api', () => []],
    ['no token', '/api', () => [WS_PROTOCOL]],
    ['a wrong token', '/api', () => tokenProtocols('A'.repeat(43))],
    ['the token without our protocol', '/api', () => [`token.${host.token}`]],
    ['two tokens', '/api', () => [...tokenProtocols(host.token), 'token.other']],
    // The old way: a token in the query (where logs and history keep it) opens nothing.
    ['the token in the query', `/api?token=TOKEN`, () => [WS_PROTOCOL]],
  ])('refuses %s with 401', async (_name, path, protocols) => {
    const url = `ws://127.0.0.1:${host.port}${path.replace('TOKEN', host.token)}`;
    await expect(open(url, host.origin, protocols())).rejects.toThrow('HTTP 401');
  });

  it('refuses another path with 404', async () => {
    await expect(open(`ws://127.0.0.1:${host.port}/other`, host.origin)).rejects.toThrow(
      'HTTP 404',
    );
  });

  it.each(['http://evil.example', 'http://localhost:1', 'null', 'http://127.0.0.1'])(
    'refuses Origin %s even with the token',
    async (origin) => {
      await expect(open(wsUrl, origin)).rejects.toThrow('HTTP 403');
    },
  );

  it('keeps a protocol-relative target a path', () => {
    expect(requestUrl('//evil.example/api?token=x', host.origin)?.pathname).toBe(
      '//evil.example/api',
    );
    expect(requestUrl('/api', host.origin)?.host).toBe(`127.0.0.1:${host.port}`);
    expect(requestUrl('http://evil.example/api', host.origin)).toBeUndefined();
    expect(requestUrl(undefined, host.origin)).toBeUndefined();
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await raw(host.port, '/', `evil.example:${host.port}`);
    expect(res).toMatch(/^HTTP\/1\.1 421/);
  });
});

describe('static files', () => {
  it('serves the index with the security headers', async () => {
    const res = await fetch(`${host.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(WEB_CSP);
    expect(WEB_CSP).toContain("connect-src 'self' ws://127.0.0.1:*");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await res.text()).toContain('<title>gb</title>');
  });

  it('names the MIME type of a script; 404 for missing; 405 for POST', async () => {
    const js = await fetch(`${host.origin}/assets/app.js?v=1`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${host.origin}/missing.js`)).status).toBe(404);
    expect((await fetch(`${host.origin}/`, { method: 'POST' })).status).toBe(405);
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..\\secret.txt',
  ])('refuses traversal %s', async (path) => {
    const res = await raw(host.port, path);
    expect(res).not.toContain('TOP SECRET');
    expect(res).toMatch(/^HTTP\/1\.1 (400|404)/);
  });
});

describe('API messages', () => {
  it('runs a valid command and replies with its id', async () => {
    const c = await client();
    c.ws.send(JSON.stringify({ id: 1, command: { cmd: 'chat', text: 'hi' } }));
    expect(await c.next()).toEqual({ id: 1, reply: { ok: true } });
    expect(fake.invoked).toEqual([{ cmd: 'chat', text: 'hi' }]);
  });

  it('refuses invalid commands without reaching the core', async () => {
    const c = await client();
    c.ws.send(JSON.stringify({ id: 2, command: { cmd: 'bogus' } }));
    c.ws.send(JSON.stringify({ id: 3, command: { cmd: 'pointer', x: 'a', y: 0, visible: true } }));
    c.ws.send(JSON.stringify({ id: 4, command: { cmd: 'sync' }, extra: 1 }));
    expect(await c.next()).toEqual({ id: 2, reply: { ok: false, reason: 'unknown command' } });
    expect(await c.next()).toEqual({ id: 3, reply: { ok: false, reason: 'bad pointer' } });
    expect(await c.next()).toEqual({ id: 4, reply: { ok: false, reason: 'unexpected fields' } });
    expect(fake.invoked).toEqual([]);
  });

  it('survives malformed frames and a failing core', async () => {
    const c = await client();
    for (const junk of ['not json', '{', '[]', 'null', '{"id":"x"}', '{"id":-1}', '{"id":1.5}'])
      c.ws.send(junk);
    c.ws.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true });
    c.ws.send(JSON.stringify({ id: 5, command: { cmd: 'leave' } }));
    c.ws.send(JSON.stringify({ id: 6, command: { cmd: 'sync' } }));
    expect(await c.next()).toEqual({ id: 5, reply: { ok: false, reason: 'internal error' } });
    expect(await c.next()).toEqual({ id: 6, reply: { ok: true } });
  });

  it('closes only the client that sends an oversized message', async () => {
    const big = await client();
    const other = await client();
    const closed = big.closed();
    big.ws.send('x'.repeat(MAX_MESSAGE_BYTES + 1));
    expect(await closed).toBe(1009);
    other.ws.send(JSON.stringify({ id: 7, command: { cmd: 'sync' } }));
    expect(await other.next()).toEqual({ id: 7, reply: { ok: true } });
    const late = await client();
    expect(late.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('events', () => {
  it('fan out to every connected client and stop when one leaves', async () => {
    const a = await client();
    const b = await client();
    await vi.waitFor(() => {
      expect(fake.listenerCount()).toBe(2);
    });
    const event: ApiEvent = { type: 'notice', level: 'info', text: 'hello' };
    fake.emit(event);
    expect(await a.next()).toEqual({ event });
    expect(await b.next()).toEqual({ event });
    a.ws.close();
    await vi.waitFor(() => {
      expect(fake.listenerCount()).toBe(1);
    });
  });
});
