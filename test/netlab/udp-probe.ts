// UDP probe for the network lab (run inside a namespace): an echo server that tells each sender the address it saw, a client that asks servers (its own kind, or STUN) from one socket, a hole-punching peer and a TURN relay user; JSON lines on stdout, every mode bounded in time. Knows nothing of namespaces or NAT.
//
//   udp-probe serve --port P [--port P ...] [--bind ADDR] [--hello ADDR:PORT] [--ms LIFETIME]
//   udp-probe ask --to ADDR:PORT [--to ...] [--port LOCAL] [--tries N] [--interval MS]
//   udp-probe binding ...the same as ask, to STUN servers (a STUN Binding request; a TURN server answers it too)
//   udp-probe punch --stun ADDR:PORT [--port LOCAL] [--tries N] [--interval MS] [--prime N] [--ms LIFETIME]
//       then on stdin: `go ADDR:PORT` (the peer's public address)
//   udp-probe relay --turn ADDR:PORT --secret S --peer ADDR:PORT [--tries N] [--interval MS]
//       a TURN allocation on coturn (time-limited credentials from its shared secret), then an ask to a `serve`
//       peer through it
//
// Events: {"ev":"listening"}, {"ev":"got"}, {"ev":"mapped"}, {"ev":"seen"}, {"ev":"ready"}, {"ev":"recv"}, {"ev":"done"} (its fields say the outcome),
// {"ev":"error"}; see each mode.
import { createSocket } from 'node:dgram';
import type { RemoteInfo, Socket } from 'node:dgram';
import { createInterface } from 'node:readline';
import { relayRoundTrip } from './relay-probe';
import { readBindingSuccess, writeBindingRequest } from './stun';

type Args = ReadonlyMap<string, readonly string[]>;

function emit(ev: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ ev, ...fields })}\n`);
}

function parseArgs(argv: readonly string[]): Args {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (key?.startsWith('--') !== true || value === undefined)
      throw new Error(`bad argument ${key ?? ''}`);
    const list = out.get(key.slice(2)) ?? [];
    list.push(value);
    out.set(key.slice(2), list);
  }
  return out;
}

function num(args: Args, key: string, fallback: number): number {
  const v = args.get(key)?.[0];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${key} wants a whole number, got ${v}`);
  return n;
}

interface Addr {
  readonly address: string;
  readonly port: number;
}

function parseAddr(s: string): Addr {
  const i = s.lastIndexOf(':');
  const port = Number(s.slice(i + 1));
  if (i <= 0 || !Number.isInteger(port) || port <= 0 || port > 65535)
    throw new Error(`bad address ${s}`);
  return { address: s.slice(0, i), port };
}

const show = (a: Addr): string => `${a.address}:${a.port}`;

function bind(port: number, address = '0.0.0.0'): Promise<Socket> {
  const sock = createSocket('udp4');
  return new Promise((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(port, address, () => {
      sock.off('error', reject);
      // A send towards an unreachable port may report ECONNREFUSED later; the probe only counts replies.
      sock.on('error', () => undefined);
      resolve(sock);
    });
  });
}

function parseJson(buf: Buffer): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(buf.toString());
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Echo server: each ask is answered with the address it came from; `--hello` first asks another server. */
async function serve(args: Args): Promise<void> {
  const ports = (args.get('port') ?? []).map(Number);
  if (ports.length === 0) throw new Error('serve needs --port');
  const helloArg = args.get('hello')?.[0];
  const hello = helloArg === undefined ? undefined : parseAddr(helloArg);
  const sockets = await Promise.all(ports.map((p) => bind(p, args.get('bind')?.[0])));
  for (const sock of sockets) {
    const port = sock.address().port;
    sock.on('message', (msg: Buffer, from: RemoteInfo) => {
      const m = parseJson(msg);
      const seenAs = show(from);
      if (m?.t === 'seen') {
        emit('mapped', { port, as: m.as, server: seenAs });
        return;
      }
      emit('got', { port, from: seenAs, data: msg.toString().slice(0, 200) });
      // Only asks are answered, so two servers never echo each other forever.
      if (m?.t === 'ask')
        sock.send(JSON.stringify({ t: 'seen', as: seenAs, port }), from.port, from.address);
    });
  }
  // Opens each socket's NAT mapping and learns it, so a peer can be told where this server is seen from outside.
  if (hello !== undefined)
    for (const s of sockets) s.send(JSON.stringify({ t: 'ask' }), hello.port, hello.address);
  emit('listening', { ports: sockets.map((s) => s.address().port) });
  await sleep(num(args, 'ms', 60_000));
  for (const s of sockets) s.close();
}

