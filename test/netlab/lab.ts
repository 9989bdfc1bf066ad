// Network lab for tests: builds internet-like topologies of Linux network namespaces (a core router, public hosts, NAT sites with LAN clients), runs processes inside them and tears it all down; knows nothing of Ghostboard's protocol or of what a test checks.
//
// The choices (a routed core rather than one flat bridge, nftables masquerade kinds, the home router's drop
// rule, `conntrack -F`, a default route for a TURN host) follow what was measured on this machine, written up
// in the network lab notes (NETLAB.md).
import { execFile, execFileSync } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { LabProcess } from './lab-process';
import type { NatRules } from './nat-rules';
import { natRuleset } from './nat-rules';

export { LabProcess } from './lab-process';
export type { LabEvent } from './lab-process';
export type { NatKind, NatRules, UdpAllow } from './nat-rules';
export { natRuleset } from './nat-rules';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROBE = fileURLToPath(new URL('./udp-probe.ts', import.meta.url));
/** Hang guards only: a healthy run never comes near them. */
const COMMAND_MS = 15_000;
/** Interface names are at most IFNAMSIZ - 1 bytes; namespace names are held to the same so both read alike. */
const NAME_MAX = 15;
/** Owner files, one per live lab (its pid), so a later run can remove what a killed run left behind. */
const OWNERS = '/run/ghostboard-netlab';
const NETNS_DIR = '/run/netns';

/** Whether this machine lets a test build namespaces, and if not, why (one line). */
export type Support = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface NatSiteOptions extends NatRules {
  /** Client namespaces on the site's LAN (1 by default; 2 or more for the same-NAT case). */
  readonly clients?: number;
}

/** A namespace and its one IPv4 address (a client's LAN address, a NAT router's WAN address). */
export interface Host {
  readonly ns: string;
  readonly address: string;
}

export interface NatSite {
  /** The NAT router: `address` is its WAN (public) address, its LAN interface is the bridge `lan`. */
  readonly router: Host;
  /** The router's LAN address, each client's default gateway. */
  readonly lanGateway: string;
  readonly clients: readonly Host[];
}

/** A coturn server started by `startTurn`, with what a client needs to mint its time-limited credentials. */
export interface TurnServer {
  readonly host: Host;
  readonly port: number;
  readonly realm: string;
  /** The shared secret of coturn's `--use-auth-secret` scheme. */
  readonly secret: string;
  readonly proc: LabProcess;
}

export interface TurnOptions {
  readonly secret: string;
  /** 3478 by default. */
  readonly port?: number;
  /** 'ghostboard' by default. */
  readonly realm?: string;
  /** Relay ports, inclusive; 49160–49200 by default. */
  readonly relayPorts?: readonly [number, number];
}

function run(command: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: COMMAND_MS }, (err, stdout, stderr) => {
      if (err === null) resolve(stdout);
      else reject(new Error(`${command} ${args.join(' ')}: ${stderr.trim() || err.message}`));
    });
    child.stdin?.end(input);
  });
}

const inNs = (
  ns: string,
  command: string,
  args: readonly string[],
  input?: string,
): Promise<string> => run('ip', ['netns', 'exec', ns, command, ...args], input);

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const stderr = (err as { stderr?: unknown }).stderr;
    const detail =
      typeof stderr === 'string' || Buffer.isBuffer(stderr) ? stderr.toString().trim() : '';
    return detail || err.message;
  }
  return String(err);
}

/** Whether an executable of that name is on PATH (root's PATH includes the sbin directories). */
export function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function toolWorks(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: COMMAND_MS });
    return true;
  } catch {
    return false;
  }
}

let conntrackPresent: boolean | undefined;
const hasConntrack = (): boolean => (conntrackPresent ??= onPath('conntrack'));

/** Root, `ip`, `nft` and a namespace that can really be made and removed. */
export function canMakeNamespaces(): Support {
  if (process.platform !== 'linux') return { ok: false, reason: 'network namespaces need Linux' };
  if (process.getuid?.() !== 0)
    return { ok: false, reason: 'not root: network namespaces need root' };
  if (!toolWorks('ip', ['-V']))
    return { ok: false, reason: '`ip` (Debian package iproute2) is missing' };
  if (!toolWorks('nft', ['--version']))
    return { ok: false, reason: '`nft` (Debian package nftables) is missing' };
  const name = `gbprobe${process.pid.toString(36)}${threadId.toString(36)}`.slice(0, NAME_MAX);
  try {
    execFileSync('ip', ['netns', 'add', name], { stdio: 'pipe', timeout: COMMAND_MS });
  } catch (err) {
    return { ok: false, reason: `\`ip netns add\` failed: ${errorText(err)}` };
  }
  try {
    execFileSync('ip', ['netns', 'del', name], { stdio: 'pipe', timeout: COMMAND_MS });
  } catch (err) {
    return { ok: false, reason: `\`ip netns del\` failed: ${errorText(err)}` };
  }
  return { ok: true };
}

