// The same two-user scenario in the desktop app: two Electron instances with separate profiles, talking over
// real UDP on loopback. Skipped (and says why) where no Electron binary exists, unless GB_REQUIRE_ELECTRON=1
// (CI's desktop workflow), where the same reason fails the test.
import { expect, test } from '@playwright/test';
import type { ElectronUser } from './harness/electron';
import {
  electronBinary,
  electronMissing,
  electronRequired,
  launchElectronUser,
} from './harness/electron';
import { runScenario } from './harness/scenario';

const missing = electronMissing();

test('two users in Electron: host, join, pointer, drag, chat, bandwidth', async () => {
  if (missing !== undefined) {
    // CI's desktop workflow must prove the app: there the reason fails the run instead of skipping it.
    if (electronRequired()) throw new Error(`electron.spec: GB_REQUIRE_ELECTRON=1 but ${missing}`);
    // The list reporter doesn't print skip reasons; say it where the run's output shows it.
    process.stdout.write(`electron.spec: skipped: ${missing}\n`);
    test.skip(true, `skipped: ${missing}`);
  }
  const binary = electronBinary() ?? '';
  const users: ElectronUser[] = [];
  try {
    users.push(await launchElectronUser(binary), await launchElectronUser(binary));
    const [a, b] = users;
    if (a === undefined || b === undefined) throw new Error('two apps expected');
    // The page runs from app://ghostboard with the preload's bridge and nothing of Node.
    expect(a.page.url()).toMatch(/^app:\/\/ghostboard\//);
    expect(await a.page.evaluate('typeof window.ghostboard?.invoke')).toBe('function');
    expect(await a.page.evaluate('typeof require')).toBe('undefined');
    await runScenario({ a: a.page, b: b.page }, test.info());
  } finally {
    await Promise.all(users.map((u) => u.close()));
  }
});
