// The app's own network-conditions control (loss, delay and a bandwidth cap the user adds to what this app sends,
// to show how it degrades) as the impairment a session's transport applies. Pure; knows nothing of sessions.
import type { NetworkConditions } from '../../shared/api';
import type { Impairment } from '../net/impairment';
import { NO_IMPAIRMENT } from '../net/impairment';

/** The impairment to send through; undefined when none is set. */
export function impairmentOf(c: NetworkConditions): Impairment | undefined {
  const none = c.lossPct === 0 && c.delayMs === 0 && c.kbps === 0;
  return none
    ? undefined
    : {
        ...NO_IMPAIRMENT,
        loss: c.lossPct / 100,
        delayMs: c.delayMs,
        bandwidthBps: c.kbps * 1000,
        maxQueueMs: 500,
      };
}
