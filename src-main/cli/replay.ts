// `ghostboard replay TRACE [--delays MS,MS…] [--spread MS] [--seed N]`: re-executes a mirror command trace and
// reports the board hash it makes and what a trailing state synchronizer with those delays would do on the way
// (rollbacks, re-executed commands, late commands). Reads the file (bounded); the work is mirror/replay.ts's.
import { open } from 'node:fs/promises';
import { replay } from '../mirror/replay';
import { decodeTrace, isTrace, MAX_TRACE_BYTES, traceErrorText } from '../mirror/trace';

export interface ReplayArgs {
  readonly delays: string | undefined;
  readonly spread: string | undefined;
  readonly seed: string | undefined;
}

export const DEFAULT_REPLAY_DELAYS = [100, 1000];
const MAX_DELAY_MS = 60_000;

/** The delays as given ("100,1000"): positive, increasing, whole ms; undefined when not. */
export function parseDelays(s: string): number[] | undefined {
  const d = s.split(',').map((x) => Number(x.trim()));
  const ok =
    d.length > 0 &&
    d.length <= 8 &&
    d.every(
      (x, i) =>
        Number.isInteger(x) && x > 0 && x <= MAX_DELAY_MS && (i === 0 || x > (d[i - 1] ?? 0)),
    );
  return ok ? d : undefined;
}

/** The `replay` event line, or why there is none. */
export async function replayTraceFile(
  path: string,
  args: ReplayArgs,
): Promise<{ readonly line: Record<string, unknown> } | { readonly fail: string }> {
  const delays = args.delays === undefined ? DEFAULT_REPLAY_DELAYS : parseDelays(args.delays);
  if (delays === undefined)
    return { fail: `--delays ${args.delays ?? ''}: increasing ms, e.g. 100,1000` };
  const spread = args.spread === undefined ? undefined : Number(args.spread);
  if (spread !== undefined && !(Number.isInteger(spread) && spread >= 0 && spread <= MAX_DELAY_MS))
    return { fail: `--spread ${args.spread ?? ''}: one-way ms 0..${MAX_DELAY_MS}` };
  const seed = args.seed === undefined ? 1 : Number(args.seed);
  if (!Number.isSafeInteger(seed)) return { fail: `--seed ${args.seed ?? ''}` };
  const bytes = await readBounded(path);
  if (bytes === undefined) return { fail: `${path}: larger than ${MAX_TRACE_BYTES} bytes` };
  const trace = decodeTrace(bytes);
  if (!isTrace(trace)) return { fail: `${path}: ${traceErrorText(trace)}` };
  const r = replay(trace.mirror, trace.records, {
    delays,
    seed,
    ...(spread === undefined ? {} : { spread }),
  });
  const s = r.stats;
  return {
    line: {
      ev: 'replay',
      trace: path,
      mirror: trace.mirror,
      commands: r.commands,
      torn: trace.torn,
      hash: r.hash,
      delays,
      spread: spread ?? null,
      leadingHash: r.leadingHash,
      consistent: r.consistent,
      rollbacks: s.leadingRollbacks,
      trailingRollbacks: s.rollbacks - s.leadingRollbacks,
      reexecuted: s.reexecuted,
      maxDepth: s.maxDepth,
      late: s.late,
      duplicates: s.duplicates,
    },
  };
}

/** The file's bytes, or undefined when it is larger than any trace may be (not read then). */
async function readBounded(path: string): Promise<Uint8Array | undefined> {
  const f = await open(path, 'r');
  try {
    const { size } = await f.stat();
    if (size > MAX_TRACE_BYTES) return undefined;
    const buf = new Uint8Array(size);
    const { bytesRead } = await f.read(buf, 0, size, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}
