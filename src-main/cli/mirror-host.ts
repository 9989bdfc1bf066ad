// `ghostboard host --mirrors` / `--mirror-of LINK` (mirrored/mirror-hosting.ts starts them): what the mirror group
// does, as the CLI contract's `mirror` event lines, and the script's `mirror-stats` command. Knows nothing of
// sockets.
import { addressKey } from '../net/address';
import { monotonicNow } from '../net/transport';
import type { MirrorRunEvent, MirrorRunner } from '../mirrored/mirror-runner';
import type { ScriptExtension } from './script';

/**
 * The script's `mirror-stats` command: one `mirror-stats` line with everything the running mirror counts (its
 * CRIMP, link and clock stats, trailing state sync's, its own counters and the group's), whole, so a bench reads
 * whatever fields this build has (repair latency among them) without this file naming them.
 */
export function mirrorScript(runner: Pick<MirrorRunner, 'current'>): ScriptExtension {
  return (cmd, emit) => {
    if (cmd.cmd !== 'mirror-stats') return false;
    const mirror = runner.current;
    emit({
      ev: 'mirror-stats',
      ...(mirror === undefined
        ? { ready: false }
        : {
            ready: mirror.ready,
            self: mirror.self,
            node: mirror.node.stats(monotonicNow()),
            // A joiner has no trailing states until the group hands it the board.
            tss: mirror.ready ? mirror.tss.stats : null,
            counters: mirror.counters,
            group: mirror.groupStats() ?? null,
          }),
    });
    return true;
  };
}

/** The JSON line of one mirror event (the CLI contract: `ev: "mirror"`, `event` says which). */
export function mirrorLine(e: MirrorRunEvent): Record<string, unknown> {
  switch (e.type) {
    case 'member':
      return { ev: 'mirror', event: 'member', id: e.id, view: e.view };
    case 'joined':
      return {
        ev: 'mirror',
        event: 'joined',
        id: e.id,
        view: e.view,
        ...(e.address === undefined ? {} : { address: addressKey(e.address) }),
      };
    case 'left':
      return { ev: 'mirror', event: 'left', id: e.id, reason: e.reason, view: e.view };
    case 'excluded':
      return { ev: 'mirror', event: 'excluded', view: e.view };
    case 'rollback':
      return { ev: 'mirror', event: 'rollback', effects: e.effects };
    case 'clock':
      return {
        ev: 'mirror',
        event: 'clock',
        id: e.id,
        offset: round1(e.offset),
        error: round1(e.error),
        driftPpm: round1(e.driftPpm),
      };
  }
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