/** Labs of this thread not yet destroyed, for the exit hook. */
const liveLabs = new Set<Lab>();
process.once('exit', () => {
  for (const lab of liveLabs) lab.destroyNow();
});
let labCount = 0;

/** A zombie (killed, not yet reaped by a lax init) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function listNamespaces(): string[] {
  try {
    return readdirSync(NETNS_DIR);
  } catch {
    return [];
  }
}

/** Removes the namespaces (and their processes) of labs whose owning process is gone (killed, crashed). */
export function sweepStaleLabs(): void {
  let owners: string[];
  try {
    owners = readdirSync(OWNERS);
  } catch {
    return;
  }
  for (const prefix of owners) {
    const file = join(OWNERS, prefix);
    let pid: number;
    try {
      pid = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // another run swept it meanwhile
    }
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
    let left = 0;
    for (const ns of listNamespaces().filter((n) => n.startsWith(prefix))) {
      try {
        const pids = execFileSync('ip', ['netns', 'pids', ns], {
          encoding: 'utf8',
          timeout: COMMAND_MS,
        });
        for (const p of pids.split(/\s+/).filter(Boolean)) {
          try {
            process.kill(Number(p), 'SIGKILL');
          } catch {
            // already gone
          }
        }
        execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore', timeout: COMMAND_MS });
      } catch {
        left++;
      }
    }
    // Kept while something is left, so a later sweep tries again.
    if (left === 0) rmSync(file, { force: true });
  }
}

/** `gb` + 4 base-36 digits of the pid + the worker thread + a per-thread count: 8 characters. */
function newPrefix(): string {
  const pid = (process.pid % 36 ** 4).toString(36).padStart(4, '0');
  const thread = (threadId % 36).toString(36);
  for (let i = 0; i < 36; i++) {
    const prefix = `gb${pid}${thread}${(labCount++ % 36).toString(36)}`;
    if (!listNamespaces().some((n) => n.startsWith(prefix))) return prefix;
  }
  throw new Error('no free lab prefix: 36 labs of this thread are alive');
}

/**
 * One topology: a core router namespace (forwarding, one subnet per attached site, a silent blackhole default
 * route), public hosts on 203.0.113.4k+2/30 and NAT sites with WAN 100.64.j.2/24 and LAN 192.168.j.0/24.
 * Everything made is tracked; `destroy()` kills the processes, then removes the namespaces (their veths go too).
 */
export class Lab {
  readonly core: string;
  private readonly namespaces: string[] = [];
  private readonly procs = new Set<LabProcess>();
  private readonly tempDirs: string[] = [];
  private publicCount = 0;
  private siteCount = 0;
  private teardown: Promise<void> | undefined;

  private constructor(readonly prefix: string) {
    this.core = this.name('core');
  }

  /** Builds the core router; on failure removes what it made. */
  static async create(): Promise<Lab> {
    sweepStaleLabs();
    const lab = new Lab(newPrefix());
    liveLabs.add(lab);
    try {
      mkdirSync(OWNERS, { recursive: true });
      writeFileSync(join(OWNERS, lab.prefix), `${process.pid}\n`);
      await lab.addNamespace(lab.core);
      await lab.sysctl(lab.core, 'net.ipv4.ip_forward', '1');
      // Unroutable destinations vanish silently, as on the internet, instead of failing the sender's socket.
      await run('ip', ['-n', lab.core, 'route', 'add', 'blackhole', 'default']);
    } catch (err) {
      await lab.destroy().catch(() => undefined);
      throw err;
    }
    return lab;
  }

  /** A host on the core (a directory server, a TURN relay), default route through the core. */
  async addPublicHost(): Promise<Host> {
    const k = ++this.publicCount;
    if (k > 63) throw new Error('at most 63 public hosts');
    const ns = this.name(`pub${k}`);
    const coreAddr = `203.0.113.${4 * (k - 1) + 1}`;
    const address = `203.0.113.${4 * (k - 1) + 2}`;
    await this.addNamespace(ns);
    await this.link(this.core, `p${k}`, `${coreAddr}/30`, ns, 'eth0', `${address}/30`);
    await run('ip', ['-n', ns, 'route', 'add', 'default', 'via', coreAddr]);
    return { ns, address };
  }

