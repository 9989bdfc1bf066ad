// How the page proves the user who launched the web host opened it: the launch token travels in the page URL's
// fragment (browsers never send a fragment to a server, so no log or Referer holds it) and reaches the API as a
// WebSocket subprotocol (so it is in no URL at all). Shared by the server and the page; knows nothing of sockets.

/** The subprotocol the server selects; the token rides beside it and is never echoed back. */
export const WS_PROTOCOL = 'ghostboard.v1';
const TOKEN_PREFIX = 'token.';
/** Launch tokens are base64url (43 characters for 32 bytes), which is also what a subprotocol may hold. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/** The subprotocols a page offers when it opens the API socket. */
export function tokenProtocols(token: string): string[] {
  return TOKEN_SHAPE.test(token) ? [WS_PROTOCOL, TOKEN_PREFIX + token] : [WS_PROTOCOL];
}

/** The token offered in a Sec-WebSocket-Protocol header, if exactly one well-formed one was. */
export function tokenFromProtocols(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 1024) return undefined;
  const offered = header.split(',').map((p) => p.trim());
  if (!offered.includes(WS_PROTOCOL)) return undefined;
  const tokens = offered.filter((p) => p.startsWith(TOKEN_PREFIX));
  const token = tokens.length === 1 ? tokens[0]?.slice(TOKEN_PREFIX.length) : undefined;
  return token !== undefined && TOKEN_SHAPE.test(token) ? token : undefined;
}

/** The address to open: the token in the fragment. */
export function pageUrl(origin: string, token: string): string {
  return `${origin}/#token=${token}`;
}

/** The token in a location's fragment (`#token=…`), if any. */
export function tokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? undefined;
  return token !== undefined && TOKEN_SHAPE.test(token) ? token : undefined;
}
