// Why a connection ended, and its wire code in a sealed CLOSE packet. Knows nothing of sockets.

/** Reasons a connection ends; the ones a peer can send travel as a 4-bit code (room to grow). */
export const CLOSE_REASONS = [
  'closed', // the peer left on purpose
  'kicked', // the host removed this peer
  'protocol-error', // the peer sent something malformed or out of range
  'replaced', // a new connection from the same address took over
  'shutdown', // the host is shutting down
  'timeout', // nothing heard for too long (never sent)
  'overflow', // more was waiting to be sent to the peer than the connection keeps
  'stalled', // the peer kept sending but acknowledged nothing for too long
] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

export interface CloseInfo {
  readonly reason: CloseReason;
  /** Human-readable detail, e.g. which field was out of range. */
  readonly detail: string;
  /** True when the peer closed (we received its CLOSE packet). */
  readonly byPeer: boolean;
}

export const CLOSE_REASON_BITS = 4;

export function closeReasonCode(r: CloseReason): number {
  return CLOSE_REASONS.indexOf(r);
}

export function closeReasonFromCode(code: number): CloseReason | undefined {
  return CLOSE_REASONS[code];
}
