// A simulated process's own work, timed: wraps the calls the simulator (or the test's ticks) make into one
// process's objects so their wall time adds up on that process's clock. Knows nothing of what the calls do.

export interface HostClock {
  ms: number;
  /** Some call ran since the process's next timeout was last asked for. */
  acted: boolean;
  /** Timed calls so far (polls aside): a poll that found nothing is not timed again until this moves. */
  calls: number;
  /** Calls of this clock now running: a call made from inside another is already timed by it. */
  depth: number;
}

export function hostClock(): HostClock {
  return { ms: 0, acted: true, calls: 0, depth: 0 };
}

/** `f`, with its wall time added to `acc.ms` on every call (once, when one timed call makes another). */
export function timed<A extends unknown[], R>(acc: HostClock, f: (...a: A) => R): (...a: A) => R {
  return function hostCall(...a: A): R {
    acc.acted = true;
    acc.calls++;
    if (acc.depth > 0) return f(...a);
    acc.depth++;
    const t = performance.now();
    try {
      return f(...a);
    } finally {
      acc.ms += performance.now() - t;
      acc.depth--;
    }
  };
}

/**
 * A process's `nextTimeout`, timed on the first call after other work of it only. A real process asks once per
 * turn of its event loop, after the datagrams and timers it handled; the simulator asks every endpoint at each of
 * its steps (about 180 times per datagram a host sends at 256 peers), and those repeats find nothing changed.
 * Timing them too made no difference that showed through the hostcpu bench's noise (three alternating pairs at 256
 * peers on 2026-11-24: 1,101 / 1,035 / 1,017 ms/s timing every call, 991 / 1,036 the first per turn), but they are
 * not work a real process does.
 */
export function timedOncePerTurn<R>(acc: HostClock, f: () => R): () => R {
  const inner = timed(acc, f);
  return function hostNextTimeout(): R {
    if (!acc.acted) return f();
    const r = inner();
    acc.acted = false;
    return r;
  };
}

/**
 * A process's `pollTransmit` (per socket), timed until it first finds nothing after other work of the
 * process. A real process drains its datagrams after each of its own calls; the simulator polls every endpoint
 * after every datagram it delivers anywhere (at 1,000 users the busiest mirror's two polls were called 300,000
 * times a second, nearly all finding nothing: 130 ms/s of its figure), and those polls are not the process's work.
 * Nor does a poll move the process's next timeout (see timedOncePerTurn): it leaves `acted` alone.
 */
export function timedPoll<A extends unknown[], R>(
  acc: HostClock,
  f: (...a: A) => R | undefined,
): (...a: A) => R | undefined {
  // Per socket: a mirror's one poll serves its two sockets, named by the first argument.
  const drainedAt = new Map<unknown, number>();
  return function hostPoll(...a: A): R | undefined {
    if (drainedAt.get(a[0]) === acc.calls || acc.depth > 0) return f(...a);
    acc.depth++;
    const t = performance.now();
    try {
      const r = f(...a);
      if (r === undefined) drainedAt.set(a[0], acc.calls);
      return r;
    } finally {
      acc.ms += performance.now() - t;
      acc.depth--;
    }
  };
}
