// The start screen's board choices (filesleft): New first, the unsaved boards offered explicitly with their time,
// a picked file once, the recent files with their names; the host command they make; and the store keeping what
// the core offers (unsaved boards, recent files, a board file the OS asked to open, until taken).
import { describe, expect, it } from 'vitest';
import { boardFileName, boardOptions } from './start-board';
import { reduce } from './reduce-ui';
import { EMPTY_FIELDS, startCommand } from './start-form';
import { INITIAL_STATE } from './state';

const time = (ms: number): string => `t${ms}`;

describe('the board to host', () => {
  it('offers New, then each unsaved board by its time, then the picked file, then the recent files', () => {
    const options = boardOptions(
      [{ id: 'untitled-5', savedAt: 5, objects: 1 }],
      { kind: 'upload', name: 'plan.ghostboard', text: '{}' },
      ['/b/a.ghostboard', 'C:\\boards\\B.GHOSTBOARD'],
      time,
    );
    expect(options.map((o) => [o.title, o.detail])).toEqual([
      ['New board', 'An empty board, Untitled.'],
      ['Recover unsaved board from t5', '1 object, never saved: the host stopped before it was.'],
      ['plan', 'Uploaded from this browser (plan.ghostboard).'],
      ['a', '/b/a.ghostboard'],
      ['B', 'C:\\boards\\B.GHOSTBOARD'],
    ]);
    expect(options[1]?.board).toEqual({ kind: 'recovered', id: 'untitled-5' });
    expect(new Set(options.map((o) => o.key)).size).toBe(options.length);
  });

  it('shows a picked file that is already recent once', () => {
    const options = boardOptions(
      [],
      { kind: 'file', path: '/b/a.ghostboard' },
      ['/b/a.ghostboard'],
      time,
    );
    expect(options.map((o) => o.title)).toEqual(['New board', 'a']);
  });

  it('names files as the title does', () => {
    expect(boardFileName('/x/y/plan.ghostboard')).toBe('plan');
    expect(boardFileName('C:\\x\\Plan.GhostBoard')).toBe('Plan');
    expect(boardFileName('.ghostboard')).toBe('.ghostboard');
  });

  it('hosts with the board picked, and a new board as before (no board field)', () => {
    const f = { ...EMPTY_FIELDS, name: 'Ana' };
    expect(startCommand('host', f, 0, { kind: 'new' })).toEqual({
      cmd: 'host',
      options: { name: 'Ana', reach: 'lan' },
    });
    expect(startCommand('host', f, 0, { kind: 'recovered', id: 'untitled-5' })).toEqual({
      cmd: 'host',
      options: { name: 'Ana', reach: 'lan', board: { kind: 'recovered', id: 'untitled-5' } },
    });
  });

  it('keeps what the core offers the start screen, and forgets a file the OS asked to open once taken', () => {
    let s = reduce(INITIAL_STATE, {
      type: 'event',
      event: { type: 'recoveries', boards: [{ id: 'untitled-5', savedAt: 5, objects: 2 }] },
    });
    s = reduce(s, { type: 'event', event: { type: 'recent-files', paths: ['/b/a.ghostboard'] } });
    s = reduce(s, { type: 'event', event: { type: 'open-board', path: '/b/x.ghostboard' } });
    expect([s.recoveries.length, s.recentFiles, s.openBoard]).toEqual([
      1,
      ['/b/a.ghostboard'],
      '/b/x.ghostboard',
    ]);
    s = reduce(s, { type: 'openBoardTaken' });
    expect(s.openBoard).toBeNull();
    expect(reduce(s, { type: 'openBoardTaken' })).toBe(s);
  });
});
