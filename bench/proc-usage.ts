// A child process's CPU time and resident memory as Linux's /proc tells them, for benches that measure the
// processes they start (every thread of the process counts: V8's and libuv's too). Knows nothing of what runs there.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** /proc's clock ticks per second (USER_HZ). */
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of a process so far, seconds; NaN when it has no pid or is gone. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return NaN;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Resident memory of a process, MB (one decimal); NaN when it has no pid or is gone. */
export function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Math.round(Number(m?.[1]) / 102.4) / 10;
  } catch {
    return NaN;
  }
}
