// A ghost section's fate: what each entry of a packet reported delivered or dropped means for its record (the
// records apply the TRIBES rules themselves). Knows nothing of bits, budgets, scoping or the line.
import type { GhostPacketRecord } from './ghost-section-writer';
import { cancelRepeat } from './ghost-tail-repeat';

/** Hands each entry of a notified packet to its record, in the order written (the order the records expect). */
export function notifyFates(record: GhostPacketRecord, delivered: boolean): void {
  for (const tx of record.entries) {
    if (delivered && tx.kind === 'update' && !tx.repeats) {
      // Nothing to do, so the record is left alone: on a busy host most entries are far pointers whose records
      // would each be a cache miss here (see GhostRecord.lastTx).
      continue;
    }
    // The latest write of those groups arrived: no repeat needed.
    if (delivered && tx.next === undefined) cancelRepeat(tx);
    tx.rec.fate(tx, delivered);
  }
}
