// Benchmark runner: `npm run bench -- <name>` runs bench/<name>.ts, prints its figures as a JSON object on
// the last line and writes the same to bench/results/<name>.json so runs can be compared.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const name = process.argv[2];
if (name === undefined || !/^[a-z][a-z0-9-]*$/.test(name)) {
  console.error(
    'usage: npm run bench -- <name>   (e.g. wire, events, ghosts, hostcpu, mirrors-scale)',
  );
  process.exit(2);
}
const mod = (await import(join(here, `${name}.ts`))) as {
  run?: () => Promise<Record<string, unknown>>;
};
if (typeof mod.run !== 'function') {
  console.error(`bench/${name}.ts exports no run()`);
  process.exit(2);
}
const figures = await mod.run();
const line = JSON.stringify(figures);
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', `${name}.json`), line + '\n');
console.log(line);
