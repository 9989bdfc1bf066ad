#!/usr/bin/env node
// Fails if any circular import exists among the project's TypeScript files (type-only imports excluded:
// they vanish at run time). A dependency-free stand-in for import/no-cycle, as STYLE.md asks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['shared', 'src-main', 'src-renderer', 'test', 'bench'];
const SKIP = new Set(['node_modules', 'dist', 'out', 'release', 'results']);

function walk(dir, out) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(c).isFile()) return c;
    } catch {
      // not this candidate
    }
  }
  return undefined;
}

const files = ROOTS.flatMap((r) => walk(join(root, r), []));
const graph = new Map();
for (const f of files) {
  const deps = [];
  for (const m of readFileSync(f, 'utf8').matchAll(IMPORT)) {
    const target = resolveImport(f, m[1]);
    if (target) deps.push(target);
  }
  graph.set(f, deps);
}

// Tarjan's strongly connected components; any component with more than one file (or a self-import) is a cycle.
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function connect(v) {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) {
      low.set(v, Math.min(low.get(v), idx.get(w)));
    }
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(comp);
  }
}
for (const f of files) if (!idx.has(f)) connect(f);

if (cycles.length > 0) {
  for (const c of cycles)
    console.error(`circular imports: ${c.map((f) => relative(root, f)).join(' <-> ')}`);
  process.exit(1);
}
console.log(`no circular imports among ${files.length} files`);
