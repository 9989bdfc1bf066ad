// A dial group reports the most telling failure any of its dials learnt, whatever order they failed in.
import { describe, expect, it } from 'vitest';
import { GroupFailures } from './dial-group';

describe('GroupFailures', () => {
  it('keeps the most telling reason per group', () => {
    const failures = new GroupFailures();
    const group = new Set<string>();
    const other = new Set<string>();
    expect(failures.record(group, 'unreachable')).toBe('unreachable');
    expect(failures.record(group, 'full')).toBe('full');
    expect(failures.record(group, 'unreachable')).toBe('full');
    expect(failures.record(other, 'rate-limited')).toBe('rate-limited');
    expect(failures.record(group, 'wrong-code')).toBe('wrong-code');
  });
});
