// `ghostboard discover`: browses the LAN for a few seconds and emits one JSON event per session found, then a
// count. Knows nothing of the command line's parsing (main.ts) or of sessions.
import { browse } from '../lan/browse';
import type { LanSession } from '../lan/table';

export async function discover(
  seconds: number,
  emit: (e: Record<string, unknown>) => void,
): Promise<void> {
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(`seconds must be a number >= 0, got ${seconds}`);
  const found = new Set<string>();
  const report = (list: readonly LanSession[]): void => {
    for (const s of list) {
      if (found.has(s.key)) continue;
      found.add(s.key);
      emit({
        ev: 'session',
        name: s.name,
        address: s.addresses[0] ?? '',
        addresses: s.addresses,
        port: s.port,
        version: s.version,
        id: s.id,
        users: s.users,
      });
    }
  };
  const handle = browse(report, {
    onError: (message) => emit({ ev: 'error', message: `LAN discovery: ${message}` }),
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    report(handle.list());
  } finally {
    await handle.stop();
  }
  emit({ ev: 'done', count: found.size });
}
