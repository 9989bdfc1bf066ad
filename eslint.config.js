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
  // --- renderer tools (issue 18.7): canvas/ and ui/ never import each other. What both need (React context,
  // the store hooks) lives in view/; screens/ composes the two; tools/ holds the input state machines.
  // typescript-eslint's twin of no-restricted-imports, so these blocks add to the layer() rules above instead
  // of replacing them (flat config keeps only the last options given for one rule name).
  {
    files: ['src-renderer/canvas/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**'],
              message:
                'canvas/ draws the board and forwards input to tools/: it never imports ui/ (shared glue lives in view/).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/ui/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/canvas/**'],
              message:
                'ui/ is the chrome around the board: it never imports canvas/ (screens/ mounts both; shared glue lives in view/).',
            },
          ],
        },
      ],
    },
  },
  // --- end renderer tools
  layer(['shared/**'], 'shared/ holds types and pure helpers only (DESIGN.md §2).', [
    'node:*',
    'electron',
    'react*',
    '**/src-main/**',
    '**/src-renderer/**',
  ]),
);
