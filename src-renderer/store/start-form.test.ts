// The start form as data: a pasted link fills its code, the reach defaults to the directory when one is set,
// and the commands sent.
import { describe, expect, it } from 'vitest';
import { EMPTY_FIELDS, effectiveReach, startCommand, startReady, withAddress } from './start-form';
import { reduce } from './reduce-ui';
import { INITIAL_STATE } from './state';

const LINK = 'ghostboard://join/127.0.0.1:7340/s-4f2k9q#7-orbit-lantern';
const f = { ...EMPTY_FIELDS, name: 'Grace' };

describe('the join form', () => {
  it('fills the code a pasted link carries, keeps a typed one, and clears it with the link', () => {
    const pasted = withAddress(f, LINK);
    expect(pasted.code).toBe('7-orbit-lantern');
    expect(withAddress({ ...f, code: 'typed' }, LINK).code).toBe('typed');
    expect(withAddress(pasted, '10.0.0.2:7350').code).toBe('');
    expect(withAddress({ ...pasted, code: 'edited' }, '10.0.0.2:7350').code).toBe('edited');
    expect(withAddress(f, '10.0.0.2:7350').code).toBe('');
  });

  it('joins with the link as the address and the code, and lets a link stand for an empty code', () => {
    const pasted = withAddress(f, LINK);
    expect(startCommand('join', pasted, 0)).toEqual({
      cmd: 'join',
      options: { name: 'Grace', address: LINK, code: '7-orbit-lantern' },
    });
    expect(startReady('join', { ...pasted, code: '' })).toBe(true);
    expect(startReady('join', { ...f, address: '10.0.0.2:7350' })).toBe(false);
    expect(startReady('join', { ...f, address: 'ghostboard://join/127.0.0.1:7340/s-1' })).toBe(
      false,
    );
    expect(startReady('join', { ...pasted, name: ' ' })).toBe(false);
  });

  it('puts the code back into a remembered link without one', () => {
    const kept = { ...f, address: 'ghostboard://join/127.0.0.1:7340/s-1', code: '3-blue-bird' };
    expect(startCommand('join', kept, 0)).toEqual({
      cmd: 'join',
      options: {
        name: 'Grace',
        address: 'ghostboard://join/127.0.0.1:7340/s-1#3-blue-bird',
        code: '3-blue-bird',
      },
    });
  });
});

describe('the host form', () => {
  it('hosts on the LAN only without a directory, and through it by default when one is set', () => {
    expect(effectiveReach(f, 0)).toBe('lan');
    expect(effectiveReach({ ...f, reach: 'directory' }, 0)).toBe('lan');
    expect(effectiveReach(f, 1)).toBe('directory');
    expect(effectiveReach({ ...f, reach: 'lan' }, 2)).toBe('lan');
    expect(startCommand('host', f, 0)).toEqual({
      cmd: 'host',
      options: { name: 'Grace', reach: 'lan' },
    });
  });

  it('sends a public name only when hosting through the directory', () => {
    const listed = { ...f, listName: '  Design review ', port: '7400' };
    expect(startCommand('host', listed, 1)).toEqual({
      cmd: 'host',
      options: { name: 'Grace', port: 7400, reach: 'directory', listName: 'Design review' },
    });
    expect(startCommand('host', { ...listed, reach: 'lan' }, 1)).toEqual({
      cmd: 'host',
      options: { name: 'Grace', port: 7400, reach: 'lan' },
    });
    expect(startCommand('host', { ...listed, listName: ' ' }, 1)).toEqual({
      cmd: 'host',
      options: { name: 'Grace', port: 7400, reach: 'directory' },
    });
  });
});

describe('settings and opened links in the store', () => {
  it('keeps the settings when a session starts, and forgets an opened link once taken', () => {
    const ev = (event: Parameters<typeof reduce>[1]) => event;
    let s = reduce(
      INITIAL_STATE,
      ev({ type: 'event', event: { type: 'settings', settings: { directories: ['d:1'] } } }),
    );
    s = reduce(s, ev({ type: 'event', event: { type: 'open-link', link: LINK } }));
    expect(s.openLink).toBe(LINK);
    s = reduce(s, { type: 'openLinkTaken' });
    expect(s.openLink).toBeNull();
    expect(reduce(s, { type: 'openLinkTaken' })).toBe(s);
    s = reduce(
      s,
      ev({
        type: 'event',
        event: { type: 'status', status: { phase: 'connecting', address: 'x' } },
      }),
    );
    expect(s.settings.directories).toEqual(['d:1']);
  });
});
