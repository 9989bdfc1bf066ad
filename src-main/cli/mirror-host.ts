// `ghostboard host --mirrors` and `--mirror-of LINK`: a host that serves its session from a mirror group, founding
// one (and printing the mirror link that starts another host of the session) or joining one through such a link and
// starting from the board the group hands over. Prints the group's doings as `mirror` events and tells the session's
// clients where its other hosts are. Knows nothing of Electron.
import type { PeerAddress } from '../net/address';
import { addressKey } from '../net/address';
import { formatMirrorLink, readMirrorLink } from '../../shared/join-link';
import { generateMirrorSecret } from '../mirror/mirror-links';
import type { TraceRecord } from '../mirror/trace';
import type { MirrorRunEvent } from '../mirrored/mirror-runner';
import { boardOf, MIRROR_PORT_OFFSET, MirrorRunner } from '../mirrored/mirror-runner';
import type { HostRun, SessionRunner } from '../session/runner';
import { monotonicNow } from '../net/transport';
import type { ScriptExtension } from './script';

export interface MirrorHosting {
  readonly runner: MirrorRunner;
  /** What the session's host is started with: its executor, its relay, and a joiner's board. */
  readonly hostRun: Pick<HostRun, 'executor' | 'relay' | 'served'> &
    Partial<Pick<HostRun, 'board'>>;
  /** A joiner's join code: the one its mirror link carries. */
  readonly code: string | undefined;
  readonly secret: string;
}

export interface MirrorHostArgs {
  /** A mirror link: join the group it names; absent: found one. */
  readonly of: string | undefined;
  readonly bind: string;
  /** The session's port (the mirror links take the next one). */
  readonly sessionPort: number;
  /** The join code given on the command line, if any (a mirror link's must match it). */
  readonly code: string | undefined;
  readonly record?: (r: TraceRecord) => void;
}

/** Starts the mirror (founding or joining its group); a message instead when it cannot. */
export async function startMirror(a: MirrorHostArgs): Promise<MirrorHosting | { fail: string }> {
  if (a.sessionPort === 0)
    return { fail: 'a mirrored host needs a fixed --port (its mirror links take the next one)' };
  const link = a.of === undefined ? undefined : readMirrorLink(a.of);
  if (link !== undefined && 'error' in link)
    return { fail: `--mirror-of: not a mirror link (${link.error})` };
  if (link !== undefined && a.code !== undefined && a.code !== link.code)
    return { fail: '--code differs from the mirror link’s: a session has one code' };
  const secret = link?.secret ?? generateMirrorSecret();
  const port = a.sessionPort + MIRROR_PORT_OFFSET;
  let runner: MirrorRunner;
  try {
    runner = await MirrorRunner.open({
      secret,
      bind: a.bind,
      port,
      ...(a.record === undefined ? {} : { record: a.record }),
    });
  } catch (e) {
    return { fail: `mirror links on port ${port}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const served: HostRun['served'] = (s) => {
    runner.showRemoteIn(s.remote);
  };
  if (link === undefined)
    return {
      runner,
      secret,
      code: undefined,
      hostRun: { executor: (board) => runner.found(board), relay: runner.relay, served },
    };
  try {
    const members: PeerAddress[] = link.members.map((m) => ({ address: m.address, port: m.port }));
    const state = await runner.join(members);
    return {
      runner,
      secret,
      code: link.code,
      hostRun: {
        board: boardOf(state),
        executor: (board) => runner.serve(board),
        relay: runner.relay,
        served,
      },
    };
  } catch (e) {
    await runner.close();
    return { fail: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The mirror beside its running session: the link that starts another host, the session flushed whenever the
 * group changed its board, `mirror` events printed, and the mirror closed with the session.
 */
export function attachMirror(
  m: MirrorHosting,
  session: SessionRunner,
  code: string,
  emit: (line: Record<string, unknown>) => void,
): void {
  const { runner } = m;
  session.mirrorLink = formatMirrorLink({
    members: [runner.advertised],
    code,
    secret: m.secret,
  });
  runner.onActivity = () => {
    session.flush();
  };
  runner.on((e) => {
    emit(mirrorLine(e));
  });
  session.beforeClose(() => runner.close());
}

/**
 * The script's `mirror-stats` command: one `mirror-stats` line with everything the running mirror counts (its
 * CRIMP, link and clock stats, trailing state sync's, its own counters and the group's), whole, so a bench reads
 * whatever fields this build has (repair latency among them) without this file naming them.
 */
export function mirrorScript(runner: Pick<MirrorRunner, 'current'>): ScriptExtension {
  return (cmd, emit) => {
    if (cmd.cmd !== 'mirror-stats') return false;
    const mirror = runner.current;
    emit({
      ev: 'mirror-stats',
      ...(mirror === undefined
        ? { ready: false }
        : {
            ready: mirror.ready,
            self: mirror.self,
            node: mirror.node.stats(monotonicNow()),
            // A joiner has no trailing states until the group hands it the board.
            tss: mirror.ready ? mirror.tss.stats : null,
            counters: mirror.counters,
            group: mirror.groupStats() ?? null,
          }),
    });
    return true;
  };
}

/** The JSON line of one mirror event (the CLI contract: `ev: "mirror"`, `event` says which). */
export function mirrorLine(e: MirrorRunEvent): Record<string, unknown> {
  switch (e.type) {
    case 'member':
      return { ev: 'mirror', event: 'member', id: e.id, view: e.view };
    case 'joined':
      return {
        ev: 'mirror',
        event: 'joined',
        id: e.id,
        view: e.view,
        ...(e.address === undefined ? {} : { address: addressKey(e.address) }),
      };
    case 'left':
      return { ev: 'mirror', event: 'left', id: e.id, reason: e.reason, view: e.view };
    case 'excluded':
      return { ev: 'mirror', event: 'excluded', view: e.view };
    case 'rollback':
      return { ev: 'mirror', event: 'rollback', effects: e.effects };
    case 'clock':
      return {
        ev: 'mirror',
        event: 'clock',
        id: e.id,
        offset: round1(e.offset),
        error: round1(e.error),
        driftPpm: round1(e.driftPpm),
      };
  }
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
