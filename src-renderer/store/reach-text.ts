// What the UI says about reaching people: a pasted invite link, the join stages, the path in use and how a
// hosted session is listed. Pure; knows nothing of React or the bridge.
import type { PathKind, ReachStatus, SessionStatus } from '../../shared/api';
import { type JoinLink, type LinkAddress, parseJoinLink } from '../../shared/join-link';

/** A link's address part without the '#code' (what may be remembered), or undefined if `text` is no link. */
export function linkWithoutCode(text: string): string | undefined {
  const s = text.trim();
  if (!/^ghostboard:\/\//i.test(s)) return undefined;
  const hash = s.indexOf('#');
  const base = hash < 0 ? s : s.slice(0, hash);
  // A well-formed link once any code is put back: the placeholder only checks the rest.
  return parseJoinLink(`${base}#x`) === undefined ? undefined : base;
}

export interface RecognizedLink {
  readonly link: JoinLink;
  /** The code the link carries; '' for a link remembered without it. */
  readonly code: string;
}

/** An invite link, with or without its code; undefined for anything else (an address, a broken link). */
export function recognizeLink(text: string): RecognizedLink | undefined {
  const full = parseJoinLink(text);
  if (full !== undefined) return { link: full, code: full.code };
  const base = linkWithoutCode(text);
  if (base === undefined) return undefined;
  const link = parseJoinLink(`${base}#x`);
  return link === undefined ? undefined : { link: { ...link, code: '' }, code: '' };
}

function addressText(a: LinkAddress): string {
  return a.address.includes(':') ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
}

/** "Invite link — session s-4f2k via 1 directory", said under the address field once a link is pasted. */
export function linkSummary(r: RecognizedLink): string {
  const tail = r.code === '' ? ' (enter the code)' : '';
  if (r.link.kind === 'direct')
    return `Invite link — straight to ${addressText(r.link.host)}${tail}`;
  const n = r.link.directories.length;
  const via = `${n} ${n === 1 ? 'directory' : 'directories'}`;
  return `Invite link — session ${r.link.session} via ${via}${tail}`;
}

/**
 * What the join command's address should be: a link remembered without its code gets the typed code back
 * (the core reads a link only with one); anything else goes as typed.
 */
export function joinAddress(address: string, code: string): string {
  const r = recognizeLink(address);
  if (r === undefined || r.code !== '' || code.trim() === '') return address.trim();
  return `${address.trim()}#${encodeURIComponent(code.trim())}`;
}

/** A short name for what the user joins: the session a link names, or the address. */
export function joinTarget(address: string): string {
  const r = recognizeLink(address);
  if (r === undefined) return address.trim();
  return r.link.kind === 'direct' ? addressText(r.link.host) : r.link.session;
}

export type JoinStage = 'looking-up' | 'connecting' | 'relaying';

/** The join's current stage, or null when not joining. */
export function joinStage(st: SessionStatus): JoinStage | null {
  if (st.phase !== 'connecting') return null;
  return st.stage ?? 'connecting';
}

export function stageText(st: SessionStatus): string | null {
  switch (joinStage(st)) {
    case 'looking-up':
      return 'Looking up the session on the directory…';
    case 'connecting':
      return st.phase === 'connecting' ? `Connecting to ${st.address}…` : 'Connecting…';
    case 'relaying':
      return 'No direct path has answered yet: trying through the relay as well…';
    case null:
      return null;
  }
}

const PATH_LABELS: Record<PathKind, string> = {
  direct: 'Direct',
  lan: 'Same network',
  relayed: 'Relayed',
};

const PATH_TIPS: Record<PathKind, string> = {
  direct: 'Straight across the internet, through both routers',
  lan: 'Within this network, not through the internet',
  relayed: 'Through a relay server: works everywhere, adds some delay',
};

/** "Direct" / "Same network" / "Relayed". */
export function pathLabel(p: PathKind): string {
  return PATH_LABELS[p];
}

export function pathTip(p: PathKind): string {
  return PATH_TIPS[p];
}

/** The short badge of the bandwidth panel: "Direct" / "LAN" / "Relayed". */
export function pathBadge(p: PathKind): string {
  return p === 'lan' ? 'LAN' : PATH_LABELS[p];
}

/** Whether the directories list a hosted session now, e.g. "Listed on 1 of 2 directories". */
export function listingText(r: ReachStatus): string {
  const of = `${r.directories} ${r.directories === 1 ? 'directory' : 'directories'}`;
  if (r.listedOn === 0) return `Not listed yet: registering with ${of}…`;
  return `Listed on ${r.listedOn} of ${of}`;
}

/** Who can find a session hosted through directories. */
export function visibilityText(r: ReachStatus): string {
  return r.listedAs === null
    ? 'Unlisted: only people with the link can find it'
    : `Listed publicly as “${r.listedAs}”`;
}
