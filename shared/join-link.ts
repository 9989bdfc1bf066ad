// Invite links: everything a joiner needs in one string. The join code rides after '#', so a link pasted into a
// browser, a chat preview or a proxy never sends it to any server. Pure: parsing and formatting only.
//
//   ghostboard://join/<directory>[,<directory>…]/<session>#<code>   found through directories (NAT traversal)
//   ghostboard://direct/<host:port>#<code>                           straight to an address (LAN, forwarded port)
//
// Addresses are host:port, an IPv6 host in brackets; the session name is percent-encoded.

export const LINK_SCHEME = 'ghostboard';

export interface LinkAddress {
  readonly address: string;
  readonly port: number;
}

export type JoinLink =
  | {
      readonly kind: 'directory';
      readonly directories: readonly LinkAddress[];
      readonly session: string;
      readonly code: string;
    }
  | { readonly kind: 'direct'; readonly host: LinkAddress; readonly code: string };

/** Directories one link may name. */
const MAX_LINK_DIRECTORIES = 4;
const MAX_LINK_LENGTH = 512;

function formatAddress(a: LinkAddress): string {
  return a.address.includes(':') ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
}

function parseLinkAddress(s: string): LinkAddress | undefined {
  const m = /^\[([0-9a-fA-F:.]+)\]:(\d{1,5})$/.exec(s) ?? /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(s);
  if (m?.[1] === undefined || m[2] === undefined) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { address: m[1], port };
}

export function formatJoinLink(link: JoinLink): string {
  const code = encodeURIComponent(link.code);
  if (link.kind === 'direct') return `${LINK_SCHEME}://direct/${formatAddress(link.host)}#${code}`;
  const dirs = link.directories.map(formatAddress).join(',');
  return `${LINK_SCHEME}://join/${dirs}/${encodeURIComponent(link.session)}#${code}`;
}

/** Parses a link (surrounding whitespace allowed); undefined if it is not a well-formed one. */
export function parseJoinLink(text: string): JoinLink | undefined {
  const s = text.trim();
  if (s.length > MAX_LINK_LENGTH) return undefined;
  const m = /^ghostboard:\/\/(join|direct)\/([^#]*)#(.+)$/i.exec(s);
  if (m?.[1] === undefined || m[2] === undefined || m[3] === undefined) return undefined;
  let code: string;
  try {
    code = decodeURIComponent(m[3]).trim();
  } catch {
    return undefined;
  }
  if (code === '') return undefined;
  const path = m[2].replace(/\/+$/, '');
  if (m[1].toLowerCase() === 'direct') {
    const host = parseLinkAddress(path);
    return host === undefined ? undefined : { kind: 'direct', host, code };
  }
  const slash = path.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const dirs = path.slice(0, slash).split(',');
  if (dirs.length > MAX_LINK_DIRECTORIES) return undefined;
  const directories: LinkAddress[] = [];
  for (const d of dirs) {
    const a = parseLinkAddress(d);
    if (a === undefined) return undefined;
    directories.push(a);
  }
  let session: string;
  try {
    session = decodeURIComponent(path.slice(slash + 1));
  } catch {
    return undefined;
  }
  if (session === '') return undefined;
  return { kind: 'directory', directories, session, code };
}
