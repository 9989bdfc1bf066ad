// An ESLint rule that keeps each folder to the imports it lists (VS Code's allow-listed layers): the layers of
// DESIGN.md §2, the npm packages and Node builtins each may use, modules only named files may own (node:dgram),
// and test kits (`testing/` folders) that product code cannot reach. Knows nothing of the project's code.
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * @typedef {object} Layer
 * @property {string} name
 * @property {string[]} dirs folders (from the repository root) whose files are this layer
 * @property {string[]} allow names of the layers it may import (itself always)
 * @property {string[]} packages npm packages and Node builtins it may import; `@scope/*` and `node:*` allowed
 * @property {string} why the message when an import breaks the rule
 *
 * @typedef {object} Exception
 * @property {string[]} from files (a path, or a folder ending in `/`, or `*.test.ts` under a folder)
 * @property {string} to a path or folder ending in `/` (from the root), or a package
 * @property {string} why
 *
 * @typedef {object} OwnedModule
 * @property {string[]} specifiers e.g. `node:dgram`, `dgram`
 * @property {string[]} files the only files (from the root) that may import it
 * @property {string[]} unlayered folders outside the layers (real-socket test tools) that may too
 * @property {string} why
 *
 * @typedef {object} Options
 * @property {string} root absolute path of the repository root
 * @property {Layer[]} layers
 * @property {Exception[]} exceptions
 * @property {OwnedModule[]} owned
 * @property {string[]} testPackages packages every test file and test kit may import besides its layer's
 */

const TEST_FILE = /\.test\.tsx?$/;

const toPosix = (p) => p.split(sep).join('/');

/** `node:fs/promises` -> `node:fs`; `@noble/hashes/sha2.js` -> `@noble/hashes`; `uplot/dist/x.css` -> `uplot`. */
function packageName(spec) {
  if (spec.startsWith('node:')) return spec.split('/')[0];
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec);
}

function packageAllowed(name, patterns) {
  return patterns.some((p) =>
    p.endsWith('/*') || p.endsWith(':*') ? name.startsWith(p.slice(0, -1)) : name === p,
  );
}

const under = (path, dir) => path === dir || path.startsWith(`${dir}/`);

/** A path pattern: `a/b.ts` exactly, `a/` everything below, `a/*.test.ts` test files below. */
function matches(path, pattern) {
  if (pattern.endsWith('/*.test.ts'))
    return under(path, pattern.slice(0, -'/*.test.ts'.length)) && TEST_FILE.test(path);
  if (pattern.endsWith('/')) return under(path, pattern.slice(0, -1));
  return path === pattern || path.replace(/\.tsx?$/, '') === pattern.replace(/\.tsx?$/, '');
}

/** The layer a root-relative path belongs to: the one with the longest folder that holds it. */
function layerOf(path, layers) {
  let best;
  let bestLength = -1;
  for (const layer of layers) {
    for (const dir of layer.dirs) {
      if (under(path, dir) && dir.length > bestLength) {
        best = layer;
        bestLength = dir.length;
      }
    }
  }
  return best;
}

const isTestingPath = (path) => path.split('/').includes('testing');

/** @type {import('eslint').Rule.RuleModule} */
const allowedImports = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Each folder imports only the layers and packages it lists (DESIGN.md §2).',
    },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      layer: "{{from}} may not import {{to}} ('{{spec}}'): {{why}}",
      outside: "{{from}} may not import '{{spec}}', which is in no layer: {{why}}",
      package:
        "{{from}} may not import the package '{{spec}}': {{why}} Add it to the layer's list if it belongs there.",
      owned: "'{{spec}}' is imported only in {{files}}: {{why}}",
      testing:
        "'{{spec}}' is a test kit: only *.test.ts files, test/, bench/ and other testing/ folders may import it.",
    },
  },
  create(context) {
    /** @type {Options} */
    const options = context.options[0];
    const file = toPosix(relative(options.root, context.filename));
    const fromLayer = layerOf(file, options.layers);
    const isTestCode = TEST_FILE.test(file) || isTestingPath(file);
    const isTestTool = under(file, 'test') || under(file, 'bench');
    const excepted = (to) =>
      options.exceptions.some((e) => e.from.some((f) => matches(file, f)) && matches(to, e.to));

    function check(node, spec) {
      if (typeof spec !== 'string') return;
      const report = (messageId, data) =>
        context.report({ node, messageId, data: { spec, from: fromLayer?.name ?? file, ...data } });

      for (const owned of options.owned) {
        if (!owned.specifiers.includes(spec)) continue;
        const mayOwn =
          owned.files.includes(file) || owned.unlayered.some((dir) => under(file, dir));
        if (!mayOwn) report('owned', { files: owned.files.join(', '), why: owned.why });
        return;
      }

      if (spec.startsWith('.')) {
        const to = toPosix(relative(options.root, resolve(dirname(context.filename), spec)));
        if (excepted(to)) return;
        if (isTestingPath(to) && !isTestCode && !isTestTool) {
          report('testing');
          return;
        }
        if (fromLayer === undefined) return;
        const toLayer = layerOf(to, options.layers);
        if (toLayer === undefined) report('outside', { why: fromLayer.why });
        else if (toLayer !== fromLayer && !fromLayer.allow.includes(toLayer.name))
          report('layer', { to: toLayer.name, why: fromLayer.why });
        return;
      }

      if (fromLayer === undefined || excepted(spec)) return;
      const name = packageName(spec);
      const allowed =
        packageAllowed(name, fromLayer.packages) ||
        (isTestCode && packageAllowed(name, options.testPackages));
      if (!allowed) report('package', { why: fromLayer.why });
    }

    const fromSource = (node) => check(node.source, node.source?.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => check(node.source, node.source.value),
      TSImportType: (node) =>
        check(node.argument, node.argument.literal?.value ?? node.argument.value),
    };
  },
};

export default { rules: { 'allowed-imports': allowedImports } };
