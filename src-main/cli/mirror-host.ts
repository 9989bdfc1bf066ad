// `ghostboard host --mirrors` / `--mirror-of LINK` (mirrored/mirror-hosting.ts starts them): what the mirror group
// does, as the CLI contract's `mirror` event lines. Knows nothing of sockets.
import { addressKey } from '../net/address';
import type { MirrorRunEvent } from '../mirrored/mirror-runner';

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
