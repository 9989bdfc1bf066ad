// The app core's settings: read from its data directory the first time they are asked for (else the directories it
// was started with), then kept in memory, and saved whole. Knows nothing of sessions or of who shows them.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join as joinPath } from 'node:path';
import type { Settings } from '../../shared/api';
import { parseCommand } from '../../shared/api-validate';
import type { AppCoreOptions } from './core-api';

const SETTINGS_FILE = 'settings.json';

export class SettingsStore {
  private settings: Settings | undefined;

  constructor(private readonly options: Pick<AppCoreOptions, 'dataDir' | 'directories'>) {}

  async current(): Promise<Settings> {
    if (this.settings !== undefined) return this.settings;
    let loaded: Settings | undefined;
    try {
      const text = await readFile(joinPath(this.options.dataDir, SETTINGS_FILE), 'utf8');
      const parsed = parseCommand({ cmd: 'settings', settings: JSON.parse(text) as unknown });
      if ('cmd' in parsed && parsed.cmd === 'settings') loaded = parsed.settings;
    } catch {
      // No settings saved yet (or unreadable): the defaults below.
    }
    this.settings = loaded ?? { directories: [...(this.options.directories ?? [])] };
    return this.settings;
  }

  async save(s: Settings): Promise<void> {
    this.settings = s;
    await mkdir(this.options.dataDir, { recursive: true });
    const file = joinPath(this.options.dataDir, SETTINGS_FILE);
    await writeFile(`${file}.tmp`, JSON.stringify(s, null, 2));
    await rename(`${file}.tmp`, file);
  }
}
