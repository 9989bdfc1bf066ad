// The `ghostboard` command line: a headless host or peer (with the --script JSON-lines contract) and a loopback
// demo of the bare connection layer. Knows nothing of Electron.
import { lookup } from 'node:dns/promises';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { networkInterfaces } from 'node:os';
import type { PeerAddress } from '../net/address';
import {
  formatJoinLink,
  formatLinkAddress,
  MAX_LINK_HOSTS,
  readJoinLink,
  readMirrorLink,
} from '../../shared/join-link';
import { DirectoryRunner } from '../directory/runner';
import { convertBoard, formatOf } from '../files/convert';
import { discover } from './discover';
import { advertise } from '../lan/advertise';
import type { HostRun, ReachEvent } from '../session/runner';
import { generateJoinCode, generateLongJoinCode, joinCodeStrengthBits } from '../net/join-code';
import { addressKey, parseAddress } from '../net/address';
import type { SessionRate } from '../session/connection-stack';
import { parseSessionRate } from '../session/connection-stack';
import { MAX_PACKET_RATE, MIN_PACKET_RATE } from '../net/stream/rate';
import { SessionRunner } from '../session/runner';
import type { ScriptExtension } from './script';
import { emitLine, runScript, sessionEventLine, statsEvent } from './script';
import { probedLine } from '../app/nearest';
import { replayTraceFile } from './replay';
import { TraceFile } from './trace-file';
import { soloMirrorExecutor } from '../mirrored/solo';
import type { TraceRecord } from '../mirror/trace';
import { hostMirrored } from '../mirrored/mirror-hosting';
import type { MirrorRunner } from '../mirrored/mirror-runner';
import { mirrorLine, mirrorScript } from './mirror-host';
import { ConnectionPeer } from './connection-demo';
import { monotonicNow } from '../net/transport';
import { CliJoin } from './join-run';

const USAGE = `usage:
  ghostboard host [--port N] [--bind ADDR] [--name NAME] [--code CODE] [--board FILE] [--script] [--quiet-pointers]
                  [--long-code]   a generated 50-bit code that never locks, instead of a spoken one (7-orbit-lantern)
                  [--join-role editor|viewer]   the role joiners get (a joiner can only ask for less)
                  [--max-peers N] [--max-per-address N]   participants (256), and connections from one IP
                                                           (a quarter of --max-peers, at most 32)
                  [--image-space MB]   what every image of the session may take together (32)
                  [--packets N]   packets/s exchanged with all peers, each way, fixed (default 4000, following
                                how busy the host is; each peer gets 20..its usual rate)
                  [--directory HOST:PORT]…   register with these directories (repeatable): joinable by link
                  [--list NAME]   listed publicly under NAME (default: unlisted, found only through the link)
                  [--lan]   announce the session on this network (mDNS), as the app does
                  [--trace FILE]   record the session's command log (a mirror group of one) for \`replay\`
                  [--mirrors]   serve the session from a mirror group other hosts can join (links on --port + 1);
                                prints the mirror link that starts one
                  [--mirror-of LINK]   start another host of a running session from its mirror link: the board
                                comes from the group, joiners pick the nearest host and move on if one stops;
                                a session registered with directories is registered there by this host too
  ghostboard join HOST:PORT --code CODE [--name NAME] [--viewer] [--script]
  ghostboard join LINK [--name NAME] [--viewer] [--script]   a ghostboard:// invite link (the code rides in it)
  ghostboard directory [--bind ADDR] [--port N]   a rendezvous server (default port 7340)
                  [--reflector-port N|off]   its second port, telling parties how their NAT maps (default N+1)
                  [--turn HOST:PORT --turn-secret SECRET]   a coturn relay (use-auth-secret) to hand out
  ghostboard discover [--seconds N]   sessions announced on this network
  ghostboard demo [--seconds N]     a bare-link host and client on loopback, printing what the link costs
  ghostboard convert IN OUT   a board between .ghostboard, .excalidraw and .svg (by file name; SVG is export only)
  ghostboard replay TRACE [--delays MS,MS…] [--spread MS] [--seed N]   re-executes a mirror command trace: the
                  board hash, and the rollbacks trailing states at those delays (100,1000) would cause; --spread
                  re-delivers other mirrors' commands after a one-way delay of spread/2..3·spread/2 ms
link options (host and join): --rate modem|broadband|lan|TO_HOST[:TO_PEERS] (packets/s)  --kbps N (upstream cap)

stdout carries one JSON object per line (events); with --script, stdin takes one JSON command per line.
Logs go to stderr.`;

type Values = Record<string, string | boolean | string[] | undefined>;

