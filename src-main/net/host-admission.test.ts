// A host's admission memory: a weak code locks after its failures (until a new code), bans and replays are
// remembered, and answered RESPONSEs are forgotten once their cookie is long expired. Pure; time passed in.
import { describe, expect, it } from 'vitest';
import { COOKIE_LIFETIME_MS } from './crypto';
import type { EndpointCounters } from './endpoint-types';
import { DEFAULT_ENDPOINT_OPTIONS, newEndpointCounters } from './endpoint-types';
import { HostAdmission } from './host-admission';

function admission(joinCode: string): { a: HostAdmission; counters: EndpointCounters } {
  const counters = newEndpointCounters();
  const options = {
    ...DEFAULT_ENDPOINT_OPTIONS,
    joinCode,
    protocolVersion: 1,
    codeLockFailures: 3,
  };
  return { a: new HostAdmission(options, counters), counters };
}

describe('HostAdmission', () => {
  it('locks a weak code after its failures, reports it once, and unlocks on a new code', () => {
    const { a, counters } = admission('1234');
    expect(a.attemptFailed(0, '198.51.100.1')).toBeUndefined();
    expect(a.attemptFailed(0, '198.51.100.2')).toBeUndefined();
    expect(a.attemptFailed(0, '198.51.100.3')).toBe(3);
    expect(a.isCodeLocked).toBe(true);
    expect(a.attemptFailed(0, '198.51.100.4')).toBeUndefined();
    expect(counters.failedAttempts).toBe(4);
    a.setJoinCode('5678');
    expect(a.isCodeLocked).toBe(false);
  });

  it('remembers bans, and answered RESPONSEs until their cookie is long expired', () => {
    const { a } = admission('1234');
    a.ban('198.51.100.9');
    expect(a.isBanned('198.51.100.9')).toBe(true);
    expect(a.isBanned('198.51.100.10')).toBe(false);
    expect(a.wasAnswered(0, 'cookie')).toBe(false);
    a.rememberAnswered(0, 'cookie');
    expect(a.wasAnswered(COOKIE_LIFETIME_MS, 'cookie')).toBe(true);
    expect(a.answeredCount).toBe(1);
    expect(a.wasAnswered(COOKIE_LIFETIME_MS + 2_000, 'cookie')).toBe(false);
    expect(a.answeredCount).toBe(0);
  });
});
