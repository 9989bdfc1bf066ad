// A TURN peer for the network lab (run inside a namespace): our TurnClient on one plain UDP socket, driven by stdin
// commands, reporting JSON lines on stdout; it pings a peer through the relay and echoes the peer's pings, timing
// the round trips and the bytes each relayed datagram costs. Knows nothing of namespaces or NAT.
//
//   turn-peer --turn ADDR:PORT --username U --password P [--no-channels]
//   stdin: `direct ADDR:PORT N`   N plain datagrams straight to the peer (does a direct path exist?)
//          `permit ADDR:PORT`     CreatePermission + ChannelBind for the peer's relayed address
//          `ping ADDR:PORT N MS SIZE`  N pings of SIZE bytes MS apart through the relay; then {"ev":"done"}
//          `stats`                the client's counters
//          `close`                release the allocation, then exit
// Events: allocated, refreshed, failed, permitted, channel-bound, permit-failed, closed, direct-heard, done, stats,
// error.
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import type { PeerAddress } from '../../src-main/net/address';
import { addressKey, parseAddress } from '../../src-main/net/address';
import { TurnClient } from '../../src-main/net/turn-client';

const PING = 1;
const PONG = 2;
const DIRECT = 3;
/** How long a ping run waits for the last pongs. */
const DRAIN_MS = 1_000;
/** The whole process is bounded: the test kills it long before, this is for a lost parent. */
const LIFETIME_MS = 120_000;

