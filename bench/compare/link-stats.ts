// Opt-in (GB_COMPARE_LINKS=1) look inside a Ghostboard run: at the window's edges, asks the host and every user
// for their connections' `stats` and prints, per link direction, packets/s, wire bytes per packet and how many
// presence updates each packet carried, so a starved link's budget can be read off (headers, pointers, chat).
// Knows nothing of the figures or the router.
import type { JsonEvent, JsonProc } from '../router/json-proc';

type Totals = Map<string, { packets: number; bytes: number; updates: number }>;

/** One snapshot of every process's connection totals, keyed `process>peer`. */
export async function linkTotals(procs: readonly JsonProc[]): Promise<Totals> {
  const out: Totals = new Map();
  await Promise.all(
    procs.map(async (p) => {
      const from = p.events.length;
      p.send({ cmd: 'stats' });
      const e = await p.waitFor((ev) => ev.ev === 'stats', 5000, from);
      for (const c of (e.connections ?? []) as JsonEvent[]) {
        const sent = (c.presenceSent ?? {}) as { updates?: number };
        out.set(`${p.label}>${String(c.peer)}`, {
          packets: Number(c.packetsSent),
          bytes: Number(c.bytesSent),
          updates: sent.updates ?? 0,
        });
      }
    }),
  );
  return out;
}

/** One line per connection: packets/s, bytes per packet (payload + notify header + tag), updates per packet. */
export function linkReport(open: Totals, close: Totals, seconds: number): string {
  const lines: string[] = [];
  for (const [k, b] of close) {
    const a = open.get(k);
    if (a === undefined) continue;
    const pk = b.packets - a.packets;
    const r = (x: number): number => Math.round(x * 10) / 10;
    lines.push(
      `${k}: ${r(pk / seconds)} packets/s, ${r((b.bytes - a.bytes) / Math.max(1, pk))} B/packet, ` +
        `${r((b.updates - a.updates) / Math.max(1, pk))} presence updates/packet`,
    );
  }
  return lines.join('\n');
}
