// How a closed connection reads to the person who joined: a host leaving on purpose is not a link failing.
import { describe, expect, it } from 'vitest';
import { CLOSE_REASONS } from '../net/close-reason';
import { endOf } from './peer';

describe('endOf', () => {
  it('maps every close reason, and says "error" with the cause for a close that is not a departure', () => {
    expect(endOf({ reason: 'closed', detail: 'bye', byPeer: true })).toEqual({
      reason: 'host-left',
      detail: 'bye',
    });
    expect(endOf({ reason: 'shutdown', detail: '', byPeer: true }).reason).toBe('host-left');
    expect(endOf({ reason: 'kicked', detail: 'be nice', byPeer: true })).toEqual({
      reason: 'kicked',
      detail: 'be nice',
    });
    expect(endOf({ reason: 'timeout', detail: 'nothing heard', byPeer: false }).reason).toBe(
      'timeout',
    );
    expect(
      endOf({ reason: 'stalled', detail: 'no packet acknowledged for 5000 ms', byPeer: true }),
    ).toEqual({
      reason: 'error',
      detail: 'the host closed the link (stalled: no packet acknowledged for 5000 ms)',
    });
    expect(endOf({ reason: 'overflow', detail: '', byPeer: false })).toEqual({
      reason: 'error',
      detail: 'the link was closed (overflow)',
    });
    for (const reason of CLOSE_REASONS)
      expect(endOf({ reason, detail: '', byPeer: true }).reason, reason).not.toBe('');
  });
});
