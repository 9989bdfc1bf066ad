// Dev only (?fake=1): what the simulated core says about reaching people — sessions on the LAN, the hosting
// status's invite link and directory listing, a join's stages and path. Never used by the real app path.
import type { HostOptions, LanSessionInfo, PathKind, SessionStatus } from '../../shared/api';
import { formatJoinLink, parseJoinLink } from '../../shared/join-link';

const ADDRESSES = ['192.168.1.24', '10.8.0.3'];
const PORT = 47810;
const CODE = '7-orbit-lantern';
const SESSION = 's-4f2k9q7mxc';

function parseDirectory(d: string): { address: string; port: number } | null {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(d);
  return m?.[1] === undefined || m[2] === undefined ? null : { address: m[1], port: Number(m[2]) };
}

/** The hosting status, before any directory has answered (listedOn 0) or after (`listed`). */
export function fakeHosting(
  name: string,
  options: HostOptions,
  directories: readonly string[],
  listed: boolean,
): Extract<SessionStatus, { phase: 'hosting' }> {
  const base = {
    phase: 'hosting',
    name,
    addresses: ADDRESSES,
    port: PORT,
    code: CODE,
    you: 1,
    // A moment in (as a directory answers), the session takes mirrors, and one has joined: the link only looks like
    // a real one.
    ...(listed
      ? {
          mirrorLink: `ghostboard://mirror/${ADDRESSES[0] ?? ''}:${PORT}#fake-mirror-key`,
          hosts: [
            { address: `${ADDRESSES[0] ?? ''}:${PORT}`, self: true, rttMs: null },
            { address: `203.0.113.77:${PORT}`, self: false, rttMs: 38 },
          ],
        }
      : {}),
  } as const;
  const reach = options.reach ?? (directories.length > 0 ? 'directory' : 'lan');
  const dirs = directories.flatMap((d) => parseDirectory(d) ?? []);
  if (reach === 'lan' || dirs.length === 0) {
    const host = { address: ADDRESSES[0] ?? '127.0.0.1', port: PORT };
    return { ...base, link: formatJoinLink({ kind: 'direct', host, code: CODE }) };
  }
  const session = options.listName ?? SESSION;
  return {
    ...base,
    link: formatJoinLink({ kind: 'directory', directories: dirs, session, code: CODE }),
    reach: {
      directories: dirs.length,
      listedOn: listed ? dirs.length : 0,
      publicAddress: listed ? `203.0.113.7:${PORT}` : null,
      listedAs: options.listName ?? null,
    },
  };
}

export interface FakeJoinPlan {
  /** Shown while connecting: the session a link names, or the address. */
  readonly shown: string;
  readonly lookUp: boolean;
  readonly path: PathKind;
}

/** A directory link is looked up first and joins directly; 192.168.* is the LAN; "relay…" is relayed. */
export function fakeJoinPlan(address: string): FakeJoinPlan {
  const link = parseJoinLink(address);
  if (link?.kind === 'directory') return { shown: link.session, lookUp: true, path: 'direct' };
  const shown = link?.kind === 'direct' ? `${link.host.address}:${link.host.port}` : address;
  if (shown.startsWith('relay')) return { shown, lookUp: false, path: 'relayed' };
  return { shown, lookUp: false, path: shown.startsWith('192.168.') ? 'lan' : 'direct' };
}

/** Sessions "found" on the LAN: two at once, then a third (as mDNS answers trickle in). */
export function fakeLanSessions(): [LanSessionInfo[], LanSessionInfo[]] {
  const lan = (id: string, name: string, address: string, users: number, version = 4) => ({
    id,
    name,
    addresses: [address],
    port: 7350,
    version,
    compatible: version === 4,
    users,
  });
  const first = [
    lan('6c1f0a9e4b2d7a11', 'Ada’s design review', '192.168.1.31', 3),
    lan('0b7e5c2a91f4d3e8', 'Linus', '192.168.1.47', 1, 3),
  ];
  return [first, [...first, lan('f2a81c0d5e6b4973', 'Sprint planning', '192.168.1.12', 5)]];
}
