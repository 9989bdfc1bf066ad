// Lint rules, including the layering of DESIGN.md §2 enforced as import boundaries
// (circular imports are checked by scripts/check-cycles.js).
import tseslint from 'typescript-eslint';
import layers from './scripts/eslint-layers.js';

const ROOT = import.meta.dirname;

/**
 * DESIGN.md §2's layers as allow-lists, VS Code's way: each folder names the layers, npm packages and Node
 * builtins it may import, and nothing else gets in. A new layer or package is one line here.
 */
const LAYERS = [
  {
    name: 'shared',
    dirs: ['shared'],
    allow: [],
    packages: [],
    why: 'shared/ holds types and pure helpers only, for both processes (DESIGN.md §2).',
  },
  {
    name: 'net',
    dirs: ['src-main/net'],
    allow: ['shared'],
    packages: ['node:crypto', '@noble/*'],
    why: 'net/ is the game-style stack and knows nothing of whiteboards, sessions, apps or shells (DESIGN.md §2).',
  },
  {
    name: 'board',
    dirs: ['src-main/board'],
    allow: ['shared'],
    packages: [],
    why: 'board/ is the pure board core: state and operations, no network and no I/O.',
  },
  {
    name: 'files',
    dirs: ['src-main/files'],
    allow: ['board', 'shared'],
    packages: ['node:fs', 'node:path', 'node:os', 'node:crypto'],
    why: 'files/ reads and writes boards on disk and knows nothing of sessions or the network.',
  },
  {
    name: 'session',
    dirs: ['src-main/session'],
    allow: ['net', 'board', 'shared'],
    packages: ['node:crypto', 'node:fs', 'node:path', 'node:os'],
    why: 'session/ is the whiteboard session over net/ and knows nothing of the app, the shells or the renderer (DESIGN.md §2).',
  },
  {
    name: 'directory',
    dirs: ['src-main/directory'],
    allow: ['net', 'shared'],
    packages: ['node:crypto'],
    why: 'directory/ is a rendezvous server over net/ and knows nothing of sessions, the app or the shells.',
  },
  {
    name: 'mirror',
    dirs: ['src-main/mirror'],
    allow: ['net', 'board', 'shared'],
    packages: ['node:crypto'],
    why: 'mirror/ copies a board between hosts over net/ and knows nothing of sessions, the app or the shells.',
  },
  {
    name: 'mirrored',
    dirs: ['src-main/mirrored'],
    allow: ['session', 'mirror', 'board', 'net', 'shared'],
    // mirror-runner.ts drives a mirror's sockets as session/runner.ts drives a session's.
    packages: ['node:crypto', 'node:os'],
    why: 'mirrored/ serves a host session from a mirror (the executor seam between session/ and mirror/) and knows nothing of the app or the shells.',
  },
  {
    name: 'lan',
    dirs: ['src-main/lan'],
    allow: ['shared'],
    packages: [
      'node:crypto',
      'node:events',
      'node:net',
      'node:os',
      'bonjour-service',
      'multicast-dns',
      'dns-packet',
    ],
    why: 'lan/ announces and finds sessions on the LAN (mDNS) and knows nothing of sessions, the app or the shells.',
  },
  {
    name: 'app',
    dirs: ['src-main/app'],
    allow: ['session', 'directory', 'mirror', 'mirrored', 'lan', 'files', 'net', 'shared'],
    packages: ['node:fs', 'node:path', 'node:os', 'node:dns'],
    why: 'app/ is the core the three shells share and never imports a shell or the renderer (DESIGN.md §2).',
  },
  {
    name: 'electron',
    dirs: ['src-main/electron'],
    allow: ['app', 'shared'],
    packages: ['electron', 'node:fs', 'node:path', 'node:os', 'node:url'],
    why: 'electron/ is a thin shell over app/ (DESIGN.md §2).',
  },
  {
    name: 'web',
    dirs: ['src-main/web'],
    allow: ['app', 'shared'],
    packages: [
      'ws',
      'node:child_process',
      'node:crypto',
      'node:fs',
      'node:http',
      'node:net',
      'node:os',
      'node:path',
      'node:stream',
      'node:url',
      'node:util',
    ],
    why: 'web/ is a thin shell over app/ (DESIGN.md §2).',
  },
  {
    name: 'cli',
    dirs: ['src-main/cli'],
    // More than a shell's app + shared, on purpose: the headless CLI has no UI state for app/ to keep, so it
    // drives a SessionRunner (session/), a DirectoryRunner (directory/) and LAN adverts (lan/) itself, and
    // `connection-demo` drives a bare net/ Endpoint to show the connection layer alone; `convert` turns board files
    // from one format into another (files/); `replay` re-executes a mirror command trace (mirror/), and `host --trace`
    // records one from a host served by a mirror group of one (mirrored/).
    allow: ['app', 'session', 'directory', 'mirror', 'mirrored', 'lan', 'files', 'net', 'shared'],
    packages: ['node:dns', 'node:fs', 'node:os', 'node:perf_hooks', 'node:readline', 'node:util'],
    why: 'cli/ is the headless shell (DESIGN.md §2).',
  },
  {
    name: 'renderer',
    dirs: ['src-renderer'],
    allow: ['shared'],
    packages: ['react', 'react-dom', 'react-konva', 'konva', 'uplot'],
    why: 'the renderer reaches the main process only through the typed API in shared/ (DESIGN.md §2).',
  },
];

/** Named exceptions to LAYERS, each with its reason. */
const LAYER_EXCEPTIONS = [
  {
    from: ['src-main/lan/*.test.ts'],
    to: 'src-main/net/rng.ts',
    why: "lan/'s seeded tests draw from the project's one seeded RNG (STYLE.md).",
  },
  {
    from: ['src-main/session/board.ts', 'src-main/session/board-file.ts'],
    to: 'src-main/files/',
    why: 'session/runner.ts autosaves through Board.toFile and session/board-file.ts until the app owns saving.',
  },
];

/** Modules only named files may import, whatever their layer allows. */
const OWNED_MODULES = [
  {
    specifiers: ['node:dgram', 'dgram'],
    files: ['src-main/net/transport.ts'],
    // Real-socket test tools (the impairment proxy, the namespace lab, the reach bench) are not product code.
    unlayered: ['test', 'bench'],
    why: 'one transport module owns UDP sockets and timers; everything else is sans-IO (STYLE.md).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      'release/',
      'test-results/',
      'bench/results/',
      // Deliberately bad imports, linted by test/lint-layers.test.ts.
      'test/fixtures/lint-layers/',
    ],
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
  // --- layers (issue 18.4): the allow-lists above, and test kits (`testing/` folders) out of product code.
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { layers },
    rules: {
      'layers/allowed-imports': [
        'error',
        {
          root: ROOT,
          layers: LAYERS,
          exceptions: LAYER_EXCEPTIONS,
          owned: OWNED_MODULES,
          testPackages: ['vitest'],
        },
      ],
    },
  },
  // --- end layers
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
);
