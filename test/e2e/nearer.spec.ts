// The move to a nearer host, in Chromium against a web host: Bob joins by a link naming two hosts of one session
// (headless hosts with one code). Ana, on loopback, is stopped (SIGSTOP) while he probes, so he joins Bea, 30 ms
// away each way behind an impairment proxy. Ana resumes; Bob's second look finds her far nearer, and he moves:
// the top bar says "Moving to a nearer host…" and the banner says so (not that Bea stopped answering), the board
// stays on screen, and he ends up on Ana's board, editable, the bandwidth panel naming her as the nearest host and
// listing both hosts with their round trips.
import { expect, test } from '@playwright/test';
import { NO_IMPAIRMENT } from '../../src-main/net/impairment';
import { ImpairmentProxy } from '../impair/proxy';
import type { RunningCliHost } from './harness/cli-host';
import { startCliHost } from './harness/cli-host';
import { objectsOf } from './harness/board-reading';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';

const hosts: RunningHost[] = [];
const cliHosts: RunningCliHost[] = [];
const proxies: ImpairmentProxy[] = [];

test.afterEach(async () => {
  await Promise.all([
    ...hosts.splice(0).map((h) => h.stop()),
    ...cliHosts.splice(0).map((h) => h.stop()),
    ...proxies.splice(0).map((p) => p.close()),
  ]);
});

const CODE = 'nearer-maple-drum-4190-cobalt';

/**
 * Records every text the top bar's status and the host-away banner show from now on (the move is brief): their
 * words, each once, the live round trip left out. Read back with SEEN.
 */
const RECORD_STATUS = `(() => {
  const seen = [];
  window.statusSeen = seen;
  const look = () => {
    for (const el of document.querySelectorAll('[role="status"], [data-testid="host-away"]')) {
      const words = (el.textContent || '').trim().replace(/ · \\d+ ms/, '');
      if (words !== '' && !seen.includes(words) && seen.length < 100) seen.push(words);
    }
  };
  look();
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;
const SEEN = 'window.statusSeen';

test('a joiner moves to a host of the session that answers clearly sooner, and is told so', async ({
  browser,
}) => {
  const ana = await startCliHost({ name: 'Ana', code: CODE });
  cliHosts.push(ana);
  const bea = await startCliHost({ name: 'Bea', code: CODE });
  cliHosts.push(bea);
  const far = await ImpairmentProxy.start({
    listen: { address: '127.0.0.1', port: 0 },
    target: { address: '127.0.0.1', port: bea.port },
    upstream: { ...NO_IMPAIRMENT, delayMs: 30 },
    downstream: { ...NO_IMPAIRMENT, delayMs: 30 },
    seed: 7,
  });
  proxies.push(far);
  ana.send({ cmd: 'create', kind: 'rect', x: 100, y: 100, w: 160, h: 90 });
  bea.send({ cmd: 'create', kind: 'ellipse', x: 300, y: 100, w: 80, h: 80 });
  bea.send({ cmd: 'create', kind: 'ellipse', x: 500, y: 100, w: 80, h: 80 });
  const web = await startWebHost();
  hosts.push(web);
  const context = await browser.newContext();
  try {
    const b = await context.newPage();
    await b.goto(web.url);

    await test.step('Ana is stopped while Bob probes: he joins Bea, the only host to answer', async () => {
      ana.pause(true);
      await b.getByTestId('join-tab').click();
      await b.getByTestId('join-name').fill('Bob');
      await b
        .getByTestId('join-address')
        .fill(`ghostboard://direct/127.0.0.1:${ana.port},127.0.0.1:${far.address.port}#${CODE}`);
      await b.getByTestId('join-button').click();
      await expect(b.getByRole('status').filter({ hasText: 'Connected to Bea' })).toBeVisible({
        timeout: 20_000,
      });
      await expect(objectsOf(b)).toHaveCount(2);
      await b.evaluate(RECORD_STATUS);
    });

    await test.step('Ana is back: Bob moves to her, told it is a move, and shows her board', async () => {
      ana.pause(false);
      await expect(b.getByRole('status').filter({ hasText: 'Connected to Ana' })).toBeVisible({
        timeout: 20_000,
      });
      const seen = await b.evaluate<string[]>(SEEN);
      const said = (words: string): boolean => seen.some((t) => t.includes(words));
      expect(said('Moving to a nearer host…'), seen.join('\n')).toBe(true);
      expect(
        said('Moving to a host of this session that answers sooner than Bea'),
        seen.join('\n'),
      ).toBe(true);
      expect(said('stopped answering'), seen.join('\n')).toBe(false);
      await expect(b.getByTestId('host-away')).toBeHidden();
      await expect(b.getByTestId('tool-rect')).toBeEnabled();
      await expect(objectsOf(b)).toHaveCount(1);
      await b.getByTestId('bandwidth-toggle').click();
      await expect(b.getByTestId('bandwidth-summary')).toContainText(
        'Connected to the nearest host',
      );
      await b.getByTestId('bandwidth-details').click();
      const rows = b.getByTestId('probed-host');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(0)).toContainText(`127.0.0.1:${ana.port}`);
      await expect(rows.nth(0)).toHaveAttribute('data-chosen', 'true');
      await expect(rows.nth(1)).toContainText(`127.0.0.1:${far.address.port}`);
      await expect(rows.nth(1)).toHaveAttribute('data-chosen', 'false');
    });
  } finally {
    await context.close();
  }
});
