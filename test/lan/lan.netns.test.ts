// LAN discovery between network namespaces: a host (the app core, LAN presence on) on a 192.168.77.0/24 bridge
// is found by `discover` and by a browser on the same bridge, with its port and name and without its join code
// on the wire; a namespace on another subnet behind a router does not see it (mDNS is link-local), though it
// can reach the host by unicast; joining at the listed address re-announces it with two users without a gap in
// the list, and the host's goodbye removes it.
import { execFile, execFileSync, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../shared/version';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const child = (f: string): string => fileURLToPath(new URL(`./${f}`, import.meta.url));
/** Hang guards only: a healthy run is far inside them (and inside the 75 s TTL cap a goodbye must beat). */
const COMMAND_MS = 15_000;
const WAIT_MS = 30_000;
/** Namespaces are named gblan-<pid base 36>-<role>: the pid lets a later run remove what a killed one left. */
const PREFIX = 'gblan-';
const OURS = /^gblan-([0-9a-z]+)-[a-z]$/;
const CODE = 'ORBIT-LANTERN-7Q4K';
const NAME = 'Ana’s LAN board';

type Ev = Readonly<Record<string, unknown>> & { readonly ev: string };

function run(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('ip', args, { timeout: COMMAND_MS }, (err, stdout, stderr) => {
      if (err === null) resolve(stdout);
      else reject(new Error(`ip ${args.join(' ')}: ${stderr.trim() || err.message}`));
    });
  });
}

