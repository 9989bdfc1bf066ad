// What the hosting user's status says of the session: the invite link, the addresses and reach it starts with, and
// whether the session's hosts changed enough to tell. Pure functions of what the session runner reports.
import type { ReachStatus, SessionHost, SessionStatus } from '../../shared/api';
import { formatJoinLink } from '../../shared/join-link';
import { parseAddress } from '../net/address';
import { localAddresses } from './addresses';
import type { SessionHandle } from './core-io';

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
