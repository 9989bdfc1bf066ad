#!/usr/bin/env node
// `npm start`: runs what Ghostboard has so far. The desktop shell (Electron) is not built yet, so this runs
// the networking core's loopback demo: a host and a client over real UDP, printing what the link costs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../bin/ghostboard.js', import.meta.url));
process.stderr.write(
  'Ghostboard: the desktop app is not built yet; running the network demo (host + client on loopback).\n',
);
const r = spawnSync(process.execPath, [cli, 'demo', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
