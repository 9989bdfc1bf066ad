// The IPC gate without Electron: sender checks and payload validation in front of a fake core.
import { describe, expect, it } from 'vitest';
import type { ApiCommand, ApiReply } from '../../shared/api';
import type { SenderInfo } from './ipc';
import { APP_START_URL, handleInvoke, isAppUrl, isTrustedSender } from './ipc';

function fakeCore(fail = false) {
  const invoked: ApiCommand[] = [];
  return {
    invoked,
    invoke(command: ApiCommand): Promise<ApiReply> {
      invoked.push(command);
      return fail ? Promise.reject(new Error('boom')) : Promise.resolve({ ok: true });
    },
  };
}

const trusted: SenderInfo = { fromOurWindow: true, isMainFrame: true, frameUrl: APP_START_URL };

describe('isAppUrl', () => {
  it.each(['app://ghostboard/index.html', 'app://ghostboard/', 'app://ghostboard/x?y#z'])(
    'accepts %s',
    (url) => {
      expect(isAppUrl(url)).toBe(true);
    },
  );

  it.each([
    undefined,
    '',
    'not a url',
    'file:///work/main/dist/renderer/index.html',
    'https://ghostboard/index.html',
    'app://evil/index.html',
    'app://ghostboard.evil/',
    'app://user@ghostboard/',
    'http://127.0.0.1:5173/',
    'devtools://devtools/bundled/x.html',
  ])('refuses %s', (url) => {
    expect(isAppUrl(url)).toBe(false);
  });
});

describe('isTrustedSender', () => {
  it('needs our window, its main frame and our URL', () => {
    expect(isTrustedSender(trusted)).toBe(true);
    expect(isTrustedSender({ ...trusted, fromOurWindow: false })).toBe(false);
    expect(isTrustedSender({ ...trusted, isMainFrame: false })).toBe(false);
    expect(isTrustedSender({ ...trusted, frameUrl: undefined })).toBe(false);
    expect(isTrustedSender({ ...trusted, frameUrl: 'https://example.com/' })).toBe(false);
  });
});

describe('handleInvoke', () => {
  it('passes a valid command from our page to the core', async () => {
    const core = fakeCore();
    const reply = await handleInvoke(core, trusted, { cmd: 'chat', text: 'hello' });
    expect(reply).toEqual({ ok: true });
    expect(core.invoked).toEqual([{ cmd: 'chat', text: 'hello' }]);
  });

  it('refuses an untrusted sender before looking at the payload', async () => {
    const core = fakeCore();
    const lines: string[] = [];
    const reply = await handleInvoke(
      core,
      { ...trusted, isMainFrame: false, frameUrl: 'https://ads.example/' },
      { cmd: 'sync' },
      (l) => lines.push(l),
    );
    expect(reply).toEqual({ ok: false, reason: 'untrusted sender' });
    expect(core.invoked).toEqual([]);
    expect(lines).toEqual(['ipc: refused a message from https://ads.example/']);
  });

  it.each([
    [undefined, 'not a command'],
    ['sync', 'not a command'],
    [{ cmd: 'nope' }, 'unknown command'],
    [{ cmd: 'chat', text: '' }, 'bad chat'],
    [{ cmd: 'pointer', x: 1e12, y: 0, visible: true }, 'bad pointer'],
    [{ cmd: 'host', options: { name: 'a', evil: true } }, 'host needs a name'],
  ])('refuses payload %j', async (payload, reason) => {
    const core = fakeCore();
    expect(await handleInvoke(core, trusted, payload)).toEqual({ ok: false, reason });
    expect(core.invoked).toEqual([]);
  });

  it('turns a core failure into a refusal', async () => {
    expect(await handleInvoke(fakeCore(true), trusted, { cmd: 'leave' })).toEqual({
      ok: false,
      reason: 'internal error',
    });
  });
});
