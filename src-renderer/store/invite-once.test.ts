import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../shared/api';
import { firstInviteOf } from './invite-once';
import type { StringStorage } from './recent';

function memory(): StringStorage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
}

const hosting = (code: string): SessionStatus => ({
  phase: 'hosting',
  name: 'Ana',
  addresses: ['10.0.0.2'],
  port: 7350,
  code,
  you: 0,
});

describe('firstInviteOf', () => {
  it('opens once per hosted session, not again on a reload (same storage)', () => {
    const storage = memory();
    expect(firstInviteOf(storage, hosting('tulip-4821'))).toBe(true);
    expect(firstInviteOf(storage, hosting('tulip-4821'))).toBe(false);
    expect(firstInviteOf(storage, hosting('tulip-4821'))).toBe(false);
  });

  it('opens again for a new session or a new code', () => {
    const storage = memory();
    expect(firstInviteOf(storage, hosting('tulip-4821'))).toBe(true);
    expect(firstInviteOf(storage, hosting('maple-1234'))).toBe(true);
  });

  it('never opens outside hosting; opens when storage refuses', () => {
    expect(firstInviteOf(memory(), { phase: 'idle' })).toBe(false);
    const broken: StringStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(firstInviteOf(broken, hosting('tulip-4821'))).toBe(true);
  });
});
