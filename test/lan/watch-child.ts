// Test child: browses the LAN and reports every change of the list, plus the raw TXT strings of every
// _ghostboard._udp record it hears (so a test can check what really went on the wire). JSON lines on stdout.
import makeMdns from 'multicast-dns';
import { browse } from '../../src-main/lan/browse';

/** CLOCK_MONOTONIC in ms: one clock for every process on the machine (performance.now() is per process). */
const monotonicMs = (): number => Math.round(Number(process.hrtime.bigint()) / 1e6);
const say = (e: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ ...e, t: monotonicMs() })}\n`);
};
const handle = browse((list) => say({ ev: 'list', sessions: list }), {
  onError: (message) => say({ ev: 'error', message }),
});
const sniff = makeMdns({ bind: '0.0.0.0' });
sniff.on('error', (e: Error) => say({ ev: 'error', message: e.message }));
sniff.on('warning', () => undefined);
sniff.on('response', (packet: { answers?: unknown; additionals?: unknown }) => {
  const all = [packet.answers, packet.additionals].flatMap((l): unknown[] =>
    Array.isArray(l) ? (l as unknown[]) : [],
  );
  for (const rr of all as { name?: unknown; type?: unknown; data?: unknown }[]) {
    if (rr.type !== 'TXT' || typeof rr.name !== 'string') continue;
    if (!rr.name.toLowerCase().endsWith('._ghostboard._udp.local')) continue;
    const list: unknown[] = Array.isArray(rr.data) ? rr.data : [rr.data];
    say({ ev: 'txt', name: rr.name, strings: list.map((b) => String(b)) });
  }
});
say({ ev: 'ready' });
process.stdin.resume();
process.stdin.on('end', () => {
  void handle.stop().then(() => {
    sniff.destroy();
    say({ ev: 'done' });
  });
});
