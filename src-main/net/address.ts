// Peer addresses as the transport names them, and the string keys tables use. Knows nothing of sockets.

export interface PeerAddress {
  readonly address: string;
  readonly port: number;
}

/** "1.2.3.4:5" or "[::1]:5": the key of a connection, and what cookies are bound to. */
export function addressKey(a: PeerAddress): string {
  return a.address.includes(':') ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
}

/** Parses "host:port" or "[v6]:port"; undefined if it isn't one. */
export function parseAddress(s: string): PeerAddress | undefined {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(s) ?? /^([^:[\]]+):(\d{1,5})$/.exec(s);
  if (!m?.[1] || !m[2]) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { address: m[1], port };
}