  /** A NAT router on the core with `clients` namespaces behind it on one LAN bridge. */
  async addNatSite(options: NatSiteOptions): Promise<NatSite> {
    const j = ++this.siteCount;
    if (j > 250) throw new Error('at most 250 NAT sites');
    const count = options.clients ?? 1;
    if (count < 1 || count > 9) throw new Error('a NAT site has 1 to 9 clients');
    const router = this.name(`n${j}`);
    const wan = `100.64.${j}.2`;
    const lanGateway = `192.168.${j}.1`;
    await this.addNamespace(router);
    await this.link(this.core, `s${j}`, `100.64.${j}.1/24`, router, 'wan', `${wan}/24`);
    await run('ip', ['-n', router, 'route', 'add', 'default', 'via', `100.64.${j}.1`]);
    await this.sysctl(router, 'net.ipv4.ip_forward', '1');
    // With br_netfilter loaded, bridged LAN traffic would also cross the router's ip filter chains.
    await this.sysctl(router, 'net.bridge.bridge-nf-call-iptables', '0').catch(() => undefined);
    await run('ip', ['-n', router, 'link', 'add', 'lan', 'type', 'bridge']);
    await run('ip', ['-n', router, 'addr', 'add', `${lanGateway}/24`, 'dev', 'lan']);
    await run('ip', ['-n', router, 'link', 'set', 'lan', 'up']);
    const clients: Host[] = [];
    for (let i = 1; i <= count; i++) {
      const ns = this.name(`n${j}c${i}`);
      const address = `192.168.${j}.${10 + i}`;
      await this.addNamespace(ns);
      await this.link(router, `c${i}`, undefined, ns, 'eth0', `${address}/24`);
      await run('ip', ['-n', router, 'link', 'set', `c${i}`, 'master', 'lan']);
      await run('ip', ['-n', ns, 'route', 'add', 'default', 'via', lanGateway]);
      clients.push({ ns, address });
    }
    const site: NatSite = { router: { ns: router, address: wan }, lanGateway, clients };
    await this.setNatRules(site, options);
    return site;
  }

  /** Replaces a NAT router's rules and forgets its connection-tracking state so the new rules apply to all. */
  async setNatRules(site: NatSite, rules: NatRules): Promise<void> {
    await inNs(
      site.router.ns,
      'nft',
      ['-f', '-'],
      natRuleset({ ...rules, wanAddress: site.router.address }),
    );
    await this.flushConntrack(site.router.ns);
  }

  /** `conntrack -F` in a namespace, when the tool is installed. */
  async flushConntrack(ns: string): Promise<void> {
    if (hasConntrack()) await inNs(ns, 'conntrack', ['-F']);
  }

  /** Runs a command to completion inside a namespace and returns its stdout. */
  exec(ns: string, command: string, args: readonly string[] = [], input?: string): Promise<string> {
    return inNs(ns, command, args, input);
  }

  /** Starts a long-running process inside a namespace; it is killed by `stopProcesses()` or `destroy()`. */
  spawn(
    ns: string,
    command: string,
    args: readonly string[],
    label = `${command}@${ns}`,
  ): LabProcess {
    if (this.teardown !== undefined) throw new Error('lab already destroyed');
    const proc = new LabProcess(label, ns, command, args, ROOT);
    this.procs.add(proc);
    void proc.closed.then(() => this.procs.delete(proc));
    return proc;
  }

  /** Runs `udp-probe.ts <mode> ...args` with this Node and tsx inside a namespace. */
  probe(
    ns: string,
    mode: 'serve' | 'ask' | 'binding' | 'punch' | 'relay',
    args: readonly string[],
    label = `${mode}@${ns}`,
  ): LabProcess {
    return this.spawn(ns, process.execPath, ['--import', 'tsx', PROBE, mode, ...args], label);
  }

