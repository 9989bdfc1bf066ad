// Lint rules, including the layering of DESIGN.md §2 enforced as import boundaries
// (circular imports are checked by scripts/check-cycles.js).
import tseslint from 'typescript-eslint';

/** Forbid imports matching `groups` (glob patterns) in the files of one layer. */
function layer(files, message, groups) {
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
    },
  };
}

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'test-results/', 'bench/results/'],
  },
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.main.json', './tsconfig.renderer.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // `(e) => handle(e)` for void callbacks reads better than braces everywhere.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  layer(
    ['src-main/net/**'],
    'net/ knows nothing of sessions, the app, Electron or the renderer (DESIGN.md §2).',
    [
      '**/session/**',
      '**/directory/**',
      '**/app/**',
      '**/electron/**',
      'electron',
      '**/src-renderer/**',
      'react*',
    ],
  ),
  layer(
    ['src-main/directory/**'],
    'directory/ is a rendezvous server over net/: it knows nothing of sessions, the app, Electron or the renderer.',
    ['**/session/**', '**/app/**', '**/electron/**', 'electron', '**/src-renderer/**', 'react*'],
  ),
  layer(
    ['src-main/session/**'],
    'session/ knows nothing of the app shell, Electron or the renderer (DESIGN.md §2).',
    ['**/app/**', '**/electron/**', 'electron', '**/src-renderer/**', 'react*'],
  ),
  layer(
    ['src-main/app/**', 'src-main/cli/**'],
    'app/ and cli/ never import the Electron shell or the renderer (DESIGN.md §2).',
    ['**/electron/**', 'electron', '**/src-renderer/**', 'react*'],
  ),
  layer(
    ['src-main/lan/**'],
    'lan/ announces and finds sessions on the LAN (mDNS): it knows nothing of sessions, the app, Electron or the renderer.',
    [
      '**/session/**',
      '**/app/**',
      '**/cli/**',
      '**/electron/**',
      'electron',
      '**/src-renderer/**',
      'react*',
    ],
  ),
  layer(
    ['src-renderer/**'],
    'The renderer reaches the main process only through the typed API in shared/ (DESIGN.md §2).',
    ['node:*', 'electron', '**/src-main/**', 'fs', 'dgram', 'net', 'child_process'],
  ),
  layer(['shared/**'], 'shared/ holds types and pure helpers only (DESIGN.md §2).', [
    'node:*',
    'electron',
    'react*',
    '**/src-main/**',
    '**/src-renderer/**',
  ]),
);
