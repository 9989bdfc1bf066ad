// What the OS asks the app to open, on fakes (no Electron binary): links and .ghostboard files among a command
// line's arguments (first instance and second-instance), made absolute; and requests (macOS's open-file before
// ready) waiting in order, bounded, until the app attaches its handler.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenRequest } from './open-requests';
import { MAX_WAITING, OpenRequests, requestsIn } from './open-requests';

describe('requestsIn', () => {
  it('finds a double-clicked board file (Windows, Linux) and links, skipping the executable and switches', () => {
    expect(requestsIn(['/opt/Ghostboard/ghostboard', '/home/a/plan.ghostboard'], '/x')).toEqual([
      { kind: 'board', path: '/home/a/plan.ghostboard' },
    ]);
    // A development run: electron . FILE; a relative path is the shell's working directory's.
    expect(requestsIn(['electron', '.', 'boards/Plan.GHOSTBOARD'], '/home/a')).toEqual([
      { kind: 'board', path: resolve('/home/a', 'boards/Plan.GHOSTBOARD') },
    ]);
    // second-instance: Chromium's switches come along; our own switch values are no files.
    expect(
      requestsIn(
        [
          'C:\\Ghostboard\\ghostboard.exe',
          '--allow-file-access-from-files',
          '--directory',
          'dir.example:7000',
          'ghostboard://join/203.0.113.5:7350#ABCDE-FGHJK',
          '--flag=x.ghostboard',
          'notes.txt',
        ],
        '/x',
      ),
    ).toEqual([{ kind: 'link', link: 'ghostboard://join/203.0.113.5:7350#ABCDE-FGHJK' }]);
    expect(requestsIn(['ghostboard.exe'], '/x')).toEqual([]);
    expect(requestsIn([], '/x')).toEqual([]);
  });

  it('takes no hostile argument: over-long, NUL, another scheme', () => {
    expect(
      requestsIn(
        [
          'app',
          `/${'a'.repeat(5000)}.ghostboard`,
          '/a\0b.ghostboard',
          'https://evil.example/x.ghostboard',
        ],
        '/x',
      ),
    ).toEqual([]);
  });
});

describe('OpenRequests', () => {
  it('keeps what comes before the app is ready (macOS open-file), in order, and then passes requests straight on', () => {
    const q = new OpenRequests();
    const got: OpenRequest[] = [];
    q.offer({ kind: 'board', path: '/a.ghostboard' });
    q.offer(
      { kind: 'link', link: 'ghostboard://join/x' },
      { kind: 'board', path: '/b.ghostboard' },
    );
    expect(got).toEqual([]);
    q.attach((r) => got.push(r));
    expect(got).toEqual([
      { kind: 'board', path: '/a.ghostboard' },
      { kind: 'link', link: 'ghostboard://join/x' },
      { kind: 'board', path: '/b.ghostboard' },
    ]);
    q.offer({ kind: 'board', path: '/c.ghostboard' });
    expect(got.at(-1)).toEqual({ kind: 'board', path: '/c.ghostboard' });
    expect(got).toHaveLength(4);
  });

  it('keeps at most MAX_WAITING, the newest', () => {
    const q = new OpenRequests();
    for (let i = 0; i < MAX_WAITING + 5; i++) q.offer({ kind: 'board', path: `/${i}.ghostboard` });
    const got: OpenRequest[] = [];
    q.attach((r) => got.push(r));
    expect(got).toHaveLength(MAX_WAITING);
    expect(got[0]).toEqual({ kind: 'board', path: '/5.ghostboard' });
  });
});
