// The mirrors-scale bench's figures from what one measured window counted: per mirror CPU, per user traffic and
// pointer rates, and the claim's targets. Pure arithmetic; knows nothing of the simulation.
import { percentile, round1 } from '../compare/figures';

/** The claim's limits: one core per mirror, 64 kbit/s down per user. */
const CPU_LIMIT_MS = 1000;
const DOWN_LIMIT_KBPS = 64;

export interface Target {
  readonly limit: number;
  readonly value: number;
  readonly met: boolean;
}

export interface MirrorsScaleFigures {
  readonly setup: Record<string, unknown>;
  /** Users that joined, and whether every host's roster held everyone before the pointers started. */
  readonly joined: number;
  readonly rostersComplete: boolean;
  /**
   * From the hosts' rosters complete to every user's (each user told of every participant), simulated ms; null
   * if that took longer than the bench waits. The window opens after it.
   */
  readonly userRosterDrainMs: number | null;
  /**
   * Per mirror: its process's work (host and mirror), CPU ms per simulated second (1,000 = one core): the wall time
   * of its calls, times the share of the window the simulation was on a core.
   */
  readonly mirrorCpuMsPerSecond: {
    readonly p50: number;
    readonly max: number;
    readonly each: number[];
  };
  /** The same calls' wall time, ms per simulated second (what hostcpu reports; waits for a core included). */
  readonly mirrorWallMsPerSecond: number[];
  /** The busiest mirror's calls' wall time in each simulated second of the window, ms: even, or in bursts. */
  readonly busiestMirrorWallMsEachSecond: number[];
  /** The whole simulation's wall time for each simulated second of the window, ms (the machine's pace). */
  readonly simWallMsEachSecond: number[];
  /** The simulation's CPU time over its wall time in the measured window (1: it never waited for a core). */
  readonly processOnCpuShare: number;
  /** Per user: bytes its mirror sent it on the wire (with IP/UDP), kbit/s. */
  readonly userDownKbps: {
    readonly p50: number;
    readonly p95: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly userUpKbps: { readonly p50: number; readonly max: number };
  /** Per user: packets/s its mirror sent it, and it sent its mirror (host-packet-rates.ts sets both). */
  readonly userDownPps: { readonly p50: number; readonly max: number };
  readonly userUpPps: { readonly p50: number; readonly max: number };
  /** Updates/s each user saw of each other pointer in its cluster (its view), and of pointers elsewhere in all. */
  readonly inViewPointerHz: { readonly mean: number; readonly p5: number };
  readonly outOfViewPointerHz: { readonly mean: number; readonly max: number };
  readonly edits: number;
  readonly chats: number;
  /** Wall time the whole simulation took per simulated second (mirrors, hosts and every user), ms. */
  readonly simMsPerSecond: number;
  readonly targets: { readonly mirrorCpu: Target; readonly userDownKbps: Target };
}

/** What one window counted. */
export interface WindowCounts {
  readonly seconds: number;
  /** Each mirror's calls' wall time, ms. */
  readonly mirrorMs: readonly number[];
  /** Per simulated second of the window: each mirror's calls' wall time, and the simulation's, ms. */
  readonly eachSecond: readonly { readonly mirrorMs: readonly number[]; readonly wallMs: number }[];
  /** The window's wall time and the process's CPU time in it, ms. */
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Each user's bytes down and up on the wire in the window. */
  readonly down: readonly number[];
  readonly up: readonly number[];
  /** Each user's packets down and up in the window. */
  readonly downPackets: readonly number[];
  readonly upPackets: readonly number[];
  /** Each user's pointer updates seen from its view's others (and how many others), and from elsewhere. */
  readonly inView: readonly number[];
  readonly othersInView: readonly number[];
  readonly outOfView: readonly number[];
  readonly edits: number;
  readonly chats: number;
}

const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
const mean = (xs: readonly number[]): number =>
  xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export function summarize(
  setup: Record<string, unknown>,
  joined: number,
  rostersComplete: boolean,
  userRosterDrainMs: number | undefined,
  w: WindowCounts,
): MirrorsScaleFigures {
  const s = w.seconds;
  const kbps = (bytes: readonly number[]): number[] => sorted(bytes.map((b) => (b * 8) / 1000 / s));
  const down = kbps(w.down);
  const up = kbps(w.up);
  const pps = (packets: readonly number[]): { p50: number; max: number } => {
    const xs = sorted(packets.map((n) => n / s));
    return { p50: round1(percentile(xs, 50)), max: round1(xs.at(-1) ?? 0) };
  };
  // On a machine shared with other work, a call's wall time includes waits for a core: the process's CPU time over
  // the window, shared out in proportion to the wall time each mirror's calls took, leaves those out.
  const onCpu = Math.min(1, w.cpuMs / Math.max(1, w.wallMs));
  const cpu = w.mirrorMs.map((ms) => round1((ms * onCpu) / s));
  const inViewHz = sorted(w.inView.map((n, u) => n / s / Math.max(1, w.othersInView[u] ?? 1)));
  const outHz = sorted(w.outOfView.map((n) => n / s));
  const cpuMax = Math.max(...cpu);
  const busiest = cpu.indexOf(cpuMax);
  const downMax = round1(down.at(-1) ?? 0);
  return {
    setup,
    joined,
    rostersComplete,
    userRosterDrainMs: userRosterDrainMs ?? null,
    mirrorCpuMsPerSecond: { p50: round1(percentile(sorted(cpu), 50)), max: cpuMax, each: cpu },
    mirrorWallMsPerSecond: w.mirrorMs.map((ms) => round1(ms / s)),
    busiestMirrorWallMsEachSecond: w.eachSecond.map((e) => round1(e.mirrorMs[busiest] ?? 0)),
    simWallMsEachSecond: w.eachSecond.map((e) => round1(e.wallMs)),
    processOnCpuShare: round1(onCpu * 100) / 100,
    userDownKbps: {
      p50: round1(percentile(down, 50)),
      p95: round1(percentile(down, 95)),
      p99: round1(percentile(down, 99)),
      max: downMax,
    },
    userUpKbps: { p50: round1(percentile(up, 50)), max: round1(up.at(-1) ?? 0) },
    userDownPps: pps(w.downPackets),
    userUpPps: pps(w.upPackets),
    inViewPointerHz: { mean: round1(mean(inViewHz)), p5: round1(percentile(inViewHz, 5)) },
    outOfViewPointerHz: { mean: round1(mean(outHz)), max: round1(outHz.at(-1) ?? 0) },
    edits: w.edits,
    chats: w.chats,
    simMsPerSecond: round1(w.wallMs / s),
    targets: {
      mirrorCpu: { limit: CPU_LIMIT_MS, value: cpuMax, met: cpuMax <= CPU_LIMIT_MS },
      userDownKbps: { limit: DOWN_LIMIT_KBPS, value: downMax, met: downMax <= DOWN_LIMIT_KBPS },
    },
  };
}
