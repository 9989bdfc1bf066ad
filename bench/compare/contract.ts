// The JSON-lines contract the baseline clients share with `ghostboard join --script` (the subset the compare
// bench uses): commands on stdin, events on stdout. Knows nothing of any stack.
import { createInterface } from 'node:readline';

export type Command =
  | { cmd: 'pointer'; x: number; y: number }
  | { cmd: 'chat'; text: string }
  | { cmd: 'create'; id: number; x: number; y: number; w: number; h: number }
  | { cmd: 'grab'; id: number }
  | { cmd: 'drag' | 'drop'; id: number; x: number; y: number }
  | { cmd: 'quit' };

/** Every event carries `t`: when it was emitted, ms of CLOCK_MONOTONIC (as `ghostboard --script` stamps its events). */
export function emit(event: Record<string, unknown>): void {
  process.stdout.write(
    JSON.stringify({ ...event, t: Number(process.hrtime.bigint()) / 1e6 }) + '\n',
  );
}

function isCommand(c: unknown): c is Command {
  return typeof c === 'object' && c !== null && typeof (c as { cmd?: unknown }).cmd === 'string';
}

/** Feeds each stdin command to `handle` until `quit` or the end of stdin, then calls `done`. */
export function readCommands(handle: (c: Command) => void, done: () => void): void {
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    let c: unknown;
    try {
      c = JSON.parse(line);
    } catch {
      emit({ ev: 'error', message: 'not JSON' });
      return;
    }
    if (!isCommand(c)) return;
    if (c.cmd === 'quit') {
      rl.close();
      return;
    }
    handle(c);
  });
  rl.on('close', done);
}

/** Exit on SIGTERM like the ghostboard CLI does. */
export function exitOnSignal(cleanup: () => void): void {
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.once(sig, () => {
      cleanup();
      process.exit(0);
    });
  }
}
