// What the start screen shows of the sessions found on this network. Pure; knows nothing of React.
import type { LanSessionInfo } from '../../shared/api';

/** The join form's "host:port" for a found session (IPv6 in brackets), or '' if it named no address. */
export function lanJoinAddress(s: LanSessionInfo): string {
  const a = s.addresses[0];
  if (a === undefined) return '';
  return a.includes(':') ? `[${a}]:${s.port}` : `${a}:${s.port}`;
}

/** Joinable sessions first, then by name; at most `max` (the core already keeps at most 64). */
export function lanShown(list: readonly LanSessionInfo[], max = 8): LanSessionInfo[] {
  return list
    .filter((s) => s.addresses.length > 0)
    .sort((a, b) =>
      a.compatible === b.compatible ? a.name.localeCompare(b.name) : a.compatible ? -1 : 1,
    )
    .slice(0, max);
}
