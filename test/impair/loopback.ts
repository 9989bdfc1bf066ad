// Loopback-only socket helpers for the impairment proxy: which family an address needs, the loopback guard, a close that never throws; knows nothing of impairment.
import type dgram from 'node:dgram';
import { isIP } from 'node:net';

export function familyOf(address: string): 'udp4' | 'udp6' {
  return isIP(address) === 6 ? 'udp6' : 'udp4';
}

/** Tests may only talk to loopback; anything else is a programmer error. */
export function assertLoopback(what: string, address: string): void {
  const v = isIP(address);
  const ok = (v === 4 && address.startsWith('127.')) || (v === 6 && address === '::1');
  if (!ok)
    throw new RangeError(
      `ImpairmentProxy ${what} must be a loopback IP (127.0.0.0/8 or ::1), got ${address}`,
    );
}

export function closeSocket(socket: dgram.Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => {
        resolve();
      });
    } catch {
      resolve(); // already closed
    }
  });
}
