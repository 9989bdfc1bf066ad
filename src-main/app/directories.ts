// The directories the app core may use: as a command line or the environment names them (until the user saves
// their own), and resolved from HOST:PORT to addresses. Knows nothing of sessions, settings or the UI.
import { lookup } from 'node:dns/promises';
import type { PeerAddress } from '../net/address';
import { parseAddress } from '../net/address';

/**
 * `--directory HOST:PORT` (or `--directory=HOST:PORT`), repeatable, from a command line (the desktop app's):
 * the directories to use until the user saves their own.
 */
export function directoriesFromArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--directory' && argv[i + 1] !== undefined) out.push(argv[++i] ?? '');
    else if (a.startsWith('--directory=')) out.push(a.slice('--directory='.length));
  }
  return out.map((d) => d.trim()).filter((d) => d !== '');
}

/** GHOSTBOARD_DIRECTORY=host:port[,host:port…]: the directories to use until the user saves their own. */
export function directoriesFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.GHOSTBOARD_DIRECTORY ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
}

/** Resolves HOST:PORT entries (a directory may be named by DNS); those that do not resolve are left out. */
export async function resolveDirectories(list: readonly string[]): Promise<PeerAddress[]> {
  const out: PeerAddress[] = [];
  for (const d of list) {
    const p = parseAddress(d);
    if (p === undefined) continue;
    try {
      const r = await lookup(p.address);
      out.push({ address: r.address, port: p.port });
    } catch {
      // An unknown name: the other directories may do.
    }
  }
  return out;
}
