// Finds an Electron binary (as the electron package would: ELECTRON_OVERRIDE_DIST_PATH honoured) and launches
// the built desktop app with a profile of its own. Knows nothing of the scenario.
// Where the desktop app must be proven (CI's desktop workflow sets GB_REQUIRE_ELECTRON=1), a missing binary or
// display fails the run instead of skipping it; locally the spec still skips with one line saying why.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElectronApplication, Page } from '@playwright/test';
import { _electron } from '@playwright/test';
import { ROOT } from './web-host';

/** The executable path, or undefined when the package's binary was never downloaded. */
export function electronBinary(): string | undefined {
  try {
    const path: unknown = createRequire(join(ROOT, 'package.json'))('electron');
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Why the Electron tests can't run here, or undefined when they can. */
export function electronMissing(): string | undefined {
  if (electronBinary() === undefined) return 'no Electron binary';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'no display for Electron (run under xvfb-run -a)';
  return undefined;
}

/** True when a skip is a failure: GB_REQUIRE_ELECTRON=1 (set by .github/workflows/desktop.yml). */
export function electronRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GB_REQUIRE_ELECTRON === '1';
}

export interface ElectronUser {
  readonly app: ElectronApplication;
  readonly page: Page;
  close(): Promise<void>;
}

/** One app instance with a fresh profile (so also its own single-instance lock and core data). */
export async function launchElectronUser(executablePath: string): Promise<ElectronUser> {
  const userData = mkdtempSync(join(tmpdir(), 'gb-e2e-electron-'));
  const rootFlags =
    process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const app = await _electron.launch({
    executablePath,
    args: [...rootFlags, ROOT],
    env: { ...process.env, GHOSTBOARD_USER_DATA: userData },
  });
  const page = await app.firstWindow();
  return {
    app,
    page,
    close: async () => {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    },
  };
}
