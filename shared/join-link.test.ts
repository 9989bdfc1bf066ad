import { describe, expect, it } from 'vitest';
import type { JoinLink } from './join-link';
import { formatJoinLink, parseJoinLink } from './join-link';

describe('join links', () => {
  it('carry directories, the session and the code (after #), and read back', () => {
    const links: JoinLink[] = [
      {
        kind: 'directory',
        directories: [
          { address: '203.0.113.1', port: 7340 },
          { address: '2001:db8::7', port: 7340 },
        ],
        session: 'Design review / Q4',
        code: '7-orbit-lantern',
      },
      { kind: 'direct', host: { address: '192.168.1.20', port: 7350 }, code: 'ABCDE-FGHJK' },
      { kind: 'direct', host: { address: 'fd00::2', port: 7350 }, code: '12 Apple Bread' },
    ];
    for (const l of links) expect(parseJoinLink(formatJoinLink(l))).toEqual(l);
    expect(formatJoinLink(links[0] as JoinLink)).toBe(
      'ghostboard://join/203.0.113.1:7340,[2001:db8::7]:7340/Design%20review%20%2F%20Q4#7-orbit-lantern',
    );
  });

  it('keep the code out of everything before the #', () => {
    const text = formatJoinLink({
      kind: 'directory',
      directories: [{ address: 'dir.example.org', port: 7340 }],
      session: 's-7Q2MX4DRHK',
      code: 'secret-code',
    });
    expect(text.split('#')[0]).not.toContain('secret');
  });

  it('refuse anything malformed', () => {
    for (const bad of [
      '',
      'https://example.org/#x',
      'ghostboard://join/203.0.113.1:7340/name',
      'ghostboard://join/203.0.113.1:7340/name#',
      'ghostboard://join/name#code',
      'ghostboard://join/203.0.113.1:99999/name#code',
      'ghostboard://direct/203.0.113.1#code',
      'ghostboard://join/a:1,b:2,c:3,d:4,e:5/name#code',
      'ghostboard://join/203.0.113.1:7340/%E0%A4%A#code',
      `ghostboard://join/203.0.113.1:7340/${'x'.repeat(600)}#code`,
    ])
      expect(parseJoinLink(bad), bad).toBeUndefined();
  });
});
