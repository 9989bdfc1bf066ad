// What the hosting user's status says of the session: the invite link, the addresses and reach it starts with, a new
// join code, the mirror link and whether the session's hosts changed enough to tell. Pure functions of what the
// session runner reports.
import type { ReachStatus, SessionHost, SessionStatus } from '../../shared/api';
import { formatJoinLink, parseJoinLink } from '../../shared/join-link';
import { parseAddress } from '../net/address';
import { localAddresses } from './addresses';
import type { SessionHandle } from './core-io';

type Hosting = Extract<SessionStatus, { phase: 'hosting' }>;

/** The invite link: through the directories when the session is registered, else straight to this machine. */
function inviteLink(
  directories: readonly string[],
  session: string | undefined,
  address: string | undefined,
  port: number,
  code: string,
): string | undefined {
  if (session !== undefined) {
    const dirs = directories.flatMap((d) => {
      const p = parseAddress(d);
      return p === undefined ? [] : [p];
    });
    return formatJoinLink({ kind: 'directory', directories: dirs, session, code });
  }
  if (address === undefined) return undefined;
  const host = parseAddress(address) ?? { address, port };
  return formatJoinLink({ kind: 'direct', host: { address: host.address, port }, code });
}

/** The status of a session just hosted: addresses, code, the invite link and (through directories) its reach. */
export function hostingStatus(
  runner: SessionHandle,
  name: string,
  code: string,
  configured: readonly string[],
  directories: number,
): SessionStatus {
  const addresses = localAddresses();
  const registered = runner.registeredAs;
  const reach: ReachStatus | undefined =
    registered === undefined
      ? undefined
      : {
          directories,
          listedOn: 0,
          publicAddress: null,
          listedAs: registered.listed ? registered.name : null,
        };
  const link = inviteLink(configured, registered?.name, addresses[0], runner.address.port, code);
  return {
    phase: 'hosting',
    name,
    addresses,
    port: runner.address.port,
    code,
    you: 0,
    ...(link === undefined ? {} : { link }),
    ...(reach === undefined ? {} : { reach }),
    ...(runner.mirrorLink === undefined ? {} : { mirrorLink: runner.mirrorLink }),
  };
}

/** A round trip to another host that moved by less than this is not news (the status would flicker). */
const RTT_NEWS_MS = 5;

/** Whether the session's hosts changed enough to tell the renderer. */
export function hostsChanged(
  was: readonly SessionHost[] | undefined,
  now: readonly SessionHost[] | undefined,
): boolean {
  if (was === undefined || now === undefined) return was !== now;
  if (was.length !== now.length) return true;
  return was.some((h, i) => {
    const n = now[i];
    if (n?.address !== h.address || n.self !== h.self) return true;
    if (h.rttMs === null || n.rttMs === null) return h.rttMs !== n.rttMs;
    return Math.abs(h.rttMs - n.rttMs) >= RTT_NEWS_MS;
  });
}

/** The hosting status once the session's join code changed. */
export function withCode(st: Hosting, code: string): SessionStatus {
  // The invite link carries the code: it changes with it.
  const old = st.link === undefined ? undefined : parseJoinLink(st.link);
  const link = old === undefined ? undefined : formatJoinLink({ ...old, code });
  return {
    ...st,
    code,
    codeLocked: false,
    ...(link === undefined ? {} : { link }),
  };
}

/**
 * Hosting: the link that starts a mirror of this session appears (or goes) when the runner takes mirrors, and the
 * session's hosts once another has joined (a host coming or going, or a round trip moving by RTT_NEWS_MS). The
 * status with them, or undefined when neither changed.
 */
export function withMirrors(
  st: Hosting,
  runner: SessionHandle | undefined,
): SessionStatus | undefined {
  const link = runner?.mirrorLink;
  const found = runner?.sessionHosts?.() ?? [];
  const hosts = found.length > 1 ? found : undefined;
  if (st.mirrorLink === link && !hostsChanged(st.hosts, hosts)) return undefined;
  const rest = { ...st };
  delete rest.mirrorLink;
  delete rest.hosts;
  return {
    ...rest,
    ...(link === undefined ? {} : { mirrorLink: link }),
    ...(hosts === undefined ? {} : { hosts }),
  };
}
