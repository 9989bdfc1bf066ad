// Test child: an app core hosting a session with LAN presence on, driven by stdin lines ("leave"), reporting
// JSON lines on stdout. Runs inside a test namespace (lan.netns.test.ts); knows nothing of what the test checks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createAppCore } from '../../src-main/app/core';

const [name = 'Board', code = 'TEST1-CODE2', port = '7350'] = process.argv.slice(2);
/** CLOCK_MONOTONIC in ms: one clock for every process on the machine (performance.now() is per process). */
const monotonicMs = (): number => Math.round(Number(process.hrtime.bigint()) / 1e6);
const say = (e: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ ...e, t: monotonicMs() })}\n`);
};
const dir = mkdtempSync(join(tmpdir(), 'ghostboard-lan-host-'));
const core = createAppCore({ dataDir: dir, lan: true });
core.subscribe((e) => {
  if (e.type === 'status' && e.status.phase === 'hosting')
    say({ ev: 'ready', port: e.status.port, code: e.status.code });
  if (e.type === 'notice') say({ ev: 'notice', level: e.level, text: e.text });
});

async function main(): Promise<void> {
  const r = await core.invoke({ cmd: 'host', options: { name, code, port: Number(port) } });
  if (!r.ok) say({ ev: 'error', reason: r.reason });
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === 'leave') {
      await core.invoke({ cmd: 'leave' });
      say({ ev: 'left' });
    }
  }
  await core.close();
  rmSync(dir, { recursive: true, force: true });
  say({ ev: 'done' });
}
void main();
