// The `ghostboard` command line: parses arguments and runs a headless host, a joining peer or a loopback demo.
// Knows nothing of Electron.
import { parseArgs } from 'node:util';
import { generateJoinCode, joinCodeStrengthBits } from '../net/join-code';
import { parseAddress } from '../net/address';
import type { Print } from './link-demo';
import { LinkPeer } from './link-demo';

const USAGE = `usage:
  ghostboard host [--port N] [--bind ADDR] [--code CODE]
  ghostboard join HOST:PORT --code CODE
  ghostboard demo [--seconds N]     a host and a client on loopback, printing what the link costs

Each prints one JSON object per line on stdout; logs go to stderr.`;

const print: Print = (line) => {
  process.stdout.write(JSON.stringify(line) + '\n');
};

function fail(message: string): never {
  process.stderr.write(`ghostboard: ${message}\n${USAGE}\n`);
  process.exit(2);
}

async function host(values: Record<string, string | boolean | undefined>): Promise<void> {
  const code = typeof values.code === 'string' ? values.code : generateJoinCode();
  if (joinCodeStrengthBits(code) < 40)
    process.stderr.write('warning: a short join code can be guessed\n');
  const bind = typeof values.bind === 'string' ? values.bind : '0.0.0.0';
  const port = Number(values.port ?? 7350);
  const peer = await LinkPeer.open('host', code, bind, port, print);
  print({ ev: 'ready', address: peer.address.address, port: peer.address.port, code });
  peer.start(30);
  await untilSignal(peer);
}

async function join(
  target: string | undefined,
  values: Record<string, string | boolean | undefined>,
): Promise<void> {
  const to = target === undefined ? undefined : parseAddress(target);
  if (to === undefined) fail('join needs HOST:PORT');
  if (typeof values.code !== 'string') fail('join needs --code');
  const peer = await LinkPeer.open(
    'client',
    values.code,
    to.address.includes(':') ? '::' : '0.0.0.0',
    0,
    (line) => {
      print(line);
      if (line.ev === 'rejected' || line.ev === 'left') process.exit(1);
    },
  );
  peer.connect(to);
  peer.start(30);
  await untilSignal(peer);
}

async function demo(seconds: number): Promise<void> {
  const code = generateJoinCode();
  const hostPeer = await LinkPeer.open('host', code, '127.0.0.1', 0, (l) => {
    print({ side: 'host', ...l });
  });
  const clientPeer = await LinkPeer.open('client', code, '127.0.0.1', 0, (l) => {
    print({ side: 'client', ...l });
  });
  print({ ev: 'ready', address: hostPeer.address.address, port: hostPeer.address.port, code });
  clientPeer.connect(hostPeer.address);
  hostPeer.start(30);
  clientPeer.start(30);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await clientPeer.close();
  await new Promise((r) => setTimeout(r, 100));
  await hostPeer.close();
}

function untilSignal(peer: LinkPeer): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      void peer.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export async function main(argv: readonly string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      bind: { type: 'string' },
      code: { type: 'string' },
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
