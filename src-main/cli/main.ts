// The `ghostboard` command line: a headless host or peer (with the --script JSON-lines contract) and a loopback
// demo of the bare link. Knows nothing of Electron.
import { parseArgs } from 'node:util';
import { networkInterfaces } from 'node:os';
import { generateJoinCode, generateLongJoinCode, joinCodeStrengthBits } from '../net/join-code';
import { parseAddress } from '../net/address';
import type { SessionRate } from '../session/link';
import { parseSessionRate } from '../session/link';
import { MAX_PACKET_RATE, MIN_PACKET_RATE } from '../net/stream/rate';
import { SessionRunner } from '../session/runner';
import { emitLine, runScript, sessionEventLine, statsEvent } from './script';
import { LinkPeer } from './link-demo';
import { monotonicNow } from '../net/transport';

const USAGE = `usage:
  ghostboard host [--port N] [--bind ADDR] [--name NAME] [--code CODE] [--board FILE] [--script] [--quiet-pointers]
                  [--long-code]   a generated 50-bit code that never locks, instead of a spoken one (7-orbit-lantern)
                  [--join-role editor|viewer]   the role joiners get (a joiner can only ask for less)
                  [--max-peers N] [--max-per-address N]   participants (256), and connections from one IP
                                                           (a quarter of --max-peers, at most 32)
  ghostboard join HOST:PORT --code CODE [--name NAME] [--viewer] [--script]
  ghostboard demo [--seconds N]     a bare-link host and client on loopback, printing what the link costs
link options (host and join): --rate modem|broadband|lan|TO_HOST[:TO_PEERS] (packets/s)  --kbps N (upstream cap)

stdout carries one JSON object per line (events); with --script, stdin takes one JSON command per line.
Logs go to stderr.`;

type Values = Record<string, string | boolean | undefined>;

