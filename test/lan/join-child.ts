// Test child: an app core joining a session at an address with a code (as the start screen does after a LAN
// pick), reporting JSON lines; stdin's end leaves and exits. Runs inside a test namespace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppCore } from '../../src-main/app/core';

const [address = '', code = ''] = process.argv.slice(2);
const say = (e: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(e)}\n`);
};
const dir = mkdtempSync(join(tmpdir(), 'ghostboard-lan-join-'));
// A joiner only browses; it is off here so the test's LAN holds one browser it controls.
const core = createAppCore({ dataDir: dir, lan: false });
core.subscribe((e) => {
  if (e.type !== 'status') return;
  if (e.status.phase === 'joined') say({ ev: 'joined', hostName: e.status.hostName });
  if (e.status.phase === 'ended') say({ ev: 'ended', reason: e.status.reason });
});

async function main(): Promise<void> {
  const r = await core.invoke({ cmd: 'join', options: { name: 'Bo', address, code } });
  if (!r.ok) say({ ev: 'error', reason: r.reason });
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
  await core.close();
  rmSync(dir, { recursive: true, force: true });
  say({ ev: 'done' });
}
void main();
