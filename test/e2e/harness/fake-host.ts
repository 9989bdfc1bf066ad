// Test-only entry point: the real web host launcher in front of a tiny fake core, so the harness (host
// start, token, page load, WebSocket, events) is checked without the real core. Never part of the product.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ApiCommand, ApiEvent, ApiReply } from '../../../shared/api';
import type { AppCore } from '../../../src-main/app/core-api';
import { launchWebHost } from '../../../src-main/web/launch';

function fakeCore(): AppCore {
  const listeners = new Set<(e: ApiEvent) => void>();
  return {
    invoke(command: ApiCommand): Promise<ApiReply> {
      // Answer 'sync' with one event, so a client sees both a reply and an event.
      if (command.cmd === 'sync')
        for (const l of listeners) l({ type: 'status', status: { phase: 'idle' } });
      return Promise.resolve({ ok: true });
    },
    openLink: () => false,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => Promise.resolve(),
  };
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'no-open': { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    root: { type: 'string' },
  },
});
await launchWebHost({
  core: fakeCore(),
  rootDir: resolve(values.root ?? 'test/e2e/fixtures/smoke'),
  port: Number(values.port),
  open: false,
});