function fail(message: string): never {
  process.stderr.write(`ghostboard: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function rateOf(v: Values): SessionRate | undefined {
  const r = v.rate;
  if (typeof r !== 'string') return undefined;
  return (
    parseSessionRate(r) ??
    fail(
      `--rate ${r}: a preset, or packets/s ${MIN_PACKET_RATE}..${MAX_PACKET_RATE} (TO_HOST[:TO_PEERS])`,
    )
  );
}

function uplinkOf(v: Values): number | undefined {
  if (typeof v.kbps !== 'string') return undefined;
  const k = Number(v.kbps);
  if (!(k > 0)) fail(`--kbps ${v.kbps}: a positive number`);
  return (k * 1000) / 8;
}

function countOf(v: Values, flag: string, max: number): number | undefined {
  const s = v[flag];
  if (typeof s !== 'string') return undefined;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1 || n > max) fail(`--${flag} ${s}: a whole number 1..${max}`);
  return n;
}

function shareableAddress(bind: string): string {
  if (bind !== '0.0.0.0' && bind !== '::') return bind;
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal && a.family === 'IPv4') return a.address;
  }
  return '127.0.0.1';
}

async function host(v: Values): Promise<void> {
  if (typeof v.code === 'string' && v['long-code'] === true)
    fail('--code or --long-code, not both');
  const code =
    typeof v.code === 'string'
      ? v.code
      : v['long-code'] === true
        ? generateLongJoinCode()
        : generateJoinCode();
  // Codes under 40 bits (spoken ones included) lock after 30 failed joins; a user's code can be weaker still.
  if (joinCodeStrengthBits(code) < 20)
    process.stderr.write(
      'warning: a join code this short is easy to guess (the host locks it after 30 failed joins)\n',
    );
  const bind = typeof v.bind === 'string' ? v.bind : '0.0.0.0';
  const rate = rateOf(v);
  const uplink = uplinkOf(v);
  const maxPeers = countOf(v, 'max-peers', 1023);
  const maxPerAddress = countOf(v, 'max-per-address', 1031);
  const joinRole = v['join-role'];
  if (joinRole !== undefined && joinRole !== 'editor' && joinRole !== 'viewer')
    fail(`--join-role ${String(joinRole)}: editor or viewer`);
  const runner = await SessionRunner.host({
    name: typeof v.name === 'string' ? v.name : 'Host',
    code,
    port: Number(v.port ?? 7350),
    bind,
    ...(typeof v.board === 'string' ? { boardFile: v.board } : {}),
    ...(rate ? { rate } : {}),
    ...(uplink === undefined ? {} : { uplinkBytesPerSecond: uplink }),
    ...(joinRole === undefined ? {} : { joinRole }),
    ...(maxPeers === undefined ? {} : { maxPeers }),
    ...(maxPerAddress === undefined ? {} : { maxConnectionsPerAddress: maxPerAddress }),
  });
  const quiet = v['quiet-pointers'] === true;
  runner.controls.on((e) => {
    if (quiet && e.type === 'pointer') return;
    const line = sessionEventLine(e);
    if (line) emitLine(line);
  });
  const notice = runner.boardNotice;
  if (notice !== undefined)
    emitLine({
      ev: 'board-file',
      status: notice.status,
      file: notice.file,
      movedTo: notice.movedTo,
      reason: notice.reason,
      restoredFrom: notice.restoredFrom ?? null,
    });
  emitLine({
    ev: 'ready',
    peer: 0,
    address: shareableAddress(bind),
    port: runner.address.port,
    code,
  });
  await serve(runner, v.script === true);
}

async function join(target: string | undefined, v: Values): Promise<void> {
  const to = target === undefined ? undefined : parseAddress(target);
  if (to === undefined) fail('join needs HOST:PORT');
  if (typeof v.code !== 'string') fail('join needs --code');
  const rate = rateOf(v);
  const uplink = uplinkOf(v);
  const runner = await SessionRunner.join({
    name: typeof v.name === 'string' ? v.name : 'Guest',
    code: v.code,
    host: to,
    viewer: v.viewer === true,
    ...(rate ? { rate } : {}),
    ...(uplink === undefined ? {} : { uplinkBytesPerSecond: uplink }),
  });
  runner.controls.on((e) => {
    if (e.type === 'ready') {
      emitLine({ ev: 'ready', peer: e.you, address: to.address, port: to.port });
      return;
    }
    if (e.type === 'ended') {
      const rejected = [
        'wrong-code',
        'version-mismatch',
        'full',
        'rate-limited',
        'banned',
        'code-locked',
        'unreachable',
      ];
      emitLine(
        rejected.includes(e.reason)
          ? { ev: 'rejected', reason: e.reason }
          : { ev: 'left', peer: 0, reason: e.reason },
      );
      void runner.close().then(() => process.exit(1));
      return;
    }
    const line = sessionEventLine(e);
    if (line) emitLine(line);
  });
  await serve(runner, v.script === true);
}

/** Runs until quit / end of stdin (script mode) or a signal. */
async function serve(runner: SessionRunner, script: boolean): Promise<void> {
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await runner.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  if (!script) return new Promise(() => undefined);
  await runScript(runner.controls, emitLine, () => runner.flush());
  emitLine(statsEvent(runner.controls, monotonicNow()));
  await stop();
}

async function demo(seconds: number): Promise<void> {
  const code = generateJoinCode();
  const hostPeer = await LinkPeer.open('host', code, '127.0.0.1', 0, (l) =>
    emitLine({ side: 'host', ...l }),
  );
  const clientPeer = await LinkPeer.open('client', code, '127.0.0.1', 0, (l) =>
    emitLine({ side: 'client', ...l }),
  );
  emitLine({ ev: 'ready', address: hostPeer.address.address, port: hostPeer.address.port, code });
  clientPeer.connect(hostPeer.address);
  hostPeer.start(30);
  clientPeer.start(30);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await clientPeer.close();
  await new Promise((r) => setTimeout(r, 100));
  await hostPeer.close();
}

export async function main(argv: readonly string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      bind: { type: 'string' },
      name: { type: 'string' },
      code: { type: 'string' },
      board: { type: 'string' },
      rate: { type: 'string' },
      kbps: { type: 'string' },
      viewer: { type: 'boolean' },
      'long-code': { type: 'boolean' },
      'join-role': { type: 'string' },
      'max-peers': { type: 'string' },
      'max-per-address': { type: 'string' },
      'quiet-pointers': { type: 'boolean' },
      script: { type: 'boolean' },
      seconds: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, target] = positionals;
  if (values.help === true || command === undefined) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  switch (command) {
    case 'host':
      return host(values);
    case 'join':
      return join(target, values);
    case 'demo':
      return demo(Number(values.seconds ?? 5));
    default:
      fail(`unknown command ${command}`);
  }
}