/** Why this machine cannot run the test, or null when it can (root, `ip`, a namespace made and removed). */
function unsupported(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'not root';
  const probe = `${PREFIX}${process.pid.toString(36)}-p`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe', timeout: COMMAND_MS });
    execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe', timeout: COMMAND_MS });
  } catch (e) {
    return `cannot create network namespaces (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
  return null;
}

/** Namespaces a killed earlier run left behind (its pid is in the name and no longer alive). */
function sweepStale(): void {
  let names: string[] = [];
  try {
    names = readdirSync('/run/netns').filter((n) => OURS.test(n));
  } catch {
    return;
  }
  for (const n of names) {
    const pid = Number.parseInt(OURS.exec(n)?.[1] ?? '', 36);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (alive) continue;
    try {
      execFileSync('ip', ['netns', 'del', n], { stdio: 'ignore', timeout: COMMAND_MS });
    } catch {
      // best effort
    }
  }
}

/** A process inside a namespace, in its own process group so a kill by PID reaches all of it. */
class NsProcess {
  readonly events: Ev[] = [];
  readonly closed: Promise<void>;
  private exited = false;
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly wakers = new Set<() => void>();
  private stderr = '';

  constructor(
    readonly label: string,
    ns: string,
    args: readonly string[],
  ) {
    this.proc = spawn('ip', ['netns', 'exec', ns, ...args], { cwd: ROOT, detached: true });
    this.proc.stdin.on('error', () => undefined);
    this.proc.stderr.on(
      'data',
      (b: Buffer) => (this.stderr = (this.stderr + String(b)).slice(-2000)),
    );
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      try {
        const v = JSON.parse(line) as Record<string, unknown>;
        this.events.push({ ...v, ev: typeof v.ev === 'string' ? v.ev : '' });
      } catch {
        // not an event
      }
      for (const w of [...this.wakers]) w();
    });
    this.closed = new Promise((resolve) => {
      this.proc.once('close', () => {
        this.exited = true;
        for (const w of [...this.wakers]) w();
        resolve();
      });
    });
  }

  write(line: string): void {
    this.proc.stdin.write(`${line}\n`);
  }

  endInput(): void {
    this.proc.stdin.end();
  }

  waitFor(pred: (e: Ev) => boolean, what: string): Promise<Ev> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(check);
      };
      const check = (): void => {
        const hit = this.events.find(pred);
        if (hit !== undefined) {
          done();
          resolve(hit);
        } else if (this.exited) {
          done();
          reject(new Error(`${this.label} ended before ${what}; stderr: ${this.stderr.trim()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`${this.label}: no ${what} in ${WAIT_MS} ms; stderr: ${this.stderr.trim()}`),
        );
      }, WAIT_MS);
      this.wakers.add(check);
      check();
    });
  }

  kill(): void {
    if (this.exited || this.proc.pid === undefined) return;
    try {
      process.kill(-this.proc.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

const reason = unsupported();
if (reason !== null) console.warn(`LAN netns test skipped: ${reason}`);

describe.skipIf(reason !== null)('LAN discovery across namespaces', () => {
  const id = `${PREFIX}${process.pid.toString(36)}-`;
  const ns = {
    router: `${id}r`,
    a: `${id}a`,
    b: `${id}b`,
    far: `${id}f`,
  };
  const made: string[] = [];
  const procs: NsProcess[] = [];
  const start = (label: string, where: string, script: string, args: string[] = []): NsProcess => {
    const p = new NsProcess(label, where, [
      process.execPath,
      '--import',
      'tsx',
      child(script),
      ...args,
    ]);
    procs.push(p);
    return p;
  };

  beforeAll(async () => {
    sweepStale();
    for (const n of [ns.router, ns.a, ns.b, ns.far]) {
      await run(['netns', 'add', n]);
      made.push(n);
      await run(['-n', n, 'link', 'set', 'lo', 'up']);
    }
    const r = ns.router;
    await run(['netns', 'exec', r, 'sysctl', '-qw', 'net.ipv4.ip_forward=1']);
    await run(['-n', r, 'link', 'add', 'br0', 'type', 'bridge']);
    await run(['-n', r, 'addr', 'add', '192.168.77.1/24', 'dev', 'br0']);
    await run(['-n', r, 'link', 'set', 'br0', 'up']);
    for (const [n, host] of [
      [ns.a, '10'],
      [ns.b, '11'],
    ] as const) {
      const port = `v${n.slice(-1)}`;
      await run(['-n', r, 'link', 'add', port, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', n]);
      await run(['-n', r, 'link', 'set', port, 'master', 'br0', 'up']);
      await run(['-n', n, 'addr', 'add', `192.168.77.${host}/24`, 'dev', 'eth0']);
      await run(['-n', n, 'link', 'set', 'eth0', 'up']);
      await run(['-n', n, 'route', 'add', 'default', 'via', '192.168.77.1']);
    }
    // Another subnet one routed hop away: reachable by unicast, outside mDNS's link-local scope.
    await run([
      '-n',
      r,
      'link',
      'add',
      'vfar',
      'type',
      'veth',
      'peer',
      'name',
      'eth0',
      'netns',
      ns.far,
    ]);
    await run(['-n', r, 'addr', 'add', '192.168.78.1/24', 'dev', 'vfar']);
    await run(['-n', r, 'link', 'set', 'vfar', 'up']);
    await run(['-n', ns.far, 'addr', 'add', '192.168.78.10/24', 'dev', 'eth0']);
    await run(['-n', ns.far, 'link', 'set', 'eth0', 'up']);
    await run(['-n', ns.far, 'route', 'add', 'default', 'via', '192.168.78.1']);
  }, 60_000);

  afterAll(async () => {
    for (const p of procs) p.kill();
    await Promise.race([
      Promise.all(procs.map((p) => p.closed)),
      new Promise((r) => setTimeout(r, 5000)),
    ]);
    const failed: string[] = [];
    for (const n of made.splice(0).reverse())
      await run(['netns', 'del', n]).catch((e: unknown) => failed.push(String(e)));
    expect(failed).toEqual([]);
  }, 60_000);

  it('finds a host on the same bridge, not behind a router; no code in the TXT; join updates, goodbye removes', async () => {
    const watch = start('watcher', ns.b, 'watch-child.ts');
    await watch.waitFor((e) => e.ev === 'ready', 'ready');
    const host = start('host', ns.a, 'host-child.ts', [NAME, CODE, '7350']);
    const ready = await host.waitFor((e) => e.ev === 'ready' || e.ev === 'error', 'ready');
    expect(ready.ev).toBe('ready');
    const readyAt = Number(ready.t);

    const near = start('discover (same LAN)', ns.b, 'discover-child.ts', ['3']);
    const far = start('discover (other subnet)', ns.far, 'discover-child.ts', ['3']);
    const [nearDone, farDone] = await Promise.all([
      near.waitFor((e) => e.ev === 'done', 'done'),
      far.waitFor((e) => e.ev === 'done', 'done'),
    ]);
    expect(nearDone.count).toBe(1);
    const found = near.events.find((e) => e.ev === 'session');
    expect(found).toMatchObject({
      name: NAME,
      address: '192.168.77.10',
      port: 7350,
      version: PROTOCOL_VERSION,
      users: 1,
    });
    expect(String(found?.id)).toMatch(/^[0-9a-f]{16}$/);
    expect(farDone.count).toBe(0);
    expect(far.events.filter((e) => e.ev === 'session')).toEqual([]);

    // The far side is routed to the host (so only mDNS's scope kept it out): one UDP round trip.
    const echo = start('echo', ns.a, 'udp-echo-child.ts', ['serve', '9999']);
    await echo.waitFor((e) => e.ev === 'ready', 'ready');
    const ask = start('ask', ns.far, 'udp-echo-child.ts', ['ask', '192.168.77.10', '9999']);
    expect((await ask.waitFor((e) => e.ev === 'done', 'done')).ok).toBe(true);

    const seen = await watch.waitFor(
      (e) => e.ev === 'list' && JSON.stringify(e.sessions).includes(String(found?.id)),
      'the session in the list',
    );
    const txts = watch.events.filter((e) => e.ev === 'txt');
    expect(txts.length).toBeGreaterThan(0);
    const wire = JSON.stringify(txts.map((e) => e.strings)).toLowerCase();
    for (const part of [CODE, ...CODE.split('-')]) expect(wire).not.toContain(part.toLowerCase());
    for (const e of txts)
      for (const s of e.strings as string[])
        expect(['txtvers', 'v', 'id', 'n', 'u']).toContain(s.split('=')[0]);

    // Joining at the listed address with the code (what the start screen leads to) re-announces the session
    // with two users; the browser replaces the entry without dropping it.
    const joiner = start('joiner', ns.b, 'join-child.ts', [`${String(found?.address)}:7350`, CODE]);
    expect((await joiner.waitFor((e) => e.ev === 'joined' || e.ev === 'ended', 'joined')).ev).toBe(
      'joined',
    );
    const two = await watch.waitFor(
      (e) =>
        e.ev === 'list' &&
        (e.sessions as { id: string; users: number | null }[]).some(
          (x) => x.id === found?.id && x.users === 2,
        ),
      'two users',
    );
    expect(Number(two.t)).toBeGreaterThan(Number(seen.t));
    joiner.endInput();
    await joiner.waitFor((e) => e.ev === 'done', 'done');

    host.write('leave');
    await host.waitFor((e) => e.ev === 'left', 'left');
    const gone = await watch.waitFor(
      (e) =>
        e.ev === 'list' &&
        Number(e.t) > Number(seen.t) &&
        !JSON.stringify(e.sessions).includes(String(found?.id)),
      'the goodbye',
    );
    const leftAt = Number(host.events.find((e) => e.ev === 'left')?.t);
    const between = watch.events.filter(
      (e) => e.ev === 'list' && Number(e.t) > Number(seen.t) && Number(e.t) < leftAt,
    );
    for (const e of between) expect(JSON.stringify(e.sessions)).toContain(String(found?.id));
    // Figures for the report, not thresholds (CLOCK_MONOTONIC is shared by every namespace's process).
    console.log(
      `LAN discovery: discover found the host in ${String(found?.ms)} ms; the watcher listed it ` +
        `${Number(seen.t) - readyAt} ms after the host was ready; the goodbye removed it ` +
        `${Number(gone.t) - leftAt} ms after leave (1 s grace included)`,
    );
    host.endInput();
    watch.endInput();
    await Promise.all([
      host.waitFor((e) => e.ev === 'done', 'done'),
      watch.waitFor((e) => e.ev === 'done', 'done'),
    ]);
  }, 120_000);
});
