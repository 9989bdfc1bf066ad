// The mirrors bench's failover figure: a mirror per site and 4 users per site (`ghostboard join` processes given one
// link that names every host, so each should join its own site's), a few edits, a wait for any move to a nearer host
// (a joiner probes again a few seconds after its join), then one site's host is killed (SIGKILL). The users moved
// are those whose last `ready` named that host; one that joined elsewhere first is listed apart, with its probes'
// RTTs, and so is a move. Each one's failover time is from the kill to its `ready` at another host, both on
// CLOCK_MONOTONIC (the `t` every CLI event carries). Repeated, a different site's host each round. A stall round
// stops the host (SIGSTOP) instead, runs it again once its users failed over, and times their move back (each
// probes the hosts again a few seconds after joining elsewhere, and the stalled one is clearly nearer). Knows
// nothing of reports.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineClockMs } from '../../src-main/cli/script';
import { generateJoinCode } from '../../src-main/net/join-code';
import { RECHECK_AFTER_MS } from '../../src-main/net/nearest-join';
import type { JsonEvent, JsonProc } from '../router/json-proc';
import type { Sites } from '../router/sites';
import { SITES } from './run';

const GHOSTBOARD = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'bin',
  'ghostboard.js',
);
const START_MS = 30_000;
/** Past RECHECK_AFTER_MS, for the second probe's answers and a move's join. */
const SETTLE_MS = 2_000;
/** A user not on another host this long after the kill has not failed over at all. */
const GIVE_UP_MS = 30_000;
/** A stalled host runs again after this long at most (ms): under the mirrors' own silence limit, 5 s. */
const STALL_MAX_MS = 4_000;

/** A user that joined a host other than its own site's: the probes' RTTs say why. */
export interface JoinedAway {
  readonly user: string;
  readonly joined: string;
  /** The `probed` event's hosts and RTTs (ms; null: no answer). */
  readonly probedMs: Record<string, number | null>;
}

export interface FailoverRound {
  readonly killed: string;
  /** Per user that had joined the killed host (by its `ready`): ms from the kill to its `ready` at another host (null: it never got there). */
  readonly ms: (number | null)[];
  /** The joiners' own figure: from the last packet heard from the dead host to the new `ready`. */
  readonly heardToReadyMs: number[];
  /** Every board equal after the move (hosts and users alike). */
  readonly converged: boolean;
  /** Users that joined another site's host than their own (the nearest by probe is their own, 5 ms against 65). */
  readonly joinedAway: readonly JoinedAway[];
  /** Users that moved to a nearer host once joined (a `moved` line), and where to. */
  readonly movedNearer: readonly { readonly user: string; readonly to: string }[];
  /** Users still on another site's host when the host was killed. */
  readonly awayAtKill: number;
  /**
   * A stall round (the host stopped, not killed, and run again once its users failed over): per such user, ms from
   * the host running again to its `ready` back there (null: it did not come back).
   */
  readonly backMs?: (number | null)[];
}

/** A killed host is gone; a stalled one is stopped (SIGSTOP) until its users failed over, then runs again. */
export type HostFault = 'kill' | 'stall';

const isEv =
  (ev: string, more: (e: JsonEvent) => boolean = () => true) =>
  (e: JsonEvent): boolean =>
    e.ev === ev && more(e);

/**
 * One round: hosts and users started, edits made, `victim`'s host killed (or stalled), the move timed; after a
 * stall, the move back too.
 */
