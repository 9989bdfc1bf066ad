// The same two-user scenario in the desktop app: two Electron instances with separate profiles, talking over
// real UDP on loopback. Skipped (and says why) where no Electron binary exists.
import { expect, test } from '@playwright/test';
import type { ElectronUser } from './harness/electron';
import { electronBinary, electronSkipReason, launchElectronUser } from './harness/electron';
import { runScenario } from './harness/scenario';

const skipReason = electronSkipReason();

test('two users in Electron: host, join, pointer, drag, chat, bandwidth', async () => {
  if (skipReason !== undefined) {
    // The list reporter doesn't print skip reasons; say it where the run's output shows it.
    process.stdout.write(`electron.spec: ${skipReason}\n`);
    test.skip(true, skipReason);
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
