// The desktop workflow (.github/workflows/desktop.yml) and the packaging config (electron-builder.yml) can't run
// here (no Electron binary, no packaging tools): this reads both and checks what they promise — the triggers,
// the three-OS matrix on Node 20, the steps the test job runs and in which order, the Electron e2e required (not
// skippable) and under Xvfb on Linux, the installers uploaded under their names, and a package that holds only
// the built app and declares the app's URL scheme and file type. Knows nothing of the app itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const WORKFLOW = '.github/workflows/desktop.yml';
const BUILDER = 'electron-builder.yml';
const E2E = 'npx playwright test test/e2e/electron.spec.ts';
const REQUIRE_VAR = 'GB_REQUIRE_ELECTRON';

type Mapping = Record<string, unknown>;

function mapping(v: unknown, what: string): Mapping {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`${what}: no mapping`);
  return v as Mapping;
}

function list(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new Error(`${what}: no list`);
  return v;
}

/** A YAML value that may be one item or a list of them (as electron-builder's `target`). */
function strings(v: unknown, what: string): string[] {
  return (Array.isArray(v) ? v : [v]).map((s) => {
    if (typeof s !== 'string' && typeof s !== 'number') throw new Error(`${what}: not a string`);
    return String(s);
  });
}

function readYaml(path: string): Mapping {
  return mapping(parse(readFileSync(join(ROOT, path), 'utf8')), path);
}

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Mapping;
  readonly with?: Mapping;
}

interface Job {
  readonly steps: readonly Step[];
  readonly needs: readonly string[];
  readonly matrix: Mapping;
  readonly runsOn: unknown;
}

function job(workflow: Mapping, id: string): Job {
  const j = mapping(mapping(workflow['jobs'], 'jobs')[id], `jobs.${id}`);
  const strategy = mapping(j['strategy'], `jobs.${id}.strategy`);
  return {
    steps: list(j['steps'], `jobs.${id}.steps`).map((s, i) => mapping(s, `step ${i}`) as Step),
    needs: j['needs'] === undefined ? [] : strings(j['needs'], `jobs.${id}.needs`),
    matrix: mapping(strategy['matrix'], `jobs.${id}.strategy.matrix`),
    runsOn: j['runs-on'],
  };
}

/** Index of the one step whose `run` or `uses` matches; fails when none or several do. */
function stepIndex(steps: readonly Step[], pattern: RegExp): number {
  const hits = steps.flatMap((s, i) => (pattern.test(s.run ?? s.uses ?? '') ? [i] : []));
  if (hits.length !== 1)
    throw new Error(`${String(pattern)}: ${hits.length} steps match, 1 expected`);
  return hits[0] ?? -1;
}

function step(steps: readonly Step[], pattern: RegExp): Step {
  return steps[stepIndex(steps, pattern)] ?? {};
}

/** The files an installer of each target type ends in (electron-builder's default artifact names). */
const TARGET_EXT: Record<string, string> = {
  AppImage: '.AppImage',
  deb: '.deb',
  dmg: '.dmg',
  nsis: '.exe',
};

/** electron-builder's platform flag, config key and expected artifact name per runner OS. */
const PLATFORMS = [
  { os: 'ubuntu-latest', flag: '--linux', key: 'linux', artifact: 'ghostboard-linux' },
  { os: 'macos-latest', flag: '--mac', key: 'mac', artifact: 'ghostboard-macos' },
  { os: 'windows-latest', flag: '--win', key: 'win', artifact: 'ghostboard-windows' },
] as const;