  /**
   * coturn on a host, as NETLAB.md ran it: UDP/TCP without TLS, time-limited credentials from a shared secret, its
   * SQLite file and pid file in a fresh temporary directory. Resolves once it answers a STUN Binding.
   */
  async startTurn(host: Host, options: TurnOptions): Promise<TurnServer> {
    const port = options.port ?? 3478;
    const realm = options.realm ?? 'ghostboard';
    const [minPort, maxPort] = options.relayPorts ?? [49160, 49200];
    if (this.teardown !== undefined) throw new Error('lab already destroyed');
    const dir = mkdtempSync(join(tmpdir(), 'gb-turn-'));
    this.tempDirs.push(dir);
    const ip = host.address;
    const proc = this.spawn(
      host.ns,
      'turnserver',
      [
        '-n',
        `--listening-ip=${ip}`,
        `--relay-ip=${ip}`,
        `--external-ip=${ip}`,
        `--listening-port=${port}`,
        '--use-auth-secret',
        `--static-auth-secret=${options.secret}`,
        `--realm=${realm}`,
        '--no-tls',
        '--no-dtls',
        '--no-cli',
        `--min-port=${minPort}`,
        `--max-port=${maxPort}`,
        '--log-file=stdout',
        '--simple-log',
        `--db=${join(dir, 'turndb')}`,
        `--pidfile=${join(dir, 'turnserver.pid')}`,
      ],
      `turnserver@${host.ns}`,
    );
    const ready = await this.probe(
      host.ns,
      'binding',
      ['--to', `${ip}:${port}`, '--tries', '100'],
      'turn-ready',
    ).done();
    if (ready.answered !== 1) {
      const said = proc.lines.slice(-5).join(' | ');
      throw new Error(
        `turnserver on ${host.ns} never answered a STUN Binding; it said: ${said || '(nothing)'}`,
      );
    }
    return { host, port, realm, secret: options.secret, proc };
  }

  /** Kills every process this lab started (for afterEach); the namespaces stay. */
  async stopProcesses(): Promise<void> {
    await Promise.all([...this.procs].map((p) => p.kill()));
  }

  /** Kills the processes and removes every namespace; idempotent, and it reports what it could not remove. */
  destroy(): Promise<void> {
    this.teardown ??= this.removeAll();
    return this.teardown;
  }

  /** Synchronous last resort for the exit hook. */
  destroyNow(): void {
    for (const p of this.procs) p.killNow();
    for (const ns of this.namespaces.splice(0).reverse()) {
      try {
        execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore', timeout: COMMAND_MS });
      } catch {
        // nothing more to do while exiting; the next run's sweep removes it
      }
    }
    this.removeTempDirs();
    liveLabs.delete(this);
    rmSync(join(OWNERS, this.prefix), { force: true });
  }

  private removeTempDirs(): void {
    for (const dir of this.tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }

  private async removeAll(): Promise<void> {
    await this.stopProcesses();
    const failed: string[] = [];
    for (const ns of this.namespaces.splice(0).reverse()) {
      await run('ip', ['netns', 'del', ns]).catch((err: unknown) => failed.push(errorText(err)));
    }
    this.removeTempDirs();
    liveLabs.delete(this);
    rmSync(join(OWNERS, this.prefix), { force: true });
    if (failed.length > 0)
      throw new Error(`lab ${this.prefix} left namespaces behind: ${failed.join('; ')}`);
  }

  private name(role: string): string {
    const name = `${this.prefix}${role}`;
    if (name.length > NAME_MAX) throw new Error(`name ${name} is longer than ${NAME_MAX}`);
    return name;
  }

  private async addNamespace(ns: string): Promise<void> {
    if (this.teardown !== undefined) throw new Error('lab already destroyed');
    await run('ip', ['netns', 'add', ns]);
    this.namespaces.push(ns);
    await run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
  }

  /** A veth pair made directly in the two namespaces, so its names only need to be unique inside each. */
  private async link(
    nsA: string,
    ifA: string,
    cidrA: string | undefined,
    nsB: string,
    ifB: string,
    cidrB: string,
  ): Promise<void> {
    await run('ip', [
      '-n',
      nsA,
      'link',
      'add',
      ifA,
      'type',
      'veth',
      'peer',
      'name',
      ifB,
      'netns',
      nsB,
    ]);
    if (cidrA !== undefined) await run('ip', ['-n', nsA, 'addr', 'add', cidrA, 'dev', ifA]);
    await run('ip', ['-n', nsB, 'addr', 'add', cidrB, 'dev', ifB]);
    await run('ip', ['-n', nsA, 'link', 'set', ifA, 'up']);
    await run('ip', ['-n', nsB, 'link', 'set', ifB, 'up']);
  }

  private async sysctl(ns: string, key: string, value: string): Promise<void> {
    await inNs(ns, 'sysctl', ['-qw', `${key}=${value}`]);
  }
}
