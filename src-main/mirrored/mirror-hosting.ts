// A session hosted from a mirror group on real sockets, as the app and the command line start one: the mirror's
// links on the session's port + 1, the host's board executed through the mirror and its participants relayed to
// the other hosts; founding a group (so other hosts can join later) or joining one through a mirror link and
// starting from the board the group hands over. Knows nothing of the UI or the CLI's output.
import { randomInt } from 'node:crypto';
import type { PeerAddress } from '../net/address';
import type { MirrorLink } from '../../shared/join-link';
import { formatMirrorLink } from '../../shared/join-link';
import { generateMirrorSecret } from '../mirror/mirror-links';
import type { TraceRecord } from '../mirror/trace';
import type { HostRun } from '../session/runner';
import { SessionRunner } from '../session/runner';
import { boardOf, MIRROR_PORT_OFFSET, MirrorRunner } from './mirror-runner';

/** Ports tried when any free one will do: a session port and the one after it must both be free. */
const FREE_PORT_TRIES = 8;
const FREE_PORTS = { from: 20_000, to: 60_000 } as const;

export interface MirroredHostOptions {
  /** Join the group of a running session through its mirror link (its code is the session's); absent: found one. */
  readonly of?: MirrorLink;
  /** Each command the mirror takes (a trace's records). */
  readonly record?: (r: TraceRecord) => void;
}

export interface MirroredHost {
  readonly session: SessionRunner;
  readonly mirror: MirrorRunner;
}

/**
 * Hosts `run` from a mirror group. Port 0 picks a free pair of ports (session, mirror links). A joiner's board
 * comes from the group (not with a board file); it fails with a message when no member lets it in.
 */
export async function hostMirrored(
  run: HostRun,
  o: MirroredHostOptions = {},
): Promise<MirroredHost> {
  if (o.of !== undefined && run.boardFile !== undefined)
    throw new Error('a mirror takes its board from the session, not from a file');
  // A mirror registers only as one more host of its session: one registered on its own would be another session.
  if (o.of !== undefined && o.of.directory === undefined && (run.directories?.length ?? 0) > 0)
    throw new Error('the session is not registered with a directory: its mirror link names none');
  const code = o.of?.code ?? run.code;
  const secret = o.of?.secret ?? generateMirrorSecret();
  const fixed = run.port !== 0;
  const ports = fixed
    ? [run.port]
    : Array.from({ length: FREE_PORT_TRIES }, () => randomInt(FREE_PORTS.from, FREE_PORTS.to));
  let last: unknown;
  for (const port of ports) {
    let mirror: MirrorRunner;
    try {
      mirror = await MirrorRunner.open({
        secret,
        bind: run.bind,
        port: port + MIRROR_PORT_OFFSET,
        ...(o.record === undefined ? {} : { record: o.record }),
      });
    } catch (e) {
      last = e;
      continue;
    }
    try {
      const registered = { ...run, ...registration(run, o.of) };
      const session = await SessionRunner.host({
        ...registered,
        code,
        port,
        ...(await mirrorHostRun(mirror, o.of)),
      });
      attach(session, mirror, { code, secret, directories: registered.directories });
      return { session, mirror };
    } catch (e) {
      await mirror.close();
      // A group that would not let us in is no free-port problem: say so at once.
      if (fixed || o.of !== undefined) throw e;
      last = e;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}

/** What the session's host is started with: its executor and relay, and a joiner's board from the group. */
async function mirrorHostRun(
  mirror: MirrorRunner,
  of: MirrorLink | undefined,
): Promise<Pick<HostRun, 'executor' | 'relay' | 'served' | 'board'>> {
  const served: HostRun['served'] = (s) => {
    mirror.serveHost(s);
  };
  if (of === undefined)
    return { executor: (board) => mirror.found(board), relay: mirror.relay, served };
  const members: PeerAddress[] = of.members.map((m) => ({ address: m.address, port: m.port }));
  const state = await mirror.join(members);
  return {
    board: boardOf(state),
    executor: (board) => mirror.serve(board),
    relay: mirror.relay,
    served,
  };
}

/**
 * A mirror of a registered session registers with its directories under its name, proven by the key its link
 * carries (the link's directories unless the caller resolved them already).
 */
function registration(
  run: HostRun,
  of: MirrorLink | undefined,
): Pick<HostRun, 'directories' | 'mirrorOf'> {
  const d = of?.directory;
  if (d === undefined) return {};
  return {
    directories: run.directories?.length ? run.directories : d.directories,
    mirrorOf: {
      session: d.session,
      listed: d.listed,
      ownerKey: Uint8Array.from(Buffer.from(d.key, 'hex')),
    },
  };
}

/** The mirror beside its running session: the link that starts another host, flushes, closing together. */
function attach(
  session: SessionRunner,
  mirror: MirrorRunner,
  o: { code: string; secret: string; directories: readonly PeerAddress[] | undefined },
): void {
  const registered = session.registeredAs;
  const key = session.directoryKey;
  session.mirrorLink = formatMirrorLink({
    members: [mirror.advertised],
    code: o.code,
    secret: o.secret,
    ...(registered === undefined || key === undefined || o.directories === undefined
      ? {}
      : {
          directory: {
            directories: o.directories,
            session: registered.name,
            listed: registered.listed,
            key: Buffer.from(key).toString('hex'),
          },
        }),
  });
  session.sessionHosts = () => mirror.hostInfos();
  mirror.onActivity = () => {
    session.flush();
  };
  session.beforeClose(() => mirror.close());
}
