import { describe, expect, it } from 'vitest';
import { hostControls, peerControls } from '../session/controls';
import { makeSimSession } from '../session/testing/sim-session';
import { runCommand, sessionEventLine } from './script';

describe('script commands for the host’s powers', () => {
  it('role, rotate-code and kick act on the session and report as events; a peer may not use them', async () => {
    const seed = 16_600;
    const s = makeSimSession({ seed });
    s.addPeer('Ann');
    s.sim.runUntil(1000);
    const host = hostControls(s.host);
    const lines: Record<string, unknown>[] = [];
    host.on((e) => {
      const l = sessionEventLine(e);
      if (l) lines.push(l);
    });
    const errors: Record<string, unknown>[] = [];
    const emit = (e: Record<string, unknown>): void => void errors.push(e);
    const msg = `seed ${seed}`;

    expect(await runCommand('{"cmd":"role","peer":1,"role":"viewer"}', host, emit), msg).toBe(
      undefined,
    );
    expect(s.host.participants[1]?.role, msg).toBe('viewer');

    expect(await runCommand('{"cmd":"rotate-code"}', host, emit), msg).toBe(undefined);
    const code = lines.find((l) => l.ev === 'code');
    expect(typeof code?.code, msg).toBe('string');

    expect(await runCommand('{"cmd":"kick","peer":1}', host, emit), msg).toBe(undefined);
    expect(
      lines.find((l) => l.ev === 'banned'),
      msg,
    ).toMatchObject({ ev: 'banned', peer: 1, name: 'Ann', suggest: 'rotate-code' });
    expect(errors, msg).toEqual([]);

    expect(await runCommand('{"cmd":"kick","peer":7}', host, emit), msg).toBe('error');
    expect(await runCommand('{"cmd":"role","peer":1,"role":"boss"}', host, emit), msg).toBe(
      'error',
    );
    const peer = peerControls(s.peers[0] ?? assertNever());
    expect(await runCommand('{"cmd":"rotate-code"}', peer, emit), msg).toBe('error');
    expect(await runCommand('{"cmd":"kick","peer":0}', peer, emit), msg).toBe('error');
    expect(
      errors.map((e) => e.message),
      msg,
    ).toEqual([
      'no participant 7',
      'role needs a peer and a role (editor or viewer)',
      'only the host can change the code',
      'only the host can kick',
    ]);
  });
});

describe('script events', () => {
  it('a locked code is a line of its own that suggests rotate-code', () => {
    expect(sessionEventLine({ type: 'code-locked', failures: 30 })).toEqual({
      ev: 'code-locked',
      failures: 30,
      suggest: 'rotate-code',
    });
  });
});

function assertNever(): never {
  throw new Error('missing peer');
}
