// The app core's two doors to the world, injected so the core runs as well on the simulator as on sockets: the
// sessions it starts (a SessionRunner on a UDP socket, or simulated ones in tests) and the clock with its timers.
// Knows nothing of what the core does with them.
import type { Impairment } from '../net/impairment';
import { monotonicNow } from '../net/transport';
import type { HostRun, JoinRun } from '../session/runner';
import { SessionRunner } from '../session/runner';
import { hostMirrored } from '../mirrored/mirror-hosting';

/** What the core uses of a running session (a SessionRunner has all of it). */
export type SessionHandle = Pick<
  SessionRunner,
  | 'controls'
  | 'address'
  | 'boardNotice'
  | 'registeredAs'
  | 'listedOn'
  | 'publicAddress'
  | 'mirrorLink'
  | 'sessionHosts'
  | 'path'
  | 'pathOfKey'
  | 'onReach'
  | 'flush'
  | 'close'
> & {
  /** The app's own network-conditions control: impairment added to what this session sends. */
  readonly transport: { setConditions(c: Impairment | undefined): void };
};

/** Starts sessions: hosts one, or joins one. */
export interface SessionFactory {
  host(o: HostRun): Promise<SessionHandle>;
  join(o: JoinRun): Promise<SessionHandle>;
}

/** Time in ms and timers on it; each timer returns its cancel. */
export interface CoreClock {
  readonly now: () => number;
  /** Calls `fn` every `ms` until cancelled. */
  every(ms: number, fn: () => void): () => void;
  /** Calls `fn` once after `ms` unless cancelled; a real one never keeps the process alive. */
  after(ms: number, fn: () => void): () => void;
}

export interface CoreIo {
  readonly sessions: SessionFactory;
  readonly clock: CoreClock;
}

export const realSessions: SessionFactory = {
  // The app hosts from a mirror group of one: another host can join it later (its share panel's "Add a mirror"),
  // and then the session outlives either host.
  host: async (o) => (await hostMirrored(o)).session,
  join: (o) => SessionRunner.join(o),
};

export const realClock: CoreClock = {
  now: monotonicNow,
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export const REAL_IO: CoreIo = { sessions: realSessions, clock: realClock };
