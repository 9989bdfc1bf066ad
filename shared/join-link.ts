// Invite links: everything a joiner needs in one string. The join code rides after '#', so a link pasted into a
// browser, a chat preview or a proxy never sends it to any server. Pure: parsing and formatting only.
//
//   ghostboard://join/<directory>[,<directory>…]/<session>#<code>   found through directories (NAT traversal)
//   ghostboard://direct/<host:port>[,<host:port>…]#<code>            straight to an address (LAN, forwarded port);
//                                                                    several: the session's mirrors, nearest joined
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
  | {
      readonly kind: 'direct';
      readonly host: LinkAddress;
      /** The session's other hosts (its mirrors), if any: a joiner probes them all and joins the nearest. */
      readonly mirrors?: readonly LinkAddress[];
      readonly code: string;
    };

/** Why a text is not a join link. */
export type JoinLinkError =
  | 'too-long'
  | 'not-a-link'
  | 'no-code'
  | 'bad-address'
  | 'too-many-directories'
  | 'too-many-hosts'
  | 'bad-session';

/** Directories one link may name. */
const MAX_LINK_DIRECTORIES = 4;
/** Hosts one direct link may name (the first and its mirrors): as many as a joiner probes. */
export const MAX_LINK_HOSTS = 8;
const MAX_LINK_LENGTH = 512;

/** host:port, an IPv6 host in brackets. */
export function formatLinkAddress(a: LinkAddress): string {
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
  if (link.kind === 'direct') {
    const hosts = [link.host, ...(link.mirrors ?? [])].map(formatLinkAddress).join(',');
    return `${LINK_SCHEME}://direct/${hosts}#${code}`;
  }
  const dirs = link.directories.map(formatLinkAddress).join(',');
  return `${LINK_SCHEME}://join/${dirs}/${encodeURIComponent(link.session)}#${code}`;
}

/** Parses a link (surrounding whitespace allowed); undefined if it is not a well-formed one. */
export function parseJoinLink(text: string): JoinLink | undefined {
  const r = readJoinLink(text);
  return 'error' in r ? undefined : r;
}