/** How `ask` words a question to one server and reads its answer (the address seen, or undefined). */
interface Question {
  readonly request: Buffer;
  readonly read: (reply: Buffer) => string | undefined;
}

const askJson = (i: number): Question => ({
  request: Buffer.from(JSON.stringify({ t: 'ask', i })),
  read: (reply) => {
    const m = parseJson(reply);
    return m?.t === 'seen' && typeof m.as === 'string' ? m.as : undefined;
  },
});

const askStun = (): Question => {
  const request = writeBindingRequest();
  return {
    request,
    read: (reply) => {
      const mapped = readBindingSuccess(reply, request);
      return mapped === undefined ? undefined : show(mapped);
    },
  };
};

/**
 * Asks each server, from one socket, which address it sees (a `serve` probe, or with `stun` a STUN server's
 * Binding); retries unanswered ones a bounded number of times.
 */
async function ask(args: Args, stun = false): Promise<void> {
  const targets = (args.get('to') ?? []).map(parseAddr);
  if (targets.length === 0) throw new Error('ask needs --to');
  const tries = num(args, 'tries', 10);
  const interval = num(args, 'interval', 100);
  const sock = await bind(num(args, 'port', 0));
  const questions = new Map(targets.map((t, i) => [show(t), stun ? askStun() : askJson(i)]));
  const answered = new Set<string>();
  sock.on('message', (msg: Buffer, from: RemoteInfo) => {
    const server = show(from);
    const as = questions.get(server)?.read(msg);
    if (as === undefined || answered.has(server)) return;
    answered.add(server);
    emit('seen', { server, as, local: sock.address().port });
  });
  for (let i = 0; i < tries && answered.size < targets.length; i++) {
    for (const t of targets) {
      const q = questions.get(show(t));
      if (q !== undefined && !answered.has(show(t))) sock.send(q.request, t.port, t.address);
    }
    await sleep(interval);
  }
  emit('done', { answered: answered.size, of: targets.length, local: sock.address().port });
  sock.close();
}

/**
 * Hole-punching peer: learns its public address from a `serve` probe, then on `go PEER` sends to the peer every
 * interval until each side has heard the other (or `tries` datagrams are spent). `heard` in each datagram tells the
 * peer its own datagrams arrive, so both sides agree the path is open both ways. `--prime N` sends the first N
 * with TTL 2: they open the sender's own NAT mapping and expire at the core router (NETLAB.md).
 */