export async function failoverRound(
  sites: Sites,
  port: number,
  victim: string,
  fault: HostFault = 'kill',
): Promise<FailoverRound> {
  const code = generateJoinCode();
  const procs: JsonProc[] = [];
  const addr = (s: string): string => sites.node(`${s}-mirror`).addr;
  try {
    const host = (s: string, more: readonly string[]): JsonProc => {
      const p = sites.run(`${s}-mirror`, `host ${s}`, [
        ...[GHOSTBOARD, 'host', '--port', String(port), '--bind', addr(s), '--name', `host ${s}`],
        ...['--script', '--quiet-pointers', ...more],
      ]);
      procs.push(p);
      return p;
    };
    const a = host('a', ['--code', code, '--mirrors']);
    const link = String((await a.waitFor(isEv('ready'), START_MS)).mirrorLink);
    const hosts = new Map<string, JsonProc>([['a', a]]);
    for (const s of SITES.slice(1)) {
      const h = host(s, ['--mirror-of', link]);
      hosts.set(s, h);
      await h.waitFor(isEv('ready'), START_MS);
    }
    const joinLink = `ghostboard://direct/${SITES.map((s) => `${addr(s)}:${port}`).join(',')}#${code}`;
    const users = SITES.flatMap((s) =>
      Array.from({ length: 4 }, (_, i) => {
        const p = sites.run(`${s}-users`, `${s}${i}`, [
          ...[GHOSTBOARD, 'join', joinLink, '--name', `${s}${i}`, '--script'],
        ]);
        procs.push(p);
        return { site: s, proc: p };
      }),
    );
    // Where each user joined: its `ready` names the host's address.
    const joinedAt = new Map<JsonProc, string>();
    for (const u of users)
      joinedAt.set(u.proc, String((await u.proc.waitFor(isEv('ready'), START_MS)).address));
    const joinedAway = users.flatMap((u): JoinedAway[] => {
      const at = joinedAt.get(u.proc) ?? '';
      return at === addr(u.site)
        ? []
        : [{ user: u.proc.label, joined: at, probedMs: probedOf(u.proc) }];
    });
    for (const [i, u] of users.entries())
      u.proc.send({ cmd: 'create', kind: 'rect', x: i * 50, y: 0, w: 40, h: 40, tag: `r${i}` });
    for (const u of users) await u.proc.waitFor(isEv('created'), START_MS);
    // A joiner probes the hosts again RECHECK_AFTER_MS after its join and moves to a clearly nearer one: the kill
    // comes after that, and each user's host is the one its last `ready` named.
    await new Promise((r) => setTimeout(r, RECHECK_AFTER_MS + SETTLE_MS));
    const hostAt = new Map(users.map((u) => [u.proc, lastReadyAt(u.proc)]));
    const movedNearer = users.flatMap((u) =>
      u.proc.events.some(isEv('moved'))
        ? [{ user: u.proc.label, to: hostAt.get(u.proc) ?? '' }]
        : [],
    );
    const dead = hosts.get(victim);
    if (dead === undefined) throw new Error(`no host ${victim}`);
    const moved = users.filter((u) => hostAt.get(u.proc) === addr(victim));
    const marks = new Map(moved.map((u) => [u.proc, u.proc.events.length]));
    const killedAt = machineClockMs();
    dead.child.kill(fault === 'kill' ? 'SIGKILL' : 'SIGSTOP');
    if (fault === 'kill') {
      await dead.exited;
      hosts.delete(victim);
    }
    const wait = fault === 'kill' ? GIVE_UP_MS : STALL_MAX_MS;
    const readyAgain = await Promise.all(
      moved.map(async (u) => {
        try {
          const f = await u.proc.waitFor(isEv('failover'), wait, marks.get(u.proc));
          const ready = await u.proc.waitFor(isEv('ready'), wait, u.proc.events.indexOf(f));
          return { ms: Math.round(Number(ready.t) - killedAt), f, ready };
        } catch {
          return undefined;
        }
      }),
    );
    const ms = readyAgain.map((r) => r?.ms ?? null);
    const heardToReadyMs = readyAgain.flatMap((r) => (typeof r?.f.ms === 'number' ? [r.f.ms] : []));
    let backMs: (number | null)[] | undefined;
    if (fault === 'stall') {
      dead.child.kill('SIGCONT');
      const resumedAt = machineClockMs();
      backMs = await Promise.all(
        moved.map(async (u, i) => {
          const after = readyAgain[i]?.ready;
          if (after === undefined) return null;
          try {
            const m = await u.proc.waitFor(isEv('moved'), GIVE_UP_MS, u.proc.events.indexOf(after));
            const ready = await u.proc.waitFor(isEv('ready'), GIVE_UP_MS, u.proc.events.indexOf(m));
            return ready.address === addr(victim) ? Math.round(Number(ready.t) - resumedAt) : null;
          } catch {
            return null;
          }
        }),
      );
    }
    const everyone = [...hosts.values(), ...users.map((u) => u.proc)];
    const converged = await equalBoards(everyone);
    const awayAtKill = users.filter((u) => hostAt.get(u.proc) !== addr(u.site)).length;
    return {
      killed: victim,
      ms,
      heardToReadyMs,
      converged,
      joinedAway,
      movedNearer,
      awayAtKill,
      ...(backMs === undefined ? {} : { backMs }),
    };
  } finally {
    for (const p of procs) p.send({ cmd: 'quit' });
    await Promise.all(procs.map((p) => p.stop(3000)));
  }
}

/** The host address a user's last `ready` named (its first join's, or a move's). */
function lastReadyAt(p: JsonProc): string {
  const at = p.events.findLast(isEv('ready'))?.address;
  return typeof at === 'string' ? at : '';
}

/** The RTTs of a user's `probed` event, by host address (empty: it probed nothing). */
function probedOf(p: JsonProc): Record<string, number | null> {
  const e = p.events.find(isEv('probed'));
  const hosts = Array.isArray(e?.hosts)
    ? (e.hosts as { address?: unknown; rttMs?: unknown }[])
    : [];
  return Object.fromEntries(
    hosts.map((h) => [String(h.address), typeof h.rttMs === 'number' ? h.rttMs : null]),
  );
}

/** Polls every board's hash (bounded) until all are equal and nothing is unsettled. */
async function equalBoards(all: readonly JsonProc[]): Promise<boolean> {
  for (let round = 0; round < 30; round++) {
    await new Promise((r) => setTimeout(r, 500));
    const hashes = await Promise.all(
      all.map(async (p) => {
        const from = p.events.length;
        p.send({ cmd: 'hash' });
        try {
          return await p.waitFor(isEv('hash'), 10_000, from);
        } catch {
          return undefined;
        }
      }),
    );
    if (hashes.every((h) => h !== undefined && h.hash === hashes[0]?.hash && h.unsettled === 0))
      return true;
  }
  return false;
}
