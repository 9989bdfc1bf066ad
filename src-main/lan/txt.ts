// The DNS-SD TXT record of an advertised session (RFC 6763 §6): encoder and validating decoder. Pure; it
// carries a display name, the protocol version and a random session id, never the join code.

/** DNS-SD service type `_ghostboard._udp`. */
export const SERVICE_NAME = 'ghostboard';
export const SERVICE_TYPE = `_${SERVICE_NAME}._udp.local`;
/** Of the TXT record's layout (its `txtvers` key, RFC 6763 §6.7). */
export const TXT_VERSION = 1;
export const MAX_NAME_CHARS = 64;
/** A TXT string holds at most 255 bytes, key and `=` included: the name stays well under that. */
const MAX_NAME_BYTES = 200;
/** Our record has five strings; a few unknown keys from a later version are fine, hundreds are not. */
const MAX_STRINGS = 16;
const MAX_USERS = 100_000;
const MAX_PROTOCOL = 65_535;
const ID = /^[0-9a-f]{16}$/;
const UINT = /^\d{1,6}$/;
const FALLBACK_NAME = 'Ghostboard';

/** What a session tells the network about itself. */
export interface Advert {
  /** Host's display name or board name, at most MAX_NAME_CHARS after boundName. */
  readonly name: string;
  /** The wire protocol version (shared/version.ts), so an incompatible session can be told apart. */
  readonly version: number;
  /** 16 lowercase hex digits, random per hosted session; not derived from anything secret. */
  readonly id: string;
  /** Participants now, when the host says. */
  readonly users: number | null;
}

export type TxtError =
  | 'too-many-strings'
  | 'not-bytes'
  | 'not-utf8'
  | 'wrong-txtvers'
  | 'bad-version'
  | 'bad-id'
  | 'bad-users';

export type TxtResult =
  { readonly ok: true; readonly advert: Advert } | { readonly ok: false; readonly error: TxtError };

export function isSessionId(s: string): boolean {
  return ID.test(s);
}

/**
 * A name safe to show and to send: control characters become spaces, runs of spaces collapse, and it is cut
 * (on a code point) to MAX_NAME_CHARS and MAX_NAME_BYTES of UTF-8. Empty becomes "Ghostboard".
 */
export function boundName(raw: string): string {
  const clean = raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ');
  let out = '';
  let bytes = 0;
  let chars = 0;
  for (const ch of clean.trim()) {
    const b = utf8Length(ch);
    if (chars + 1 > MAX_NAME_CHARS || bytes + b > MAX_NAME_BYTES) break;
    out += ch;
    bytes += b;
    chars++;
  }
  out = out.trim();
  return out === '' ? FALLBACK_NAME : out;
}

function utf8Length(ch: string): number {
  const c = ch.codePointAt(0) ?? 0;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/** The TXT keys and values, as bonjour-service's `txt` option takes them. */
export function encodeTxt(a: Advert): Record<string, string> {
  if (!isSessionId(a.id)) throw new Error(`session id must be 16 hex digits, got ${a.id}`);
  if (!Number.isInteger(a.version) || a.version < 0 || a.version > MAX_PROTOCOL)
    throw new Error(`protocol version out of range: ${a.version}`);
  const txt: Record<string, string> = {
    txtvers: String(TXT_VERSION),
    v: String(a.version),
    id: a.id,
    n: boundName(a.name),
  };
  if (a.users !== null) txt.u = String(Math.max(0, Math.min(MAX_USERS, Math.floor(a.users))));
  return txt;
}

/**
 * Reads a TXT record's strings (as dns-packet decodes them: one byte array each). Keys are case-insensitive
 * and only a key's first occurrence counts (RFC 6763 §6.4); unknown keys are ignored; a missing or malformed
 * required key makes the whole record malformed.
 */
export function decodeTxt(strings: readonly unknown[]): TxtResult {
  if (strings.length > MAX_STRINGS) return { ok: false, error: 'too-many-strings' };
  const pairs = new Map<string, string>();
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const s of strings) {
    if (!(s instanceof Uint8Array)) return { ok: false, error: 'not-bytes' };
    let text: string;
    try {
      text = utf8.decode(s);
    } catch {
      return { ok: false, error: 'not-utf8' };
    }
    const eq = text.indexOf('=');
    const key = (eq < 0 ? text : text.slice(0, eq)).toLowerCase();
    if (key !== '' && !pairs.has(key)) pairs.set(key, eq < 0 ? '' : text.slice(eq + 1));
  }
  if (pairs.get('txtvers') !== String(TXT_VERSION)) return { ok: false, error: 'wrong-txtvers' };
  const version = readUint(pairs.get('v'), MAX_PROTOCOL);
  if (version === undefined) return { ok: false, error: 'bad-version' };
  const id = pairs.get('id') ?? '';
  if (!isSessionId(id)) return { ok: false, error: 'bad-id' };
  const u = pairs.get('u');
  const users = u === undefined ? null : readUint(u, MAX_USERS);
  if (users === undefined) return { ok: false, error: 'bad-users' };
  return { ok: true, advert: { name: boundName(pairs.get('n') ?? ''), version, id, users } };
}

function readUint(s: string | undefined, max: number): number | undefined {
  if (s === undefined || !UINT.test(s)) return undefined;
  const n = Number(s);
  return n <= max ? n : undefined;
}
