#!/usr/bin/env node
// Runs a test command with a stall watchdog: `node scripts/run-bounded.js [--stall-min N] -- cmd args...`.
//
// Why: the suites bound every test themselves (vitest's testTimeout, Playwright's timeout), but the runners
// can wedge outside any test. Vitest 4's forks pool was seen here parked forever after a file finished (main
// process and worker both asleep, no output), which no per-test timeout catches and which ate CI's whole
// budget. A run that prints nothing for the stall limit is wedged, not slow: the longest silent stretch of a
// healthy run is one test, well under its hang guard. The watchdog kills the command's whole process group
// and runs it once more, saying so loudly; a second stall, like any failure, fails the step.
import { spawn, spawnSync } from 'node:child_process';

const argv = process.argv.slice(2);
let stallMinutes = 8;
let tries = 2;
while (argv.length > 0 && argv[0] !== '--') {
  const flag = argv.shift();
  const value = Number(argv.shift());
  if (flag === '--stall-min' && value > 0) stallMinutes = value;
  else if (flag === '--tries' && Number.isInteger(value) && value > 0) tries = value;
  else {
    console.error(`run-bounded: bad option ${flag}`);
    process.exit(2);
  }
}
argv.shift();
if (argv.length === 0) {
  console.error('usage: run-bounded.js [--stall-min N] [--tries N] -- command args...');
  process.exit(2);
}
const [command, ...args] = argv;
const stallMs = stallMinutes * 60_000;
// Windows (CI's desktop workflow) has no process groups or signals, and npm's .bin shims there are .cmd files,
// which only a shell can start: the command goes through cmd and a stall kills its process tree with taskkill.
const WINDOWS = process.platform === 'win32';

/** One run; resolves to the exit code, or 'stalled' after killing a wedged run. */
function runOnce() {
  return new Promise((resolve) => {
    // Its own process group, so a wedged runner goes down with every worker and child it started.
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: !WINDOWS,
      shell: WINDOWS,
    });
    let last = Date.now();
    let stalled = false;
    const forward = (stream) => (chunk) => {
      last = Date.now();
      stream.write(chunk);
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    const killGroup = (signal) => {
      if (WINDOWS) {
        spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
        return;
      }
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const watchdog = setInterval(() => {
      if (Date.now() - last < stallMs) return;
      stalled = true;
      clearInterval(watchdog);
      console.error(
        `\nrun-bounded: no output for ${stallMinutes} min from "${argv.join(' ')}": killing it (wedged runner)`,
      );
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 10_000).unref();
    }, 5_000);
    const onSignal = (signal) => {
      killGroup(signal);
      process.exit(1);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    child.on('error', (e) => {
      console.error(`run-bounded: cannot start ${command}: ${e.message}`);
      clearInterval(watchdog);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      clearInterval(watchdog);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // Workers the runner left behind die with it.
      killGroup('SIGKILL');
      resolve(stalled ? 'stalled' : (code ?? (signal ? 1 : 0)));
    });
  });
}

for (let attempt = 1; attempt <= tries; attempt++) {
  const result = await runOnce();
  if (result !== 'stalled') process.exit(result);
  if (attempt < tries)
    console.error(
      `run-bounded: running "${argv.join(' ')}" again (try ${attempt + 1} of ${tries})`,
    );
}
console.error(`run-bounded: "${argv.join(' ')}" stalled ${tries} times`);
process.exit(1);
