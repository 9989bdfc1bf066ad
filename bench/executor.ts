// Host CPU per board operation, direct against mirror-backed: one HostSession on a board of 1,000 objects runs a
// fixed mix of its own user's operations (edits, restacks, grab and drop, create and delete) through each executor —
// the lone host's direct one, a mirror group of one (`host --trace`: one trailing state), and a mirror with the
// group's default two trailing states (100 and 1,000 ms). Times the host's calls and its ticks (which move the
// trailing states on) per operation, µs; each executor runs GB_EXECUTOR_RUNS times (5), median reported.
import { performance } from 'node:perf_hooks';
import { newRect } from '../shared/testing/rect';
import type { ObjectId } from '../shared/board';
import { Rng } from '../src-main/net/rng';
import { Mirror } from '../src-main/mirror/mirror';
import { generateMirrorSecret } from '../src-main/mirror/mirror-links';
import type { Board } from '../src-main/session/board';
import { isRefusal } from '../src-main/session/board';
import type { BoardExecutor } from '../src-main/session/board-executor';
import { HostSession } from '../src-main/session/host';
import { MirrorExecutor } from '../src-main/mirrored/mirror-executor';
import { soloMirrorExecutor } from '../src-main/mirrored/solo';

const OBJECTS = 1_000;
const OPS = Number(process.env.GB_EXECUTOR_OPS ?? 20_000);
const RUNS = Number(process.env.GB_EXECUTOR_RUNS ?? 5);
const TICK_EVERY = 50;

type Factory = (board: Board) => BoardExecutor;

const EXECUTORS: Record<string, Factory | undefined> = {
  direct: undefined,
  soloMirror: soloMirrorExecutor({ now: 0 }),
  mirrorTwoTrailing: (board) =>
    new MirrorExecutor(
      new Mirror({
        self: 0,
        members: [0],
        secret: generateMirrorSecret(),
        rng: new Rng(1),
        now: 0,
        delays: [100, 1000],
      }),
      board,
    ),
};

/** µs per operation of one run: the mix below, OPS operations, one virtual ms apart. */
function runOnce(executor: Factory | undefined, seed: number): number {
  const host = new HostSession(
    { name: 'Bench', joinCode: 'BENCH-HOSTCPU', ...(executor ? { executor } : {}) },
    0,
  );
  const rng = new Rng(seed);
  const ids: ObjectId[] = [];
  for (let i = 0; i < OBJECTS; i++) {
    const o = host.create(newRect({ x: (i % 40) * 50, y: Math.floor(i / 40) * 50 }), 0);
    if (isRefusal(o)) throw new Error(o.refused);
    ids.push(o.id);
  }
  let now = 1;
  let ms = 0;
  for (let k = 0; k < OPS; k++, now++) {
    const id = ids[rng.int(ids.length)] ?? 0;
    const roll = k % 8;
    const t = performance.now();
    if (roll < 3) host.edit(id, { x: rng.range(-900, 900) }, now);
    else if (roll === 3) host.restack(id, rng.bool(), now);
    else if (roll === 4) host.grab(id, now);
    else if (roll === 5) host.drop(id, rng.range(-900, 900), 0, now);
    else if (roll === 6) {
      const o = host.create(newRect({ x: rng.range(-900, 900), y: 0 }), now);
      if (!isRefusal(o)) ids.push(o.id);
    } else {
      const gone = ids.splice(rng.int(ids.length), 1)[0];
      if (gone !== undefined) host.remove(gone, now);
    }
    if (k % TICK_EVERY === 0) host.tick(now);
    ms += performance.now() - t;
  }
  const finalHash = host.board.hash();
  host.close(now);
  if (finalHash === '') throw new Error('no board');
  return (ms * 1000) / OPS;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const round = (x: number): number => Math.round(x * 100) / 100;

export function run(): Promise<Record<string, unknown>> {
  const usPerOp: Record<string, number> = {};
  // Warm the JIT on every path first, then alternate the executors run by run.
  for (const f of Object.values(EXECUTORS)) runOnce(f, 1);
  const samples: Record<string, number[]> = {};
  for (let r = 0; r < RUNS; r++)
    for (const [name, f] of Object.entries(EXECUTORS))
      (samples[name] ??= []).push(runOnce(f, r + 2));
  for (const [name, xs] of Object.entries(samples)) usPerOp[name] = round(median(xs));
  const direct = usPerOp.direct ?? NaN;
  const solo = usPerOp.soloMirror ?? NaN;
  const two = usPerOp.mirrorTwoTrailing ?? NaN;
  for (const [name, xs] of Object.entries(samples))
    console.error(`${name}: ${xs.map((x) => round(x)).join(' ')} µs/op`);
  // A mirror-backed host must take operations far faster than any session sends them: 10,000 a second on one core
  // (a hundred users at two a second each would then cost it 2 % of a core) is under 100 µs each.
  const limit = 100;
  return Promise.resolve({
    objects: OBJECTS,
    ops: OPS,
    runs: RUNS,
    usPerOp,
    soloMirrorOverDirect: round(solo / direct),
    mirrorTwoTrailingOverDirect: round(two / direct),
    targets: {
      soloMirrorUsPerOp: { limit, value: solo, met: solo <= limit },
      mirrorTwoTrailingUsPerOp: { limit, value: two, met: two <= limit },
    },
  });
}
