// A lone host as a mirror group of one: its session's operations executed through mirror 0 of a group with no other
// member, so its command log is a mirror's (a trace `ghostboard replay` re-executes) and its ids and participants
// follow the group's rules from the start. Nothing to link or reorder: one trailing state, there only to release
// what the leading state ran. Knows nothing of files or sockets.
import type { Board } from '../session/board';
import { Rng } from '../net/rng';
import { Mirror } from '../mirror/mirror';
import { generateMirrorSecret } from '../mirror/mirror-links';
import type { TraceRecord } from '../mirror/trace';
import { MirrorExecutor } from './mirror-executor';

/** The one trailing state's delay (ms): a group of one has nothing to wait for. */
const SOLO_DELAYS = [100];

export interface SoloOptions {
  /** The driver's clock now (ms). */
  readonly now: number;
  /** Each command as mirror 0 takes it (its trace's records). */
  readonly record?: (r: TraceRecord) => void;
}

/** The executor of a lone host whose commands go through a mirror group of one (HostSessionOptions.executor). */
export function soloMirrorExecutor(o: SoloOptions): (board: Board) => MirrorExecutor {
  return (board) => {
    const s = board.state;
    const mirror = new Mirror({
      self: 0,
      members: [0],
      secret: generateMirrorSecret(),
      rng: new Rng(1),
      now: o.now,
      delays: SOLO_DELAYS,
      // The mirror's states start as copies of the session's board (the states change in place; the board does not).
      board: { objects: new Map(s.objects), nextId: s.nextId, topZ: s.topZ },
      ...(o.record === undefined ? {} : { record: o.record }),
    });
    return new MirrorExecutor(mirror, board);
  };
}