/** Relay credentials a directory mints are good this long (coturn checks them when allocating). */
const RELAY_CREDENTIAL_SECONDS = 600;

function fail(message: string): never {
  process.stderr.write(`ghostboard: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** `convert IN OUT`: prints one `converted` line (objects, what did not come along) or fails with the reason. */
async function convert(input: string | undefined, output: string | undefined): Promise<void> {
  if (input === undefined || output === undefined) fail('convert IN OUT');
  const from = formatOf(input);
  const to = formatOf(output);
  if (from === undefined || to === undefined)
    fail('convert: files end in .ghostboard, .excalidraw or .svg');
  const r = convertBoard(await readFile(input, 'utf8'), from, to);
  if ('refused' in r) fail(`convert: ${input}: ${r.refused}`);
  await writeFile(output, r.text);
  emitLine({ ev: 'converted', from: input, to: output, objects: r.objects, lost: r.lost });
}

function rateOf(v: Values): SessionRate | undefined {
  const r = v.rate;
  if (typeof r !== 'string') return undefined;
  return (
    parseSessionRate(r) ??
    fail(
      `--rate ${r}: a preset, or packets/s ${MIN_PACKET_RATE}..120, or 135..${MAX_PACKET_RATE} in steps of 15 (TO_HOST[:TO_PEERS])`,
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
  const chosenCode =
    typeof v.code === 'string'
      ? v.code
      : v['long-code'] === true
        ? generateLongJoinCode()
        : generateJoinCode();
  // Codes under 40 bits (spoken ones included) lock after 30 failed joins; a user's code can be weaker still.
  if (joinCodeStrengthBits(chosenCode) < 20)
    process.stderr.write(
      'warning: a join code this short is easy to guess (the host locks it after 30 failed joins)\n',
    );
  const bind = typeof v.bind === 'string' ? v.bind : '0.0.0.0';
  const rate = rateOf(v);
  const uplink = uplinkOf(v);
  const maxPeers = countOf(v, 'max-peers', 1023);
  const maxPerAddress = countOf(v, 'max-per-address', 1031);
  const imageSpace = countOf(v, 'image-space', 4096);
  const packetBudget = countOf(v, 'packets', 1_000_000);
  const joinRole = v['join-role'];
  if (joinRole !== undefined && joinRole !== 'editor' && joinRole !== 'viewer')
    fail(`--join-role ${String(joinRole)}: editor or viewer`);
  const mirrorOf = typeof v['mirror-of'] === 'string' ? readMirrorLink(v['mirror-of']) : undefined;
  if (mirrorOf !== undefined && 'error' in mirrorOf)
    fail(`--mirror-of: not a mirror link (${mirrorOf.error})`);
  // A mirror of a registered session registers where its link says, under the session's name.
  const linkDirectories = mirrorOf?.directory?.directories.map(formatLinkAddress);
  if (linkDirectories !== undefined && (v.directory !== undefined || v.list !== undefined))
    fail('--mirror-of: the link says where the session is registered (no --directory or --list)');
  const directoryArgs = linkDirectories ?? listOf(v, 'directory');
  const directories = await resolveAll(directoryArgs, '--directory');
  const listName = typeof v.list === 'string' ? v.list : undefined;
  if (listName !== undefined && directories.length === 0) fail('--list needs a --directory');
  const trace = typeof v.trace === 'string' ? await openTrace(v.trace, v) : undefined;
  const port = Number(v.port ?? 7350);
  if (mirrorOf !== undefined && typeof v.code === 'string' && v.code !== mirrorOf.code)
    fail('--code differs from the mirror link’s: a session has one code');
  if (mirrorOf !== undefined && typeof v.board === 'string')
    fail('--mirror-of takes the board from the session: not with --board');
  const mirrored = mirrorOf !== undefined || v.mirrors === true;
  if (mirrored && port === 0)
    fail('a mirrored host needs a fixed --port (its mirror links take the next one)');
  const code = mirrorOf?.code ?? chosenCode;
  const run: HostRun = {
    name: typeof v.name === 'string' ? v.name : 'Host',
    code,
    port,
    bind,
    ...(typeof v.board === 'string' ? { boardFile: v.board } : {}),
    ...(rate ? { rate } : {}),
    ...(uplink === undefined ? {} : { uplinkBytesPerSecond: uplink }),
    ...(joinRole === undefined ? {} : { joinRole }),
    ...(maxPeers === undefined ? {} : { maxPeers }),
    ...(maxPerAddress === undefined ? {} : { maxConnectionsPerAddress: maxPerAddress }),
    ...(imageSpace === undefined ? {} : { imageLimits: { maxSessionBytes: imageSpace * 2 ** 20 } }),
    ...(packetBudget === undefined ? {} : { packetBudget }),
    ...(directories.length === 0 ? {} : { directories }),
    ...(listName === undefined ? {} : { listName }),
  };
  const record = trace === undefined ? undefined : (r: TraceRecord) => trace.record(r);
  let runner: SessionRunner;
  let mirror: MirrorRunner | undefined;
  if (mirrored) {
    try {
      ({ session: runner, mirror } = await hostMirrored(run, {
        ...(mirrorOf === undefined ? {} : { of: mirrorOf }),
        ...(record === undefined ? {} : { record }),
      }));
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e));
    }
    mirror.on((e) => emitLine(mirrorLine(e)));
  } else
    runner = await SessionRunner.host({
      ...run,
      ...(record === undefined
        ? {}
        : { executor: soloMirrorExecutor({ now: monotonicNow(), record }) }),
    });
  if (trace !== undefined) runner.beforeClose(() => trace.close());
  const quiet = v['quiet-pointers'] === true;
  runner.controls.on((e) => {
    if (quiet && e.type === 'pointer') return;
    const line = sessionEventLine(e);
    if (line === undefined) return;
    if (e.type === 'joined') {
      // How the joiner reached us, from the address its packets come from (a relay would show here too).
      const c = runner.controls.connections().find((l) => l.peer === e.participant.peer);
      if (c !== undefined) line.path = runner.pathOfKey(c.stack.conn.peer);
    }
    emitLine(line);
  });
  runner.onReach((e) => {
    const line = reachLine(e);
    if (line !== undefined) emitLine(line);
  });
  if (v.lan === true) {
    const name = typeof v.name === 'string' ? v.name : 'Host';
    const advert = advertise({
      name,
      port: runner.address.port,
      users: 1,
      onError: (message) => emitLine({ ev: 'error', message: `LAN announcement: ${message}` }),
    });
    runner.controls.on((e) => {
      if (e.type === 'joined' || e.type === 'left')
        advert.update({ users: runner.controls.participants.length });
    });
    runner.beforeClose(() => advert.stop());
  }
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
  const address = shareableAddress(bind);
  const registered = runner.registeredAs;
  const self = { address, port: runner.address.port };
  // A mirror's link names the session's other hosts too: a joiner probes them all and joins the nearest.
  const others = (mirror?.sessionHosts ?? []).filter(
    (h) => !(h.port === self.port && h.address === self.address),
  );
  const link = formatJoinLink(
    registered === undefined
      ? {
          kind: 'direct',
          host: self,
          ...(others.length === 0 ? {} : { mirrors: others.slice(0, MAX_LINK_HOSTS - 1) }),
          code,
        }
      : {
          kind: 'directory',
          directories: directoryArgs.map((d) => parseAddress(d) ?? { address: d, port: 7340 }),
          session: registered.name,
          code,
        },
  );
  emitLine({
    ev: 'ready',
    peer: 0,
    address,
    port: runner.address.port,
    code,
    link,
    ...(registered === undefined ? {} : { session: registered.name, listed: registered.listed }),
    ...(typeof v.trace === 'string' ? { trace: v.trace } : {}),
    ...(runner.mirrorLink === undefined ? {} : { mirrorLink: runner.mirrorLink }),
  });
  await serve(
    () => runner,
    v.script === true,
    undefined,
    mirror === undefined ? undefined : mirrorScript(mirror),
  );
}

/**
 * `--trace FILE`: the host serves its session from a mirror group of one (mirrored/solo.ts) whose commands are
 * written to FILE. A trace replays from an empty board, so it is not taken with a board file.
 */
async function openTrace(path: string, v: Values): Promise<TraceFile> {
  if (typeof v.board === 'string')
    fail('--trace records a session from an empty board: not with --board');
  try {
    return await TraceFile.open(path, 0, (e) =>
      emitLine({ ev: 'error', message: `trace ${path}: ${e.message}; no more is recorded` }),
    );
  } catch (e) {
    fail(`--trace ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function listOf(v: Values, flag: string): string[] {
  const x = v[flag];
  return x === undefined ? [] : Array.isArray(x) ? x : typeof x === 'string' ? [x] : [];
}

/** Resolves HOST:PORT arguments to IP addresses (a directory may be named by DNS). */
async function resolveAll(args: readonly string[], flag: string): Promise<PeerAddress[]> {
  const out: PeerAddress[] = [];
  for (const a of args) {
    const p = parseAddress(a);
    if (p === undefined) fail(`${flag} ${a}: HOST:PORT`);
    try {
      const r = await lookup(p.address);
      out.push({ address: r.address, port: p.port });
    } catch {
      fail(`${flag} ${a}: cannot resolve ${p.address}`);
    }
  }
  return out;
}

function reachLine(e: ReachEvent): Record<string, unknown> | undefined {
  switch (e.type) {
    case 'registered':
      return { ev: 'listed', directory: addressKey(e.directory), public: addressKey(e.observed) };
    case 'register-failed':
      return { ev: 'unlisted', directory: addressKey(e.directory), reason: e.reason };
    case 'unregistered':
      return { ev: 'unlisted', directory: addressKey(e.directory), reason: 'no answer' };
    case 'peer':
      return { ev: 'introduced', joiner: addressKey(e.observed) };
    case 'intro':
      return {
        ev: 'found',
        directory: addressKey(e.directory),
        host: addressKey(e.session.host),
        users: e.session.users,
      };
    case 'intro-failed':
    case 'relay-grant':
      return undefined;
    case 'nat':
      return {
        ev: 'nat',
        mapping: e.mapping.kind,
        ...(e.mapping.kind === 'dependent' ? { step: e.mapping.delta } : {}),
      };
    case 'opened':
      return { ev: 'opened', address: addressKey(e.address), via: e.via };
    case 'relay':
      return {
        ev: 'relay',
        state: e.state,
        ...(e.relayed === undefined ? {} : { relayed: addressKey(e.relayed) }),
        ...(e.detail === undefined ? {} : { detail: e.detail }),
      };
    case 'path':
      return { ev: 'path', path: e.path, address: addressKey(e.address) };
    case 'probed':
      return probedLine(e.outcome);
    case 'nearer':
      return undefined; // a joiner moves there and says so (join-run.ts: a `moved` line)
  }
}

async function join(target: string | undefined, v: Values): Promise<void> {
  if (target === undefined) fail('join needs HOST:PORT or a ghostboard:// link');
  const read = readJoinLink(target);
  const link = 'error' in read ? undefined : read;
  if ('error' in read && target.startsWith('ghostboard:'))
    fail(`not a join link (${read.error}): ${target}`);
  const direct = link === undefined ? parseAddress(target) : undefined;
  if (link === undefined && direct === undefined)
    fail('join needs HOST:PORT or a ghostboard:// link');
  const code = typeof v.code === 'string' ? v.code : link?.code;
  if (code === undefined) fail('join needs --code');
  let to: PeerAddress | { directories: PeerAddress[]; session: string };
  let mirrors: PeerAddress[] = [];
  if (link?.kind === 'directory') {
    to = {
      directories: await resolveAll(
        link.directories.map((d) => addressKey(d)),
        'directory',
      ),
      session: link.session,
    };
  } else if (link?.kind === 'direct') {
    to = (await resolveAll([addressKey(link.host)], 'host'))[0] ?? fail('no host');
    // The session's other hosts: the nearest of them all is joined (a probed event says which, and each RTT).
    mirrors = await resolveAll((link.mirrors ?? []).map(addressKey), 'host');
  } else {
    to = direct ?? fail('join needs HOST:PORT');
  }
  const rate = rateOf(v);
  const uplink = uplinkOf(v);
  // Failover (issue 22): when the host dies or stops and the session has other hosts, the join moves to the
  // nearest of them (a `failover` line, then `ready`); join-run.ts.
  const join = await CliJoin.start({
    run: {
      name: typeof v.name === 'string' ? v.name : 'Guest',
      code,
      host: to,
      ...(mirrors.length > 0 ? { mirrors } : {}),
      viewer: v.viewer === true,
      ...(rate ? { rate } : {}),
      ...(uplink === undefined ? {} : { uplinkBytesPerSecond: uplink }),
    },
    emit: emitLine,
    reachLine,
    ended: (runner) => void runner.close().then(() => process.exit(1)),
  });
  await serve(
    () => join.current,
    v.script === true,
    () => join.close(),
  );
}

/**
 * Runs until quit / end of stdin (script mode) or a signal; `runner` is the one in use (a join's may change);
 * `more`: script commands of this kind of process (a mirrored host's).
 */
async function serve(
  runner: () => SessionRunner,
  script: boolean,
  close: () => Promise<void> = () => runner().close(),
  more?: ScriptExtension,
): Promise<void> {
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  if (!script) return new Promise(() => undefined);
  await runScript(
    () => runner().controls,
    emitLine,
    () => runner().flush(),
    more,
  );
  emitLine(statsEvent(runner().controls, monotonicNow()));
  await stop();
}

async function demo(seconds: number): Promise<void> {
  const code = generateJoinCode();
  const hostPeer = await ConnectionPeer.open('host', code, '127.0.0.1', 0, (l) =>
    emitLine({ side: 'host', ...l }),
  );
  const clientPeer = await ConnectionPeer.open('client', code, '127.0.0.1', 0, (l) =>
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
      directory: { type: 'string', multiple: true },
      list: { type: 'string' },
      turn: { type: 'string' },
      'turn-secret': { type: 'string' },
      'reflector-port': { type: 'string' },
      bind: { type: 'string' },
      name: { type: 'string' },
      code: { type: 'string' },
      board: { type: 'string' },
      rate: { type: 'string' },
      kbps: { type: 'string' },
      viewer: { type: 'boolean' },
      'long-code': { type: 'boolean' },
      lan: { type: 'boolean' },
      'join-role': { type: 'string' },
      'max-peers': { type: 'string' },
      'image-space': { type: 'string' },
      'max-per-address': { type: 'string' },
      packets: { type: 'string' },
      'quiet-pointers': { type: 'boolean' },
      script: { type: 'boolean' },
      seconds: { type: 'string' },
      delays: { type: 'string' },
      spread: { type: 'string' },
      seed: { type: 'string' },
      trace: { type: 'string' },
      mirrors: { type: 'boolean' },
      'mirror-of': { type: 'string' },
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
    case 'directory':
      return directory(values);
    case 'convert':
      return convert(target, positionals[2]);
    case 'replay': {
      if (target === undefined) fail('replay TRACE');
      const r = await replayTraceFile(target, {
        delays: values.delays,
        spread: values.spread,
        seed: values.seed,
      });
      if ('fail' in r) fail(`replay: ${r.fail}`);
      emitLine(r.line);
      return;
    }
    case 'discover': {
      const seconds = Number(values.seconds ?? 3);
      if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) fail('--seconds 0..3600');
      await discover(seconds, emitLine);
      return;
    }
    default:
      fail(`unknown command ${command}`);
  }
}

/** `ghostboard directory`: a rendezvous server, printing one event per registration, introduction and expiry. */
async function directory(v: Values): Promise<void> {
  const bind = typeof v.bind === 'string' ? v.bind : '0.0.0.0';
  const port = Number(v.port ?? 7340);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port ${String(v.port)}`);
  const turn = typeof v.turn === 'string' ? v.turn : undefined;
  const secret =
    typeof v['turn-secret'] === 'string' ? v['turn-secret'] : process.env.GHOSTBOARD_TURN_SECRET;
  if ((turn === undefined) !== (secret === undefined))
    fail('--turn HOST:PORT and --turn-secret SECRET (or GHOSTBOARD_TURN_SECRET) go together');
  const relayServer = turn === undefined ? undefined : (await resolveAll([turn], '--turn'))[0];
  const reflectorArg = v['reflector-port'];
  const reflectorPort =
    typeof reflectorArg !== 'string'
      ? undefined
      : reflectorArg === 'off'
        ? 'off'
        : Number(reflectorArg);
  if (
    typeof reflectorPort === 'number' &&
    (!Number.isInteger(reflectorPort) || reflectorPort < 0 || reflectorPort > 65535)
  )
    fail(`--reflector-port ${String(reflectorArg)}`);
  const runner = await DirectoryRunner.open({
    bind,
    port,
    ...(reflectorPort === undefined ? {} : { reflectorPort }),
    ...(relayServer === undefined || secret === undefined
      ? {}
      : {
          options: { relay: { server: relayServer, secret, ttlSeconds: RELAY_CREDENTIAL_SECONDS } },
        }),
  });
  runner.on((e) => {
    switch (e.type) {
      case 'registered':
        emitLine({
          ev: 'registered',
          name: e.name,
          listed: e.listed,
          host: addressKey(e.host),
          users: e.users,
        });
        return;
      case 'introduced':
        emitLine({
          ev: 'introduced',
          name: e.name,
          joiner: addressKey(e.joiner),
          host: addressKey(e.host),
        });
        return;
      case 'expired':
      case 'deregistered':
        emitLine({ ev: e.type, name: e.name });
        return;
      case 'mirror':
        emitLine({ ev: 'mirror', name: e.name, host: addressKey(e.host), state: e.state });
        return;
    }
  });
  emitLine({
    ev: 'ready',
    address: runner.address.address,
    port: runner.address.port,
    ...(runner.reflectorPort === undefined ? {} : { reflector: runner.reflectorPort }),
  });
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      void runner.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