async function punch(args: Args): Promise<void> {
  const stunArg = args.get('stun')?.[0];
  if (stunArg === undefined) throw new Error('punch needs --stun');
  const stun = parseAddr(stunArg);
  const tries = num(args, 'tries', 100);
  const interval = num(args, 'interval', 20);
  const prime = num(args, 'prime', 0);
  const sock = await bind(num(args, 'port', 0));
  const lifetime = setTimeout(
    () => {
      emit('error', { message: 'lifetime over' });
      process.exit(2);
    },
    num(args, 'ms', 30_000),
  );

  let publicAddr: string | undefined;
  let goAt = 0;
  let firstRecvMs: number | undefined;
  let openMs: number | undefined;
  let recvFrom: string | undefined;
  let received = 0;
  sock.on('message', (msg: Buffer, from: RemoteInfo) => {
    const m = parseJson(msg);
    if (m?.t === 'seen' && typeof m.as === 'string') publicAddr ??= m.as;
    if (m?.t !== 'punch' || goAt === 0) return;
    received++;
    const ms = performance.now() - goAt;
    if (firstRecvMs === undefined) {
      firstRecvMs = ms;
      recvFrom = show(from);
      emit('recv', { from: recvFrom, ms: Math.round(ms) });
    }
    if (m.heard === true) openMs ??= ms;
  });

  for (let i = 0; i < 20 && publicAddr === undefined; i++) {
    sock.send(JSON.stringify({ t: 'ask' }), stun.port, stun.address);
    await sleep(100);
  }
  if (publicAddr === undefined) throw new Error(`no answer from ${show(stun)}`);
  emit('ready', { local: sock.address().port, public: publicAddr });

  const peer = await new Promise<Addr>((resolve) => {
    const rl = createInterface({ input: process.stdin });
    rl.on('line', (line) => {
      const [cmd, arg] = line.trim().split(/\s+/);
      if (cmd === 'go' && arg !== undefined) {
        rl.close();
        resolve(parseAddr(arg));
      }
    });
  });
  goAt = performance.now();
  let sent = 0;
  let afterOpen = 0;
  // Once open, a few more datagrams carry `heard` so the peer learns it too even if one is lost.
  while (sent < tries && afterOpen < 3) {
    sock.setTTL(sent < prime ? 2 : 64);
    sock.send(
      JSON.stringify({ t: 'punch', seq: sent, heard: firstRecvMs !== undefined }),
      peer.port,
      peer.address,
    );
    sent++;
    if (openMs !== undefined) afterOpen++;
    await sleep(interval);
  }
  const open = firstRecvMs !== undefined && openMs !== undefined;
  emit('done', {
    open,
    sent,
    received,
    from: recvFrom ?? null,
    firstRecvMs: firstRecvMs === undefined ? null : Math.round(firstRecvMs),
    openMs: openMs === undefined ? null : Math.round(openMs),
  });
  clearTimeout(lifetime);
  sock.close();
}

/** One round trip to a `serve` peer through a coturn allocation. */
async function relay(args: Args): Promise<void> {
  const turnArg = args.get('turn')?.[0];
  const peerArg = args.get('peer')?.[0];
  const secret = args.get('secret')?.[0];
  if (turnArg === undefined || peerArg === undefined || secret === undefined) {
    throw new Error('relay needs --turn, --peer and --secret');
  }
  const sock = await bind(num(args, 'port', 0));
  const result = await relayRoundTrip(sock, {
    turn: parseAddr(turnArg),
    peer: parseAddr(peerArg),
    secret,
    payload: Buffer.from(JSON.stringify({ t: 'ask' })),
    tries: num(args, 'tries', 20),
    interval: num(args, 'interval', 100),
  });
  sock.close();
  if (!result.ok) {
    emit('done', { ok: false, step: result.step, detail: result.detail });
    return;
  }
  const seen = parseJson(result.answer);
  emit('done', {
    ok: true,
    relayed: show(result.relayed),
    mapped: result.mapped === undefined ? null : show(result.mapped),
    peerSaw: typeof seen?.as === 'string' ? seen.as : null,
  });
}

const MODES: ReadonlyMap<string, (args: Args) => Promise<void>> = new Map([
  ['serve', serve],
  ['ask', (args) => ask(args)],
  ['binding', (args) => ask(args, true)],
  ['punch', punch],
  ['relay', relay],
]);

async function main(): Promise<void> {
  const [mode, ...rest] = process.argv.slice(2);
  const run = mode === undefined ? undefined : MODES.get(mode);
  if (run === undefined)
    throw new Error(`unknown mode ${mode ?? '(none)'}: serve, ask, binding, punch or relay`);
  await run(parseArgs(rest));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    emit('error', { message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
