// `ghostboard host --trace FILE` then `ghostboard replay FILE`, as a user runs them: a scripted host and joiner
// (separate processes over loopback UDP) create, drag, delete, undo and chat; the host records its command log as a
// mirror group of one, and the replay prints the board hash the host and the joiner ended with.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GhostEvent } from './session/harness';
import { CODE, killAll, Lab, num, settledBoards, START_MS } from './session/harness';

const dir = mkdtempSync(join(tmpdir(), 'ghostboard-trace-'));
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const BIN = new URL('../bin/ghostboard.js', import.meta.url).pathname;
const objectAt =
  (x: number) =>
  (e: GhostEvent): boolean =>
    e.ev === 'object' && e.x === x;

describe('ghostboard host --trace', () => {
  it('records a live session whose replay prints the board hash the host ended with', async ({
    onTestFinished,
  }) => {
    const lab = new Lab();
    onTestFinished(() => lab.close());
    const trace = join(dir, 'live.gbtrace');
    const host = lab.spawn('host', [
      'host',
      '--port',
      '0',
      '--bind',
      '127.0.0.1',
      '--code',
      CODE,
      '--name',
      'Host',
      '--script',
      '--trace',
      trace,
    ]);
    const ready = await host.waitFor((e) => e.ev === 'ready', 'ready', START_MS);
    expect(ready.trace).toBe(trace);
    const bea = lab.join(num(ready, 'port'), { name: 'Bea' });
    await bea.waitFor((e) => e.ev === 'ready', 'ready', START_MS);

    host.send({ cmd: 'create', kind: 'rect', x: 10, y: 10, w: 100, h: 60 });
    bea.send({ cmd: 'create', kind: 'note', x: 300, y: 10, w: 120, h: 120, text: 'hello' });
    const first = num(await bea.waitFor(objectAt(10), 'the host’s rect'), 'id');
    const second = num(await host.waitFor(objectAt(300), 'Bea’s note'), 'id');
    // Bea deletes (and then undoes) only what her board shows, as a person would: her undo history records a
    // delete with what it removed.
    await bea.waitFor(objectAt(300), 'Bea’s note on her board');
    // A single host allocates as mirror 0 does: ids of origin 0.
    expect([first % 16, second % 16]).toEqual([0, 0]);
    bea.send({ cmd: 'grab', id: first });
    bea.send({ cmd: 'drop', id: first, x: 50, y: 70 });
    await host.waitFor(objectAt(50), 'the drop');
    bea.send({ cmd: 'delete', id: second });
    await host.waitFor((e) => e.ev === 'deleted' && e.id === second, 'the delete');
    bea.send({ cmd: 'undo' });
    bea.send({ cmd: 'chat', text: 'done' });
    await host.waitFor((e) => e.ev === 'chat' && e.text === 'done', 'the chat');
    host.send({ cmd: 'create', kind: 'ellipse', x: 500, y: 10, w: 40, h: 40 });

    const { states, settled } = await settledBoards([host, bea], 20_000);
    expect(settled).toBe(true);
    const [hostBoard, beaBoard] = states;
    expect(hostBoard?.objects).toBe(3);
    expect(beaBoard?.hash).toBe(hostBoard?.hash);
    expect(await host.quit()).toBe(0);

    const out = execFileSync(process.execPath, [BIN, 'replay', trace], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(JSON.parse(out.trim())).toMatchObject({
      ev: 'replay',
      mirror: 0,
      hash: hostBoard?.hash,
      consistent: true,
      torn: false,
      rollbacks: 0,
    });
  });
});
