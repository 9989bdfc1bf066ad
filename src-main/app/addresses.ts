// The addresses other machines can reach this host at, for the "share" panel. Knows nothing of sessions.
import { networkInterfaces } from 'node:os';

/** Non-internal IPv4 then IPv6 addresses, and loopback last (for a second instance on this machine). */
export function localAddresses(): string[] {
  const v4: string[] = [];
  const v6: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') v4.push(a.address);
      else if (!a.address.startsWith('fe80')) v6.push(a.address);
    }
  }
  return [...v4, ...v6, '127.0.0.1'];
}
