// The web host's request parsing: a browser names no path on the host's disk (files), so open and save-as are
// refused with a reason before they reach the core, as is hosting a board file by its path; the other file commands
// (upload, download among them) pass.
import { describe, expect, it } from 'vitest';
import { parseRequest } from './ws-api';

describe('parseRequest', () => {
  it('refuses the commands that name a path, and passes save and new', () => {
    for (const cmd of ['open', 'save-as'])
      expect(
        parseRequest(JSON.stringify({ id: 3, command: { cmd, path: '/etc/passwd' } })),
      ).toEqual({
        id: 3,
        error: 'the web host cannot open or save files by path: use Upload or Download',
      });
    expect(parseRequest(JSON.stringify({ id: 4, command: { cmd: 'save' } }))).toEqual({
      id: 4,
      command: { cmd: 'save' },
    });
    expect(parseRequest(JSON.stringify({ id: 5, command: { cmd: 'new' } }))).toEqual({
      id: 5,
      command: { cmd: 'new' },
    });
    const host = (board: unknown) =>
      parseRequest(
        JSON.stringify({ id: 6, command: { cmd: 'host', options: { name: 'A', board } } }),
      );
    expect(host({ kind: 'file', path: '/etc/passwd' })).toEqual({
      id: 6,
      error: 'the web host cannot open or save files by path: use Upload or Download',
    });
    expect(host({ kind: 'upload', name: 'plan.ghostboard', text: '{}' })).toEqual({
      id: 6,
      command: {
        cmd: 'host',
        options: { name: 'A', board: { kind: 'upload', name: 'plan.ghostboard', text: '{}' } },
      },
    });
    for (const command of [{ cmd: 'download' }, { cmd: 'open-text', name: 'a', text: 'x' }])
      expect(parseRequest(JSON.stringify({ id: 7, command }))).toEqual({ id: 7, command });
  });
});
