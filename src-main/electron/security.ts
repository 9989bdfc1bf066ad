// Locks down the renderer's session and web contents: CSP, no permissions, no navigation, no new windows, no
// webviews. Knows nothing of the core or the API.
import type { Session, WebContents } from 'electron';

export const ELECTRON_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; " +
  "object-src 'none'; frame-ancestors 'none'";

/** CSP on every response (the app:// handler sets it too), and every permission denied. */
export function hardenSession(ses: Session): void {
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [ELECTRON_CSP],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
  });
  ses.setPermissionRequestHandler((_wc, _permission, callback) => {
    callback(false);
  });
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
}

/** For every web contents the app ever creates: it stays on the page it was given. */
export function hardenWebContents(contents: WebContents, log: (line: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    log(`blocked navigation to ${url}`);
    event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    log(`blocked redirect to ${url}`);
    event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    log(`blocked a new window for ${url}`);
    return { action: 'deny' };
  });
}
