// `npm run web`: the app core under plain Node with the renderer served to a browser on 127.0.0.1. Parses
// options, makes the core and hands both to the launcher. Knows nothing of Electron.
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAppCore, directoriesFromEnv } from '../app/core';
import { launchWebHost } from './launch';

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

const USAGE = `usage: npm run web -- [--port N] [--no-open] [--data-dir DIR] [--root DIR]
  --port N        TCP port on 127.0.0.1 (default 0: a free port)
  --no-open       don't open a browser
  --data-dir DIR  where the core keeps autosaves and settings
  --root DIR      the built renderer to serve (default dist/renderer)
  --directory HOST:PORT   a directory to host through (repeatable; until one is saved in the settings;
                  GHOSTBOARD_DIRECTORY=host:port,… does the same)
  --join LINK     open the start screen on this ghostboard:// invite link
  --no-lan        neither announce nor look for sessions on this network (mDNS)
  --bind ADDR     the address hosted sessions bind (default all interfaces)`;

/** Per-user data directory, apart from the desktop app's so both can run at once. */
function defaultDataDir(): string {
  if (process.env.GHOSTBOARD_DATA_DIR) return process.env.GHOSTBOARD_DATA_DIR;
  if (process.platform === 'win32') return join(process.env.APPDATA ?? homedir(), 'Ghostboard Web');
  if (process.platform === 'darwin')
    return join(homedir(), 'Library', 'Application Support', 'Ghostboard Web');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'ghostboard-web');
}

function fail(message: string): never {
  process.stderr.write(`ghostboard web: ${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: readonly string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string', default: '0' },
        'no-open': { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        directory: { type: 'string', multiple: true },
        'no-lan': { type: 'boolean', default: false },
        bind: { type: 'string' },
        join: { type: 'string' },
        root: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad port: ${values.port}`);
  const rootDir = resolve(values.root ?? join(REPO_ROOT, 'dist', 'renderer'));
  if (!existsSync(join(rootDir, 'index.html')))
    fail(`no built renderer in ${rootDir}; run \`npm run build:renderer\` first`);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  mkdirSync(dataDir, { recursive: true });
  const directories = values.directory ?? directoriesFromEnv();
  const core = createAppCore({
    dataDir,
    directories,
    ...(values['no-lan'] ? { lan: false } : {}),
    ...(values.bind === undefined ? {} : { bind: values.bind }),
  });
  if (values.join !== undefined && !core.openLink(values.join))
    fail(`not a join link: ${values.join}`);
  await launchWebHost({ core, rootDir, port, open: !values['no-open'] });
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`ghostboard web: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
