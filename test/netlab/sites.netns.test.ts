// The mirror benchmark's network (bench/router/sites.ts): three sites of a mirror and its users, joined by the
// userspace router's core. Checks the routing, not the timing: a user reaches every site's mirror; traffic to its
// own site's mirror never crosses the core, traffic to another site's crosses exactly that pair of sites' core
// links (the router's counters say which). The router, asked to run ahead of the processes it carries, does so,
// and times every datagram it releases. Needs root; skips with one line otherwise.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonProc } from '../../bench/router/json-proc';
import type { SitesStats } from '../../bench/router/sites';
import { Sites, mirrorSites, routerLateness } from '../../bench/router/sites';
import { canMakeNamespaces } from './lab';

const support = canMakeNamespaces();
const skip = support.ok ? undefined : support.reason;
if (skip !== undefined) console.warn(`sites netns test skipped: ${skip}`);

const PROBE = fileURLToPath(new URL('./udp-probe.ts', import.meta.url));
const PORT = 7500;

/** Datagrams each ordered pair of sites' core link carried. */
function coreCounts(s: SitesStats): Record<string, number> {
  return Object.fromEntries(s.core.map((c) => [`${c.from}>${c.to}`, c.counts.packets]));
}

function minus(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v - (b[k] ?? 0)]));
}

describe.skipIf(skip !== undefined)('three sites joined by the router core', () => {
  let sites: Sites;
  const servers: JsonProc[] = [];

  beforeAll(async () => {
    const { nodes, core } = mirrorSites({ accessMs: 5, coreMs: 30, perSite: ['users'] });
    sites = await Sites.open({ nodes, core, seed: 1, maxSeconds: 120, realtime: true });
    for (const site of ['a', 'b', 'c']) {
      const p = sites.run(`${site}-mirror`, `${site}-mirror`, [
        '--import',
        'tsx',
        PROBE,
        ...['serve', '--port', String(PORT), '--ms', '60000'],
      ]);
      servers.push(p);
      await p.waitFor((e) => e.ev === 'listening', 20_000);
    }
  }, 90_000);

  afterAll(async () => {
    await sites.close();
  }, 30_000);

  async function ask(from: string, to: readonly string[]): Promise<number> {
    const targets = to.flatMap((n) => ['--to', `${sites.node(n).addr}:${PORT}`]);
    const p = sites.run(from, `ask ${from}`, [
      '--import',
      'tsx',
      PROBE,
      ...['ask', ...targets, '--tries', '10', '--interval', '300'],
    ]);
    const done = await p.waitFor((e) => e.ev === 'done', 30_000);
    return done.answered as number;
  }

  it('keeps a site’s own traffic off the core', async () => {
    const before = coreCounts(await sites.snapshot());
    expect(await ask('a-users', ['a-mirror'])).toBe(1);
    const crossed = minus(coreCounts(await sites.snapshot()), before);
    expect(
      Object.values(crossed).every((n) => n === 0),
      JSON.stringify(crossed),
    ).toBe(true);
  }, 60_000);

  it('carries traffic to another site over that pair of sites’ core links only', async () => {
    const before = coreCounts(await sites.snapshot());
    expect(await ask('a-users', ['b-mirror', 'c-mirror'])).toBe(2);
    const crossed = minus(coreCounts(await sites.snapshot()), before);
    for (const k of ['a>b', 'b>a', 'a>c', 'c>a']) expect(crossed[k], k).toBeGreaterThan(0);
    expect(crossed['b>c'], 'b>c').toBe(0);
    expect(crossed['c>b'], 'c>b').toBe(0);
  }, 60_000);

  it('lets mirrors of different sites reach each other', async () => {
    expect(await ask('b-mirror', ['a-mirror', 'c-mirror'])).toBe(2);
  }, 60_000);

  it('runs ahead of the processes it carries, and says how late it released each datagram', async () => {
    // As root (this test's condition) it gets real-time scheduling.
    expect(sites.routerPriority).toBe('fifo');
    const delivered = (s: SitesStats): number => s.nodes.reduce((n, x) => n + x.down.delivered, 0);
    const before = await sites.snapshot();
    expect(await ask('c-users', ['a-mirror', 'b-mirror', 'c-mirror'])).toBe(3);
    const after = await sites.snapshot();
    const late = routerLateness(before, after);
    // Every datagram released is counted once, when it reaches the node it was for.
    expect(late.datagrams).toBe(delivered(after) - delivered(before));
    expect(late.datagrams).toBeGreaterThan(0);
    expect(late.p50).not.toBeNull();
  }, 60_000);
});
