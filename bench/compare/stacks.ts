// Starts one of the three compared stacks inside a testbed (server in the server namespace, one user per client
// namespace) and brings it to the point where every user sees every other and owns one rectangle. Knows nothing
// of the workload or of the figures.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJoinCode } from '../../src-main/net/join-code';
import type { JsonEvent, JsonProc } from '../router/json-proc';
import type { Testbed } from '../router/testbed';
import { SERVER_ADDR } from '../router/testbed';

/**
 * ghostboard-lan: the same with `--rate lan` on the host and the joiners; `ghostboard@R` with `--rate R` (a
 * preset or TO_HOST[:TO_PEERS] packets/s), to compare rates side by side (GB_COMPARE_STACKS only).
 */
export type StackName =
  'ghostboard' | 'ghostboard-lan' | 'yjs' | 'socketio' | `ghostboard@${string}`;
export const STACKS: readonly StackName[] = ['ghostboard', 'ghostboard-lan', 'yjs', 'socketio'];

export interface StartedStack {
  readonly users: readonly JsonProc[];
  /** The rectangle user i drags. */
  readonly objectIds: readonly number[];
  /** Where user i's rectangle starts. */
  readonly origins: readonly { x: number; y: number }[];
  /** The process in the middle that reports each pointer it relays (Ghostboard's host), to split the latency. */
  readonly relay?: JsonProc;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const GHOSTBOARD = join(root, 'bin', 'ghostboard.js');
const TSX = ['--import', 'tsx'];
const SETUP_MS = 20_000;
const GB_PORT = 7350;

export const userName = (i: number): string => `u${i}`;
export const origin = (i: number): { x: number; y: number } => ({ x: 1000 * (i + 1), y: 1000 });
const RECT = { w: 200, h: 100 };

export async function startStack(name: StackName, bed: Testbed): Promise<StartedStack> {
  switch (name) {
    case 'ghostboard':
      return startGhostboard(bed, []);
    case 'ghostboard-lan':
      return startGhostboard(bed, ['--rate', 'lan']);
    case 'yjs':
      return startBaseline(bed, 'yjs', (port) => `ws://${SERVER_ADDR}:${port}`);
    case 'socketio':
      return startBaseline(bed, 'sio', (port) => `http://${SERVER_ADDR}:${port}`);
    default:
      return startGhostboard(bed, ['--rate', name.slice('ghostboard@'.length)]);
  }
}

/** A dedicated headless host in the server namespace owns the board; the four users are joiners. */
async function startGhostboard(bed: Testbed, rate: readonly string[]): Promise<StartedStack> {
  const code = generateJoinCode();
  const host = bed.node(bed.serverNs, 'gb-host', [
    GHOSTBOARD,
    ...['host', '--port', String(GB_PORT), '--bind', SERVER_ADDR],
    ...['--code', code, '--name', 'Host', '--script'],
    ...rate,
  ]);
  await host.waitFor((e) => e.ev === 'ready', SETUP_MS);
  const origins = bed.clients.map((_, i) => origin(i));
  for (const o of origins) host.send({ cmd: 'create', kind: 'rect', ...o, ...RECT });
  const objectIds = await Promise.all(
    origins.map(async (o) => {
      const e = await host.waitFor((ev) => ev.ev === 'object' && ev.x === o.x, SETUP_MS);
      return Number(e.id);
    }),
  );
  const users = bed.clients.map((c, i) =>
    bed.node(c.ns, userName(i), [
      GHOSTBOARD,
      ...['join', `${SERVER_ADDR}:${GB_PORT}`, '--code', code],
      ...['--name', userName(i), '--script'],
      ...rate,
    ]),
  );
  await Promise.all(users.map((u) => u.waitFor((e) => e.ev === 'ready', SETUP_MS)));
  // Everyone has joined once each user has heard of every name (its own included).
  await Promise.all(users.map((u) => waitForNames(u, users.length, (e) => e.ev === 'joined')));
  await Promise.all(users.map((u) => waitForObjects(u, objectIds)));
  return { users, objectIds, origins, relay: host };
}

/** Yjs or socket.io: the relay server in the server namespace, each user creating its own rectangle. */
async function startBaseline(
  bed: Testbed,
  kind: 'yjs' | 'sio',
  url: (port: number) => string,
): Promise<StartedStack> {
  const server = bed.node(bed.serverNs, `${kind}-server`, [
    ...TSX,
    join(here, `${kind}-server.ts`),
    SERVER_ADDR,
    '0',
  ]);
  const ready = await server.waitFor((e) => e.ev === 'ready', SETUP_MS);
  const port = Number(ready.port);
  const users = bed.clients.map((c, i) =>
    bed.node(c.ns, userName(i), [...TSX, join(here, `${kind}-client.ts`), url(port), userName(i)]),
  );
  await Promise.all(users.map((u) => u.waitFor((e) => e.ev === 'ready', SETUP_MS)));
  // socket.io's room may still be filling: wait until the last user is in before anyone creates.
  await new Promise((r) => setTimeout(r, 500));
  const origins = bed.clients.map((_, i) => origin(i));
  const objectIds = origins.map((_, i) => i + 1);
  users.forEach((u, i) => u.send({ cmd: 'create', id: i + 1, ...origins[i], ...RECT }));
  await Promise.all(
    users.map((u, i) =>
      waitForObjects(
        u,
        objectIds.filter((_, j) => j !== i),
      ),
    ),
  );
  return { users, objectIds, origins };
}

async function waitForNames(
  u: JsonProc,
  n: number,
  pred: (e: JsonEvent) => boolean,
): Promise<void> {
  const names = new Set(Array.from({ length: n }, (_, i) => userName(i)));
  await u.waitFor((e) => {
    if (pred(e) && typeof e.name === 'string') names.delete(e.name);
    return names.size === 0;
  }, SETUP_MS);
}

async function waitForObjects(u: JsonProc, ids: readonly number[]): Promise<void> {
  const missing = new Set(ids);
  await u.waitFor((e) => {
    if (e.ev === 'object') missing.delete(Number(e.id));
    return missing.size === 0;
  }, SETUP_MS);
}
