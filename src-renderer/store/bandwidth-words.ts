// The bandwidth panel in plain language: what is being sent, and whether the links keep up. Pure over a stats
// snapshot; the engineering figures (chart, per-connection cards) stay one click away in the panel.
import type {
  ConnectionStats,
  NearestHosts,
  NetworkConditions,
  ProbedHost,
  StatsSnapshot,
} from '../../shared/api';

export type LinkTone = 'idle' | 'good' | 'warn' | 'bad';

export interface BandwidthWords {
  readonly tone: LinkTone;
  readonly headline: string;
  readonly lines: readonly string[];
}

/** What each kind of traffic is, to a person (the stack's names are the engineering view's). */
const PLAIN_KIND: Readonly<Record<string, string>> = {
  presence: 'pointers and live drags',
  board: 'the board',
  events: 'edits and chat',
  blobs: 'images',
  'headers + crypto': 'packet overhead',
  'stream overhead': 'packet overhead',
};

/** Past these a link is called slow or lossy (warn) or struggling (bad). */
const LOSS_WARN_PCT = 2;
const LOSS_BAD_PCT = 10;
const RTT_WARN_MS = 200;
const RTT_BAD_MS = 400;
/** Sending at this share of what the adaptive rate allows means the link, not the app, sets the pace. */
const SATURATED = 0.9;

/** The impairment in words ('10 % loss · +200 ms · 64 kbit/s cap'); null when there is none. */
export function impairmentText(c: NetworkConditions): string | null {
  const parts = [
    c.lossPct > 0 ? `${c.lossPct} % loss` : '',
    c.delayMs > 0 ? `+${c.delayMs} ms` : '',
    c.kbps > 0 ? `${c.kbps} kbit/s cap` : '',
  ].filter((x) => x !== '');
  return parts.length === 0 ? null : parts.join(' · ');
}

export function rateText(kbps: number): string {
  if (kbps >= 1000) return `${(kbps / 1000).toFixed(1)} Mbit/s`;
  return `${kbps >= 10 ? Math.round(kbps) : kbps.toFixed(1)} kbit/s`;
}

/** The traffic's make-up, biggest first, in percent of everything in and out. */
export function trafficMix(peers: readonly ConnectionStats[]): { what: string; pct: number }[] {
  const by = new Map<string, number>();
  let total = 0;
  for (const p of peers)
    for (const k of p.byKind) {
      const what = PLAIN_KIND[k.kind] ?? k.kind;
      const v = k.kbpsIn + k.kbpsOut;
      by.set(what, (by.get(what) ?? 0) + v);
      total += v;
    }
  if (total <= 0) return [];
  return [...by]
    .map(([what, v]) => ({ what, pct: Math.round((v / total) * 100) }))
    .filter((x) => x.pct > 0)
    .sort((a, b) => b.pct - a.pct);
}

function saturated(p: ConnectionStats): boolean {
  return p.allowedKbps !== null && p.allowedKbps > 0 && p.kbpsOut >= p.allowedKbps * SATURATED;
}

function toneOf(p: ConnectionStats): LinkTone {
  if (p.lossPct >= LOSS_BAD_PCT || p.rttMs >= RTT_BAD_MS || saturated(p)) return 'bad';
  if (p.lossPct >= LOSS_WARN_PCT || p.rttMs >= RTT_WARN_MS) return 'warn';
  return 'good';
}

const RANK: Readonly<Record<LinkTone, number>> = { idle: 0, good: 1, warn: 2, bad: 3 };

/** What a person needs to know about one link that is not fine. */
function troubles(p: ConnectionStats): string[] {
  const out: string[] = [];
  if (p.lossPct >= LOSS_WARN_PCT)
    out.push(
      `The network dropped ${Math.round(p.lossPct)} % of the packets to ${p.name}; edits and chat in them were sent again, pointers simply moved on.`,
    );
  if (p.rttMs >= RTT_WARN_MS)
    out.push(
      `${p.name} is far away: a round trip takes ${Math.round(p.rttMs)} ms, so their changes show about ${Math.round(p.rttMs / 2)} ms late.`,
    );
  if (saturated(p))
    out.push(
      `The link to ${p.name} is full at about ${rateText(p.allowedKbps ?? p.kbpsOut)}: edits and chat go first, pointers update less often.`,
    );
  return out;
}

/** One probed host's answer, as the engineering view lists it. */
export function probedHostText(h: ProbedHost): string {
  if (h.rttMs === null) return 'no answer';
  const rtt = `${Math.round(h.rttMs)} ms`;
  return h.incompatible ? `${rtt} · another version` : rtt;
}

/** The session has several hosts and the nearest was joined: "Connected to the nearest host (12 ms)." */
export function nearestText(n: NearestHosts | undefined): string | null {
  if (n === undefined || n.hosts.length < 2 || n.chosen === null) return null;
  const rtt = n.hosts[n.chosen]?.rttMs;
  if (rtt === undefined || rtt === null) return null;
  return `Connected to the nearest host (${Math.round(rtt)} ms).`;
}

export function bandwidthWords(stats: StatsSnapshot | null): BandwidthWords {
  if (stats === null) return { tone: 'idle', headline: 'Measuring…', lines: [] };
  const lines: string[] = [];
  const nearest = nearestText(stats.nearest);
  if (nearest !== null) lines.push(nearest);
  const impaired = impairmentText(stats.conditions);
  if (stats.peers.length === 0) {
    if (impaired !== null) lines.push(`Simulated network conditions are on: ${impaired}.`);
    return { tone: 'idle', headline: 'Nobody connected yet', lines };
  }
  lines.push(
    `Sending ${rateText(stats.totalKbpsOut)} and receiving ${rateText(stats.totalKbpsIn)}, to and from ${
      stats.peers.length === 1
        ? (stats.peers[0]?.name ?? '1 person')
        : `${stats.peers.length} people`
    }.`,
  );
  const mix = trafficMix(stats.peers).slice(0, 3);
  if (mix.length > 0)
    lines.push(
      `Mostly ${mix[0]?.what} (${mix[0]?.pct} %)${mix
        .slice(1)
        .map((m) => `, then ${m.what} (${m.pct} %)`)
        .join('')}.`,
    );
  let tone: LinkTone = 'good';
  for (const p of stats.peers) {
    const t = toneOf(p);
    if (RANK[t] > RANK[tone]) tone = t;
    lines.push(...troubles(p));
  }
  if (impaired !== null)
    lines.push(`Simulated network conditions are on (${impaired}): some of this is on purpose.`);
  const headline =
    tone === 'good'
      ? 'The connection keeps up'
      : tone === 'warn'
        ? 'The connection keeps up, with delays'
        : 'The connection is struggling';
  return { tone, headline, lines };
}
