// Maps a request path to a file inside one root directory (never outside it) and names its MIME type.
// Shared by the web host and the Electron app:// protocol; knows nothing of HTTP servers, sockets or Electron.
import { realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The Content-Type for a file name; unknown extensions are opaque bytes (never sniffed: nosniff is set). */
export function mimeType(fileName: string): string {
  return MIME[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The URL path's segments, decoded, or undefined if the path could name something outside the root:
 * `..` or `.` segments, backslashes, NUL, drive letters or bad percent-encoding are all refused.
 */
export function safeSegments(urlPath: string): string[] | undefined {
  if (!urlPath.startsWith('/')) return undefined;
  const out: string[] = [];
  for (const raw of urlPath.slice(1).split('/')) {
    if (raw === '') continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (seg === '.' || seg === '..' || /[\\/\0:]/.test(seg)) return undefined;
    out.push(seg);
  }
  return out;
}

export interface StaticFile {
  readonly path: string;
  readonly size: number;
  readonly contentType: string;
}

/**
 * The file a URL path names under `root` (a directory path gives its index.html), or undefined when it
 * doesn't exist or resolves, symlinks followed, outside the root.
 */
export async function resolveStaticFile(
  root: string,
  urlPath: string,
): Promise<StaticFile | undefined> {
  const segments = safeSegments(urlPath);
  if (segments === undefined) return undefined;
  try {
    const realRoot = await realpath(resolve(root));
    let candidate = join(realRoot, ...segments);
    if ((await stat(candidate)).isDirectory()) candidate = join(candidate, 'index.html');
    const real = await realpath(candidate);
    if (!real.startsWith(realRoot + sep)) return undefined;
    const info = await stat(real);
    if (!info.isFile()) return undefined;
    return { path: real, size: info.size, contentType: mimeType(real) };
  } catch {
    return undefined;
  }
}
