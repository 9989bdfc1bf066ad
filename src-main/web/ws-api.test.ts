// The web host's request parsing: a browser names no path on the host's disk (files), so open and save-as are
// refused with a reason before they reach the core; the other file commands pass.
import { describe, expect, it } from 'vitest';
import { parseRequest } from './ws-api';

describe('parseRequest', () => {
  it('refuses the commands that name a path, and passes save and new', () => {
    for (const cmd of ['open', 'save-as'])
      expect(
        parseRequest(JSON.stringify({ id: 3, command: { cmd, path: '/etc/passwd' } })),
      ).toEqual({
        id: 3,
        error: 'the web host cannot open or save files by path: use the Export panel',
      });
    expect(parseRequest(JSON.stringify({ id: 4, command: { cmd: 'save' } }))).toEqual({
      id: 4,
      command: { cmd: 'save' },
    });
    expect(parseRequest(JSON.stringify({ id: 5, command: { cmd: 'new' } }))).toEqual({
      id: 5,
      command: { cmd: 'new' },
    });
  });
});
