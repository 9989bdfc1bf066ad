// The reason an ended session's status gives: the one it ended for when the renderer has a message for it, else
// 'error'. Pure; knows nothing of sessions or of rejoining.
import type { EndReason } from '../../shared/api';

const KNOWN = [
  'left',
  'kicked',
  'host-left',
  'timeout',
  'wrong-code',
  'version-mismatch',
  'full',
  'rate-limited',
  'banned',
  'code-locked',
  'unreachable',
  'not-found',
  'error',
];

/** `ended`: why the session ended, as its runner (or the core) said. */
export function endReason(ended: string): EndReason {
  return (KNOWN.includes(ended) ? ended : 'error') as EndReason;
}