describe('desktop workflow', () => {
  const workflow = readYaml(WORKFLOW);

  it('runs on every push and pull request', () => {
    const on = mapping(workflow['on'], 'on');
    expect(Object.keys(on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
  });

  describe('test job', () => {
    const test = job(workflow, 'test');
    const { steps } = test;

    it('runs on Linux, macOS and Windows with Node 20', () => {
      expect(test.runsOn).toBe('${{ matrix.os }}');
      expect([...strings(test.matrix['os'], 'os')].sort()).toEqual([
        'macos-latest',
        'ubuntu-latest',
        'windows-latest',
      ]);
      const setup = step(steps, /^actions\/setup-node@/);
      const version = String(setup.with?.['node-version']);
      const resolved = /^\$\{\{ matrix\.(\w+) \}\}$/.exec(version);
      const versions =
        resolved?.[1] === undefined ? [version] : strings(test.matrix[resolved[1]], 'node');
      expect(versions).toEqual(['20']);
      expect(setup.with?.['cache']).toBe('npm');
    });

    it('installs, fetches Electron, typechecks, lints, tests, builds, then runs the Electron e2e', () => {
      const order = [
        /^actions\/checkout@/,
        /^actions\/setup-node@/,
        /^npm ci$/,
        // The electron package's own install script: its download (with checksums) and path.txt.
        /^node node_modules\/electron\/install\.js$/,
        /^npm run typecheck$/,
        /^npm run lint$/,
        /^npm run test:unit$/,
        /^npm run build$/,
        /^xvfb-run -a (--server-args="[^"]*" )?npx playwright test test\/e2e\/electron\.spec\.ts$/,
      ].map((p) => stepIndex(steps, p));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      // Nothing in the job may turn the binary download off.
      for (const s of steps)
        expect(JSON.stringify(s)).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    });

    it('runs the Electron e2e under xvfb-run on Linux, directly elsewhere, and never lets it skip', () => {
      const e2e = steps.filter((s) => s.run?.includes(E2E));
      expect(e2e).toHaveLength(2);
      const linux = e2e.find((s) => s.run?.startsWith('xvfb-run -a '));
      const others = e2e.find((s) => s.run === E2E);
      expect(linux?.if).toBe("runner.os == 'Linux'");
      expect(others?.if).toBe("runner.os != 'Linux'");
      for (const s of e2e) expect(s.env?.[REQUIRE_VAR]).toBe('1');
      // The variable is the one the spec's harness reads.
      const harness = readFileSync(join(ROOT, 'test/e2e/harness/electron.ts'), 'utf8');
      expect(harness).toContain(`env.${REQUIRE_VAR} === '1'`);
      // Linux gets Xvfb installed before the e2e runs.
      const prepare = steps.findIndex(
        (s) => s.if === "runner.os == 'Linux'" && /apt-get install\b.*\bxvfb\b/.test(s.run ?? ''),
      );
      expect(prepare).toBeGreaterThanOrEqual(0);
      expect(prepare).toBeLessThan(steps.indexOf(linux ?? {}));
    });

    it("uploads Playwright's test-results/ when a step failed", () => {
      const upload = steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@'));
      expect(upload).toHaveLength(1);
      expect(upload[0]?.if).toBe('failure()');
      expect(upload[0]?.with?.['path']).toBe('test-results/');
      expect(String(upload[0]?.with?.['name'])).toContain('${{ matrix.os }}');
    });
  });

  describe('package job', () => {
    const pack = job(workflow, 'package');
    const builder = readYaml(BUILDER);
    const output = String(mapping(builder['directories'], 'directories')['output']);
    const include = list(pack.matrix['include'], 'package matrix.include').map((e, i) =>
      mapping(e, `include ${i}`),
    );

    it('runs after the tests pass', () => {
      expect(pack.needs).toContain('test');
    });

    it("builds each OS's installers with electron-builder, never publishing", () => {
      expect(include.map((e) => e['os'])).toEqual(PLATFORMS.map((p) => p.os));
      for (const p of PLATFORMS)
        expect(include.find((e) => e['os'] === p.os)?.['platform']).toBe(p.flag);
      const build = step(pack.steps, /electron-builder/);
      expect(build.run).toBe('npx electron-builder ${{ matrix.platform }} --publish never');
      const order = [/^npm ci$/, /^npm run build$/, /electron-builder/].map((p) =>
        stepIndex(pack.steps, p),
      );
      expect(order).toEqual([...order].sort((a, b) => a - b));
    });

    it('uploads each OS installer under its name, from where electron-builder writes it', () => {
      const upload = step(pack.steps, /^actions\/upload-artifact@/);
      expect(upload.if).toBeUndefined();
      expect(upload.with?.['name']).toBe('${{ matrix.artifact }}');
      expect(upload.with?.['path']).toBe('${{ matrix.files }}');
      expect(upload.with?.['if-no-files-found']).toBe('error');
      for (const p of PLATFORMS) {
        const entry = include.find((e) => e['os'] === p.os) ?? {};
        expect(entry['artifact']).toBe(p.artifact);
        const files = String(entry['files']).trim().split('\n');
        // One path per target of that OS in electron-builder.yml, in its output directory.
        const targets = strings(mapping(builder[p.key], p.key)['target'], `${p.key}.target`);
        expect(files).toEqual(targets.map((t) => `${output}/*${TARGET_EXT[t] ?? `?${t}`}`));
      }
    });
  });
});

describe('electron-builder.yml', () => {
  const builder = readYaml(BUILDER);

  it('builds AppImage and deb on Linux, dmg on macOS, NSIS on Windows', () => {
    const target = (key: string): string[] =>
      strings(mapping(builder[key], key)['target'], `${key}.target`);
    expect(target('linux')).toEqual(['AppImage', 'deb']);
    expect(target('mac')).toEqual(['dmg']);
    expect(target('win')).toEqual(['nsis']);
  });

  it('registers the ghostboard:// scheme for invite links', () => {
    const schemes = list(builder['protocols'], 'protocols').flatMap((p) =>
      strings(mapping(p, 'protocol')['schemes'], 'schemes'),
    );
    expect(schemes).toEqual(['ghostboard']);
  });

  it('declares the .ghostboard file type (and installs per machine, which NSIS needs for it)', () => {
    const associations = list(builder['fileAssociations'], 'fileAssociations').map((a) =>
      mapping(a, 'fileAssociation'),
    );
    expect(associations).toHaveLength(1);
    const board = associations[0] ?? {};
    expect(board['ext']).toBe('ghostboard');
    expect(board['mimeType']).toBe('application/vnd.ghostboard+json');
    expect(board['role']).toBe('Editor');
    expect(String(board['name'])).not.toBe('');
    expect(String(board['description'])).not.toBe('');
    expect(mapping(builder['nsis'], 'nsis')['perMachine']).toBe(true);
  });

  describe('files', () => {
    const patterns = strings(builder['files'], 'files');
    const include = patterns.filter((p) => !p.startsWith('!'));
    const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
    /** Packaged: some include pattern matches and no exclude pattern does. */
    const packaged = (path: string): boolean =>
      include.some((p) => posix.matchesGlob(path, p)) &&
      !exclude.some((p) => posix.matchesGlob(path, p));

    it('packages the built main process, preload, renderer and package.json', () => {
      for (const path of [
        'dist/main/electron/main.js',
        'dist/main/electron/preload.cjs',
        'dist/renderer/index.html',
        'dist/renderer/assets/index-abc123.js',
        'package.json',
      ])
        expect(packaged(path), path).toBe(true);
    });

    it('leaves out source maps, node_modules and every other top-level file or folder', () => {
      expect(packaged('dist/main/electron/main.js.map')).toBe(false);
      expect(packaged('dist/renderer/assets/index-abc123.js.map')).toBe(false);
      expect(packaged('node_modules/react/index.js')).toBe(false);
      expect(packaged('dist/other/x.js')).toBe(false);
      // Tests, benches, sources, scripts, configs: whatever sits beside dist/ and package.json today.
      const others = readdirSync(ROOT).filter((n) => n !== 'dist' && n !== 'package.json');
      expect(others).toEqual(expect.arrayContaining(['test', 'bench', 'src-main', 'src-renderer']));
      for (const name of others) {
        expect(packaged(name), name).toBe(false);
        expect(packaged(`${name}/some/file.ts`), name).toBe(false);
      }
    });
  });
});
