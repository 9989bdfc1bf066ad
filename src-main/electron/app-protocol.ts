// Serves the built renderer as app://ghostboard/… (so the page has a real origin and absolute asset paths
// work), with the CSP on every response. Knows nothing of the core or IPC.
import { readFile } from 'node:fs/promises';
import type { Session } from 'electron';
import { protocol } from 'electron';
import { resolveStaticFile } from '../app/static-files';
import { APP_HOST, APP_SCHEME } from './ipc';
import { ELECTRON_CSP } from './security';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
    },
  ]);
}

function notFound(): Response {
  return new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
}

export function serveAppProtocol(ses: Session, rootDir: string): void {
  ses.protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return notFound();
    const file = await resolveStaticFile(rootDir, url.pathname);
    if (file === undefined) return notFound();
    const body = await readFile(file.path);
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': file.contentType,
        'Content-Security-Policy': ELECTRON_CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}
