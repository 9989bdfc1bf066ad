// The layer rule of eslint.config.js catches deliberate bad imports in fixture files (test/fixtures/lint-layers,
// a tiny tree with the rule's root set there) and lets the allowed ones through.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'lint-layers');
/** The project's flat config (plain JS, so imported by URL and typed here). */
const config = (
  (await import(pathToFileURL(join(import.meta.dirname, '..', 'eslint.config.js')).href)) as {
    default: Linter.Config[];
  }
).default;

/** The project's own layer block (its allow-lists and exceptions), rooted at the fixture tree. */
function layerRule(): Linter.Config {
  const block = config.find((c) => c.plugins?.['layers'] !== undefined);
  const rule = block?.rules?.['layers/allowed-imports'];
  if (block === undefined || !Array.isArray(rule))
    throw new Error('no layers block in eslint.config.js');
  const [severity, options] = rule as [Linter.RuleSeverity, Record<string, unknown>];
  return {
    ...block,
    rules: { 'layers/allowed-imports': [severity, { ...options, root: FIXTURES }] },
  };
}

const eslint = new ESLint({
  cwd: FIXTURES,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    layerRule(),
  ],
});

/** The layer rule's messages for a fixture file, or for `code` linted as if it were that file. */
async function messages(file: string, code?: string): Promise<string[]> {
  const path = join(FIXTURES, file);
  const [result] =
    code === undefined
      ? await eslint.lintFiles([path])
      : await eslint.lintText(code, { filePath: path });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('layer rule', () => {
  it('fires on net/ importing session/', async () => {
    const found = await messages('src-main/net/imports-session.ts');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^layers\/allowed-imports: net may not import session/);
  });

  it('lets session/ import net/ and shared/', async () => {
    expect(await messages('src-main/session/imports-net.ts')).toEqual([]);
  });

  it('keeps test kits out of product code, and lets tests use them', async () => {
    const found = await messages('src-main/session/imports-a-test-kit.ts');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/is a test kit/);
    const test = "import { makePair } from '../net/testing/pair';\nexport const pair = makePair;\n";
    expect(await messages('src-main/session/uses-a-test-kit.test.ts', test)).toEqual([]);
  });

  it('keeps mirror/ out of session/, and lets mirrored/ serve a session from a mirror', async () => {
    const mirror = "import { Mirror } from '../mirror/mirror';\nexport const m = Mirror;\n";
    const found = await messages('src-main/session/serves-a-mirror.ts', mirror);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^layers\/allowed-imports: session may not import mirror/);
    const both = `${mirror}import { HostSession } from '../session/host';\nexport const h = HostSession;\n`;
    expect(await messages('src-main/mirrored/executor.ts', both)).toEqual([]);
    const up =
      "import { HostSession } from '../mirrored/executor';\nexport const h = HostSession;\n";
    expect(await messages('src-main/mirror/serves-a-host.ts', up)).toHaveLength(1);
  });

  it('keeps node:dgram in net/transport.ts', async () => {
    const found = await messages('src-main/lan/opens-a-socket.ts');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/'node:dgram' is imported only in src-main\/net\/transport\.ts/);
    expect(await messages('src-main/net/transport.ts')).toEqual([]);
  });

  it('keeps the renderer to shared/ and its listed packages', async () => {
    const found = await messages('src-renderer/reads-a-file.ts');
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/renderer may not import the package 'node:fs'/);
    expect(found[1]).toMatch(/renderer may not import net/);
  });
});