function emit(ev: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ ev, ...fields })}\n`);
}

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const v = i < 0 ? undefined : process.argv[i + 1];
  if (v === undefined) throw new Error(`--${name} is required`);
  return v;
}

function addr(s: string | undefined): PeerAddress {
  const a = s === undefined ? undefined : parseAddress(s);
  if (a === undefined) throw new Error(`bad address ${s ?? '(none)'}`);
  return a;
}

const server = addr(arg('turn'));
const client = new TurnClient({
  server,
  username: arg('username'),
  password: arg('password'),
  random: (n) => new Uint8Array(randomBytes(n)),
  software: 'ghostboard-netlab',
  channels: !process.argv.includes('--no-channels'),
});
const sock = createSocket('udp4');
const now = (): number => performance.now();
let timer: NodeJS.Timeout | undefined;

/** A ping run in progress: send times by sequence number, and what came back. */
interface Run {
  readonly peer: PeerAddress;
  readonly sentAt: Map<number, number>;
  readonly rtts: number[];
  readonly overheads: Set<string>;
  wireBytes: number;
  payloadBytes: number;
}
let run: Run | undefined;
const stats = { echoed: 0, fromServerChannelData: 0, fromServerStun: 0, directHeard: 0 };

function pump(): void {
  for (let t = client.pollTransmit(); t !== undefined; t = client.pollTransmit())
    sock.send(t.bytes, t.to.port, t.to.address);
  for (let e = client.pollEvent(); e !== undefined; e = client.pollEvent()) {
    emit(e.type, { ...e, type: undefined });
    if (e.type === 'closed' || e.type === 'failed') finish();
  }
  clearTimeout(timer);
  const next = client.nextTimeout();
  if (Number.isFinite(next))
    timer = setTimeout(
      () => {
        client.handleTimeout(now());
        pump();
      },
      Math.max(0, next - now()),
    );
}

/** Sends `payload` to `peer` through the relay; the bytes it cost on the wire. */
function relay(peer: PeerAddress, payload: Uint8Array): number | undefined {
  const t = client.wrap(peer, payload);
  if (t === undefined) return undefined;
  sock.send(t.bytes, t.to.port, t.to.address);
  return t.bytes.length;
}

function onPeerDatagram(from: PeerAddress, bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === PING && bytes.length >= 5) {
    const pong = bytes.slice();
    pong[0] = PONG;
    if (relay(from, pong) !== undefined) stats.echoed++;
  } else if (bytes[0] === PONG && bytes.length >= 5 && run !== undefined) {
    const sent = run.sentAt.get(view.getUint32(1));
    if (sent !== undefined) {
      run.sentAt.delete(view.getUint32(1));
      run.rtts.push(now() - sent);
    }
  }
}

sock.on('message', (msg, rinfo) => {
  const from = { address: rinfo.address, port: rinfo.port };
  const bytes = new Uint8Array(msg.buffer, msg.byteOffset, msg.byteLength);
  if (client.isServer(from)) {
    if ((bytes[0] ?? 0) >>> 6 === 1) stats.fromServerChannelData++;
    else stats.fromServerStun++;
    client.handleDatagram(now(), from, bytes);
    for (let i = client.pollInbound(); i !== undefined; i = client.pollInbound())
      onPeerDatagram(i.from, i.bytes);
  } else if (bytes[0] === DIRECT) {
    stats.directHeard++;
    emit('direct-heard', { from: addressKey(from) });
  }
  pump();
});

function ping(peer: PeerAddress, count: number, everyMs: number, size: number): void {
  const r: Run = {
    peer,
    sentAt: new Map(),
    rtts: [],
    overheads: new Set(),
    wireBytes: 0,
    payloadBytes: 0,
  };
  run = r;
  let seq = 0;
  const tick = (): void => {
    if (seq >= count) {
      setTimeout(() => report(r, count), DRAIN_MS);
      return;
    }
    const payload = new Uint8Array(Math.max(5, size));
    payload[0] = PING;
    new DataView(payload.buffer).setUint32(1, seq);
    r.sentAt.set(seq, now());
    const wire = relay(peer, payload);
    if (wire !== undefined) {
      r.overheads.add(String(wire - payload.length));
      r.wireBytes += wire;
      r.payloadBytes += payload.length;
    }
    seq++;
    setTimeout(tick, everyMs);
  };
  tick();
}

function report(r: Run, count: number): void {
  const sorted = [...r.rtts].sort((a, b) => a - b);
  const at = (q: number): number | null =>
    sorted.length === 0
      ? null
      : Number(
          (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(3),
        );
  emit('done', {
    sent: count,
    pongs: r.rtts.length,
    rttMs: { min: at(0), median: at(0.5), p95: at(0.95), max: at(1) },
    overheads: [...r.overheads].map(Number),
    wireBytes: r.wireBytes,
    payloadBytes: r.payloadBytes,
    ...stats,
    counters: client.counters,
  });
}

function finish(): void {
  clearTimeout(timer);
  setTimeout(() => process.exit(0), 50);
}

function command(line: string): void {
  const [cmd, a, b, c, d] = line.trim().split(/\s+/);
  switch (cmd ?? '') {
    case 'direct': {
      const peer = addr(a);
      const n = Number(b ?? 10);
      for (let i = 0; i < n; i++)
        setTimeout(() => sock.send(Uint8Array.of(DIRECT, i), peer.port, peer.address), 20 * i);
      return;
    }
    case 'permit':
      if (!client.permit(now(), addr(a))) emit('error', { detail: `permit ${a ?? ''} refused` });
      pump();
      return;
    case 'ping': {
      const peer = addr(a);
      if (!client.isRelayed(peer)) {
        emit('error', { detail: `ping: ${a ?? ''} is not permitted` });
        return;
      }
      ping(peer, Number(b ?? 100), Number(c ?? 10), Number(d ?? 100));
      return;
    }
    case 'stats':
      emit('stats', { counters: client.counters });
      return;
    case 'close':
      client.close(now());
      pump();
      return;
    default:
      emit('error', { detail: `unknown command ${line}` });
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  try {
    command(line);
  } catch (err) {
    emit('error', { detail: err instanceof Error ? err.message : String(err) });
  }
});
setTimeout(() => {
  emit('error', { detail: 'lifetime over' });
  process.exit(1);
}, LIFETIME_MS).unref();
sock.bind(0, () => {
  emit('listening', { port: sock.address().port });
  client.allocate(now());
  pump();
});
