// electron-builder.yml run through the real electron-builder, offline: a Linux `dir` build of a stand-in project
// (the repo's config and package.json, whose dependencies are swapped for one installed stand-in; fake build
// output; decoy tests, benches, sources and source maps) onto a stand-in Electron whose only content is a fuse
// wire. Checks the config passes electron-builder's schema, that app.asar holds the built app and nothing else,
// and that the fuses are flipped as the config says. The real installers are built by CI's desktop workflow;
// Electron can't be downloaded here.
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build, Platform } from 'electron-builder';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
/** @electron/fuses' marker: the fuse wire follows it (version byte, length byte, one byte per fuse). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** FuseV1Options in wire order, each starting at an unlikely state so a flip shows. */
const FUSES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;
const UNSET = 0x90; // "inherit": what a fuse the config doesn't name keeps

function write(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A project with the repo's packaging inputs, and everything electron-builder must leave out. */
function standInProject(dir: string): void {
  cpSync(join(ROOT, 'electron-builder.yml'), join(dir, 'electron-builder.yml'));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  // One production dependency, installed: the bundles need none at run time, so none may be packaged.
  write(
    join(dir, 'package.json'),
    JSON.stringify({ ...pkg, dependencies: { 'gb-fake-dep': '1.0.0' }, devDependencies: {} }),
  );
  write(
    join(dir, 'node_modules/gb-fake-dep/package.json'),
    JSON.stringify({ name: 'gb-fake-dep', version: '1.0.0', main: 'index.js' }),
  );
  write(join(dir, 'node_modules/gb-fake-dep/index.js'), 'module.exports = 1;\n');
  for (const path of [
    'dist/main/electron/main.js',
    'dist/main/electron/main.js.map',
    'dist/main/electron/preload.cjs',
    'dist/main/electron/preload.cjs.map',
    'dist/renderer/index.html',
    'dist/renderer/assets/index-x1.js',
    'dist/renderer/assets/index-x1.js.map',
    'test/e2e/electron.spec.ts',
    'bench/main.ts',
    'src-main/electron/main.ts',
    'src-renderer/main.tsx',
    'shared/board.ts',
    'scripts/build.js',
    'README.md',
  ])
    write(join(dir, path), `// ${path}\n`);
}

interface AsarDir {
  readonly files?: Record<string, AsarDir>;
}

/**
 * The file paths in an asar archive: a header pickle (u32 4, u32 header size), then the header's own (u32
 * payload size, u32 JSON length, the JSON tree of directories and files), then the files' bytes.
 */
function asarFiles(path: string): string[] {
  const archive = readFileSync(path);
  const header = JSON.parse(archive.toString('utf8', 16, 16 + archive.readUInt32LE(12))) as AsarDir;
  const walk = (dir: AsarDir, prefix: string): string[] =>
    Object.entries(dir.files ?? {}).flatMap(([name, entry]) =>
      entry.files === undefined ? [prefix + name] : walk(entry, `${prefix}${name}/`),
    );
  return walk(header, '');
}

/** An "Electron" that is a fuse wire and nothing else (electron-builder copies it and flips its fuses). */
function standInElectron(dir: string): string {
  const wire = Buffer.concat([
    Buffer.from(`#!/bin/sh\n# ${SENTINEL}`),
    Buffer.from([1, FUSES.length, ...FUSES.map(() => UNSET)]),
  ]);
  write(join(dir, 'electron'), wire);
  chmodSync(join(dir, 'electron'), 0o755);
  write(join(dir, 'version'), 'v39.8.10');
  return dir;
}

/** Builds once, on first use; resolves to the unpacked app's folder. */
let building: Promise<string> | undefined;
let work: string | undefined;
function built(): Promise<string> {
  building ??= (async () => {
    work = mkdtempSync(join(tmpdir(), 'gb-packaging-'));
    const project = join(work, 'project');
    const output = join(work, 'release');
    standInProject(project);
    await build({
      projectDir: project,
      targets: Platform.LINUX.createTarget('dir'),
      publish: 'never',
      config: {
        electronDist: standInElectron(join(work, 'electron')),
        electronVersion: '39.8.10',
        directories: { output },
      },
    });
    return join(output, 'linux-unpacked');
  })();
  return building;
}

// Linux only: the stand-in Electron is a Linux executable. CI's package job builds the other OSes for real.
describe.skipIf(process.platform !== 'linux')(
  'packaging (electron-builder, Linux dir, offline)',
  () => {
    afterAll(() => {
      if (work !== undefined) rmSync(work, { recursive: true, force: true });
    });

    it('packs only the built main process, preload, renderer and package.json', async () => {
      const app = await built();
      expect(asarFiles(join(app, 'resources', 'app.asar')).sort()).toEqual([
        'dist/main/electron/main.js',
        'dist/main/electron/preload.cjs',
        'dist/renderer/assets/index-x1.js',
        'dist/renderer/index.html',
        'package.json',
      ]);
    });

    it('flips the fuses the config names and leaves the others alone', async () => {
      const app = await built();
      const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
        electronFuses: Partial<Record<(typeof FUSES)[number], boolean>>;
      };
      const binary = readFileSync(join(app, 'ghostboard'));
      const at = binary.indexOf(SENTINEL) + SENTINEL.length + 2;
      const wire = [...binary.subarray(at, at + FUSES.length)];
      expect(wire).toEqual(
        FUSES.map((name) => {
          const on = config.electronFuses[name];
          return on === undefined ? UNSET : on ? 0x31 : 0x30;
        }),
      );
      // The security-relevant ones, spelled out.
      expect(config.electronFuses).toMatchObject({
        runAsNode: false,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        onlyLoadAppFromAsar: true,
      });
    });
  },
);