/** Parses a link (surrounding whitespace allowed), or says why it is not one. Hostile input: bounded, never throws. */
export function readJoinLink(text: string): JoinLink | { readonly error: JoinLinkError } {
  const s = text.trim();
  if (s.length > MAX_LINK_LENGTH) return { error: 'too-long' };
  const m = /^ghostboard:\/\/(join|direct)\/([^#]*)#(.*)$/i.exec(s);
  if (m?.[1] === undefined || m[2] === undefined || m[3] === undefined)
    return { error: 'not-a-link' };
  let code: string;
  try {
    code = decodeURIComponent(m[3]).trim();
  } catch {
    return { error: 'no-code' };
  }
  if (code === '') return { error: 'no-code' };
  const path = m[2].replace(/\/+$/, '');
  if (m[1].toLowerCase() === 'direct') {
    const hosts = addressList(path, MAX_LINK_HOSTS, 'too-many-hosts');
    if ('error' in hosts) return hosts;
    const [host, ...mirrors] = hosts;
    if (host === undefined) return { error: 'bad-address' };
    return mirrors.length === 0
      ? { kind: 'direct', host, code }
      : { kind: 'direct', host, mirrors, code };
  }
  const slash = path.lastIndexOf('/');
  if (slash <= 0) return { error: 'bad-session' };
  const directories = addressList(
    path.slice(0, slash),
    MAX_LINK_DIRECTORIES,
    'too-many-directories',
  );
  if ('error' in directories) return directories;
  let session: string;
  try {
    session = decodeURIComponent(path.slice(slash + 1));
  } catch {
    return { error: 'bad-session' };
  }
  if (session === '') return { error: 'bad-session' };
  return { kind: 'directory', directories, session, code };
}

/** Comma-separated addresses, at most `max` of them (hosts: one named twice counts once). */
function addressList(
  text: string,
  max: number,
  tooMany: JoinLinkError,
): LinkAddress[] | { readonly error: JoinLinkError } {
  const parts = text.split(',');
  if (parts.length > max) return { error: tooMany };
  const out: LinkAddress[] = [];
  for (const p of parts) {
    const a = parseLinkAddress(p);
    if (a === undefined) return { error: 'bad-address' };
    const again = out.some(
      (o) => o.address.toLowerCase() === a.address.toLowerCase() && o.port === a.port,
    );
    if (!again || tooMany !== 'too-many-hosts') out.push(a);
  }
  return out;
}

/**
 * A mirror link: what starts another host of a running session (`ghostboard host --mirror-of LINK`). It names where
 * the session's mirrors link to each other (any one of them) and carries, after '#', the join code the new host
 * serves under and the group's mirror secret, which only the session's hosts hold: a join code alone never makes
 * a host. A session registered with directories adds them, its name there (and whether it is listed) and, after
 * the secret, the key its registrations are proven with, so the new host registers as one more host of it and a
 * join link resolves to every host:
 *
 *   ghostboard://mirror/<host:port>[,<host:port>…]#<code>/<mirror secret>
 *   ghostboard://mirror/<host:port>[,…]/<directory>[,<directory>…]/<session>[/listed]#<code>/<secret>/<key hex>
 */
export interface MirrorLink {
  /** Mirror-link addresses of the session's hosts (the new mirror dials the first that answers). */
  readonly members: readonly LinkAddress[];
  readonly code: string;
  readonly secret: string;
  /** Where the session is registered, if it is: the new host registers there under the same name. */
  readonly directory?: MirrorLinkDirectory;
}

export interface MirrorLinkDirectory {
  readonly directories: readonly LinkAddress[];
  readonly session: string;
  readonly listed: boolean;
  /** The registration key, hex (DIRECTORY_KEY_HEX characters). */
  readonly key: string;
}

/** A registration key's length in hex digits (the directory's owner keys are 16 bytes). */
export const DIRECTORY_KEY_HEX = 32;

export type MirrorLinkError =
  | 'too-long'
  | 'not-a-link'
  | 'no-code'
  | 'no-secret'
  | 'bad-address'
  | 'too-many-hosts'
  | 'bad-directory';

export function formatMirrorLink(link: MirrorLink): string {
  const hosts = link.members.map(formatLinkAddress).join(',');
  const d = link.directory;
  const where =
    d === undefined
      ? hosts
      : `${hosts}/${d.directories.map(formatLinkAddress).join(',')}/${encodeURIComponent(d.session)}` +
        (d.listed ? '/listed' : '');
  const secret = `${encodeURIComponent(link.code)}/${encodeURIComponent(link.secret)}`;
  return `${LINK_SCHEME}://mirror/${where}#${secret}${d === undefined ? '' : `/${d.key}`}`;
}

/** Parses a mirror link, or says why it is not one. Hostile input: bounded, never throws. */
export function readMirrorLink(text: string): MirrorLink | { readonly error: MirrorLinkError } {
  const s = text.trim();
  if (s.length > MAX_LINK_LENGTH) return { error: 'too-long' };
  const m = /^ghostboard:\/\/mirror\/([^#]*)#(.*)$/i.exec(s);
  if (m?.[1] === undefined || m[2] === undefined) return { error: 'not-a-link' };
  const fragment = m[2].split('/');
  if (fragment.length < 2 || fragment.length > 3) return { error: 'not-a-link' };
  let code: string;
  let secret: string;
  try {
    code = decodeURIComponent(fragment[0] ?? '').trim();
    secret = decodeURIComponent(fragment[1] ?? '').trim();
  } catch {
    return { error: 'not-a-link' };
  }
  if (code === '') return { error: 'no-code' };
  if (secret === '') return { error: 'no-secret' };
  const [hostPart = '', ...where] = m[1].replace(/\/+$/, '').split('/');
  const members = addressList(hostPart, MAX_LINK_HOSTS, 'too-many-hosts');
  if ('error' in members)
    return { error: members.error === 'bad-address' ? 'bad-address' : 'too-many-hosts' };
  const key = fragment[2];
  if (where.length === 0 && key === undefined) return { members, code, secret };
  const directory = mirrorLinkDirectory(where, key);
  if (directory === undefined) return { error: 'bad-directory' };
  return { members, code, secret, directory };
}

/** The directory part of a mirror link: directories, session, an optional `listed`, and the key; all or none. */
function mirrorLinkDirectory(
  where: readonly string[],
  key: string | undefined,
): MirrorLinkDirectory | undefined {
  const [dirs, name, flag] = where;
  if (dirs === undefined || name === undefined || where.length > 3) return undefined;
  if (flag !== undefined && flag !== 'listed') return undefined;
  if (key === undefined || !new RegExp(`^[0-9a-fA-F]{${DIRECTORY_KEY_HEX}}$`).test(key))
    return undefined;
  const directories = addressList(dirs, MAX_LINK_DIRECTORIES, 'too-many-directories');
  if ('error' in directories) return undefined;
  let session: string;
  try {
    session = decodeURIComponent(name);
  } catch {
    return undefined;
  }
  if (session === '') return undefined;
  return { directories, session, listed: flag === 'listed', key: key.toLowerCase() };
}
